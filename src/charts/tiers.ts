/**
 * Tier bands of rank score, for shading rank charts. The numbers repeat src/game/ranks.ts (a test keeps
 * them equal); One Above All has no score band, so it shares the top one.
 */
import { chartText } from './words.js';

export const BASE_SCORE = 3000;
export const DIVISION_SCORE = 100;
const DIVISIONS_PER_TIER = 3;

/** `[from, to)` of rank score; `to` is Infinity for the top band. `color` is "#rrggbb". `label` in English; {@link bandsWithin} gives it in the locale. */
export interface TierBand {
  tier: string;
  label: string;
  from: number;
  to: number;
  color: string;
}

const DIVIDED: readonly { tier: string; color: string }[] = [
  { tier: 'Bronze', color: '#c98a5e' },
  { tier: 'Silver', color: '#b4bfca' },
  { tier: 'Gold', color: '#e8c15a' },
  { tier: 'Platinum', color: '#5fd0c4' },
  { tier: 'Diamond', color: '#6fa8ff' },
  { tier: 'Grandmaster', color: '#b57cff' },
  { tier: 'Celestial', color: '#ff8fb8' },
];

/** Lowest first. */
export const TIER_BANDS: readonly TierBand[] = [
  ...DIVIDED.map(({ tier, color }, i) => {
    const from = BASE_SCORE + i * DIVISIONS_PER_TIER * DIVISION_SCORE;
    return { tier, label: tier, from, to: from + DIVISIONS_PER_TIER * DIVISION_SCORE, color };
  }),
  {
    tier: 'Eternity',
    label: 'Eternity / One Above All',
    from: BASE_SCORE + DIVIDED.length * DIVISIONS_PER_TIER * DIVISION_SCORE,
    to: Number.POSITIVE_INFINITY,
    color: '#ff6b5e',
  },
];

/** Clipped to `[min, max]`; lowest first; labelled as the game names the tiers in the current locale. */
export function bandsWithin(min: number, max: number): TierBand[] {
  return TIER_BANDS.filter((b) => b.to > min && b.from < max).map((b) => ({
    ...b,
    label: b.to === Number.POSITIVE_INFINITY ? chartText.topBand() : chartText.tier(b.tier),
    from: Math.max(b.from, min),
    to: Math.min(b.to, max),
  }));
}

/** Null below Bronze III. */
export function bandOf(score: number): TierBand | null {
  return TIER_BANDS.find((b) => score >= b.from && score < b.to) ?? null;
}
