/** A page of a player's recent matches as the bot reads them (src/catalog/history.ts), whichever history gave them. */
import type { Fetched } from '../api/client.js';
import type { MatchSummary } from '../api/schemas.js';
import type { HistorySource, Season } from './seasons.js';

/** A recent match with its season read the way its source numbers seasons. */
export interface HistoryRow extends MatchSummary {
  seasonInfo: Season | null;
}

export interface HistoryPage {
  rows: HistoryRow[];
  /** 1-based, clamped to `pages`. */
  page: number;
  pages: number;
  /** Matches in the list (all pages). */
  total: number;
  source: HistorySource;
  /** Leading matches taken from the profile, newer than the source's newest: a stored history lags. */
  newerFromProfile: number;
  /** True when v2 answered 404 for this player (no stored history yet). */
  noStoredHistory: boolean;
  /** The API answer the rows came from, for a stale footer; absent for the profile's own list. */
  fetched?: Fetched<unknown>;
}
