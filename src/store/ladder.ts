/**
 * Servers' ladders: which servers run one, who is on each, and the standings of the accounts they are
 * listed by. A member is listed by one verified linked account: the one they chose for that server, else
 * their default, else their first verified one, resolved at each read so that links and proofs apply at once.
 */
import { sql, type RawBuilder } from 'kysely';
import { LRUCache } from 'lru-cache';
import { MOMENT_KINDS, momentId, momentsBetween, type LadderPeriod, type LeftOutReason, type Moment, type MomentKind, type Standing } from '../game/ladder.js';
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

/** A server's ladder settings: `momentsChannelId` null when moments are not posted. */
export interface LadderSettings {
  enabled: boolean;
  momentsChannelId: string | null;
  kinds: MomentKind[];
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
    return {
      enabled: row?.enabled === 1,
      momentsChannelId: row?.moments_channel_id ?? null,
      kinds: row ? kindsOf(row.moment_kinds) : [...MOMENT_KINDS],
    };
  }

  /** Changes what is given and keeps the rest; `momentsChannelId: null` stops the posts. */
  async configure(
    guildId: string,
    change: { enabled?: boolean; momentsChannelId?: string | null; kinds?: MomentKind[] },
    now: number,
  ): Promise<LadderSettings> {
    this.#enabled.delete(guildId);
    touched([guildId]);
    const set = {
      ...(change.enabled !== undefined ? { enabled: change.enabled ? 1 : 0 } : {}),
      ...(change.momentsChannelId !== undefined ? { moments_channel_id: change.momentsChannelId } : {}),
      ...(change.kinds !== undefined ? { moment_kinds: change.kinds.join(',') } : {}),
      updated_at: now,
    };
    await this.db
      .insertInto('ladder_settings')
      .values({ guild_id: guildId, enabled: 0, moments_channel_id: null, ...set })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet(set))
      .execute();
    return this.settings(guildId);
  }

  /** Planned moments not settled, oldest first. */
  async pendingMoments(limit: number): Promise<PendingMoment[]> {
    const rows = await this.db.selectFrom('ladder_moments').selectAll().where('settled_at', 'is', null).orderBy('created_at').limit(limit).execute();
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
      const moments = momentsBetween(before ? standingOfRow(before) : null, standing);
      if (moments.length > 0 && standing.season !== null) await planMoments(trx, uid, standing.season, moments, now);
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

/** Plans `moments` of `uid` on every server that lists a member by it and posts that kind; a moment planned before is kept as it was. */
async function planMoments(db: Db, uid: string, season: number, moments: readonly Moment[], now: number): Promise<void> {
  const targets = await db
    .selectFrom('ladder_members as m')
    .innerJoin('ladder_settings as s', 's.guild_id', 'm.guild_id')
    .leftJoin('account_links as l', (j) => j.onRef('l.user_id', '=', 'm.user_id').onRef('l.uid', '=', 'm.uid'))
    .select(['m.guild_id', 'm.user_id', 's.moments_channel_id', 's.moment_kinds', 'l.name'])
    .where('m.uid', '=', uid)
    .where('m.listed', '=', 1)
    .where('s.enabled', '=', 1)
    .where('s.moments_channel_id', 'is not', null)
    .execute();
  for (const t of targets) {
    const kinds = kindsOf(t.moment_kinds);
    for (const moment of moments) {
      if (!kinds.includes(moment.kind === 'peak' ? 'peak' : 'rank')) continue;
      await db
        .insertInto('ladder_moments')
        .values({
          guild_id: t.guild_id,
          moment_id: momentId(uid, season, moment),
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
