/** Recent form, leaving out practice and unknown-mode matches so wins against bots never read as form. */
import type { MatchResult, MatchSummary } from '../api/schemas.js';
import { matchMode } from './modes.js';

/**
 * `results` newest first; `rankChange` null when no competitive match states one. A draw is a result of its own, neither a
 * win nor a loss (docs/data.md "A draw is is_win.score 2").
 */
export interface RecentForm {
  results: MatchResult[];
  wins: number;
  losses: number;
  draws: number;
  rankChange: number | null;
  streak: { result: MatchResult; length: number };
  leftOut: number;
}

export const FORM_MATCHES = 20;

/** Over the newest `limit` real results (`matches` in any order, deduplicated by UID); null when none counts. */
export function recentForm(matches: readonly MatchSummary[], limit = FORM_MATCHES): RecentForm | null {
  const seen = new Set<string>();
  const unique = matches
    .filter((m) => !seen.has(m.match_uid) && seen.add(m.match_uid))
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0))
    .map((m) => ({ m, mode: matchMode(m.game_mode_id, m.play_mode_id) }));
  const real = unique.filter(({ m, mode }) => mode.counts && m.player.result !== null).slice(0, limit);
  if (real.length === 0) return null;
  const leftOut = unique.filter(({ mode }) => !mode.counts).length;
  const results = real.map(({ m }) => m.player.result!);
  const changes = real.filter(({ m, mode }) => mode.ranked && m.player.score_change !== null).map(({ m }) => m.player.score_change!);
  let length = 1;
  while (length < results.length && results[length] === results[0]) length++;
  const count = (r: MatchResult) => results.filter((x) => x === r).length;
  const wins = count('win');
  return {
    results,
    wins,
    losses: count('loss'),
    draws: count('draw'),
    rankChange: changes.length === 0 ? null : changes.reduce((s, c) => s + c, 0),
    streak: { result: results[0]!, length },
    leftOut,
  };
}
