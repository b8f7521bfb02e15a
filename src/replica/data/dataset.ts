/**
 * The replica's dataset: real captures in ./samples (attributed in its README) plus hand-written fixtures,
 * kept raw in the API's own shapes. Each record's provenance goes out in an `x-replica-provenance` header.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seasonFromIndex } from '../../game/seasons.js';
import { newestUpdateTime } from '../../game/update-times.js';
import * as hand from './handwritten.js';

export type Provenance = 'real' | 'derived' | 'handwritten';
type Json = Record<string, unknown>;

export const SAMPLES_DIR = fileURLToPath(new URL('./samples/', import.meta.url));

export type PostKind = 'patchNotes' | 'balances' | 'devDiaries';

export interface Dataset {
  heroes: Json[];
  heroStats: Map<string, Json>;
  leaderboards: Map<string, Json>;
  items: Json[];
  achievements: Json[];
  achievementDetails: Map<string, Json>;
  battlePasses: Map<string, Json>;
  maps: Json[];
  posts: Record<PostKind, Json[]>;
  gameVersions: Json[];
  /** By uid; the newest capture of a uid captured more than once. */
  players: Map<string, Json>;
  /** Keyed "<uid>:<season number>"; empty unless a test adds some. */
  seasonProfiles: Map<string, Json>;
  /** A hero's statistics of a past season, keyed "<heroId>:<season number>"; empty unless a test adds some (the spec documents no season). */
  seasonHeroStats: Map<string, Json>;
  /** A hero leaderboard of a past season, keyed "<heroId>:<platform>:<season number>"; empty unless a test adds some. */
  seasonLeaderboards: Map<string, Json>;
  /** Every capture in `player/`, older ones of a uid included, so tests can run over every sample file. */
  profileCaptures: ProfileCapture[];
  historyV1: Map<string, Json[]>;
  historyV2: Map<string, Json[]>;
  matches: Map<string, Json>;
  /** `GET /api/v1/seasons`'s list, oldest first; tests and the admin route add to it. */
  seasons: hand.ListedSeason[];
  provenance: Map<string, Provenance>;
}

/** `file` relative to the samples directory. */
export interface ProfileCapture {
  file: string;
  uid: string;
  body: Json;
}

