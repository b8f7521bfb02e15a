// A player's recent matches, paged locally, from the first source that has some: match history v2, v1 (`skip=0`: its default is 20),
// then the profile's own (api-spec.md endpoints 19, 18). v2's 404 means "no stored history yet", never "no player"; its pages may exceed `limit`.
import type { RivalsApi } from '../api/client.js';
import { ApiError } from '../core/api-errors.js';
import type { MatchHistory, MatchSummary, PlayerProfile } from '../api/schemas.js';
import type { Logger } from '../core/logger.js';
import { matchMode } from '../game/modes.js';
import { seasonOfHistoryEntry, seasonParamFor, type HistorySource, type Season } from '../game/seasons.js';
import type { HistoryPage, HistoryRow } from '../game/match-history.js';

export type { HistoryPage, HistoryRow } from '../game/match-history.js';

/** Rows a page shows (a select menu opens each). */
export const HISTORY_PAGE_SIZE = 10;
/** What v2 is asked for a page (its default); it may answer with more. */
const V2_LIMIT = 40;
/** Most v2 pages read for one local page, or to filter one season locally. */
const V2_MAX_PAGES = 5;

export interface HistoryOptions {
  /** 1-based local page. */
  page: number;
  /** Only this season: asked of the API and filtered again. */
  season?: Season | null;
  /** Leave out practice and bot matches (src/game/modes.ts). */
  hidePractice?: boolean;
  logger?: Logger;
}

type RowFilter = Pick<HistoryOptions, 'season' | 'hidePractice'>;

/** Each match once (pages overlap while new matches arrive), filtered. */
function rowsOf(matches: MatchSummary[], source: HistorySource, filter: RowFilter = {}): HistoryRow[] {
  const seen = new Set<string>();
  const { season, hidePractice } = filter;
  return matches
    .filter((m) => !seen.has(m.match_uid) && seen.add(m.match_uid))
    .filter((m) => !hidePractice || !matchMode(m.game_mode_id, m.play_mode_id).practice)
    .map((m) => ({ ...m, seasonInfo: seasonOfHistoryEntry(m.season, source) }))
    .filter((m) => !season || m.seasonInfo === null || m.seasonInfo.index === season.index);
}

/** The profile's own matches newer than every one of `rows`. */
function newerThan(rows: HistoryRow[], profile: PlayerProfile, filter: RowFilter = {}): HistoryRow[] {
  const newest = Math.max(...rows.map((r) => r.time ?? 0));
  if (!Number.isFinite(newest) || newest <= 0) return [];
  const known = new Set(rows.map((r) => r.match_uid));
  return rowsOf(profile.recent_matches, 'profile', filter).filter((m) => (m.time ?? 0) > newest && !known.has(m.match_uid));
}

function localPage(rows: HistoryRow[], page: number): { rows: HistoryRow[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / HISTORY_PAGE_SIZE));
  const p = Math.min(Math.max(1, Math.trunc(page) || 1), pages);
  return { rows: rows.slice((p - 1) * HISTORY_PAGE_SIZE, p * HISTORY_PAGE_SIZE), page: p, pages };
}

type SourcePage = Omit<HistoryPage, 'noStoredHistory'>;

async function fromV2(api: RivalsApi, profile: PlayerProfile, options: HistoryOptions): Promise<SourcePage | null> {
  const season = options.season ? seasonParamFor(options.season, 'matchHistoryV2') : undefined;
  const get = (page: number) => api.matchHistoryV2(profile.uid, { page, limit: V2_LIMIT, season });
  const first = await get(1);
  const size = first.data.matches.length;
  if (size === 0) return null;
  const hasMore = (h: MatchHistory, page: number) => h.pagination?.has_more ?? (h.pagination?.total_pages ?? 1) > page;

  if (options.season || options.hidePractice) {
    const all = [...first.data.matches];
    for (let page = 2, last = first.data; hasMore(last, page - 1) && page <= V2_MAX_PAGES; page++) {
      last = (await get(page)).data;
      if (last.matches.length === 0) break;
      all.push(...last.matches);
    }
    const rows = rowsOf(all, 'v2', options);
    const newer = newerThan(rows, profile, options);
    if (rows.length + newer.length === 0) return null;
    return { ...localPage([...newer, ...rows], options.page), total: newer.length + rows.length, source: 'v2', newerFromProfile: newer.length, fetched: first };
  }

  // Positional paging over the API's page size: local page p starts at entry (p - 1) × 10 of "newer profile matches, then v2".
  const newer = newerThan(rowsOf(first.data.matches, 'v2'), profile);
  const total = newer.length + Math.max(size, first.data.pagination?.total_matches ?? size);
  const pages = Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.trunc(options.page) || 1), pages);
  const start = (page - 1) * HISTORY_PAGE_SIZE;
  const head = newer.slice(start, start + HISTORY_PAGE_SIZE);
  const need = HISTORY_PAGE_SIZE - head.length;
  let rows: MatchSummary[] = [];
  if (need > 0) {
    const from = Math.max(0, start - newer.length);
    let apiPage = Math.floor(from / size) + 1;
    let data = apiPage === 1 ? first.data : (await get(apiPage)).data;
    rows = data.matches.slice(from - (apiPage - 1) * size);
    while (rows.length < need && hasMore(data, apiPage) && apiPage < V2_MAX_PAGES * 4) {
      apiPage++;
      data = (await get(apiPage)).data;
      if (data.matches.length === 0) break;
      rows = rows.concat(data.matches);
    }
  }
  return { rows: [...head, ...rowsOf(rows, 'v2').slice(0, need)], page, pages, total, source: 'v2', newerFromProfile: newer.length, fetched: first };
}

