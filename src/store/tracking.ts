/**
 * Tracked players, their schedule, and what each read recorded: snapshots when something changed, and
 * every embedded match once by its match UID, its detail queued for the match store (src/store/match-fetches.ts). Several processes share the schedule: each due player is
 * claimed by one of them for a lease (PostgreSQL: `FOR UPDATE SKIP LOCKED`; SQLite has one writer).
 */
import { randomUUID } from 'node:crypto';
import { sql, type SelectQueryBuilder } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { ProfileSnapshot, RecordedMatch } from '../game/tracking.js';
import { latestTime, type Db } from './database.js';
import type { Tables } from './schema.js';
import { dropOrphanFetches, queueMatchFetches } from './match-fetches.js';
import { unlistStandings } from './ladder/index.js';

/** Full detail is kept this long (ms); older snapshots thin to one per player and day. */

/** How long {@link TrackingRepository.lastReadAt} keeps its read, ms. */
const LAST_READ_TTL_MS = 15_000;
export const TRACKING_DETAIL_MS = 90 * 24 * 60 * 60_000;

const DAY_MS = 24 * 60 * 60_000;
/** Most records of one match read: two teams and their replacements. */
const RECORDS_OF_MATCH = 16;
/** `tracked_matches.won` of a draw: 1 a win, 0 a loss, null no result. */
const DRAWN = 2;

/** A claimed player: `intervalMs` the interval that made it due, `lastMatchAt` in Unix seconds. */
export interface ClaimedPlayer {
  uid: string;
  token: string;
  intervalMs: number;
  lastMatchAt: number | null;
  failures: number;
  snapshot: ProfileSnapshot | null;
}

export interface TrackingBacklog {
  tracked: number;
  /** Players due now and not being read. */
  due: number;
  /** ms since the due time of the longest-waiting player; 0 when none is due. */
  oldestDueMs: number;
  /** ms since the least recent read of a tracked player (never read: since it was added); null when none is tracked. */
  oldestReadMs: number | null;
}

/** How long a player found untracked is taken as untracked without asking the store (ms): /player reads it on every answer. */
const UNTRACKED_TTL_MS = 30_000;

/** Errors propagate to the caller. Times in epoch ms. */
export class TrackingRepository {
  readonly #untracked = new LRUCache<string, true>({ max: 10_000, ttl: UNTRACKED_TTL_MS });

  constructor(
    private readonly db: Db,
    private readonly engine: 'sqlite' | 'postgres',
  ) {}

  /**
   * Makes the tracked set what the account links say: every linked account of a member who has not
   * turned tracking off, and nothing else. Added players are due at once.
   * @returns how many players were added and removed.
   */
  async sync(now: number): Promise<{ added: number; removed: number }> {
    return this.db.transaction().execute(async (trx) => {
      const wanted = trackingLinks(trx).select('account_links.uid');
      const gone = (await trx.selectFrom('tracked_players').select('uid').where('uid', 'not in', wanted).execute()).map((r) => r.uid);
      await forget(trx, gone);
      const missing = await trx
        .selectFrom('account_links')
        .select('uid')
        .distinct()
        .where('uid', 'in', wanted)
        .where('uid', 'not in', trx.selectFrom('tracked_players').select('uid'))
        .execute();
      for (const { uid } of missing) await this.#insert(trx, uid, now);
      return { added: missing.length, removed: gone.length };
    });
  }

