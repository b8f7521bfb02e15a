/**
 * Competitive ranks: the tier of a rank level or rank score, and rank scores shown the way the game
 * shows them.
 *
 * The API's rank `level` counts divisions from 1: Bronze III, II, I (1–3), Silver (4–6), Gold (7–9),
 * Platinum (10–12), Diamond (13–15), Grandmaster (16–18), Celestial (19–21), Eternity (22) and One Above
 * All (23). Each division spans 100 rank score from 3,000 (Bronze III 3,000–3,099, Gold II 3,700–3,799).
 * Checked on every real profile in api-samples: level 16 "Grandmaster III" at 4,562, level 21 "Celestial I"
 * at 5,013, level 8 "Gold II" at 3,752, level 6 "Silver I" at 3,507.
 */
import { decimal, integer } from '../i18n/format.js';

const TIERS = ['Bronze', 'Silver', 'Gold', 'Platinum', 'Diamond', 'Grandmaster', 'Celestial'] as const;
const DIVISIONS = ['III', 'II', 'I'] as const;
/** The first level above the divisions. */
const ETERNITY_LEVEL = 22;
const ONE_ABOVE_ALL_LEVEL = 23;
/** Rank score of the bottom of Bronze III, and the width of one division. */
const BASE_SCORE = 3000;
const DIVISION_SCORE = 100;

/** The tier name of a rank level ("Gold II"); null for levels the game does not have. */
export function tierOfLevel(level: number | null | undefined): string | null {
  if (level === null || level === undefined || !Number.isInteger(level) || level < 1 || level > ONE_ABOVE_ALL_LEVEL) return null;
  if (level === ONE_ABOVE_ALL_LEVEL) return 'One Above All';
  if (level === ETERNITY_LEVEL) return 'Eternity';
  const tier = TIERS[Math.floor((level - 1) / 3)]!;
  return `${tier} ${DIVISIONS[(level - 1) % 3]}`;
}

/** The rank level a rank score falls in (1 … 22; One Above All is a leaderboard place, not a score); null below 3,000 or without a score. */
export function levelOfScore(score: number | null | undefined): number | null {
  if (score === null || score === undefined || !Number.isFinite(score) || score < BASE_SCORE) return null;
  return Math.min(ETERNITY_LEVEL, Math.floor((score - BASE_SCORE) / DIVISION_SCORE) + 1);
}

/** The tier of a level, else of a score ("Invalid level" profiles still have both). */
export function tierOf(level: number | null | undefined, score: number | null | undefined): string | null {
  return tierOfLevel(level) ?? tierOfLevel(levelOfScore(score));
}

/** True when the API's rank name is a tier name, not a placeholder such as "Invalid level". */
export function isTierName(name: string | null | undefined): name is string {
  if (!name?.trim()) return false;
  return /^(bronze|silver|gold|platinum|diamond|grandmaster|celestial|eternity|one above all)\b/i.test(name.trim());
}

/**
 * A rank score as the game shows it: whole points, cut toward zero, never rounded up (3,763.53 →
 * "3,763"; "3.763" in German: the current locale's digits, src/i18n/format.ts). An em dash for no score.
 */
export function rankScore(score: number | null | undefined): string {
  return score === null || score === undefined || !Number.isFinite(score) ? '—' : integer(Math.trunc(score));
}

/** A rank-score change with its sign, one decimal cut toward zero, in the current locale's digits (+37.98 → "+37.9", "+37,9" in French; −18.5 → "−18.5"; 0 → "±0"). */
export function rankScoreChange(change: number | null | undefined): string {
  if (change === null || change === undefined || !Number.isFinite(change)) return '—';
  const cut = Math.trunc(change * 10) / 10;
  if (cut === 0) return '±0';
  return `${cut > 0 ? '+' : '−'}${decimal(Math.abs(cut), 1)}`;
}
