/**
 * Servers' ladders: which servers run one, who is on each, and the standings of the accounts they are
 * listed by. A member is listed by one verified linked account: the one they chose for that server, else
 * their default, else their first verified one, resolved at each read so that links and proofs apply at once.
 */
import { sql, type RawBuilder } from 'kysely';
import { LRUCache } from 'lru-cache';
import {
  kindOf,
  MOMENT_KINDS,
  momentId,
  momentsBetween,
  seasonEnded,
  TOP_PLACES,
  type LadderPeriod,
  type LeftOutReason,
  type Moment,
  type MomentKind,
  type Standing,
} from '../game/ladder.js';
import { metaRole } from '../game/meta.js';
import type { Db } from './database.js';

/** One listed member. `position` from 1; scores unrounded. */
export interface LadderRow {
  position: number;
  userId: string;
  uid: string;
  name: string;
  platform: string | null;
  standing: Omit<Standing, 'private'>;
}

/** What one ladder page reads. `role` a {@link LADDER_ROLES} name; `page` from 1. */
export interface LadderQuery {
  guildId: string;
  period: LadderPeriod;
  role?: string | null;
  platform?: string | null;
  page: number;
  pageSize: number;
  /** The member asking: their row comes back too, wherever it is. */
  userId?: string;
}

export interface LadderPage {
  rows: LadderRow[];
  /** The asking member's row when they are listed and not on the page. */
  me: LadderRow | null;
  /** Listed members, with the filters. */
  listed: number;
  /** Members on the ladder who are not listed, by reason (filters aside). */
  leftOut: Record<LeftOutReason, number>;
}

/** A member's place on one server's ladder, for `/ladder join` and `/privacy`. */
export interface LadderMembership {
  guildId: string;
  chosenUid: string | null;
  platform: string | null;
  optedOut: boolean;
  mentionsOff: boolean;
  joinedAt: number;
}

/** Why moments could not be posted last: the Discord error `code` and its reason, in `channelId`, at `at` (ms). */
export interface MomentsProblem {
  code: number | null;
  reason: string;
  channelId: string;
  at: number;
}

/**
 * A server's ladder settings: `momentsChannelId` null when moments are not posted; the weekly recap on `recapDay`
 * (0 Sunday … 6 Saturday, null: off) at `recapAt` (minutes after midnight), in `timeZone`; moments held during `quiet` (local minutes).
 */
export interface LadderSettings {
  enabled: boolean;
  momentsChannelId: string | null;
  kinds: MomentKind[];
  recapDay: number | null;
  /** Minutes after local midnight. */
  recapAt: number;
  timeZone: string;
  quiet: { start: number; end: number } | null;
  problem: MomentsProblem | null;
}

/** What {@link LadderRepository.configure} changes; what is undefined is kept. */
export interface LadderChange {
  enabled?: boolean;
  momentsChannelId?: string | null;
  kinds?: MomentKind[];
  recapDay?: number | null;
  recapAt?: number;
  timeZone?: string | null;
  quiet?: { start: number; end: number } | null;
}

/** A server whose weekly recap may be due: its settings, the last recap's local date and its top members then. */
export interface RecapTarget {
  guildId: string;
  settings: LadderSettings;
  sentFor: string | null;
  /** Null before the first recap. */
  lastTop: string[] | null;
}

/** What a weekly recap tells, from the week's tracked matches of the listed members; `name` the account's. */
export interface RecapData {
  listed: number;
  improved: { userId: string; name: string; delta: number } | null;
  matches: { userId: string; name: string; n: number } | null;
  mvps: { userId: string; name: string; n: number } | null;
  hero: { heroId: string; n: number } | null;
  top: { userId: string; name: string; score: number }[];
}

/** A planned moment not settled yet: `name` the account's name when it was planned. */
export interface PendingMoment {
  guildId: string;
  momentId: string;
  userId: string;
  channelId: string;
  moment: Moment;
  name: string;
  createdAt: number;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** How long a page, a server's switch and a member's place are answered from this process's memory (ms): other processes' changes show within it. */
export const LADDER_CACHE_MS = 30_000;

/** Errors propagate to the caller. Times in epoch ms. */
export class LadderRepository {
  readonly #pages = new LRUCache<string, LadderPage>({ max: 2_000, ttl: LADDER_CACHE_MS });
  readonly #enabled = new LRUCache<string, { on: boolean }>({ max: 10_000, ttl: LADDER_CACHE_MS });
  constructor(private readonly db: Db) {}

