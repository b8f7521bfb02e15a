/**
 * What a server's own matches say: the ranked matches the tracker recorded of the members on its ladder (the account that
 * lists each, src/store/ladder/), counted in the database so that a 10,000-member server costs one grouped read.
 */
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { DIVISIONS, floorOfLevel } from '../game/ranks.js';
import type { PairCount, ResultCount } from '../game/duos.js';
import { BRACKETS, type HeroCount } from '../game/server-meta.js';
import type { Db } from './database.js';
import { ladderVersion } from './ladder/listing.js';

/** Rank score where each bracket from Silver up starts: its tier's lowest division (Silver III: 3,300; Eternity: 5,100). */
const BRACKET_FLOORS = BRACKETS.slice(1).map((_, i) => floorOfLevel((i + 1) * DIVISIONS.length + 1));

/** A member on a server's ladder whose matches count: `uid` the proved account that lists them, `name` as linked. */
export interface CountedMember {
  userId: string;
  uid: string;
  name: string | null;
}

/**
 * How long a server's counts are reused (ms): a 10,000-member server's counts take a few hundred ms to read (README,
 * bench:matches), and a match recorded meanwhile may wait this long to count. A change to who is on the ladder is seen at
 * once in the process that made it, and within this long in the others. Callers give periods that start on the hour
 * ({@link periodStart}), so that a minute's reads share one count.
 */
export const SERVER_COUNTS_TTL_MS = 60_000;

/** The start of the period of `ms` back from `now` (epoch ms), in Unix seconds, on the hour: the key of its kept counts. */
export function periodStart(now: number, ms: number): number {
  return Math.floor((now - ms) / 3_600_000) * 3_600;
}

/** Errors propagate to the caller; a failed read is not kept. */
export class ServerMatchesRepository {
  readonly #kept = new LRUCache<string, Promise<unknown>>({ max: 500, ttl: SERVER_COUNTS_TTL_MS });

  constructor(private readonly db: Db) {}

  /** `read()` once per `key` and ladder version of `guildId` for {@link SERVER_COUNTS_TTL_MS}. */
  #once<T>(guildId: string, key: string, read: () => Promise<T>): Promise<T> {
    const k = `${guildId}\u0000${ladderVersion(guildId)}\u0000${key}`;
    const kept = this.#kept.get(k) as Promise<T> | undefined;
    if (kept) return kept;
    const value = read();
    this.#kept.set(k, value);
    value.catch(() => this.#kept.delete(k));
    return value;
  }

  /**
   * The heroes `guildId`'s counted members met: for each of their ranked matches with a result whose detail the match store
   * holds, every hero the other team played (any time on it), once a member, match and hero; grouped as {@link heroCounts}
   * with `heroId` the opposing hero, `won` the member's result, no bracket and no kills.
   */
  metCounts(guildId: string, since: number): Promise<HeroCount[]> {
    return this.#once(guildId, `met:${since}`, () => this.#metCounts(guildId, since));
  }

