/**
 * Profiles for players the replica knows only from recorded match details: a captured player's teammates. DERIVED from
 * their rows of the recorded matches, each match dated, placed and moded by a captured player's history entry for it.
 * The account's level, rank and other matches are not in any capture, so the profile has no rank and holds the
 * recorded matches only. The replica serves one only when it is added ({@link addTeammateProfile}): the playground adds
 * the teammates it seats on its ladder, so that a member there has a profile offline. The samples stay as captured.
 */
import { isRankedMode } from '../../game/modes.js';
import { formatUpdateTime } from '../../game/update-times.js';
import { v1FromEmbedded, v2FromV1, type Dataset } from './dataset.js';
import { asArray, asRecord, hms, type Json } from './handwritten.js';

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0);

/** One match of the teammate: the captured entry's match fields, the teammate's own row as its performance. */
interface Played {
  entry: Json;
  row: Json;
  ranked: boolean;
  won: boolean;
}

/** Every recorded match `uid` played that a captured history dates, newest first. */
function playedBy(dataset: Pick<Dataset, 'players' | 'matches'>, uid: string): Played[] {
  const entries = new Map<string, Json>();
  for (const profile of dataset.players.values()) for (const e of asArray(profile.match_history)) entries.set(String(e.match_uid), e);
  const out: Played[] = [];
  for (const [matchUid, body] of dataset.matches) {
    const row = asArray(asRecord(body.match_details).match_players).find((p) => String(p.player_uid) === uid);
    const entry = entries.get(matchUid);
    if (!row || !entry) continue;
    // A history row's score is 1 for a win, 0 for a loss, 2 for a draw (docs/data.md): the details' row number, carried over.
    const score = num(row.is_win);
    const won = score === 1;
    out.push({
      entry: {
        ...entry,
        player_performance: {
          player_uid: Number(uid),
          hero_id: row.cur_hero_id,
          kills: num(row.kills),
          deaths: num(row.deaths),
          assists: num(row.assists),
          is_win: { score, is_win: won },
          disconnected: false,
          camp: row.camp ?? null,
          // The score a ranked match moved is the account's own: no capture has it.
          score_change: null,
          level: null,
          new_level: null,
          new_score: null,
        },
      },
      row,
      ranked: isRankedMode(num(entry.game_mode_id)),
      won,
    });
  }
  return out.sort((a, b) => num(b.entry.match_time_stamp) - num(a.entry.match_time_stamp));
}

/** The mode's totals, as `overall_stats.ranked` and `.unranked` give them. */
function modeTotals(played: Played[], uid: string): Json {
  const seconds = played.reduce((t, p) => t + num(p.entry.duration), 0);
  return {
    total_matches: played.length,
    total_wins: played.filter((p) => p.won).length,
    total_kills: played.reduce((t, p) => t + num(p.row.kills), 0),
    total_deaths: played.reduce((t, p) => t + num(p.row.deaths), 0),
    total_assists: played.reduce((t, p) => t + num(p.row.assists), 0),
    total_time_played: hms(seconds),
    total_time_played_raw: seconds,
    total_mvp: played.filter((p) => String(p.entry.mvp_uid) === uid).length,
    total_svp: played.filter((p) => String(p.entry.svp_uid) === uid).length,
  };
}

/**
 * Each hero's usage over `played`, as captured profiles count it (docs/data.md, "Meaning"): a match counts once, for the
 * hero its row names (`cur_hero_id`, the hero its history entry shows), so the heroes' matches and wins add up to the
 * mode's; play time, kills, deaths and assists go to each hero played, so a hero switched to holds time without a match.
 */