  async enabled(guildId: string): Promise<boolean> {
    const cached = this.#enabled.get(guildId);
    if (cached) return cached.on;
    const row = await this.db.selectFrom('ladder_settings').select('enabled').where('guild_id', '=', guildId).executeTakeFirst();
    this.#enabled.set(guildId, { on: row?.enabled === 1 });
    return row?.enabled === 1;
  }

  async setEnabled(guildId: string, on: boolean, now: number): Promise<void> {
    await this.configure(guildId, { enabled: on }, now);
  }

  async settings(guildId: string): Promise<LadderSettings> {
    const row = await this.db.selectFrom('ladder_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
    return settingsOf(row);
  }

  /**
   * Changes what is given and keeps the rest; `momentsChannelId: null` stops the posts. Setting the moments' channel
   * clears the last problem posting them.
   */
  async configure(guildId: string, change: LadderChange, now: number): Promise<LadderSettings> {
    this.#enabled.delete(guildId);
    touched([guildId]);
    const set = {
      ...(change.enabled !== undefined ? { enabled: change.enabled ? 1 : 0 } : {}),
      ...(change.momentsChannelId !== undefined ? { moments_channel_id: change.momentsChannelId, moments_problem: null } : {}),
      ...(change.kinds !== undefined ? { moment_kinds: change.kinds.join(',') } : {}),
      ...(change.recapDay !== undefined ? { recap_day: change.recapDay } : {}),
      ...(change.recapAt !== undefined ? { recap_at: change.recapAt } : {}),
      ...(change.timeZone !== undefined ? { time_zone: change.timeZone } : {}),
      ...(change.quiet !== undefined ? { quiet_start: change.quiet?.start ?? null, quiet_end: change.quiet?.end ?? null } : {}),
      updated_at: now,
    };
    await this.db
      .insertInto('ladder_settings')
      .values({ guild_id: guildId, enabled: 0, moments_channel_id: null, moment_kinds: MOMENT_KINDS.join(','), ...set })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet(set))
      .execute();
    return this.settings(guildId);
  }

  /**
   * Records why moments could not be posted (null: they can again). `turnOff`: the channel is gone, so moments stop
   * until an admin picks another.
   */
  async setMomentsProblem(guildId: string, problem: MomentsProblem | null, turnOff = false): Promise<void> {
    // About a channel an admin has replaced since (a moment planned for the old one): nothing to report or turn off.
    const current = await this.db.selectFrom('ladder_settings').select('moments_channel_id').where('guild_id', '=', guildId).executeTakeFirst();
    if (problem && current?.moments_channel_id !== problem.channelId) return;
    await this.db
      .updateTable('ladder_settings')
      .set({ moments_problem: problem ? JSON.stringify(problem) : null, ...(turnOff ? { moments_channel_id: null } : {}) })
      .where('guild_id', '=', guildId)
      .execute();
  }

  /** Servers with the ladder on, a moments channel and a weekly recap. */
  async recapTargets(): Promise<RecapTarget[]> {
    const rows = await this.db
      .selectFrom('ladder_settings')
      .selectAll()
      .where('enabled', '=', 1)
      .where('recap_day', 'is not', null)
      .where('moments_channel_id', 'is not', null)
      .execute();
    return rows
      .map((r) => ({ guildId: r.guild_id, settings: settingsOf(r), sentFor: r.recap_sent_for ?? null, lastTop: r.recap_top ? idsOf(r.recap_top) : null }))
      .filter((t) => t.settings.kinds.includes('recap'));
  }

