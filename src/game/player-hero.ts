/**
 * One player on one hero: the profile's ranked and unranked hero rows added up, the recent matches on that hero and
 * their maps, and the tracked matches of the last seven days (api-spec.md "Player profile"; src/game/tracking.ts).
 */
import type { MatchSummary, PlayerProfile } from '../api/schemas.js';
import { foldName } from './fold.js';
import { matchMode } from './modes.js';
import type { RecordedMatch } from './tracking.js';

type HeroRow = PlayerProfile['heroes_ranked'][number];

/** A hero row's record: `play_time` in seconds, damage, healing and damage taken as totals, `hit_rate` 0–1. */
export interface HeroRecord {
  matches: number;
  wins: number;
  kills: number;
  deaths: number;
  assists: number;
  mvp: number;
  svp: number;
  play_time: number;
  damage: number | null;
  heal: number | null;
  damage_taken: number | null;
  hit_rate: number | null;
  /** Main-attack hits and shots behind `hit_rate`, when the rows give them. */
  shots: { hits: number; total: number } | null;
}

/** `maps` from the recent matches on the hero, most played first; `recent` newest first, practice and bot matches left out. */
export interface PlayerHero {
  ranked: HeroRecord | null;
  unranked: HeroRecord | null;
  total: HeroRecord | null;
  recent: MatchSummary[];
  maps: { mapId: string | null; matches: number; wins: number }[];
}

/** The hero asked for, as the hero list names it: rows match by id, else by folded name (rows can lack an id). */
export interface HeroKey {
  id: string;
  name: string;
}

const sameHero = (key: HeroKey, id: string | null, name: string | null) =>
  id !== null ? id === key.id : name !== null && foldName(name) === foldName(key.name);

function recordOf(row: HeroRow): HeroRecord {
  return {
    matches: row.matches,
    wins: row.wins,
    kills: row.kills,
    deaths: row.deaths,
    assists: row.assists,
    mvp: row.mvp,
    svp: row.svp,
    play_time: row.play_time ?? 0,
    damage: row.damage,
    heal: row.heal,
    damage_taken: row.damage_taken,
    hit_rate: row.hit_rate,
    shots: row.shots,
  };
}

const plus = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));

/**
 * Two records as one. The hit rate is hits over shots when both rows give their shots (Thor's ranked 487 of 1,445 and
 * unranked 358 of 984 are 34.8 %), else the rates weighted by play time.
 */
function sum(a: HeroRecord | null, b: HeroRecord | null): HeroRecord | null {
  if (!a || !b) return a ?? b;
  const weight = a.play_time + b.play_time;
  const shots = a.shots && b.shots ? { hits: a.shots.hits + b.shots.hits, total: a.shots.total + b.shots.total } : null;
  const hit = shots
    ? shots.hits / shots.total
    : a.hit_rate !== null && b.hit_rate !== null && weight > 0
      ? (a.hit_rate * a.play_time + b.hit_rate * b.play_time) / weight
      : (a.hit_rate ?? b.hit_rate);
  return {
    matches: a.matches + b.matches,
    wins: a.wins + b.wins,
    kills: a.kills + b.kills,
    deaths: a.deaths + b.deaths,
    assists: a.assists + b.assists,
    mvp: a.mvp + b.mvp,
    svp: a.svp + b.svp,
    play_time: a.play_time + b.play_time,
    damage: plus(a.damage, b.damage),
    heal: plus(a.heal, b.heal),
    damage_taken: plus(a.damage_taken, b.damage_taken),
    hit_rate: hit,
    shots,
  };
}

function rowsFor(rows: readonly HeroRow[], key: HeroKey): HeroRecord | null {
  let total: HeroRecord | null = null;
  for (const row of rows) if (sameHero(key, row.hero_id, row.hero_name)) total = sum(total, recordOf(row));
  return total && (total.matches > 0 || total.play_time > 0) ? total : null;
}

/** Everything the profile holds of one hero; every part empty (null, []) when the player has no play on it. */
export function playerHero(p: PlayerProfile, key: HeroKey): PlayerHero {
  const ranked = rowsFor(p.heroes_ranked, key);
  const unranked = rowsFor(p.heroes_unranked, key);
  const seen = new Set<string>();
  const recent = p.recent_matches
    .filter((m) => sameHero(key, m.player.hero_id, m.player.hero_name) && matchMode(m.game_mode_id, m.play_mode_id).counts)
    .filter((m) => !seen.has(m.match_uid) && seen.add(m.match_uid))
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0));
  const maps = new Map<string, { mapId: string | null; matches: number; wins: number }>();
  for (const m of recent) {
    const k = m.map_id ?? '';
    const entry = maps.get(k) ?? { mapId: m.map_id, matches: 0, wins: 0 };
    entry.matches += 1;
    entry.wins += m.player.is_win === true ? 1 : 0;
    maps.set(k, entry);
  }
  return {
    ranked,
    unranked,
    total: sum(ranked, unranked),
    recent,
    maps: [...maps.values()].sort((a, b) => b.matches - a.matches || b.wins - a.wins),
  };
}

/** Whether the profile has anything of the hero to show. */
export const hasHeroData = (h: PlayerHero): boolean => h.total !== null || h.recent.length > 0;

/** Damage, healing and damage taken per 10 minutes of play on the hero; null without play time. */
export function heroPerTen(r: HeroRecord): { damage: number | null; heal: number | null; damage_taken: number | null } | null {
  if (r.play_time <= 0) return null;
  const per = (v: number | null) => (v === null ? null : (v / r.play_time) * 600);
  return { damage: per(r.damage), heal: per(r.heal), damage_taken: per(r.damage_taken) };
}

const WEEK_SECONDS = 7 * 24 * 3600;

/** Tracked matches on the hero in the seven days before `now` (Unix ms), real results only (a draw a match not won); null when none was recorded. */
export function heroWeek(
  matches: readonly RecordedMatch[],
  heroId: string,
  nowMs: number,
): { matches: number; wins: number; kills: number; deaths: number; assists: number } | null {
  const since = nowMs / 1000 - WEEK_SECONDS;
  const week = matches.filter((m) => m.heroId === heroId && m.time >= since && (m.won !== null || m.drawn === true) && matchMode(m.modeId).counts);
  if (week.length === 0) return null;
  return {
    matches: week.length,
    wins: week.filter((m) => m.won === true).length,
    kills: week.reduce((s, m) => s + m.kills, 0),
    deaths: week.reduce((s, m) => s + m.deaths, 0),
    assists: week.reduce((s, m) => s + m.assists, 0),
  };
}