function heroUsage(played: Played[], heroes: Json[], uid: string): Json[] {
  const names = new Map(heroes.map((h) => [num(h.id), String(h.name ?? '')]));
  const usage = new Map<
    number,
    Json & {
      matches: number;
      wins: number;
      mvp: number;
      svp: number;
      kills: number;
      deaths: number;
      assists: number;
      play_time: number;
      damage: number;
      heal: number;
      damage_taken: number;
    }
  >();
  for (const p of played) {
    for (const h of asArray(p.row.player_heroes)) {
      const id = num(h.hero_id);
      const u = usage.get(id) ?? {
        hero_id: id,
        hero_name: (names.get(id) ?? '').toLowerCase(),
        hero_thumbnail: h.hero_icon ?? null,
        matches: 0,
        wins: 0,
        mvp: 0,
        svp: 0,
        kills: 0,
        deaths: 0,
        assists: 0,
        play_time: 0,
        damage: 0,
        heal: 0,
        damage_taken: 0,
        main_attack: { total: 0, hits: 0 },
      };
      u.kills += num(h.kills);
      u.deaths += num(h.deaths);
      u.assists += num(h.assists);
      u.play_time += num(h.play_time);
      if (id === num(p.row.cur_hero_id)) {
        u.matches++;
        if (p.won) u.wins++;
        if (String(p.entry.mvp_uid) === uid) u.mvp++;
        if (String(p.entry.svp_uid) === uid) u.svp++;
        u.damage += num(p.row.total_hero_damage);
        u.heal += num(p.row.total_hero_heal);
        u.damage_taken += num(p.row.total_damage_taken);
      }
      usage.set(id, u);
    }
  }
  return [...usage.values()].sort((a, b) => b.play_time - a.play_time);
}

/**
 * The profile of `uid`, a player of the recorded match details with no capture of their own, in the captured profiles'
 * shape. Its update times are its newest recorded match's. undefined when no recorded match that a capture dates names
 * them.
 */
export function teammateProfile(dataset: Pick<Dataset, 'players' | 'matches' | 'heroes'>, uid: string): Json | undefined {
  const played = playedBy(dataset, uid);
  const newest = played[0];
  if (!newest) return undefined;
  const name = String(newest.row.nick_name ?? uid);
  const icon = String(newest.row.player_icon ?? '');
  const ranked = played.filter((p) => p.ranked);
  const unranked = played.filter((p) => !p.ranked);
  const updated = formatUpdateTime(num(newest.entry.match_time_stamp) * 1000);
  return {
    uid: Number(uid),
    name,
    updates: { info_update_time: updated, last_history_update: updated, last_inserted_match: updated, last_update_request: null },
    player: {
      uid: Number(uid),
      level: null,
      name,
      icon: { player_icon_id: icon, player_icon: icon ? `/players/heads/player_head_${icon}.png` : null, banner: null },
      rank: { rank: null, image: null, color: null },
      team: {},
      info: { completed_achievements: null, login_os: null, rank_game_season: {} },
    },
    isPrivate: false,
    overall_stats: {
      total_matches: played.length,
      total_wins: played.filter((p) => p.won).length,
      unranked: modeTotals(unranked, uid),
      ranked: modeTotals(ranked, uid),
    },
    match_history: played.map((p) => p.entry),
    rank_history: [],
    hero_matchups: [],
    team_mates: [],
    heroes_ranked: heroUsage(ranked, dataset.heroes, uid),
    heroes_unranked: heroUsage(unranked, dataset.heroes, uid),
    maps: [],
  };
}

/**
 * Adds {@link teammateProfile} of `uid` to the players the replica serves, with its match history (both versions),
 * each marked derived. A captured player is left as captured.
 * @returns whether the replica now serves a profile of `uid`.
 */
export function addTeammateProfile(dataset: Dataset, uid: string): boolean {
  if (dataset.players.has(uid)) return true;
  const profile = teammateProfile(dataset, uid);
  if (!profile) return false;
  dataset.players.set(uid, profile);
  const v1 = (profile.match_history as Json[]).map(v1FromEmbedded);
  dataset.historyV1.set(uid, v1);
  dataset.historyV2.set(uid, v1.map(v2FromV1));
  for (const key of [`player:${uid}`, `historyV1:${uid}`, `historyV2:${uid}`]) dataset.provenance.set(key, 'derived');
  return true;
}
