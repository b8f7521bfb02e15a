/**
 * What a server's own matches say: the ranked matches the tracker recorded of the members on its ladder (the account that
 * lists each, src/store/ladder/), counted in the database so that a 10,000-member server costs one grouped read.
 */
import { sql } from 'kysely';
import { DIVISIONS, floorOfLevel } from '../game/ranks.js';
import { BRACKETS, type HeroCount } from '../game/server-meta.js';
import type { Db } from './database.js';

/** Rank score where each bracket from Silver up starts: its tier's lowest division (Silver III: 3,300; Eternity: 5,100). */
const BRACKET_FLOORS = BRACKETS.slice(1).map((_, i) => floorOfLevel((i + 1) * DIVISIONS.length + 1));

/** Errors propagate to the caller. */
export class ServerMatchesRepository {
  constructor(private readonly db: Db) {}

  /**
   * The ranked matches with a result recorded of `guildId`'s ladder members who did not opt out, one row a member and match,
   * grouped by season, period, hero, bracket and result.
   * @param since Unix seconds: the start of the recent period.
   */
  async heroCounts(guildId: string, since: number): Promise<HeroCount[]> {
    // The score before the match: the score after it less its change; a match with no change recorded counts at the score after.
    const before = sql`(m.new_score - COALESCE(m.score_change, 0))`;
    const bracket = sql.join(
      BRACKET_FLOORS.map((floor, i) => sql`WHEN ${before} < ${sql.lit(floor)} THEN ${sql.lit(i)}`),
      sql` `,
    );
    // A plain CASE ladder: the same on both engines (PostgreSQL's CAST rounds where SQLite's truncates).
    const rows = await sql<{
      season: number | null;
      recent: number;
      hero_id: string | null;
      bracket: number | null;
      won: number;
      n: number | string;
      k: number | string;
      d: number | string;
      a: number | string;
    }>`
      SELECT m.season, CASE WHEN m.played_at >= ${sql.lit(Math.floor(since))} THEN 1 ELSE 0 END AS recent, m.hero_id,
        CASE WHEN m.new_score IS NULL THEN NULL ${bracket} ELSE ${sql.lit(BRACKET_FLOORS.length)} END AS bracket,
        m.won, COUNT(*) AS n, SUM(m.kills) AS k, SUM(m.deaths) AS d, SUM(m.assists) AS a
      FROM tracked_matches m
      WHERE m.uid IN (SELECT l.uid FROM ladder_members l WHERE l.guild_id = ${guildId} AND l.opted_out = 0 AND l.uid IS NOT NULL)
        AND m.ranked = 1 AND m.won IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5`.execute(this.db);
    return rows.rows.map((r) => ({
      season: r.season === null ? null : Number(r.season),
      recent: Number(r.recent) === 1,
      heroId: r.hero_id,
      bracket: r.bracket === null ? null : Number(r.bracket),
      won: Number(r.won) as 0 | 1 | 2,
      matches: Number(r.n),
      kills: Number(r.k),
      deaths: Number(r.d),
      assists: Number(r.a),
    }));
  }
}
