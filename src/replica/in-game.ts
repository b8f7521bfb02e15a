/**
 * What a player does in the game, as the API then shows it: another player icon equipped (the proof of account
 * ownership, src/game/verification.ts, asks for one), or a new rank after ranked matches. Pure functions over the
 * profile's raw JSON (api-spec.md "Player profile"), each returning a changed copy; the replica decides when the API shows it.
 */
import { badgeSlug, floorOfLevel, TIER_COLOURS, tierGroup, tierOf, tierOfLevel } from '../game/ranks.js';
import type { ProfileCapture } from './data/dataset.js';
import { asRecord, type Json } from './data/handwritten.js';

/** A player icon as profiles carry it: `player.icon.player_icon_id` and its image path. */
export interface PlayerIcon {
  id: string;
  /** `/players/heads/player_head_<id>.png`, under the API's image host. */
  path: string;
}

/** The icon `profile` shows; null when it names none. */
export function iconOf(profile: Json): PlayerIcon | null {
  const icon = asRecord(asRecord(profile.player).icon);
  const id = icon.player_icon_id;
  if ((typeof id !== 'string' && typeof id !== 'number') || !/^\d+$/.test(String(id))) return null;
  return { id: String(id), path: typeof icon.player_icon === 'string' ? icon.player_icon : iconPath(String(id)) };
}

/** Where the API's image host keeps a player icon (every real profile's path has this form). */
export const iconPath = (id: string): string => `/players/heads/player_head_${id}.png`;

/** Every player icon the captured profiles wear, by id, in id order: the icons a player can equip in the replica's game. */
export function knownIcons(captures: readonly Pick<ProfileCapture, 'body'>[]): PlayerIcon[] {
  const byId = new Map<string, PlayerIcon>();
  for (const c of captures) {
    const icon = iconOf(c.body);
    if (icon && !byId.has(icon.id)) byId.set(icon.id, icon);
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** `profile` wearing `icon`. */
export function withIcon(profile: Json, icon: PlayerIcon): Json {
  const player = asRecord(profile.player);
  return { ...profile, player: { ...player, icon: { ...asRecord(player.icon), player_icon_id: icon.id, player_icon: icon.path } } };
}

/** The key of the latest season in `player.info.rank_game_season`: the highest `rank_game_id`, then the highest key. */
function latestSeasonKey(seasons: Json): string | undefined {
  return Object.keys(seasons)
    .sort((a, b) => Number(asRecord(seasons[a]).rank_game_id) - Number(asRecord(seasons[b]).rank_game_id) || a.localeCompare(b))
    .at(-1);
}

/**
 * The `rank_game_season` key of the season of `profile`'s newest embedded match ("1001003": its `rank_game_id` is the
 * history's season index + 1, src/game/seasons.ts); undefined without a dated match.
 */
function seasonKeyOfNewestMatch(profile: Json): string | undefined {
  const matches = Array.isArray(profile.match_history) ? (profile.match_history as unknown[]).map(asRecord) : [];
  const newest = matches
    .filter((m) => Number.isInteger(m.season) && Number.isFinite(Number(m.match_time_stamp)))
    .sort((a, b) => Number(b.match_time_stamp) - Number(a.match_time_stamp))[0];
  return newest ? `1001${String(Number(newest.season) + 1).padStart(3, '0')}` : undefined;
}

/** The division (1 … 23) and tier of `profile`'s latest ranked season; null when it lists none. */
export function rankOf(profile: Json): { level: number; tier: string | null } | null {
  const seasons = asRecord(asRecord(asRecord(profile.player).info).rank_game_season);
  const key = latestSeasonKey(seasons);
  if (key === undefined) return null;
  const entry = asRecord(seasons[key]);
  const level = Number(entry.level);
  return Number.isInteger(level) ? { level, tier: tierOf(level, Number(entry.rank_score)) } : null;
}

/** The highest level the game has (One Above All), src/game/ranks.ts. */
export const TOP_LEVEL = 23;

/** The score a player at division `level` (1 … 23) is given: halfway through it; One Above All above Eternity's floor. */
export function scoreOfLevel(level: number): number {
  return level >= TOP_LEVEL ? floorOfLevel(TOP_LEVEL - 1) + 250 : floorOfLevel(level) + 50;
}

/**
 * `profile` ranked at division `level` (1 Bronze III … 23 One Above All) in its latest ranked season, as the API shows it
 * after the matches that took the player there: the season's entry in `player.info.rank_game_season` (level, score, peak,
 * `update_time` = `nowMs`), and `player.rank` (name, badge, colour, and in the August 2025 shape the score and peak).
 * A profile that lists no ranked season (a player never ranked) gets one: the season of its newest match.
 * @throws {RangeError} when `level` is not 1 … 23, or the profile lists no ranked season and no match to date one by.
 */
export function withRank(profile: Json, level: number, nowMs: number): Json {
  const tier = Number.isInteger(level) ? tierOfLevel(level) : null;
  if (tier === null) throw new RangeError(`level must be an integer from 1 to ${TOP_LEVEL}`);
  const player = asRecord(profile.player);
  const info = asRecord(player.info);
  const seasons = asRecord(info.rank_game_season);
  const key = latestSeasonKey(seasons) ?? seasonKeyOfNewestMatch(profile);
  if (key === undefined) throw new RangeError('the profile lists no ranked season');
  const entry: Json = { rank_game_id: Number(key.slice(-3)), win_count: 0, protect_score: 0, ...asRecord(seasons[key]) };
  const score = scoreOfLevel(level);
  const before = Number(entry.rank_score);
  const peak = Math.max(Number(entry.max_rank_score) || 0, score);
  const changed = {
    ...entry,
    level,
    rank_score: score,
    max_level: Math.max(Number(entry.max_level) || 0, level),
    max_rank_score: peak,
    update_time: Math.floor(nowMs / 1000),
    diff_score: Number.isFinite(before) ? score - before : 0,
  };
  const base = tierGroup(tier)!;
  const badge = badgeSlug(base);
  const rank = asRecord(player.rank);
  const text = (n: number) => Math.trunc(n).toLocaleString('en-US');
  const newPeak = score >= (Number(entry.max_rank_score) || 0);
  // The August 2025 shape writes the score and the peak beside the name, and calls the badge `icon`.
  const shown: Json =
    'score' in rank
      ? {
          ...rank,
          rank: tier,
          color: TIER_COLOURS[base],
          score: text(score),
          icon: `/classes/${badge}.png`,
          ...(newPeak ? { peak_rank: { ...asRecord(rank.peak_rank), rank: tier, score: text(score), icon: `/classes/${badge}.png` } } : {}),
        }
      : { ...rank, rank: tier, color: TIER_COLOURS[base], image: `/ranked/${badge}.png` };
  return { ...profile, player: { ...player, rank: shown, info: { ...info, rank_game_season: { ...seasons, [key]: changed } } } };
}
