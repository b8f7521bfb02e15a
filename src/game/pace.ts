/**
 * Rank pace: how far the next division is, and how many wins that takes at the player's recent gain per win. The gains
 * are the `score_change` of the profile's own competitive wins in the rank's season (api-samples README: the rank score
 * after each match), never a guessed constant.
 */
import type { PlayerProfile } from '../api/schemas.js';
import { matchMode } from './modes.js';
import { floorOfLevel, levelOfScore, levelOfTier, shownLevel, tierOfLevel } from './ranks.js';
import { seasonRanks, type RankSummary } from './profile.js';
import { seasonOfHistoryEntry } from './seasons.js';

/** Eternity has no next division: One Above All is a leaderboard place (src/game/ranks.ts). */
const TOP_DIVISION_LEVEL = 22;
/** The newest wins whose gains are averaged: recent enough to be today's pace. */
export const PACE_WINS = 10;
/** The newest ranked matches (wins and losses) that make the win rate of {@link RankPace.matches}. */
export const PACE_MATCHES = 20;

/**
 * The matches the next division takes at the recent pace: the newest {@link PACE_MATCHES} competitive wins and losses of
 * the season with a score change (`basis` of them), their win rate and mean gain a win and loss; `needed` the points over
 * the expected gain a match (rate × gain − (1 − rate) × loss), rounded up, null when that gain is not above zero.
 */
export interface MatchPace {
  needed: number | null;
  winRate: number;
  perWin: number;
  perLoss: number;
  basis: number;
}

/**
 * `points` rank score to `nextTier` (above 0); `perWin` the mean gain of the newest `wins` (≤ {@link PACE_WINS})
 * competitive wins of the season; `winsNeeded` null without such wins. `shield` is the season's `protect_score`, the
 * Chrono Shield's state, when above 0 (docs/data.md: what it is known to mean).
 */
export interface RankPace {
  nextTier: string;
  points: number;
  perWin: number | null;
  wins: number;
  winsNeeded: number | null;
  /** Null without a win and a loss among the recent matches. */
  matches: MatchPace | null;
  shield: number | null;
}

/**
 * {@link MatchPace} of `points` to go at the recent pace: `gains` the score each recent win added, `losses` what each loss took
 * (above 0), the newest {@link PACE_MATCHES} together. Null without a win and a loss to measure.
 */
export function matchPace(points: number, gains: readonly number[], losses: readonly number[]): MatchPace | null {
  if (gains.length === 0 || losses.length === 0) return null;
  const winRate = gains.length / (gains.length + losses.length);
  const perWin = gains.reduce((s, g) => s + g, 0) / gains.length;
  const perLoss = losses.reduce((s, l) => s + l, 0) / losses.length;
  const perMatch = winRate * perWin - (1 - winRate) * perLoss;
  return { needed: perMatch > 0 ? Math.max(1, Math.ceil(points / perMatch)) : null, winRate, perWin, perLoss, basis: gains.length + losses.length };
}

/**
 * Null without a score, at Eternity, or for a rank of a season the recent matches cannot speak for (`rank.season` unknown).
 * The division counted from is the one the game shows: it can be one above the score's, kept after the score fell below
 * its floor (docs/data.md), and the next division is then the one above it.
 */
export function rankPace(p: PlayerProfile, rank: RankSummary): RankPace | null {
  // The tier shown read with its score by the one rule: a tier further from the score than one division above it is not trusted.
  const level = levelOfScore(rank.score) === null ? null : shownLevel(levelOfTier(rank.tier), rank.score);
  if (rank.score === null || level === null || level >= TOP_DIVISION_LEVEL || !rank.season) return null;
  const nextTier = tierOfLevel(level + 1);
  if (!nextTier) return null;
  const points = floorOfLevel(level + 1) - rank.score;
  const season = rank.season.index;
  const gains = [...p.recent_matches]
    .filter(
      (m) =>
        matchMode(m.game_mode_id, m.play_mode_id).ranked &&
        m.player.is_win === true &&
        m.player.score_change !== null &&
        m.player.score_change > 0 &&
        seasonOfHistoryEntry(m.season, 'profile')?.index === season,
    )
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0))
    .slice(0, PACE_WINS)
    .map((m) => m.player.score_change!);
  const perWin = gains.length === 0 ? null : gains.reduce((s, g) => s + g, 0) / gains.length;
  const recent = [...p.recent_matches]
    .filter(
      (m) =>
        matchMode(m.game_mode_id, m.play_mode_id).ranked &&
        (m.player.result === 'win' || m.player.result === 'loss') &&
        m.player.score_change !== null &&
        seasonOfHistoryEntry(m.season, 'profile')?.index === season,
    )
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0))
    .slice(0, PACE_MATCHES);
  const matches = matchPace(
    points,
    recent.filter((m) => m.player.result === 'win').map((m) => m.player.score_change!),
    recent.filter((m) => m.player.result === 'loss').map((m) => -m.player.score_change!),
  );
  const shield = seasonRanks(p).find((s) => s.season.index === season)?.shield ?? null;
  return {
    nextTier,
    points,
    perWin,
    wins: gains.length,
    winsNeeded: perWin === null ? null : Math.max(1, Math.ceil(points / perWin)),
    matches,
    shield: shield !== null && shield > 0 ? shield : null,
  };
}