/** Any API failure hands over to the next source; a bug does not. */
function handsOver(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** Page `options.page` of a player's recent matches (empty when no source has one). @throws only what is not an API failure. */
export async function recentMatches(api: RivalsApi, profile: PlayerProfile, options: HistoryOptions): Promise<HistoryPage> {
  let noStoredHistory = false;
  try {
    const v2 = await fromV2(api, profile, options);
    if (v2) return { ...v2, noStoredHistory };
  } catch (err) {
    if (!handsOver(err)) throw err;
    noStoredHistory = err.kind === 'not_found';
    if (!noStoredHistory) options.logger?.warn({ err }, 'match history v2 failed; trying v1');
  }
  try {
    const season = options.season ? seasonParamFor(options.season, 'matchHistoryV1') : undefined;
    const v1 = await api.matchHistoryV1(profile.uid, { season, skip: 0 });
    const rows = rowsOf(v1.data.matches, 'v1', options);
    if (rows.length > 0) {
      const newer = newerThan(rows, profile, options);
      const all = [...newer, ...rows];
      return { ...localPage(all, options.page), total: all.length, source: 'v1', newerFromProfile: newer.length, noStoredHistory, fetched: v1 };
    }
  } catch (err) {
    if (!handsOver(err)) throw err;
    options.logger?.warn({ err }, 'match history v1 failed; using the profile’s recent matches');
  }
  const rows = rowsOf(profile.recent_matches, 'profile', options);
  return { ...localPage(rows, options.page), total: rows.length, source: 'profile', newerFromProfile: 0, noStoredHistory };
}

/** Most v2 pages looked up in the cache for {@link heldHistoryRows}: as far as the recent matches' paging reads. */
const V2_HELD_PAGES = V2_MAX_PAGES * 4;

export interface HeldRowsOptions {
  /** The season the view shows: its history pages are looked up too, beside the current season's. */
  season?: Season | null;
  /**
   * Read v2's first page of the current season through the cache (asking the API only when it is not held), as the recent
   * matches do first; a failure of it is logged and leaves it out. Without it no request is made.
   */
  readFirstPage?: boolean;
  logger?: Logger;
}

/**
 * Every history row of `profile` the bot holds: the profile's own rows, then each v2 page (paged as the recent matches read
 * them) and v1 answer of the player that the response cache holds, fresh or past its TTL (a played match does not change),
 * for the current season and `options.season`; each match once, the profile's row first. No request is made but the one of
 * `options.readFirstPage`. Rows of any mode and season, practice included: for what the rows say of their maps, not a list to show.
 * @throws only what is not an API failure.
 */
export async function heldHistoryRows(api: RivalsApi, profile: PlayerProfile, options: HeldRowsOptions = {}): Promise<MatchSummary[]> {
  const seasons = [undefined, ...(options.season ? [options.season] : [])];
  const v2 = seasons.map((season, i) => heldV2(api, profile.uid, season, options.readFirstPage === true && i === 0, options.logger));
  const v1 = seasons.map(async (season) => {
    const held = await api.heldMatchHistoryV1(profile.uid, { season: season ? seasonParamFor(season, 'matchHistoryV1') : undefined, skip: 0 });
    return held?.data.matches ?? [];
  });
  const all = [profile.recent_matches, ...(await Promise.all([...v2, ...v1]))].flat();
  const seen = new Set<string>();
  return all.filter((m) => !m.match_uid || (!seen.has(m.match_uid) && seen.add(m.match_uid)));
}

/** The v2 pages of one season held in the cache, the first read through it when `read`; the others as many as the first says. */
async function heldV2(api: RivalsApi, uid: string, season: Season | undefined, read: boolean, logger: Logger | undefined): Promise<MatchSummary[]> {
  const params = (page: number) => ({ page, limit: V2_LIMIT, season: season ? seasonParamFor(season, 'matchHistoryV2') : undefined });
  let first: MatchHistory | undefined;
  if (read) {
    try {
      first = (await api.matchHistoryV2(uid, params(1))).data;
    } catch (err) {
      if (!handsOver(err)) throw err;
      // A 404 is "no stored history yet"; anything else leaves the held pages, if any, to say what they can.
      if (err.kind !== 'not_found') logger?.warn({ err }, 'match history v2 unavailable; using the rows already held');
    }
  }
  first ??= (await api.heldMatchHistoryV2(uid, params(1)))?.data;
  if (!first) return [];
  const pagination = first.pagination;
  const pages = Math.min(V2_HELD_PAGES, pagination?.total_pages ?? (pagination?.has_more ? V2_HELD_PAGES : 1));
  const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => api.heldMatchHistoryV2(uid, params(i + 2))));
  return [first, ...rest.map((h) => h?.data)].flatMap((h) => h?.matches ?? []);
}
