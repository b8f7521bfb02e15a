/**
 * The replica's season ladder (`GET /api/v2/players/leaderboard`) and season listing (`GET /api/v1/seasons`), neither in
 * the spec: shapes as public clients read them (docs/data.md "The API's other reads"). HAND-WRITTEN: the players are drawn
 * by a seeded generator, and the captured players stand in the current season's PC ladder at their own rank score, so a
 * member's linked account finds its place offline.
 */
import { badgeSlug, levelOfScore, TIER_COLOURS, tierGroup, tierOf } from '../game/ranks.js';
import { asRecord, handleOf, rng, type Json } from './data/handwritten.js';
export { listedNumber, seasonListing, type ListedSeason } from './data/handwritten.js';
import { iconPath } from './in-game.js';

/** The ladder's devices (PlayStation is `psn` here). */
export const LADDER_DEVICES = ['pc', 'psn', 'xbox'] as const;

/** Players on each generated ladder: ten pages of 100. */
export const LADDER_SIZE = 1_000;

/** A ladder entry in the shape clients read: `rank.rank` an object, wins and matches as `win_count` and `battle_count`. */
function entry(uid: string, name: string, iconId: string, score: number, peak: number, level: number, wins: number, matches: number, season: number): Json {
  const tier = tierOf(level, score) ?? 'Bronze III';
  const base = tierGroup(tier) ?? 'Bronze';
  return {
    uid,
    name,
    score: Math.round(score),
    icon: { player_icon_id: iconId, player_icon: iconPath(iconId) },
    rank: {
      rank: { rank: tier, image: `/ranked/${badgeSlug(base)}.png`, color: TIER_COLOURS[base] },
      win_rate: matches > 0 ? `${((wins / matches) * 100).toFixed(1)}%` : '0%',
      rank_score: Number(score.toFixed(6)),
      max_rank_score: Number(peak.toFixed(6)),
      level,
      max_level: level,
      win_count: wins,
      battle_count: matches,
      season_number: season,
    },
  };
}

/** One Above All is the ladder's top places within Eternity, not a score of its own. */
const ONE_ABOVE_ALL_PLACES = 500;

/** A captured profile as a ladder entry at its latest ranked season's score; null without one. */
function capturedEntry(profile: Json, season: number): Json | null {
  const player = asRecord(profile.player);
  const seasons = asRecord(asRecord(player.info).rank_game_season);
  const latest = Object.values(seasons)
    .map(asRecord)
    .sort((a, b) => Number(a.rank_game_id) - Number(b.rank_game_id))
    .at(-1);
  const score = Number(latest?.rank_score);
  const level = Number(latest?.level);
  const uid = String(player.uid ?? profile.uid ?? '');
  if (!latest || !Number.isFinite(score) || !Number.isInteger(level) || uid === '') return null;
  const wins = Number(latest.win_count) || 0;
  const ranked = asRecord(asRecord(profile.overall_stats).ranked);
  const matches = Math.max(wins, Number(ranked.total_matches) || wins * 2);
  const icon = String(asRecord(player.icon).player_icon_id ?? '30000001');
  return entry(
    uid,
    String(player.name ?? profile.name ?? uid),
    icon,
    score,
    Math.max(score, Number(latest.max_rank_score) || score),
    level,
    wins,
    matches,
    season,
  );
}

/**
 * The ladder of `season` on `device`, best first: {@link LADDER_SIZE} generated players from One Above All down, and on
 * the current season's PC ladder the captured players at their own score. Deterministic.
 */
export function seasonLadder(season: number, device: (typeof LADDER_DEVICES)[number], current: boolean, profiles: Iterable<Json>): Json[] {
  const r = rng(Math.round(season * 10) * 31 + LADDER_DEVICES.indexOf(device) * 7 + 5);
  let score = 5_900 - r() * 400;
  const out: Json[] = [];
  for (let i = 0; i < LADDER_SIZE; i++) {
    score -= r() * 2.8;
    const matches = 120 + Math.floor(r() * 380);
    const wins = Math.round(matches * (0.5 + r() * 0.2));
    const name = handleOf(r, i);
    const uid = String(900_000_000 + Math.floor(r() * 99_999_999));
    const level = i < ONE_ABOVE_ALL_PLACES && levelOfScore(score) === 22 ? 23 : (levelOfScore(score) ?? 1);
    out.push(entry(uid, name, String(30_000_001 + Math.floor(r() * 600)), score, score + r() * 80, level, wins, matches, season));
  }
  if (current && device === 'pc') {
    for (const profile of profiles) {
      const captured = capturedEntry(profile, season);
      if (captured) out.push(captured);
    }
    out.sort((a, b) => Number(asRecord(b.rank).rank_score) - Number(asRecord(a.rank).rank_score));
  }
  return out;
}
