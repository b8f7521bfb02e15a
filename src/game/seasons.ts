/**
 * Marvel Rivals seasons: the one table that turns the API's inconsistent season numbers into the names
 * players use (Season 0, 1, 1.5, 2, 2.5, …).
 *
 * The API numbers a season three ways (real captures in api-samples, checked against their dates):
 * - an **index** (0, 1, 2, 3, …): match history v1 `match_season` and the profile's embedded
 *   `match_history[].season`. Index 2 is Season 1.5 (a March 2025 v1 capture holds `2`; a May 2025
 *   profile holds `3` for Season 2; an August 2025 one `5` for Season 3);
 * - the **in-game number** as text ("0", "1", "1.5", "2"): match history v2 `match_season`
 *   (a May 2025 v2 capture holds "2");
 * - a **rank game id** (1, 2, 3, …) = index + 1: `rank_game_season` keys such as "1001002" (the last
 *   three digits; the leading digits differ per platform) and their `rank_game_id`; 2001006 was
 *   updated in Season 3, 2001004 in Season 2.
 *
 * Since Season 1 every season has a half (1, 1.5, 2, 2.5, …), so index i ≥ 1 is Season 1 + (i − 1) / 2.
 */

/** A season, in the API's index numbering and as players name it. */
export interface Season {
  /** 0 for Season 0, 1 for Season 1, 2 for Season 1.5, 3 for Season 2, … */
  index: number;
  /** The in-game number as text: "0", "1", "1.5", "2". */
  number: string;
  /** "Season 1.5". */
  name: string;
}

/** Highest index accepted: far beyond any season the game will have, below nonsense. */
const MAX_INDEX = 400;

/**
 * The season of an index (v1 history, the profile's embedded history); null for anything that is not
 * a whole number from 0 to {@link MAX_INDEX}.
 */
export function seasonFromIndex(index: number | null | undefined): Season | null {
  if (index === null || index === undefined || !Number.isInteger(index) || index < 0 || index > MAX_INDEX) return null;
  const n = index === 0 ? 0 : 1 + (index - 1) / 2;
  const number = String(n);
  return { index, number, name: `Season ${number}` };
}

/**
 * The season of an in-game number (v2 history's "1.5", what a member types): 0, 1, 1.5, 2, 2.5, …
 * Null for numbers no season has (0.5, 1.25, negative).
 */
export function seasonFromNumber(value: number | string | null | undefined): Season | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return null;
  if (n === 0) return seasonFromIndex(0);
  if (n < 1 || !Number.isInteger(n * 2)) return null;
  return seasonFromIndex((n - 1) * 2 + 1);
}

/**
 * The season of a profile's `rank_game_season` entry: from its `rank_game_id` (index + 1), else from
 * the last three digits of its key ("1001002" → Season 1).
 */
export function seasonFromRankGame(rankGameId: number | null | undefined, key?: string): Season | null {
  if (rankGameId !== null && rankGameId !== undefined && Number.isInteger(rankGameId) && rankGameId >= 1) return seasonFromIndex(rankGameId - 1);
  const m = key?.match(/(\d{1,3})$/);
  return m ? seasonFromIndex(Number(m[1]) - 1) : null;
}

/** Where a match-history entry came from, which decides how its season number reads. */
export type HistorySource = 'v1' | 'v2' | 'profile';

/** The season of a match-history entry's raw season number, read the way its source numbers seasons. */
export function seasonOfHistoryEntry(raw: number | null | undefined, source: HistorySource): Season | null {
  if (raw === null || raw === undefined) return null;
  return source === 'v2' ? seasonFromNumber(raw) : seasonFromIndex(raw);
}

/**
 * The `season` query value each endpoint expects for a season: match history v1 takes the index (as
 * it answers), the profile and match history v2 the in-game number.
 */
export function seasonParamFor(season: Season, endpoint: 'player' | 'matchHistoryV1' | 'matchHistoryV2'): string {
  return endpoint === 'matchHistoryV1' ? String(season.index) : season.number;
}

/** The latest of some seasons (by index); null for none. */
export function latestSeason(seasons: (Season | null | undefined)[]): Season | null {
  let best: Season | null = null;
  for (const s of seasons) if (s && (!best || s.index > best.index)) best = s;
  return best;
}
