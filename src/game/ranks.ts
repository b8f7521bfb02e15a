/**
 * Ranks. The API's `level` counts divisions from 1 (Bronze III) to 21 (Celestial I), then Eternity (22) and
 * One Above All (23); each division spans 100 rank score from 3,000 (checked on the real profiles). A season's level can
 * be one above its score's division: the game keeps a division reached when the score falls below it (docs/data.md).
 * {@link shownLevel} is the one rule for the division a level and a score show; the API's rank text is not trusted.
 */
import { decimal, integer } from '../i18n/format.js';

const TIERS = ['Bronze', 'Silver', 'Gold', 'Platinum', 'Diamond', 'Grandmaster', 'Celestial'] as const;
/** The divisions of a tier, lowest first. */
export const DIVISIONS = ['III', 'II', 'I'] as const;
/** Every tier as the game names it, lowest first: those with divisions, then Eternity and One Above All. */
export const TIER_NAMES = [...TIERS, 'Eternity', 'One Above All'] as const;
export type TierName = (typeof TIER_NAMES)[number];
const ETERNITY_LEVEL = 22;
const ONE_ABOVE_ALL_LEVEL = 23;
const BASE_SCORE = 3000;
const DIVISION_SCORE = 100;

/** "Gold II"; null for levels the game does not have. */
export function tierOfLevel(level: number | null | undefined): string | null {
  if (level === null || level === undefined || !Number.isInteger(level) || level < 1 || level > ONE_ABOVE_ALL_LEVEL) return null;
  if (level === ONE_ABOVE_ALL_LEVEL) return 'One Above All';
  if (level === ETERNITY_LEVEL) return 'Eternity';
  const tier = TIERS[Math.floor((level - 1) / 3)]!;
  return `${tier} ${DIVISIONS[(level - 1) % 3]}`;
}

/** 1 … 22 (One Above All is a leaderboard place, not a score); null below 3,000. */
export function levelOfScore(score: number | null | undefined): number | null {
  if (score === null || score === undefined || !Number.isFinite(score) || score < BASE_SCORE) return null;
  return Math.min(ETERNITY_LEVEL, Math.floor((score - BASE_SCORE) / DIVISION_SCORE) + 1);
}

/** The inverse of {@link tierOfLevel}: 5 for "Silver II", 22 for "Eternity"; null for anything else. */
export function levelOfTier(tier: string | null | undefined): number | null {
  const name = tier?.trim().toLowerCase();
  if (!name) return null;
  if (name === 'one above all') return ONE_ABOVE_ALL_LEVEL;
  if (name === 'eternity') return ETERNITY_LEVEL;
  const [base, division] = name.split(/\s+/);
  const t = TIERS.findIndex((x) => x.toLowerCase() === base);
  const d = DIVISIONS.findIndex((x) => x.toLowerCase() === division);
  return t < 0 || d < 0 ? null : t * 3 + d + 1;
}

/** The lowest rank score of a division `level` (1 … 22): 3,000 for Bronze III. */
export function floorOfLevel(level: number): number {
  return BASE_SCORE + (level - 1) * DIVISION_SCORE;
}

/**
 * The division the game shows for a `level` and a rank `score` read together (a season's entry, a match's row): the level
 * when it is the score's division or the one above (a division kept after the score fell below its floor, docs/data.md
 * "What the API's fields mean"), else the score's division, which a level further away does not outweigh. The level alone
 * without a score from 3,000 up, the score's division without a usable level. 1 … 23; null when neither says.
 */
export function shownLevel(level: number | null | undefined, score: number | null | undefined): number | null {
  const byLevel = tierOfLevel(level) === null ? null : level!;
  const byScore = levelOfScore(score);
  if (byScore === null) return byLevel;
  if (byLevel === null) return byScore;
  return byLevel === byScore || byLevel === byScore + 1 ? byLevel : byScore;
}

/** "Grandmaster III": the tier of {@link shownLevel}; null when neither the level nor the score names one. */
export function tierOf(level: number | null | undefined, score: number | null | undefined): string | null {
  return tierOfLevel(shownLevel(level, score));
}