  async #metCounts(guildId: string, since: number): Promise<HeroCount[]> {
    const rows = await sql<{ season: number | null; recent: number; hero_id: string; won: number; n: number | string }>`
      SELECT x.season, x.recent, x.hero_id, x.won, COUNT(*) AS n FROM (
        SELECT DISTINCT m.uid, m.match_uid, m.season, CASE WHEN m.played_at >= ${sql.lit(Math.floor(since))} THEN 1 ELSE 0 END AS recent,
          h.hero_id, m.won
        FROM tracked_matches m
        JOIN match_players me ON me.match_uid = m.match_uid AND me.player_uid = m.uid
        JOIN match_players op ON op.match_uid = m.match_uid AND op.camp <> me.camp
        JOIN match_player_heroes h ON h.match_uid = op.match_uid AND h.slot = op.slot
        WHERE m.uid IN (${membersOf(this.db, guildId)}) AND m.ranked = 1 AND m.won IS NOT NULL AND h.hero_id IS NOT NULL
      ) x
      GROUP BY 1, 2, 3, 4`.execute(this.db);
    return rows.rows.map((r) => ({
      season: r.season === null ? null : Number(r.season),
      recent: Number(r.recent) === 1,
      heroId: r.hero_id,
      bracket: null,
      won: Number(r.won) as 0 | 1 | 2,
      matches: Number(r.n),
      kills: 0,
      deaths: 0,
      assists: 0,
    }));
  }

  /**
   * The bot's own meta: every player of every match the store holds, with the hero they ended on (`cur_hero_id`) and their
   * result, grouped by hero and result (draws as 2), with their kills, deaths and assists summed; no season, period or bracket.
   */
  storedCounts(): Promise<HeroCount[]> {
    // Every stored player: kept as a server's counts are, under a key no server has.
    return this.#once('', 'stored', () => this.#storedCounts());
  }

  async #storedCounts(): Promise<HeroCount[]> {
    const rows = await this.db
      .selectFrom('match_players')
      .select((eb) => [
        'cur_hero_id',
        'result',
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.sum<number | string>('kills').as('k'),
        eb.fn.sum<number | string>('deaths').as('d'),
        eb.fn.sum<number | string>('assists').as('a'),
      ])
      .where('result', 'in', ['win', 'loss', 'draw'])
      .groupBy(['cur_hero_id', 'result'])
      .execute();
    return rows.map((r) => ({
      season: null,
      recent: true,
      heroId: r.cur_hero_id,
      bracket: null,
      won: r.result === 'win' ? 1 : r.result === 'loss' ? 0 : 2,
      matches: Number(r.n),
      kills: Number(r.k),
      deaths: Number(r.d),
      assists: Number(r.a),
    }));
  }

  /** The members of `guildId`'s ladder whose matches count: listed by a proved account, not opted out. */
  async members(guildId: string): Promise<CountedMember[]> {
    const rows = await this.db
      .selectFrom('ladder_members as l')
      .leftJoin('account_links as a', (j) => j.onRef('a.user_id', '=', 'l.user_id').onRef('a.uid', '=', 'l.uid'))
      .select(['l.user_id', 'l.uid', 'a.name'])
      .where('l.guild_id', '=', guildId)
      .where('l.opted_out', '=', 0)
      .where('l.uid', 'is not', null)
      .orderBy('l.joined_at')
      .execute();
    return rows.map((r) => ({ userId: r.user_id, uid: r.uid!, name: r.name }));
  }

  /**
   * Every match two of `guildId`'s counted members both played from `since` on (Unix seconds), grouped by the pair (`a` < `b`;
   * with `uid`, `a` is that member and `b` each other one), whether they were
   * on one team, and `a`'s result. One team: by the match's stored detail (the players' teams) when both are in it, else by
   * their results (one team wins together, src/game/duos.ts); unknown (null) for a draw with no detail.
   */
  pairCounts(guildId: string, since = 0, uid?: string): Promise<PairCount[]> {
    return this.#once(guildId, `pairs:${since}:${uid ?? ''}`, () => this.#pairCounts(guildId, since, uid));
  }

  async #pairCounts(guildId: string, since: number, uid: string | undefined): Promise<PairCount[]> {
    const which = uid === undefined ? sql`a.uid < b.uid` : sql`a.uid = ${uid} AND b.uid <> a.uid`;
    // The members' rows first, once (MATERIALIZED on both engines): joined to themselves by match, not probed per member.
    const rows = await sql<{ a: string; b: string; same: number | null; won: number; n: number | string }>`
      WITH mine AS MATERIALIZED (
        SELECT uid, match_uid, won FROM tracked_matches
        WHERE uid IN (${membersOf(this.db, guildId)}) AND played_at >= ${sql.lit(Math.floor(since))} AND won IS NOT NULL
      )
      SELECT a.uid AS a, b.uid AS b,
        CASE WHEN pa.camp IS NOT NULL AND pb.camp IS NOT NULL THEN CASE WHEN pa.camp = pb.camp THEN 1 ELSE 0 END
             WHEN a.won = 2 OR b.won = 2 THEN NULL
             WHEN a.won = b.won THEN 1 ELSE 0 END AS same,
        a.won AS won, COUNT(*) AS n
      FROM mine a
      JOIN mine b ON b.match_uid = a.match_uid AND ${which}
      LEFT JOIN match_players pa ON pa.match_uid = a.match_uid AND pa.player_uid = a.uid
      LEFT JOIN match_players pb ON pb.match_uid = b.match_uid AND pb.player_uid = b.uid
      GROUP BY 1, 2, 3, 4`.execute(this.db);
    return rows.rows.map((r) => ({
      a: r.a,
      b: r.b,
      same: r.same === null ? null : Number(r.same) === 1,
      won: Number(r.won) as 0 | 1 | 2,
      matches: Number(r.n),
    }));
  }

  /** Each counted member's matches with a result from `since` on (Unix seconds), by result. */
  resultCounts(guildId: string, since = 0): Promise<ResultCount[]> {
    return this.#once(guildId, `results:${since}`, () => this.#resultCounts(guildId, since));
  }

  async #resultCounts(guildId: string, since: number): Promise<ResultCount[]> {
    const rows = await this.db
      .selectFrom('tracked_matches')
      .select(['uid', 'won', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('uid', 'in', membersOf(this.db, guildId))
      .where('played_at', '>=', Math.floor(since))
      .where('won', 'is not', null)
      .groupBy(['uid', 'won'])
      .execute();
    return rows.map((r) => ({ uid: r.uid, won: Number(r.won) as 0 | 1 | 2, matches: Number(r.n) }));
  }

  /**
   * The ranked matches with a result recorded of `guildId`'s ladder members who did not opt out, one row a member and match,
   * grouped by season, period, hero, bracket and result.
   * @param since Unix seconds: the start of the recent period.
   */
  heroCounts(guildId: string, since: number): Promise<HeroCount[]> {
    return this.#once(guildId, `heroes:${since}`, () => this.#heroCounts(guildId, since));
  }

  async #heroCounts(guildId: string, since: number): Promise<HeroCount[]> {
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
      WHERE m.uid IN (${membersOf(this.db, guildId)})
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

/** The accounts whose matches count on `guildId`: those listing its ladder's members who did not opt out. */
function membersOf(db: Db, guildId: string) {
  return db.selectFrom('ladder_members').select('uid').where('guild_id', '=', guildId).where('opted_out', '=', 0).where('uid', 'is not', null);
}