  /** The week's recap of `guildId` over tracked matches played from `fromSec` to before `toSec` (Unix seconds). */
  async recapData(guildId: string, fromSec: number, toSec: number): Promise<RecapData> {
    const listed = sql`m.guild_id = ${guildId} AND m.listed = 1`;
    const names = sql`LEFT JOIN account_links l ON l.user_id = m.user_id AND l.uid = m.uid`;
    const week = sql`t.played_at >= ${fromSec} AND t.played_at < ${toSec}`;
    const [count, improved, played, hero, top] = await Promise.all([
      sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ladder_members m WHERE ${listed}`.execute(this.db),
      sql<{ user_id: string; name: string; d: number | string }>`
        SELECT m.user_id, COALESCE(l.name, m.uid) AS name, m.week_delta AS d FROM ladder_members m ${names}
        WHERE ${listed} AND m.week_delta > 0 ORDER BY m.week_delta DESC, m.user_id LIMIT 1`.execute(this.db),
      sql<{ user_id: string; name: string; n: number | string; mvps: number | string | null }>`
        SELECT m.user_id, COALESCE(l.name, m.uid) AS name, COUNT(*) AS n, SUM(t.mvp) AS mvps
        FROM ladder_members m JOIN tracked_matches t ON t.uid = m.uid ${names}
        WHERE ${listed} AND ${week} GROUP BY m.user_id, l.name, m.uid`.execute(this.db),
      sql<{ hero_id: string; n: number | string }>`
        SELECT t.hero_id, COUNT(*) AS n FROM ladder_members m JOIN tracked_matches t ON t.uid = m.uid
        WHERE ${listed} AND ${week} AND t.hero_id IS NOT NULL GROUP BY t.hero_id ORDER BY COUNT(*) DESC, t.hero_id LIMIT 1`.execute(this.db),
      sql<{ user_id: string; name: string; score: number | string }>`
        SELECT m.user_id, COALESCE(l.name, m.uid) AS name, m.score FROM ladder_members m ${names}
        WHERE ${listed} ORDER BY m.score DESC, m.user_id DESC LIMIT ${TOP_PLACES}`.execute(this.db),
    ]);
    const best = (key: 'n' | 'mvps') => {
      const rows = played.rows.map((r) => ({ userId: r.user_id, name: r.name, n: Number(r[key] ?? 0) })).filter((r) => r.n > 0);
      rows.sort((a, b) => b.n - a.n || (a.userId < b.userId ? -1 : 1));
      return rows[0] ?? null;
    };
    const i = improved.rows[0];
    const h = hero.rows[0];
    return {
      listed: Number(count.rows[0]?.n ?? 0),
      improved: i ? { userId: i.user_id, name: i.name, delta: Number(i.d) } : null,
      matches: best('n'),
      mvps: best('mvps'),
      hero: h ? { heroId: h.hero_id, n: Number(h.n) } : null,
      top: top.rows.map((r) => ({ userId: r.user_id, name: r.name, score: Number(r.score) })),
    };
  }

  /** The recap of local date `sentFor` is settled: posted, with `top` the members on top of the ladder then, or skipped (no `top`). */
  async settleRecap(guildId: string, sentFor: string, top?: readonly string[]): Promise<void> {
    await this.db
      .updateTable('ladder_settings')
      .set({ recap_sent_for: sentFor, ...(top ? { recap_top: JSON.stringify(top) } : {}) })
      .where('guild_id', '=', guildId)
      .execute();
  }

  /** The servers with quiet hours for their ladder's posts, with those settings. */
  async withQuietHours(): Promise<{ guildId: string; settings: LadderSettings }[]> {
    const rows = await this.db.selectFrom('ladder_settings').selectAll().where('quiet_start', 'is not', null).execute();
    return rows.map((r) => ({ guildId: r.guild_id, settings: settingsOf(r) }));
  }

  /** Planned moments not settled, oldest first, but those of `exceptGuilds` (servers in their quiet hours). */
  async pendingMoments(limit: number, exceptGuilds: readonly string[] = []): Promise<PendingMoment[]> {
    let query = this.db.selectFrom('ladder_moments').selectAll().where('settled_at', 'is', null);
    if (exceptGuilds.length > 0) query = query.where('guild_id', 'not in', exceptGuilds);
    const rows = await query.orderBy('created_at').limit(limit).execute();
    return rows.flatMap((r) => {
      try {
        const data = JSON.parse(r.data) as { moment: Moment; name: string };
        return [
          {
            guildId: r.guild_id,
            momentId: r.moment_id,
            userId: r.user_id,
            channelId: r.channel_id,
            moment: data.moment,
            name: data.name,
            createdAt: Number(r.created_at),
          },
        ];
      } catch {
        return [];
      }
    });
  }

  async settleMoment(m: Pick<PendingMoment, 'guildId' | 'momentId'>, now: number): Promise<void> {
    await this.db.updateTable('ladder_moments').set({ settled_at: now }).where('guild_id', '=', m.guildId).where('moment_id', '=', m.momentId).execute();
  }

  /** Puts `userId` on `guildId`'s ladder (listed), or changes their choices there; options left undefined keep theirs. */
  async join(
    guildId: string,
    userId: string,
    now: number,
    choices: { chosenUid?: string | null; platform?: string | null; optedOut?: boolean; mentionsOff?: boolean } = {},
  ): Promise<void> {
    const changes = choices.chosenUid !== undefined || choices.platform !== undefined || choices.optedOut !== undefined || choices.mentionsOff !== undefined;
    const set = {
      ...(choices.chosenUid !== undefined ? { chosen_uid: choices.chosenUid } : {}),
      ...(choices.platform !== undefined ? { platform: choices.platform } : {}),
      ...(choices.optedOut !== undefined ? { opted_out: choices.optedOut ? 1 : 0 } : {}),
      ...(choices.mentionsOff !== undefined ? { mentions_off: choices.mentionsOff ? 1 : 0 } : {}),
    };
    await this.db.transaction().execute(async (trx) => {
      const added = await trx
        .insertInto('ladder_members')
        .values({
          guild_id: guildId,
          user_id: userId,
          chosen_uid: choices.chosenUid ?? null,
          platform: choices.platform ?? null,
          opted_out: choices.optedOut ? 1 : 0,
          joined_at: now,
          uid: null,
          score: null,
          week_delta: null,
          role: null,
          private: 0,
          listed: 0,
          mentions_off: choices.mentionsOff ? 1 : 0,
        })
        .onConflict((oc) =>
          Object.keys(set).length > 0 ? oc.columns(['guild_id', 'user_id']).doUpdateSet(set) : oc.columns(['guild_id', 'user_id']).doNothing(),
        )
        .executeTakeFirst();
      // Nothing changed for a member already on it: their row is as listed as it was.
      if (Number(added.numInsertedOrUpdatedRows ?? 0n) > 0) await relistMember(trx, userId);
    });
    if (changes) touched([guildId]);
  }

  async membership(guildId: string, userId: string): Promise<LadderMembership | null> {
    const row = await this.db.selectFrom('ladder_members').selectAll().where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
    return row ? membershipOf(row) : null;
  }

  /** Every server's ladder `userId` is on. */
  async memberships(userId: string): Promise<LadderMembership[]> {
    const rows = await this.db.selectFrom('ladder_members').selectAll().where('user_id', '=', userId).orderBy('joined_at').execute();
    return rows.map(membershipOf);
  }

  /** Takes `userId` off every ladder. @returns how many rows went. */
  async forgetMember(userId: string): Promise<number> {
    return forgetLadderMember(this.db, userId);
  }

  /** Writes `uid`'s standing, replacing the last one, and copies its sort keys to every server's row it lists. */
  async setStanding(uid: string, standing: Standing, now: number): Promise<void> {
    const values = {
      season: standing.season,
      tier: standing.tier,
      score: standing.score,
      peak: standing.peak,
      matches: standing.matches,
      role: standing.role,
      week_delta: standing.weekDelta,
      private: standing.private ? 1 : 0,
      updated_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('player_standings').selectAll().where('uid', '=', uid).executeTakeFirst();
      const prev = before ? standingOfRow(before) : null;
      // Who was on top of each ladder that posts it, before this standing moves anyone.
      const watched = prev && prev.season === standing.season && !standing.private ? await topWatchers(trx, uid) : [];
      const wasTop = await Promise.all(watched.map((w) => topOf(trx, w.guild_id)));
      await trx
        .insertInto('player_standings')
        .values({ uid, ...values })
        .onConflict((oc) => oc.column('uid').doUpdateSet(values))
        .execute();
      await trx
        .updateTable('ladder_members')
        .set({ score: values.score, week_delta: values.week_delta, role: values.role, private: values.private })
        .where('uid', '=', uid)
        .execute();
      const rows = await trx.updateTable('ladder_members').set({ listed: LISTED }).where('uid', '=', uid).returning('guild_id').execute();
      touched(rows.map((r) => r.guild_id));
      const moments = momentsBetween(prev, standing);
      const ended = seasonEnded(prev, standing);
      if (ended) moments.push({ kind: 'season-end', ...ended, ...(await seasonRecord(trx, uid, ended.season)) });
      if (moments.length > 0 && standing.season !== null) await planMoments(trx, uid, standing.season, moments, now);
      for (const [i, w] of watched.entries()) {
        if (wasTop[i]!.includes(w.user_id) || standing.season === null || standing.score === null) continue;
        const place = (await topOf(trx, w.guild_id)).indexOf(w.user_id) + 1;
        if (place > 0) await planMoments(trx, uid, standing.season, [{ kind: 'top3', place, score: standing.score }], now, w.guild_id);
      }
    });
  }

  /** Marks `uid` private, keeping its last standing for when it opens again. */
  async setPrivate(uid: string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('player_standings')
        .values({ uid, season: null, tier: null, score: null, peak: null, matches: 0, role: null, week_delta: null, private: 1, updated_at: now })
        .onConflict((oc) => oc.column('uid').doUpdateSet({ private: 1, updated_at: now }))
        .execute();
      const rows = await trx.updateTable('ladder_members').set({ private: 1, listed: 0 }).where('uid', '=', uid).returning('guild_id').execute();
      touched(rows.map((r) => r.guild_id));
    });
  }

  /** One page of `guildId`'s ladder, the asking member's row, and who is left out and why; a page read in the last {@link LADDER_CACHE_MS} is served again. */
  async page(q: LadderQuery): Promise<LadderPage> {
    const key = JSON.stringify([q.guildId, versions.get(q.guildId) ?? 0, q.period, q.role ?? null, q.platform ?? null, q.page, q.pageSize, q.userId ?? null]);
    const cached = this.#pages.get(key);
    if (cached) return cached;
    const page = await this.#read(q);
    this.#pages.set(key, page);
    return page;
  }

  async #read(q: LadderQuery): Promise<LadderPage> {
    const role = q.role ? metaRole(q.role) : null;
    const filters = sql.join(
      [sql`m.guild_id = ${q.guildId}`, sql`m.listed = 1`, ...(role ? [sql`m.role = ${role}`] : []), ...(q.platform ? [sql`m.platform = ${q.platform}`] : [])],
      sql` AND `,
    );
    // Most improved: members with nothing recorded this week come after every recorded change.
    const order =
      q.period === 'week'
        ? sql`CASE WHEN m.week_delta IS NULL THEN 1 ELSE 0 END, m.week_delta DESC, m.score DESC, m.user_id DESC`
        : sql`m.score DESC, m.user_id DESC`;
    const offset = (q.page - 1) * q.pageSize;
    const columns = sql`m.user_id, m.uid, m.platform, m.score AS sort_score, m.week_delta AS sort_week,
      COALESCE(l.name, m.uid) AS name, s.season, s.tier, s.score, s.peak, s.matches, s.role, s.week_delta`;
    const joins = sql`LEFT JOIN account_links l ON l.user_id = m.user_id AND l.uid = m.uid JOIN player_standings s ON s.uid = m.uid`;
    const [rows, count, counts, mine] = await Promise.all([
      sql<RowOut>`SELECT ${columns} FROM ladder_members m ${joins} WHERE ${filters} ORDER BY ${order} LIMIT ${q.pageSize} OFFSET ${offset}`.execute(this.db),
      sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ladder_members m WHERE ${filters}`.execute(this.db),
      sql<CountsOut>`
        SELECT
          SUM(CASE WHEN opted_out = 1 THEN 1 ELSE 0 END) AS opted_out,
          SUM(CASE WHEN opted_out = 0 AND uid IS NULL THEN 1 ELSE 0 END) AS unverified,
          SUM(CASE WHEN opted_out = 0 AND uid IS NOT NULL AND private = 1 THEN 1 ELSE 0 END) AS private,
          SUM(CASE WHEN opted_out = 0 AND uid IS NOT NULL AND private = 0 AND score IS NULL THEN 1 ELSE 0 END) AS unranked
        FROM ladder_members WHERE guild_id = ${q.guildId} AND listed = 0`.execute(this.db),
      q.userId
        ? sql<RowOut>`SELECT ${columns} FROM ladder_members m ${joins} WHERE ${filters} AND m.user_id = ${q.userId}`.execute(this.db)
        : Promise.resolve({ rows: [] as RowOut[] }),
    ]);
    const page = rows.rows.map((r, i) => rowOf(r, offset + i + 1));
    let me: LadderRow | null = null;
    const own = mine.rows[0];
    if (own && !page.some((r) => r.userId === own.user_id)) {
      const above = await sql<{ n: number | string }>`
        SELECT COUNT(*) AS n FROM ladder_members m WHERE ${filters} AND ${before(q.period, own)}`.execute(this.db);
      me = rowOf(own, Number(above.rows[0]?.n ?? 0) + 1);
    }
    const c = counts.rows[0];
    return {
      rows: page,
      me,
      listed: Number(count.rows[0]?.n ?? 0),
      leftOut: {
        optedOut: num(c?.opted_out) ?? 0,
        unverified: num(c?.unverified) ?? 0,
        private: num(c?.private) ?? 0,
        unranked: num(c?.unranked) ?? 0,
      },
    };
  }
}

/** The members listed by `uid` on ladders that post top-3 moments. */
async function topWatchers(db: Db, uid: string): Promise<{ guild_id: string; user_id: string }[]> {
  const rows = await db
    .selectFrom('ladder_members as m')
    .innerJoin('ladder_settings as s', 's.guild_id', 'm.guild_id')
    .select(['m.guild_id', 'm.user_id', 's.moment_kinds'])
    .where('m.uid', '=', uid)
    .where('m.listed', '=', 1)
    .where('s.enabled', '=', 1)
    .where('s.moments_channel_id', 'is not', null)
    .execute();
  return rows.filter((r) => kindsOf(r.moment_kinds).includes('top3'));
}

/** The members on top of `guildId`'s ladder, first first. */
async function topOf(db: Db, guildId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('ladder_members')
    .select('user_id')
    .where('guild_id', '=', guildId)
    .where('listed', '=', 1)
    .orderBy('score', 'desc')
    .orderBy('user_id', 'desc')
    .limit(TOP_PLACES)
    .execute();
  return rows.map((r) => r.user_id);
}

/** What the bot recorded of `uid`'s ranked matches in `season`: the heroes most played first, and the rank score gained since its first. */
async function seasonRecord(db: Db, uid: string, season: number): Promise<{ heroes: string[]; change: number | null }> {
  const matches = await db
    .selectFrom('tracked_matches')
    .select(['hero_id', 'new_score', 'score_change', 'played_at'])
    .where('uid', '=', uid)
    .where('season', '=', season)
    .where('ranked', '=', 1)
    .orderBy('played_at')
    .execute();
  const counts = new Map<string, number>();
  for (const m of matches) if (m.hero_id) counts.set(m.hero_id, (counts.get(m.hero_id) ?? 0) + 1);
  const heroes = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
  const scored = matches.filter((m) => m.new_score !== null);
  const first = scored[0];
  const last = scored.at(-1);
  const change = first && last && first.score_change !== null ? Number(last.new_score) - (Number(first.new_score) - Number(first.score_change)) : null;
  return { heroes: heroes.slice(0, 3), change };
}

/**
 * Plans `moments` of `uid` on every server that lists a member by it and posts that kind (only `guildId`'s when given);
 * a moment planned before is kept as it was.
 */
async function planMoments(db: Db, uid: string, season: number, moments: readonly Moment[], now: number, guildId?: string): Promise<void> {
  let query = db
    .selectFrom('ladder_members as m')
    .innerJoin('ladder_settings as s', 's.guild_id', 'm.guild_id')
    .leftJoin('account_links as l', (j) => j.onRef('l.user_id', '=', 'm.user_id').onRef('l.uid', '=', 'm.uid'))
    .select(['m.guild_id', 'm.user_id', 's.moments_channel_id', 's.moment_kinds', 'l.name'])
    .where('m.uid', '=', uid)
    .where('m.listed', '=', 1)
    .where('s.enabled', '=', 1)
    .where('s.moments_channel_id', 'is not', null);
  if (guildId !== undefined) query = query.where('m.guild_id', '=', guildId);
  const targets = await query.execute();
  for (const t of targets) {
    const kinds = kindsOf(t.moment_kinds);
    for (const moment of moments) {
      if (!kinds.includes(kindOf(moment))) continue;
      await db
        .insertInto('ladder_moments')
        .values({
          guild_id: t.guild_id,
          moment_id: momentId(uid, season, moment, now),
          user_id: t.user_id,
          channel_id: t.moments_channel_id!,
          data: JSON.stringify({ moment, name: t.name ?? uid }),
          created_at: now,
          settled_at: null,
        })
        .onConflict((oc) => oc.columns(['guild_id', 'moment_id']).doNothing())
        .execute();
    }
  }
}

function idsOf(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function settingsOf(
  row:
    | {
        enabled: number;
        moments_channel_id: string | null;
        moment_kinds: string;
        recap_day?: number | null;
        recap_at: number;
        time_zone?: string | null;
        quiet_start?: number | null;
        quiet_end?: number | null;
        moments_problem?: string | null;
      }
    | undefined,
): LadderSettings {
  let problem: MomentsProblem | null;
  try {
    problem = row?.moments_problem ? (JSON.parse(row.moments_problem) as MomentsProblem) : null;
  } catch {
    problem = null;
  }
  const quiet = row && row.quiet_start !== null && row.quiet_start !== undefined && row.quiet_end !== null && row.quiet_end !== undefined;
  return {
    enabled: row?.enabled === 1,
    momentsChannelId: row?.moments_channel_id ?? null,
    kinds: row ? kindsOf(row.moment_kinds) : [...MOMENT_KINDS],
    recapDay: row?.recap_day ?? null,
    recapAt: row ? Number(row.recap_at) : 18 * 60,
    timeZone: row?.time_zone ?? 'UTC',
    quiet: quiet ? { start: Number(row.quiet_start), end: Number(row.quiet_end) } : null,
    problem,
  };
}

function kindsOf(text: string): MomentKind[] {
  return MOMENT_KINDS.filter((k) => text.split(',').includes(k));
}

function standingOfRow(r: {
  season: number | string | null;
  tier: string | null;
  score: number | string | null;
  peak: number | string | null;
  matches: number | string;
  role: string | null;
  week_delta: number | string | null;
  private: number;
}): Standing {
  return {
    season: num(r.season),
    tier: r.tier,
    score: num(r.score),
    peak: num(r.peak),
    matches: Number(r.matches),
    role: metaRole(r.role),
    weekDelta: num(r.week_delta),
    private: r.private === 1,
  };
}

/** Whether the standing behind a row makes it listed, from the row's own columns. */
const LISTED = sql<number>`CASE WHEN opted_out = 0 AND uid IS NOT NULL AND private = 0 AND score IS NOT NULL THEN 1 ELSE 0 END`;

/** The account a ladder row's member is listed by: their choice if verified, else their default if verified, else their first verified. */
const LISTED_BY = sql`(SELECT a.uid FROM account_links a
  WHERE a.user_id = ladder_members.user_id AND a.verified_at IS NOT NULL
  ORDER BY CASE WHEN a.uid = ladder_members.chosen_uid THEN 0 ELSE 1 END, a.is_default DESC, a.linked_at, a.uid
  LIMIT 1)`;

/**
 * Pages read before one of this process's changes to a server's ladder are not served after it: each change bumps its
 * servers' versions, which the page cache's keys carry.
 */
const versions = new Map<string, number>();

function touched(guildIds: Iterable<string>): void {
  for (const id of new Set(guildIds)) versions.set(id, (versions.get(id) ?? 0) + 1);
}

/** Takes `userId` off every server's ladder, with the moments about them. @returns how many ladders they were on. */
export async function forgetLadderMember(db: Db, userId: string): Promise<number> {
  await db.deleteFrom('ladder_moments').where('user_id', '=', userId).execute();
  const rows = await db.deleteFrom('ladder_members').where('user_id', '=', userId).returning('guild_id').execute();
  touched(rows.map((r) => r.guild_id));
  return rows.length;
}

/** Copies each row's standing (by the account it is listed by) and whether it is listed, for the rows `where` selects. @returns their servers. */
async function copyStandings(db: Db, where: RawBuilder<unknown>): Promise<string[]> {
  const of = (column: string) => sql`(SELECT s.${sql.ref(column)} FROM player_standings s WHERE s.uid = ladder_members.uid)`;
  await sql`UPDATE ladder_members SET score = ${of('score')}, week_delta = ${of('week_delta')}, role = ${of('role')},
    private = COALESCE(${of('private')}, 0) WHERE ${where}`.execute(db);
  const rows = await sql<{ guild_id: string }>`UPDATE ladder_members SET listed = ${LISTED} WHERE ${where} RETURNING guild_id`.execute(db);
  return rows.rows.map((r) => r.guild_id);
}

/**
 * Lists `userId` again on every server's ladder they are on: the account they are listed by and its standing. Run in
 * the same transaction as any change to their links, proofs or ladder choices.
 */
export async function relistMember(db: Db, userId: string): Promise<void> {
  await sql`UPDATE ladder_members SET uid = ${LISTED_BY} WHERE user_id = ${userId}`.execute(db);
  touched(await copyStandings(db, sql`user_id = ${userId}`));
}

/** Takes the standings of `uids` off the ladders (they are no longer tracked): their members show as without a rank read. */
export async function unlistStandings(db: Db, uids: readonly string[]): Promise<void> {
  if (uids.length === 0) return;
  const rows = await db
    .updateTable('ladder_members')
    .set({ score: null, week_delta: null, role: null, private: 0, listed: 0 })
    .where('uid', 'in', uids)
    .returning('guild_id')
    .execute();
  touched(rows.map((r) => r.guild_id));
}

/** The rows listed before `own` in `period`'s order. */
function before(period: LadderPeriod, own: RowOut): RawBuilder<unknown> {
  const score = Number(own.sort_score);
  const bySeason = sql`(m.score > ${score} OR (m.score = ${score} AND m.user_id > ${own.user_id}))`;
  if (period === 'season') return bySeason;
  if (own.sort_week === null) return sql`(m.week_delta IS NOT NULL OR ${bySeason})`;
  const week = Number(own.sort_week);
  return sql`(m.week_delta > ${week} OR (m.week_delta = ${week} AND ${bySeason}))`;
}

interface RowOut {
  user_id: string;
  uid: string;
  platform: string | null;
  sort_score: number | string | null;
  sort_week: number | string | null;
  name: string;
  season: number | null;
  tier: string | null;
  score: number | string | null;
  peak: number | string | null;
  matches: number | string;
  role: string | null;
  week_delta: number | string | null;
}

interface CountsOut {
  opted_out: number | string | null;
  unverified: number | string | null;
  private: number | string | null;
  unranked: number | string | null;
}

function rowOf(r: RowOut, position: number): LadderRow {
  return {
    position,
    userId: r.user_id,
    uid: r.uid,
    name: r.name,
    platform: r.platform,
    // Listed rows are public profiles by definition.
    standing: standingOfRow({ ...r, private: 0 }),
  };
}

function membershipOf(r: {
  guild_id: string;
  chosen_uid: string | null;
  platform: string | null;
  opted_out: number;
  mentions_off: number;
  joined_at: number | string;
}): LadderMembership {
  return {
    guildId: r.guild_id,
    chosenUid: r.chosen_uid,
    platform: r.platform,
    optedOut: r.opted_out === 1,
    mentionsOff: r.mentions_off === 1,
    joinedAt: Number(r.joined_at),
  };
}