/** The tier without its division: "Grandmaster" for "Grandmaster III", "Eternity"; null for anything else. */
export function tierGroup(tier: string | null | undefined): TierName | null {
  const name = tier?.trim().toLowerCase();
  if (!name) return null;
  return TIER_NAMES.find((t) => name === t.toLowerCase() || name.startsWith(`${t.toLowerCase()} `)) ?? null;
}

/** The colour of each tier's badge as real profiles carry it (`player.rank.color`); those no capture shows are hand-picked. */
export const TIER_COLOURS: Record<TierName, string> = {
  Bronze: '#A7693F',
  Silver: '#7B9196',
  Gold: '#FFDA57',
  Platinum: '#58E1E8',
  Diamond: '#4E8CFF',
  Grandmaster: '#EB46FF',
  Celestial: '#FE5A1D',
  Eternity: '#E0393E',
  'One Above All': '#F4E6A6',
};

/** A badge's file name as the API names it: "grandmaster" in "/ranked/grandmaster.png", "one-above-all". */
export const badgeSlug = (tier: TierName): string => tier.toLowerCase().replaceAll(' ', '-');

/**
 * The badge image of `tier`, from the API's badge `image` (an absolute URL, "…/ranked/platinum.png" or "…/classes/gold.png"):
 * that image when it is the tier's, else the same folder's file of the tier, as the API names them. A signed URL (with
 * a query) cannot be rewritten: null then, as for no tier or no image, rather than another tier's badge.
 */
export function tierBadge(tier: string | null | undefined, image: string | null | undefined): string | null {
  const group = tierGroup(tier);
  if (!group || !image) return null;
  const cut = image.search(/[?#]/);
  const path = cut === -1 ? image : image.slice(0, cut);
  const file = /^(.*\/)([^/]+?)(\.[a-z0-9]+)$/i.exec(path);
  if (!file) return null;
  const [, folder, stem, ext] = file;
  if (stem!.toLowerCase() === badgeSlug(group)) return image;
  const named = TIER_NAMES.some((t) => badgeSlug(t) === stem!.toLowerCase());
  return named && cut === -1 ? `${folder}${badgeSlug(group)}${ext}` : null;
}

/** False for placeholders such as "Invalid level". */
export function isTierName(name: string | null | undefined): name is string {
  if (!name?.trim()) return false;
  return /^(bronze|silver|gold|platinum|diamond|grandmaster|celestial|eternity|one above all)\b/i.test(name.trim());
}

/** As the game shows it: cut toward zero, never rounded up (3,763.53 → "3,763"), in locale digits; "—" for none. */
export function rankScore(score: number | null | undefined): string {
  return score === null || score === undefined || !Number.isFinite(score) ? '—' : integer(Math.trunc(score));
}

// Fed the number's shortest decimal text, so 18.65 is rounded as written, not as the binary 18.6499….
const TENTHS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, useGrouping: false, roundingMode: 'halfExpand' });

/**
 * A rank score change rounded to one decimal, halves away from zero, on the number as the API wrote it: −18.770 → −18.8,
 * 18.75 → 18.8, −18.75 → −18.8, 0.04 → 0. Every change shown goes through this, so a sign or arrow agrees with its text.
 */
export function roundScoreChange(change: number): number {
  if (!Number.isFinite(change)) return change;
  const rounded = Number(TENTHS.format(`${change}`));
  return rounded === 0 ? 0 : rounded;
}

/** Signed, rounded to one decimal ({@link roundScoreChange}), locale digits: +37.98 → "+38.0", −18.77 → "−18.8", 0.04 → "±0". */
export function rankScoreChange(change: number | null | undefined): string {
  if (change === null || change === undefined || !Number.isFinite(change)) return '—';
  const rounded = roundScoreChange(change);
  if (rounded === 0) return '±0';
  return `${rounded > 0 ? '+' : '−'}${decimal(Math.abs(rounded), 1)}`;
}

/** ▲, ▼ or ▬ for a change, by its rounded value: +0.04 reads "▬ ±0", never "▲ ±0". */
export function scoreChangeArrow(change: number): '▲' | '▼' | '▬' {
  const rounded = roundScoreChange(change);
  return rounded > 0 ? '▲' : rounded < 0 ? '▼' : '▬';
}
