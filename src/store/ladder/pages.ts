/** A page of a server's ladder: the listed members in order (by score, or by the week's change), the asking member's place, and who is left out. */
import { sql, type RawBuilder } from 'kysely';
import type { LadderPeriod, LeftOutReason, Standing } from '../../game/ladder.js';
import { metaRole } from '../../game/meta.js';
import type { Db } from '../database.js';
import { num, standingOfRow, type StandingColumns } from './rows.js';

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

/** One page of a server's ladder, the asking member's row, and who is left out and why, read from the store. */
export async function readPage(db: Db, q: LadderQuery): Promise<LadderPage> {
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
    sql<RowOut>`SELECT ${columns} FROM ladder_members m ${joins} WHERE ${filters} ORDER BY ${order} LIMIT ${q.pageSize} OFFSET ${offset}`.execute(db),
    sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ladder_members m WHERE ${filters}`.execute(db),
    sql<CountsOut>`
      SELECT
        SUM(CASE WHEN opted_out = 1 THEN 1 ELSE 0 END) AS opted_out,
        SUM(CASE WHEN opted_out = 0 AND uid IS NULL THEN 1 ELSE 0 END) AS unverified,
        SUM(CASE WHEN opted_out = 0 AND uid IS NOT NULL AND private = 1 THEN 1 ELSE 0 END) AS private,
        SUM(CASE WHEN opted_out = 0 AND uid IS NOT NULL AND private = 0 AND score IS NULL THEN 1 ELSE 0 END) AS unranked
      FROM ladder_members WHERE guild_id = ${q.guildId} AND listed = 0`.execute(db),
    q.userId
      ? sql<RowOut>`SELECT ${columns} FROM ladder_members m ${joins} WHERE ${filters} AND m.user_id = ${q.userId}`.execute(db)
      : Promise.resolve({ rows: [] as RowOut[] }),
  ]);
  const page = rows.rows.map((r, i) => rowOf(r, offset + i + 1));
  let me: LadderRow | null = null;
  const own = mine.rows[0];
  if (own && !page.some((r) => r.userId === own.user_id)) {
    const above = await sql<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM ladder_members m WHERE ${filters} AND ${before(q.period, own)}`.execute(db);
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

/** The rows listed before `own` in `period`'s order. */
function before(period: LadderPeriod, own: RowOut): RawBuilder<unknown> {
  const score = Number(own.sort_score);
  const bySeason = sql`(m.score > ${score} OR (m.score = ${score} AND m.user_id > ${own.user_id}))`;
  if (period === 'season') return bySeason;
  if (own.sort_week === null) return sql`(m.week_delta IS NOT NULL OR ${bySeason})`;
  const week = Number(own.sort_week);
  return sql`(m.week_delta > ${week} OR (m.week_delta = ${week} AND ${bySeason}))`;
}

interface RowOut extends StandingColumns {
  user_id: string;
  uid: string;
  platform: string | null;
  sort_score: number | string | null;
  sort_week: number | string | null;
  name: string;
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