  /**
   * {@link sync} for `uids` alone: each is tracked if some member who has not turned tracking off links it, else it and its
   * records go. For a link, an unlink or a member's choice, without reading every link.
   */
  async syncUids(uids: readonly string[], now: number): Promise<void> {
    if (uids.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      const linked = await trackingLinks(trx).select('account_links.uid').distinct().where('account_links.uid', 'in', uids).execute();
      const wanted = new Set(linked.map((r) => r.uid));
      await forget(
        trx,
        uids.filter((uid) => !wanted.has(uid)),
      );
      for (const uid of wanted) await this.#insert(trx, uid, now);
    });
  }

  /** Fresh statistics for the claim's plan (SQLite only; PostgreSQL's autovacuum keeps its own): at 100,000 players SQLite would otherwise walk the deadline index. */
  async optimize(): Promise<void> {
    if (this.engine !== 'sqlite') return;
    // A full analysis: the sampled one (analysis_limit) leaves out the histograms the plan needs to see that none is due.
    await sql`ANALYZE tracked_players`.execute(this.db);
  }

  /**
   * Turns tracking of `userId`'s linked accounts on or off (`member_settings.tracking_off`). Off: the accounts no other
   * member tracks are no longer read and their history is removed; the links stay. On: they are due at once.
   */
  async setTracking(userId: string, on: boolean, now: number): Promise<void> {
    await this.db
      .insertInto('member_settings')
      .values({ user_id: userId, locale: null, tracking_off: on ? 0 : 1, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ tracking_off: on ? 0 : 1, updated_at: now }))
      .execute();
    const uids = await this.db.selectFrom('account_links').select('uid').where('user_id', '=', userId).execute();
    await this.syncUids(
      uids.map((r) => r.uid),
      now,
    );
  }

  /** Whether `userId` turned tracking off. */
  async trackingOff(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('member_settings').select('tracking_off').where('user_id', '=', userId).executeTakeFirst();
    return row?.tracking_off === 1;
  }

  /** Starts tracking `uid` (due at once) unless it is tracked already, or `userId` (who linked it) turned tracking off. */
  async follow(uid: string, now: number, userId?: string): Promise<void> {
    if (userId !== undefined && (await this.trackingOff(userId))) return;
    await this.#insert(this.db, uid, now);
  }

  async #insert(db: Db, uid: string, now: number): Promise<void> {
    this.#untracked.delete(uid);
    await db
      .insertInto('tracked_players')
      .values({ uid, added_at: now, next_read_at: now, deadline_at: now, interval_ms: 0, failures: 0 })
      .onConflict((oc) => oc.column('uid').doNothing())
      .execute();
  }

  /**
   * Claims up to `limit` due players for `leaseMs`, the most urgent first: earliest deadline (due time
   * plus interval), so that when reads cannot keep up the most active players go first.
   */
  async claim(now: number, limit: number, leaseMs: number): Promise<ClaimedPlayer[]> {
    return this.#claim(now, leaseMs, (free) => free.where('next_read_at', '<=', now).orderBy('deadline_at').limit(limit));
  }

  /**
   * Claims up to `limit` players who are not due but were last read at or before `readBefore` (epoch ms), the soonest due
   * first: the tracker's reads while nobody is due, so that a key with room to spare shows players' new matches sooner than
   * their intervals would, the most active first. A player whose last read failed waits for its retry instead.
   */
  async claimEarly(now: number, limit: number, leaseMs: number, readBefore: number): Promise<ClaimedPlayer[]> {
    return this.#claim(now, leaseMs, (free) =>
      free.where('next_read_at', '>', now).where('last_read_at', '<=', readBefore).where('failures', '=', 0).orderBy('next_read_at').limit(limit),
    );
  }

  /** Claims for `leaseMs` the players `pick` selects among those no live claim holds. */
  async #claim(
    now: number,
    leaseMs: number,
    pick: (free: SelectQueryBuilder<Tables, 'tracked_players', { uid: string }>) => SelectQueryBuilder<Tables, 'tracked_players', { uid: string }>,
  ): Promise<ClaimedPlayer[]> {
    const token = randomUUID();
    const claimed = await this.db.transaction().execute(async (trx) => {
      let due = pick(
        trx
          .selectFrom('tracked_players')
          .select('uid')
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)])),
      );
      if (this.engine === 'postgres') due = due.forUpdate().skipLocked();
      const uids = (await due.execute()).map((r) => r.uid);
      if (uids.length === 0) return [];
      return trx
        .updateTable('tracked_players')
        .set({ claimed_until: now + leaseMs, claim_token: token })
        .where('uid', 'in', uids)
        .returning(['uid', 'interval_ms', 'last_match_at', 'failures'])
        .execute();
    });
    if (claimed.length === 0) return [];
    const latest = await this.latestSnapshots(claimed.map((c) => c.uid));
    return claimed.map((c) => ({
      uid: c.uid,
      token,
      intervalMs: Number(c.interval_ms),
      lastMatchAt: c.last_match_at === null ? null : Number(c.last_match_at),
      failures: Number(c.failures),
      snapshot: latest.get(c.uid) ?? null,
    }));
  }

  /** The latest snapshot of each player that has one. */
  async latestSnapshots(uids: readonly string[]): Promise<Map<string, ProfileSnapshot>> {
    const out = new Map<string, ProfileSnapshot>();
    if (uids.length === 0) return out;
    const rows = await this.db
      .selectFrom('rank_snapshots as s')
      .selectAll()
      .where('s.uid', 'in', uids)
      .where('s.at', '=', (eb) =>
        eb
          .selectFrom('rank_snapshots as t')
          .select((e) => e.fn.max('t.at').as('at'))
          .whereRef('t.uid', '=', 's.uid'),
      )
      .execute();
    for (const r of rows) out.set(r.uid, snapshotOf(r));
    return out;
  }

  /**
   * Records one read of a claimed player: the snapshot (when `changed`), the matches not recorded yet,
   * and the next due time; the claim ends. A claim that expired and was taken by another process is
   * not overwritten. One transaction.
   * @returns false when the claim was no longer this one's.
   */
  async recordRead(
    claim: Pick<ClaimedPlayer, 'uid' | 'token'>,
    read: { snapshot: ProfileSnapshot | null; matches: readonly RecordedMatch[]; lastMatchAt: number | null; changed: boolean },
    next: { intervalMs: number },
    now: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const own = await trx
        .updateTable('tracked_players')
        .set({
          next_read_at: now + next.intervalMs,
          deadline_at: now + 2 * next.intervalMs,
          interval_ms: next.intervalMs,
          claimed_until: null,
          claim_token: null,
          last_read_at: now,
          failures: 0,
          ...(read.changed ? { last_change_at: now } : {}),
          ...(read.lastMatchAt !== null ? { last_match_at: read.lastMatchAt } : {}),
        })
        .where('uid', '=', claim.uid)
        .where('claim_token', '=', claim.token)
        .executeTakeFirst();
      if (Number(own.numUpdatedRows) === 0) return false;
      const s = read.snapshot;
      if (s && read.changed) {
        await trx
          .insertInto('rank_snapshots')
          .values({
            uid: claim.uid,
            at: now,
            season: s.season,
            tier: s.tier,
            score: s.score,
            level: s.level,
            matches: s.matches,
            wins: s.wins,
            ranked_matches: s.rankedMatches,
            ranked_wins: s.rankedWins,
            reached_at: s.reachedAt ?? null,
          })
          .onConflict((oc) => oc.columns(['uid', 'at']).doNothing())
          .execute();
      }
      for (const m of read.matches) {
        await trx
          .insertInto('tracked_matches')
          .values({
            uid: claim.uid,
            match_uid: m.matchUid,
            played_at: m.time,
            season: m.season,
            mode_id: m.modeId,
            ranked: m.ranked ? 1 : 0,
            hero_id: m.heroId,
            won: m.drawn ? DRAWN : m.won === null ? null : m.won ? 1 : 0,
            map_id: m.mapId ?? null,
            new_score: m.newScore,
            score_change: m.scoreChange,
            new_level: m.newLevel,
            kills: m.kills,
            deaths: m.deaths,
            assists: m.assists,
            mvp: m.mvp ? 1 : 0,
            recorded_at: now,
          })
          .onConflict((oc) => oc.columns(['uid', 'match_uid']).doNothing())
          .execute();
      }
      // Their details, for the match store: read in the background, once however many members played them.
      await queueMatchFetches(
        trx,
        read.matches.map((m) => m.matchUid),
        now,
      );
      return true;
    });
  }

  /** Gives a claim back after a failed read: due again after `retryMs`, its interval kept. */
  async release(claim: Pick<ClaimedPlayer, 'uid' | 'token'>, retryMs: number, now: number): Promise<void> {
    await this.db
      .updateTable('tracked_players')
      .set((eb) => ({ next_read_at: now + retryMs, claimed_until: null, claim_token: null, failures: eb('failures', '+', 1) }))
      .where('uid', '=', claim.uid)
      .where('claim_token', '=', claim.token)
      .execute();
  }

  /** How far behind the schedule is, for `/config status`. */
  async backlog(now: number): Promise<TrackingBacklog> {
    const row = await this.db
      .selectFrom('tracked_players')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('tracked'),
        eb.fn
          .sum<number | string | null>(
            eb
              .case()
              .when(eb.and([eb('next_read_at', '<=', now), eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)])]))
              .then(1)
              .else(0)
              .end(),
          )
          .as('due'),
        eb.fn.min<number | string | null>('next_read_at').as('earliest'),
        eb.fn.min<number | string | null>(eb.fn.coalesce('last_read_at', 'added_at')).as('oldest_read'),
      ])
      .executeTakeFirstOrThrow();
    const tracked = Number(row.tracked);
    const earliest = row.earliest === null ? null : Number(row.earliest);
    return {
      tracked,
      due: Number(row.due ?? 0),
      oldestDueMs: earliest !== null && earliest <= now ? now - earliest : 0,
      oldestReadMs: tracked === 0 || row.oldest_read === null ? null : now - Number(row.oldest_read),
    };
  }

  /** When the tracker last read a tracked player, ms; null before the first read. */
  lastReadAt(now = Date.now()): Promise<number | null> {
    // An aggregate over every tracked player, with no index: read at most once per LAST_READ_TTL_MS however often /status asks.
    const kept = this.#lastRead;
    if (kept && now - kept.at < LAST_READ_TTL_MS) return kept.value;
    const value = latestTime(this.db, 'tracked_players', 'last_read_at');
    const read = { at: now, value };
    this.#lastRead = read;
    value.catch(() => {
      if (this.#lastRead === read) this.#lastRead = undefined;
    });
    return value;
  }

  /** The last {@link lastReadAt} read, kept for {@link LAST_READ_TTL_MS}. */
  #lastRead: { at: number; value: Promise<number | null> } | undefined;

  /** Most records one timeline reads: months of a daily player. */
  static readonly TIMELINE_LIMIT = 5_000;

  /**
   * Whether `uid` is tracked, and what the bot recorded of it, oldest first: at most {@link TrackingRepository.TIMELINE_LIMIT}
   * of each, the latest. A player found untracked is taken as such for 30 s here (another process may start tracking it).
   */
  async timeline(uid: string): Promise<{ tracked: boolean; snapshots: (ProfileSnapshot & { at: number })[]; matches: RecordedMatch[] }> {
    // A player nobody tracks has no records (they go with the last link): one key lookup, cached, and nothing more.
    if (this.#untracked.has(uid)) return { tracked: false, snapshots: [], matches: [] };
    const row = await this.db.selectFrom('tracked_players').select('uid').where('uid', '=', uid).executeTakeFirst();
    if (!row) {
      this.#untracked.set(uid, true);
      return { tracked: false, snapshots: [], matches: [] };
    }
    const [snapshots, matches] = await Promise.all([
      this.db.selectFrom('rank_snapshots').selectAll().where('uid', '=', uid).orderBy('at', 'desc').limit(TrackingRepository.TIMELINE_LIMIT).execute(),
      this.db.selectFrom('tracked_matches').selectAll().where('uid', '=', uid).orderBy('played_at', 'desc').limit(TrackingRepository.TIMELINE_LIMIT).execute(),
    ]);
    return {
      tracked: true,
      snapshots: snapshots.reverse().map((r) => ({ at: Number(r.at), ...snapshotOf(r) })),
      matches: matches.reverse().map(matchOf),
    };
  }

  /** The `limit` newest matches recorded of `uid`, newest first: one read over the matches' index (`uid`, `played_at`). */
  async latestMatches(uid: string, limit: number): Promise<RecordedMatch[]> {
    const rows = await this.db.selectFrom('tracked_matches').selectAll().where('uid', '=', uid).orderBy('played_at', 'desc').limit(limit).execute();
    return rows.map(matchOf);
  }

  /**
   * Every record of match `matchUid`, one a tracked player who played it (at most a match's worth): one read over the index
   * on the match's uid. For a match typed by id, what its history rows said (its map) with no request to the API.
   */
  async recordsOfMatch(matchUid: string): Promise<(RecordedMatch & { uid: string })[]> {
    const rows = await this.db.selectFrom('tracked_matches').selectAll().where('match_uid', '=', matchUid).limit(RECORDS_OF_MATCH).execute();
    return rows.map((r) => ({ ...matchOf(r), uid: r.uid }));
  }

  /**
   * The rank score after each recorded ranked match of `season` (a season index), per account, oldest first: one query
   * over the matches' index, for a ladder's chart. `time` in Unix seconds.
   */
  async seasonScores(uids: readonly string[], season: number): Promise<Map<string, { time: number; score: number }[]>> {
    const out = new Map<string, { time: number; score: number }[]>(uids.map((uid) => [uid, []]));
    if (uids.length === 0) return out;
    const rows = await this.db
      .selectFrom('tracked_matches')
      .select(['uid', 'played_at', 'new_score'])
      .where('uid', 'in', uids)
      .where('season', '=', season)
      .where('ranked', '=', 1)
      .where('new_score', 'is not', null)
      .orderBy('played_at')
      .execute();
    for (const r of rows) out.get(r.uid)?.push({ time: Number(r.played_at), score: Number(r.new_score) });
    return out;
  }

  /** Snapshots of `uid` from `since` on (epoch ms), oldest first. */
  async snapshots(uid: string, since = 0): Promise<(ProfileSnapshot & { at: number })[]> {
    const rows = await this.db.selectFrom('rank_snapshots').selectAll().where('uid', '=', uid).where('at', '>=', since).orderBy('at').execute();
    return rows.map((r) => ({ at: Number(r.at), ...snapshotOf(r) }));
  }

  /** Recorded matches of `uid` played from `since` on (Unix seconds), oldest first. */
  async matches(uid: string, since = 0): Promise<RecordedMatch[]> {
    const rows = await this.db.selectFrom('tracked_matches').selectAll().where('uid', '=', uid).where('played_at', '>=', since).orderBy('played_at').execute();
    return rows.map(matchOf);
  }

  /**
   * Retention: detail older than {@link TRACKING_DETAIL_MS} thins to the last snapshot of each player
   * and UTC day; matches are kept (one row each, the rank points of the timeline).
   * @returns snapshots removed.
   */
  async prune(now: number, detailMs = TRACKING_DETAIL_MS): Promise<number> {
    const before = now - detailMs;
    const result = await this.db
      .deleteFrom('rank_snapshots as s')
      .where('s.at', '<', before)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('rank_snapshots as later')
            .select('later.uid')
            .whereRef('later.uid', '=', 's.uid')
            .whereRef('later.at', '>', 's.at')
            // A literal: SQLite binds a JavaScript number as a real, and would divide without truncating.
            .where(sql<boolean>`(later.at / ${sql.lit(DAY_MS)}) = (s.at / ${sql.lit(DAY_MS)})`),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function snapshotOf(r: {
  season: number | null;
  tier: string | null;
  score: number | string | null;
  level: number | null;
  matches: number;
  wins: number;
  ranked_matches: number;
  ranked_wins: number;
  reached_at?: number | string | null;
}): ProfileSnapshot {
  return {
    season: r.season,
    tier: r.tier,
    score: r.score === null ? null : Number(r.score),
    level: r.level,
    matches: r.matches,
    wins: r.wins,
    rankedMatches: r.ranked_matches,
    rankedWins: r.ranked_wins,
    reachedAt: r.reached_at === null || r.reached_at === undefined ? null : Number(r.reached_at),
  };
}

function matchOf(r: {
  match_uid: string;
  played_at: number | string;
  season: number | null;
  mode_id: number | null;
  ranked: number;
  hero_id: string | null;
  won: number | null;
  map_id?: string | null;
  new_score: number | string | null;
  score_change: number | string | null;
  new_level: number | null;
  kills: number;
  deaths: number;
  assists: number;
}): RecordedMatch {
  return {
    matchUid: r.match_uid,
    time: Number(r.played_at),
    season: r.season,
    modeId: r.mode_id,
    ranked: r.ranked === 1,
    heroId: r.hero_id,
    won: r.won === null || r.won === DRAWN ? null : r.won === 1,
    drawn: r.won === DRAWN,
    mapId: r.map_id ?? null,
    newScore: r.new_score === null ? null : Number(r.new_score),
    scoreChange: r.score_change === null ? null : Number(r.score_change),
    newLevel: r.new_level,
    kills: r.kills,
    deaths: r.deaths,
    assists: r.assists,
  };
}

/** The links that keep an account tracked: those of members who have not turned tracking off. */
function trackingLinks(db: Db) {
  return db
    .selectFrom('account_links')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('member_settings')
            .select('member_settings.user_id')
            .whereRef('member_settings.user_id', '=', 'account_links.user_id')
            .where('member_settings.tracking_off', '=', 1),
        ),
      ),
    );
}

/**
 * A player nobody tracks any more leaves nothing behind: its schedule, snapshots, matches, standing and the fetches queued
 * for its matches alone go together. Stored match details stay: they are the game's public record (PRIVACY.md).
 */
async function forget(db: Db, uids: readonly string[]): Promise<void> {
  for (let i = 0; i < uids.length; i += 500) {
    const batch = uids.slice(i, i + 500);
    await db.deleteFrom('rank_snapshots').where('uid', 'in', batch).execute();
    const played = await db.selectFrom('tracked_matches').select('match_uid').distinct().where('uid', 'in', batch).execute();
    await db.deleteFrom('tracked_matches').where('uid', 'in', batch).execute();
    await dropOrphanFetches(
      db,
      played.map((r) => r.match_uid),
    );
    await db.deleteFrom('player_standings').where('uid', 'in', batch).execute();
    await unlistStandings(db, batch);
    await db.deleteFrom('tracked_players').where('uid', 'in', batch).execute();
  }
}
