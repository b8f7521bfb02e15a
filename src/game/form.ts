/** Recent form, leaving out practice and unknown-mode matches so wins against bots never read as form. */
import type { MatchSummary } from '../api/schemas.js';
import { matchMode } from './modes.js';

/** `results` newest first (true = win); `rankChange` null when no competitive match states one. */
export interface RecentForm {
  results: boolean[];
  wins: number;
  losses: number;
  rankChange: number | null;
  streak: { win: boolean; length: number };
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
