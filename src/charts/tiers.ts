/**
 * The competitive tiers as bands of rank score, for shading behind rank charts.
 *
 * The numbers are those of src/game/ranks.ts (which keeps them private): Bronze III starts at 3,000
 * rank score, each division spans 100, each of the seven divided tiers has three divisions (300 rank
 * score), and Eternity runs from 5,100 up. One Above All is a leaderboard place without a score band,
 * so it shares the top band. test/charts/tiers.test.ts checks these bands against ranks.ts's
 * `levelOfScore` and `tierOfLevel`, so the two cannot drift apart.
 */
import { chartText } from './strings.js';

/** Rank score of the bottom of Bronze III. */
export const BASE_SCORE = 3000;
/** Rank score of one division. */
export const DIVISION_SCORE = 100;
/** Divisions in each tier below Eternity. */
const DIVISIONS_PER_TIER = 3;

/** A tier's band of rank score: `[from, to)`; `to` is Infinity for the top band. */
export interface TierBand {
  /** The tier's name as the game writes it ("Grandmaster"); the top band's label is longer. */
  tier: string;
  /** What the chart writes beside the band ("Eternity / One Above All" for the top one). */
  label: string;
  from: number;
  to: number;
  /** The band's colour, "#rrggbb": close to the tier's colour in the game, readable on the dark theme. */
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

/** Every band, lowest first: the seven divided tiers, then Eternity / One Above All from 5,100 up. */
export const TIER_BANDS: readonly TierBand[] = [
  ...DIVIDED.map(({ tier, color }, i) => {
    const from = BASE_SCORE + i * DIVISIONS_PER_TIER * DIVISION_SCORE;
    return { tier, label: tier, from, to: from + DIVISIONS_PER_TIER * DIVISION_SCORE, color };
  }),
  {
    tier: 'Eternity',
    label: chartText.topBand(),
    from: BASE_SCORE + DIVIDED.length * DIVISIONS_PER_TIER * DIVISION_SCORE,
    to: Number.POSITIVE_INFINITY,
    color: '#ff6b5e',
  },
];

/** The bands that overlap `[min, max]` rank score, each clipped to it; lowest first. */
export function bandsWithin(min: number, max: number): TierBand[] {
  return TIER_BANDS.filter((b) => b.to > min && b.from < max).map((b) => ({ ...b, from: Math.max(b.from, min), to: Math.min(b.to, max) }));
}

/** The band a rank score falls in; null below Bronze III. */
export function bandOf(score: number): TierBand | null {
  return TIER_BANDS.find((b) => score >= b.from && score < b.to) ?? null;
}
