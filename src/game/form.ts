/**
 * Recent form: a player's latest real results, from the matches the bot already reads (the profile's
 * embedded history or a history page). Practice, bot and unknown-mode matches are left out
 * (src/game/modes.ts), so a run of wins against bots never reads as form.
 */
import type { MatchSummary } from '../api/schemas.js';
import { matchMode } from './modes.js';

/** The latest real results of a player. */
export interface RecentForm {
  /** Newest first: true for a win, false for a loss. */
  results: boolean[];
  wins: number;
  losses: number;
  /** Sum of the rank-score changes of the competitive matches among them; null when none states one. */
  rankChange: number | null;
  /** The current run of wins or losses (length ≥ 1). */
  streak: { win: boolean; length: number };
  /** Matches left out: against bots, for practice, or of an unknown mode (it could be either). */
  leftOut: number;
}

/** Most matches recent form covers. */
export const FORM_MATCHES = 20;

/**
 * The form over the newest `limit` real results of `matches` (any order; each match once by its UID).
 * Null when no match counts.
 */
export function recentForm(matches: readonly MatchSummary[], limit = FORM_MATCHES): RecentForm | null {
  const seen = new Set<string>();
  const unique = matches
    .filter((m) => !seen.has(m.match_uid) && seen.add(m.match_uid))
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0))
    .map((m) => ({ m, mode: matchMode(m.game_mode_id, m.play_mode_id) }));
  const real = unique.filter(({ m, mode }) => mode.counts && m.player.is_win !== null).slice(0, limit);
  if (real.length === 0) return null;
  const leftOut = unique.filter(({ mode }) => !mode.counts).length;
  const results = real.map(({ m }) => m.player.is_win === true);
  const changes = real.filter(({ m, mode }) => mode.ranked && m.player.score_change !== null).map(({ m }) => m.player.score_change!);
  let length = 1;
  while (length < results.length && results[length] === results[0]) length++;
  const wins = results.filter(Boolean).length;
  return {
    results,
    wins,
    losses: results.length - wins,
    rankChange: changes.length === 0 ? null : changes.reduce((s, c) => s + c, 0),
    streak: { win: results[0]!, length },
    leftOut,
  };
}
