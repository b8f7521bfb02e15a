/**
 * Seasons. The API numbers them three ways (checked against capture dates): an index (v1 history, the
 * profile's history; 2 is Season 1.5), the in-game number as text (v2 history), and a rank game id =
 * index + 1 (`rank_game_season`, last three digits of its key). Index i ≥ 1 is Season 1 + (i − 1) / 2.
 */

export interface Season {
  index: number;
  /** In-game number: "0", "1", "1.5". */
  number: string;
  name: string;
}

const MAX_INDEX = 400;

/** Null unless a whole number from 0 to {@link MAX_INDEX}. */
export function seasonFromIndex(index: number | null | undefined): Season | null {
  if (index === null || index === undefined || !Number.isInteger(index) || index < 0 || index > MAX_INDEX) return null;
  const n = index === 0 ? 0 : 1 + (index - 1) / 2;
  const number = String(n);
  return { index, number, name: `Season ${number}` };
}

/** From an in-game number ("1.5"); null for numbers no season has (0.5, negative). */
export function seasonFromNumber(value: number | string | null | undefined): Season | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return null;
  if (n === 0) return seasonFromIndex(0);
  if (n < 1 || !Number.isInteger(n * 2)) return null;
  return seasonFromIndex((n - 1) * 2 + 1);
}

/** From `rank_game_id`, else the last three digits of the key ("1001002" → Season 1). */
export function seasonFromRankGame(rankGameId: number | null | undefined, key?: string): Season | null {
  if (rankGameId !== null && rankGameId !== undefined && Number.isInteger(rankGameId) && rankGameId >= 1) return seasonFromIndex(rankGameId - 1);
  const m = key?.match(/(\d{1,3})$/);
  return m ? seasonFromIndex(Number(m[1]) - 1) : null;
}

export type HistorySource = 'v1' | 'v2' | 'profile';

export function seasonOfHistoryEntry(raw: number | null | undefined, source: HistorySource): Season | null {
  if (raw === null || raw === undefined) return null;
  return source === 'v2' ? seasonFromNumber(raw) : seasonFromIndex(raw);
}

/** The `season` query value: v1 history takes the index, the profile and v2 history the in-game number. */
export function seasonParamFor(season: Season, endpoint: 'player' | 'matchHistoryV1' | 'matchHistoryV2'): string {
  return endpoint === 'matchHistoryV1' ? String(season.index) : season.number;
}

export function latestSeason(seasons: (Season | null | undefined)[]): Season | null {
  let best: Season | null = null;
  for (const s of seasons) if (s && (!best || s.index > best.index)) best = s;
  return best;
}
