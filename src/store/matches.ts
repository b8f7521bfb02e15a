/**
 * The match store: every match detail the bot reads, kept for good (api-spec.md endpoint 20: a match never changes once the
 * API has it), in three tables on both engines: the match, its players in the API's order, and each player's heroes. A stored
 * match answers `/match`, `/last` and `/scout` without an API request (src/catalog/match-read.ts).
 */
import type { MatchDetail, MatchPlayer } from '../api/schemas.js';
import type { MatchResult } from '../api/lenient.js';
import type { Db } from './database.js';
import type { MatchPlayerHeroesTable, MatchPlayersTable } from './schema.js';

const RESULTS: ReadonlySet<string> = new Set<MatchResult>(['win', 'loss', 'draw']);

/** Errors propagate to the caller. */
export class MatchStoreRepository {
  constructor(private readonly db: Db) {}

  /**
   * The stored detail of `matchUid` as the API gave it (parsed), players and heroes in its order, and when it was stored
   * (epoch ms); null when not stored.
   */
  async get(matchUid: string): Promise<{ detail: MatchDetail; storedAt: number } | null> {
    const match = await this.db.selectFrom('matches').selectAll().where('match_uid', '=', matchUid).executeTakeFirst();
    if (!match) return null;
    const [players, heroes] = await Promise.all([
      this.db.selectFrom('match_players').selectAll().where('match_uid', '=', matchUid).orderBy('slot').execute(),
      this.db.selectFrom('match_player_heroes').selectAll().where('match_uid', '=', matchUid).orderBy('slot').orderBy('hero_slot').execute(),
    ]);
    const detail: MatchDetail = {
      match_uid: match.match_uid,
      map_id: match.map_id,
      map_name: match.map_name,
      game_mode_id: numberOrNull(match.mode_id),
      game_mode_name: match.mode_name,
      replay_id: match.replay_id,
      mvp_uid: match.mvp_uid,
      svp_uid: match.svp_uid,
      mvp_hero_id: match.mvp_hero_id,
      svp_hero_id: match.svp_hero_id,
      players: players.map((p) =>
        playerOf(
          p,
          heroes.filter((h) => h.slot === p.slot),
        ),
      ),
    };
    return { detail, storedAt: Number(match.stored_at) };
  }

  /**
   * Stores `detail` unless its match is stored already (by another process too: the first one's rows stay), and ends its
   * queued fetch (src/store/match-fetches.ts). One transaction.
   * @param now epoch ms, kept as when the bot first read it.
   * @returns true when this call stored it.
   */
  async put(detail: MatchDetail, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // Whoever stores it, nobody needs to read it again.
      await trx.deleteFrom('match_fetches').where('match_uid', '=', detail.match_uid).execute();
      const inserted = await trx
        .insertInto('matches')
        .values({
          match_uid: detail.match_uid,
          map_id: detail.map_id,
          map_name: detail.map_name,
          mode_id: detail.game_mode_id,
          mode_name: detail.game_mode_name,
          replay_id: detail.replay_id,
          mvp_uid: detail.mvp_uid,
          svp_uid: detail.svp_uid,
          mvp_hero_id: detail.mvp_hero_id,
          svp_hero_id: detail.svp_hero_id,
          stored_at: now,
        })
        .onConflict((oc) => oc.column('match_uid').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      if (detail.players.length === 0) return true;
      await trx
        .insertInto('match_players')
        .values(
          detail.players.map((p, slot) => ({
            match_uid: detail.match_uid,
            slot,
            player_uid: p.player_uid,
            nick_name: p.nick_name,
            player_icon: p.player_icon,
            player_icon_id: p.player_icon_id,
            camp: p.camp,
            cur_hero_id: p.cur_hero_id,
            cur_hero_icon: p.cur_hero_icon,
            result: p.result,
            kills: p.kills,
            deaths: p.deaths,
            assists: p.assists,
            hero_damage: p.total_hero_damage,
            hero_heal: p.total_hero_heal,
            damage_taken: p.total_damage_taken,
            badges: p.badges.length > 0 ? JSON.stringify(p.badges) : null,
          })),
        )
        .execute();
      const heroes = detail.players.flatMap((p, slot) =>
        p.heroes.map((h, heroSlot) => ({
          match_uid: detail.match_uid,
          slot,
          hero_slot: heroSlot,
          hero_id: h.hero_id,
          hero_icon: h.hero_icon,
          play_time: h.play_time,
          kills: h.kills,
          deaths: h.deaths,
          assists: h.assists,
          hit_rate: h.session_hit_rate,
        })),
      );
      if (heroes.length > 0) await trx.insertInto('match_player_heroes').values(heroes).execute();
      return true;
    });
  }

  /** Which of `matchUids` are stored. */
  async stored(matchUids: readonly string[]): Promise<Set<string>> {
    if (matchUids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('matches')
      .select('match_uid')
      .where('match_uid', 'in', [...new Set(matchUids)])
      .execute();
    return new Set(rows.map((r) => r.match_uid));
  }

  /** How many matches are stored. */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('matches')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

function playerOf(p: MatchPlayersTable, heroes: MatchPlayerHeroesTable[]): MatchPlayer {
  const result = p.result !== null && RESULTS.has(p.result) ? (p.result as MatchResult) : null;
  return {
    player_uid: p.player_uid,
    nick_name: p.nick_name,
    camp: numberOrNull(p.camp),
    cur_hero_id: p.cur_hero_id,
    cur_hero_icon: p.cur_hero_icon,
    kills: Number(p.kills),
    deaths: Number(p.deaths),
    assists: Number(p.assists),
    total_hero_damage: Number(p.hero_damage),
    total_hero_heal: Number(p.hero_heal),
    total_damage_taken: Number(p.damage_taken),
    badges: badgesOf(p.badges),
    result,
    is_win: result === 'win' ? true : result === 'loss' ? false : null,
    player_icon: p.player_icon,
    player_icon_id: p.player_icon_id,
    heroes: heroes.map((h) => ({
      hero_id: h.hero_id,
      play_time: numberOrNull(h.play_time),
      kills: Number(h.kills),
      deaths: Number(h.deaths),
      assists: Number(h.assists),
      session_hit_rate: numberOrNull(h.hit_rate),
      hero_icon: h.hero_icon,
    })),
  };
}

/** PostgreSQL's driver may give a 64-bit or numeric column as text. */
function numberOrNull(v: number | string | null): number | null {
  return v === null ? null : Number(v);
}

function badgesOf(json: string | null): MatchPlayer['badges'] {
  if (json === null) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? (parsed as MatchPlayer['badges']) : [];
  } catch {
    return [];
  }
}
