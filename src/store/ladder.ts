/**
 * Servers' ladders: which servers run one, who is on each, and the standings of the accounts they are
 * listed by. A member is listed by one verified linked account: the one they chose for that server, else
 * their default, else their first verified one, resolved at each read so that links and proofs apply at once.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Standing } from '../game/ladder.js';
import type { LadderPeriod, LeftOutReason } from '../game/ladder.js';
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
  joinedAt: number;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Errors propagate to the caller. Times in epoch ms. */
export class LadderRepository {
  constructor(private readonly db: Db) {}

  async enabled(guildId: string): Promise<boolean> {
    const row = await this.db.selectFrom('ladder_settings').select('enabled').where('guild_id', '=', guildId).executeTakeFirst();
    return row?.enabled === 1;
  }

  async setEnabled(guildId: string, on: boolean, now: number): Promise<void> {
    await this.db
      .insertInto('ladder_settings')
      .values({ guild_id: guildId, enabled: on ? 1 : 0, updated_at: now })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet({ enabled: on ? 1 : 0, updated_at: now }))
      .execute();
  }

  /** Puts `userId` on `guildId`'s ladder (listed), or changes their choices there; options left undefined keep theirs. */
  async join(
    guildId: string,
    userId: string,
    now: number,
    choices: { chosenUid?: string | null; platform?: string | null; optedOut?: boolean } = {},
  ): Promise<void> {
    const set = {
      ...(choices.chosenUid !== undefined ? { chosen_uid: choices.chosenUid } : {}),
      ...(choices.platform !== undefined ? { platform: choices.platform } : {}),
      ...(choices.optedOut !== undefined ? { opted_out: choices.optedOut ? 1 : 0 } : {}),
    };
    await this.db
      .insertInto('ladder_members')
      .values({
        guild_id: guildId,
        user_id: userId,
        chosen_uid: choices.chosenUid ?? null,
        platform: choices.platform ?? null,
        opted_out: choices.optedOut ? 1 : 0,
        joined_at: now,
      })
      .onConflict((oc) =>
        Object.keys(set).length > 0 ? oc.columns(['guild_id', 'user_id']).doUpdateSet(set) : oc.columns(['guild_id', 'user_id']).doNothing(),
      )
      .execute();
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
    const result = await this.db.deleteFrom('ladder_members').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Writes `uid`'s standing, replacing the last one. */
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
    await this.db
      .insertInto('player_standings')
      .values({ uid, ...values })
      .onConflict((oc) => oc.column('uid').doUpdateSet(values))
      .execute();
  }

  /** Marks `uid` private, keeping its last standing for when it opens again. */
  async setPrivate(uid: string, now: number): Promise<void> {
    await this.db
      .insertInto('player_standings')
      .values({ uid, season: null, tier: null, score: null, peak: null, matches: 0, role: null, week_delta: null, private: 1, updated_at: now })
      .onConflict((oc) => oc.column('uid').doUpdateSet({ private: 1, updated_at: now }))
      .execute();
  }

  /** One page of `guildId`'s ladder, the asking member's row, and who is left out and why. Two queries. */
  async page(q: LadderQuery): Promise<LadderPage> {
    const members = this.#members(q.guildId);
    const role = q.role ? metaRole(q.role) : null;
    const filters = sql.join(
      [
        sql`r.opted_out = 0`,
        sql`r.uid IS NOT NULL`,
        sql`s.private = 0`,
        sql`s.score IS NOT NULL`,
        ...(role ? [sql`s.role = ${role}`] : []),
        ...(q.platform ? [sql`r.platform = ${q.platform}`] : []),
      ],
      sql` AND `,
    );
    // Most improved: members with nothing recorded this week come after every recorded change.
    const order =
      q.period === 'week' ? sql`CASE WHEN s.week_delta IS NULL THEN 1 ELSE 0 END, s.week_delta DESC, s.score DESC, r.user_id` : sql`s.score DESC, r.user_id`;
    const first = (q.page - 1) * q.pageSize + 1;
    const last = q.page * q.pageSize;
    const [ranked, counts] = await Promise.all([
      sql<RowOut>`
        WITH r AS (${members})
        SELECT * FROM (
          SELECT r.user_id, r.uid, r.platform, l.name, s.season, s.tier, s.score, s.peak, s.matches, s.role, s.week_delta,
            ROW_NUMBER() OVER (ORDER BY ${order}) AS position,
            COUNT(*) OVER () AS listed
          FROM r
          JOIN player_standings s ON s.uid = r.uid
          JOIN account_links l ON l.user_id = r.user_id AND l.uid = r.uid
          WHERE ${filters}
        ) ranked
        WHERE (position BETWEEN ${first} AND ${last}) OR user_id = ${q.userId ?? ''}
        ORDER BY position`.execute(this.db),
      sql<CountsOut>`
        WITH r AS (${members})
        SELECT
          SUM(CASE WHEN r.opted_out = 1 THEN 1 ELSE 0 END) AS opted_out,
          SUM(CASE WHEN r.opted_out = 0 AND r.uid IS NULL THEN 1 ELSE 0 END) AS unverified,
          SUM(CASE WHEN r.opted_out = 0 AND r.uid IS NOT NULL AND s.private = 1 THEN 1 ELSE 0 END) AS private,
          SUM(CASE WHEN r.opted_out = 0 AND r.uid IS NOT NULL AND COALESCE(s.private, 0) = 0 AND s.score IS NULL THEN 1 ELSE 0 END) AS unranked
        FROM r LEFT JOIN player_standings s ON s.uid = r.uid`.execute(this.db),
    ]);
    const rows = ranked.rows.map(rowOf);
    const c = counts.rows[0];
    const listed = Number(ranked.rows[0]?.listed ?? (await this.#listed(q, filters, members)));
    return {
      rows: rows.filter((r) => r.position >= first && r.position <= last),
      me: rows.find((r) => r.userId === q.userId && (r.position < first || r.position > last)) ?? null,
      listed,
      leftOut: {
        optedOut: num(c?.opted_out) ?? 0,
        unverified: num(c?.unverified) ?? 0,
        private: num(c?.private) ?? 0,
        unranked: num(c?.unranked) ?? 0,
      },
    };
  }

  /** How many are listed when the page asked for is past the end (the window query then returns no row to count from). */
  async #listed(q: LadderQuery, filters: RawBuilder<unknown>, members: RawBuilder<unknown>): Promise<number> {
    if (q.page === 1) return 0;
    const out = await sql<{ n: number | string }>`
      WITH r AS (${members})
      SELECT COUNT(*) AS n FROM r JOIN player_standings s ON s.uid = r.uid WHERE ${filters}`.execute(this.db);
    return Number(out.rows[0]?.n ?? 0);
  }

  /** `guildId`'s members on the ladder, each with the account they are listed by (null: none verified). */
  #members(guildId: string): RawBuilder<unknown> {
    return sql`
      SELECT m.user_id, m.platform, m.opted_out,
        (SELECT a.uid FROM account_links a
          WHERE a.user_id = m.user_id AND a.verified_at IS NOT NULL
          ORDER BY CASE WHEN a.uid = m.chosen_uid THEN 0 ELSE 1 END, a.is_default DESC, a.linked_at, a.uid
          LIMIT 1) AS uid
      FROM ladder_members m
      WHERE m.guild_id = ${guildId}`;
  }
}

interface RowOut {
  user_id: string;
  uid: string;
  platform: string | null;
  name: string;
  season: number | null;
  tier: string | null;
  score: number | string | null;
  peak: number | string | null;
  matches: number | string;
  role: string | null;
  week_delta: number | string | null;
  position: number | string;
  listed: number | string;
}

interface CountsOut {
  opted_out: number | string | null;
  unverified: number | string | null;
  private: number | string | null;
  unranked: number | string | null;
}

function rowOf(r: RowOut): LadderRow {
  return {
    position: Number(r.position),
    userId: r.user_id,
    uid: r.uid,
    name: r.name,
    platform: r.platform,
    standing: {
      season: num(r.season),
      tier: r.tier,
      score: num(r.score),
      peak: num(r.peak),
      matches: Number(r.matches),
      role: metaRole(r.role),
      weekDelta: num(r.week_delta),
    },
  };
}

function membershipOf(r: {
  guild_id: string;
  chosen_uid: string | null;
  platform: string | null;
  opted_out: number;
  joined_at: number | string;
}): LadderMembership {
  return { guildId: r.guild_id, chosenUid: r.chosen_uid, platform: r.platform, optedOut: r.opted_out === 1, joinedAt: Number(r.joined_at) };
}
