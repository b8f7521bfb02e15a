/**
 * A player's record against opposing heroes, from the profile's `hero_matchups`.
 *
 * The real API counts each row from the opposing hero's side: `wins` and `win_rate` are the opposing
 * hero's wins against the player, in competitive matches only (api-samples/README.md). Checked against
 * the profile's own totals: Σ(matches − wins) / Σ matches over the rows equals the profile's ranked win
 * rate on the real captures, and a player who won both of their 2 ranked matches has rows of 1 match
 * and 0 wins. So the player's wins against a hero are `matches − wins`.
 */
import type { PlayerProfile } from '../api/schemas.js';

/** The player's record against one opposing hero. */
export interface Matchup {
  hero_id: string;
  hero_name: string | null;
  hero_class: string | null;
  /** Competitive matches with this hero on the other team. */
  matches: number;
  /** The player's wins in those matches. */
  wins: number;
  /** The player's win rate in those matches, in percent (0–100). */
  winRate: number;
}

/** Matches a matchup needs before it is called a best or worst one. */
export const MATCHUP_MIN_MATCHES = 3;

/** Every opposing hero with at least one match, from the player's side ({@link Matchup}); rows without a hero are left out. */
export function playerMatchups(p: PlayerProfile): Matchup[] {
  return p.hero_matchups.flatMap((m) => {
    if (m.matches <= 0 || m.hero_id === null || /^unknown$/i.test(m.hero_name ?? '')) return [];
    const wins = Math.min(m.matches, Math.max(0, m.matches - m.wins));
    return [{ hero_id: m.hero_id, hero_name: m.hero_name, hero_class: m.hero_class, matches: m.matches, wins, winRate: (wins / m.matches) * 100 }];
  });
}

/** The best and worst matchups, and how many heroes had too few matches to judge. */
export interface MatchupExtremes {
  /** Highest win rate first; ties go to more matches. */
  best: Matchup[];
  /** Lowest win rate first. Never a hero of `best`. */
  worst: Matchup[];
  /** Opposing heroes met in fewer than `minMatches` matches. */
  tooFew: number;
  /** Matches over every row, and the player's wins in them (the weighted win rate of all matchups). */
  total: { matches: number; wins: number };
}

/**
 * The `count` best and worst matchups among heroes met in at least `minMatches` matches. With fewer
 * than `2 × count` such heroes, the upper half is "best" and the lower half "worst".
 */
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
