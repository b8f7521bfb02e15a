/**
 * Records against opposing heroes (`hero_matchups`). The API counts each row from the opposing hero's side,
 * so the player's wins are `matches − wins` (checked: that sums to the profile's ranked win rate).
 */
import type { PlayerProfile } from '../api/schemas.js';

export interface Matchup {
  hero_id: string;
  hero_name: string | null;
  hero_class: string | null;
  matches: number;
  wins: number;
  /** Percent (0–100). */
  winRate: number;
}

export const MATCHUP_MIN_MATCHES = 3;

export function playerMatchups(p: PlayerProfile): Matchup[] {
  return p.hero_matchups.flatMap((m) => {
    if (m.matches <= 0 || m.hero_id === null || /^unknown$/i.test(m.hero_name ?? '')) return [];
    const wins = Math.min(m.matches, Math.max(0, m.matches - m.wins));
    return [{ hero_id: m.hero_id, hero_name: m.hero_name, hero_class: m.hero_class, matches: m.matches, wins, winRate: (wins / m.matches) * 100 }];
  });
}

/** `best` highest win rate first, `worst` lowest first, never overlapping; `tooFew` below `minMatches`. */
export interface MatchupExtremes {
  best: Matchup[];
  worst: Matchup[];
  tooFew: number;
  total: { matches: number; wins: number };
}

/** With fewer than `2 × count` judged heroes, the upper half is "best" and the lower half "worst". */
export function matchupExtremes(p: PlayerProfile, count = 5, minMatches = MATCHUP_MIN_MATCHES): MatchupExtremes {
  const all = playerMatchups(p);
  const judged = all.filter((m) => m.matches >= minMatches);
  const order = (a: Matchup, b: Matchup) => b.winRate - a.winRate || b.matches - a.matches || a.hero_id.localeCompare(b.hero_id);
  const sorted = [...judged].sort(order);
  const bestCount = Math.min(count, Math.ceil(sorted.length / 2));
  const worstCount = Math.min(count, sorted.length - bestCount);
  const worst = sorted.slice(sorted.length - worstCount).reverse();
  return {
    best: sorted.slice(0, bestCount),
    worst,
    tooFew: all.length - judged.length,
    total: { matches: all.reduce((s, m) => s + m.matches, 0), wins: all.reduce((s, m) => s + m.wins, 0) },
  };
}