/** Unix seconds, or -Infinity when none can be read. */
function newestUpdate(profile: Json): number {
  return newestUpdateTime(Object.values(asRecord(profile.updates))) ?? Number.NEGATIVE_INFINITY;
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function jsonFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

const { asArray, asRecord } = hand;

function formatMinutesSeconds(seconds: number): string {
  return `${Math.floor(seconds / 60)}m ${Math.floor(seconds % 60)}s`;
}

/** A v1 history entry from an entry of the profile's embedded `match_history` (derived from real data). */
export function v1FromEmbedded(entry: Json): Json {
  const p = asRecord(entry.player_performance);
  const isWin = asRecord(p.is_win);
  return {
    match_map_id: entry.map_id,
    map_thumbnail: entry.map_thumbnail,
    match_play_duration: entry.duration,
    match_season: entry.season,
    match_uid: entry.match_uid,
    match_winner_side: entry.winner_side,
    mvp_uid: entry.mvp_uid,
    svp_uid: entry.svp_uid,
    score_info: entry.score_info ?? null,
    match_time_stamp: entry.match_time_stamp,
    play_mode_id: entry.play_mode_id,
    game_mode_id: entry.game_mode_id,
    match_player: {
      assists: p.assists,
      kills: p.kills,
      deaths: p.deaths,
      is_win: { score: isWin.score ?? null, is_win: isWin.is_win ?? null },
      disconnected: p.disconnected ?? false,
      player_uid: p.player_uid,
      camp: p.camp ?? null,
      score_info: { add_score: p.score_change ?? null, level: p.level ?? null, new_level: p.new_level ?? null, new_score: p.new_score ?? null },
      player_hero: {
        hero_id: p.hero_id,
        hero_name: p.hero_name ?? null,
        hero_type: p.hero_type ?? null,
        kills: p.kills,
        deaths: p.deaths,
        assists: p.assists,
        play_time: entry.duration,
        total_hero_damage: 0,
        total_damage_taken: 0,
        total_hero_heal: 0,
      },
    },
  };
}

/** A v2 history entry from a v1 entry: the documented v2 types (duration and season as text, play_time `{raw, formatted}`). */
export function v2FromV1(entry: Json): Json {
  const player = asRecord(entry.match_player);
  const hero = asRecord(player.player_hero);
  const duration = Number(entry.match_play_duration) || 0;
  const playTime = Number(hero.play_time) || duration;
  return {
    ...entry,
    match_play_duration: formatMinutesSeconds(duration),
    // v1 numbers seasons by index (2 = Season 1.5); v2 by the in-game number as text ("1.5").
    match_season: seasonFromIndex(typeof entry.match_season === 'number' ? entry.match_season : Number(entry.match_season))?.number ?? null,
    match_player: { ...player, player_hero: { ...hero, play_time: { raw: playTime, formatted: formatMinutesSeconds(playTime) } } },
  };
}

/** Tests may point `samplesDir` at `../shared/api-samples`. */
export function loadDataset(samplesDir: string = SAMPLES_DIR): Dataset {
  const provenance = new Map<string, Provenance>();
  const mark = (key: string, p: Provenance) => provenance.set(key, p);

  const heroes = asArray(readJson(jsonFiles(join(samplesDir, 'heroes'))[0]!));
  mark('heroes', 'real');
  const heroRefs: hand.HeroRef[] = heroes.map((h) => ({ id: Number(h.id), name: String(h.name), role: String(h.role ?? '') }));

  const mapCaptures = jsonFiles(join(samplesDir, 'maps')).map((f) => asArray(asRecord(readJson(f)).maps));
  const maps = mapCaptures.reduce<Json[]>((best, m) => (m.length > best.length ? m : best), []);
  mark('maps', 'real');

  // Newest by latest `updates.*` time; ties go to the later file name.
  const profileCaptures: ProfileCapture[] = [];
  const players = new Map<string, Json>();
  for (const file of jsonFiles(join(samplesDir, 'player'))) {
    const body = asRecord(readJson(file));
    const uid = String(body.uid ?? asRecord(body.player).uid);
    profileCaptures.push({ file: relative(samplesDir, file).split(sep).join('/'), uid, body });
    const served = players.get(uid);
    if (served === undefined || newestUpdate(body) >= newestUpdate(served)) players.set(uid, body);
    mark(`player:${uid}`, 'real');
  }

  /** By uid; the first capture wins. */
  const capturedHistories = (folder: string, version: 'historyV1' | 'historyV2') => {
    const out = new Map<string, Json[]>();
    for (const file of jsonFiles(join(samplesDir, folder))) {
      const entries = asArray(asRecord(readJson(file)).match_history);
      const uid = String(asRecord(entries[0]?.match_player).player_uid ?? '');
      if (uid && !out.has(uid)) {
        out.set(uid, entries);
        mark(`${version}:${uid}`, 'real');
      }
    }
    return out;
  };
  const historyV1 = capturedHistories('match-history-v1', 'historyV1');
  const historyV2 = capturedHistories('match-history-v2', 'historyV2');
  for (const [uid, profile] of players) {
    if (!historyV1.has(uid)) {
      historyV1.set(uid, asArray(profile.match_history).map(v1FromEmbedded));
      mark(`historyV1:${uid}`, 'derived');
    }
    if (!historyV2.has(uid)) {
      historyV2.set(uid, historyV1.get(uid)!.map(v2FromV1));
      mark(`historyV2:${uid}`, 'derived');
    }
  }

  const matches = new Map<string, Json>();
  for (const file of jsonFiles(join(samplesDir, 'match'))) {
    const body = asRecord(readJson(file));
    const uid = String(asRecord(body.match_details).match_uid ?? '');
    if (uid) {
      matches.set(uid, body);
      mark(`match:${uid}`, 'real');
    }
  }

  const heroStats = new Map<string, Json>();
  for (const stats of hand.heroStats(heroRefs)) heroStats.set(String(stats.hero_id), stats);
  const achievements = hand.achievements();
  for (const key of [
    'heroStats',
    'heroCostumes',
    'leaderboards',
    'items',
    'achievements',
    'battlePasses',
    'patchNotes',
    'balances',
    'devDiaries',
    'gameVersions',
  ]) {
    mark(key, key === 'heroCostumes' ? 'derived' : 'handwritten');
  }

  return {
    heroes,
    heroStats,
    leaderboards: hand.leaderboards(heroRefs, ['pc', 'ps', 'xbox']),
    items: hand.items(),
    achievements: achievements.list,
    achievementDetails: achievements.details,
    battlePasses: hand.battlePasses(),
    maps,
    posts: { patchNotes: hand.patchNotes(), balances: hand.balances(), devDiaries: hand.devDiaries() },
    gameVersions: hand.gameVersions(),
    players,
    seasonProfiles: new Map(),
    seasonHeroStats: new Map(),
    seasonLeaderboards: new Map(),
    profileCaptures,
    historyV1,
    historyV2,
    matches,
    seasons: hand.seasonListing(players.values()),
    provenance,
  };
}
