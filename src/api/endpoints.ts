/** Argument validation and path/query building for api-spec.md "Endpoints" plus the player update; pure, no I/O. */
import { ApiArgumentError } from '../core/api-errors.js';

/** Named as the client's methods. */
export type EndpointName =
  | 'heroes'
  | 'hero'
  | 'heroStats'
  | 'heroCostumes'
  | 'heroLeaderboard'
  | 'achievements'
  | 'achievement'
  | 'battlePass'
  | 'items'
  | 'item'
  | 'maps'
  | 'balances'
  | 'patchNotes'
  | 'devDiaries'
  | 'devDiary'
  | 'gameVersions'
  | 'player'
  | 'matchHistoryV1'
  | 'matchHistoryV2'
  | 'match'
  | 'playerUpdate'
  | 'topPlayers'
  | 'seasons'
  | 'findPlayer';

/** Every read; `playerUpdate` is an action, never cached. */
export type CachedEndpointName = Exclude<EndpointName, 'playerUpdate'>;

/** Hero leaderboard platforms (spec endpoint 5). */
export const PLATFORMS = ['pc', 'ps', 'xbox'] as const;
export type Platform = (typeof PLATFORMS)[number];
/** Whether `value` is one of {@link PLATFORMS} (a stored or typed value may be anything). */
export const isPlatform = (value: unknown): value is Platform => (PLATFORMS as readonly unknown[]).includes(value);
/** How players name each platform (the same in every language). */
export const PLATFORM_NAMES: Record<Platform, string> = { pc: 'PC', ps: 'PlayStation', xbox: 'Xbox' };

/**
 * The season ladder's `device` values (`GET /api/v2/players/leaderboard`, not in the spec; docs/data.md "The API's other
 * reads"): PlayStation is `psn` there, where the hero leaderboard takes `ps`.
 */
export const DEVICE_OF_PLATFORM: Record<Platform, 'pc' | 'psn' | 'xbox'> = { pc: 'pc', ps: 'psn', xbox: 'xbox' };

/** Item filter types (spec endpoint 9). */
export const ITEM_TYPES = ['emote', 'mvp', 'nameplate', 'spray'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** Spec, Limits 2. */
export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 10;
export const DEFAULT_HISTORY_LIMIT = 40;

/** Far above any real name, far below URL length limits. */
export const MAX_SEGMENT_LENGTH = 256;

/** `path` is already percent-encoded; `query` holds raw values. */
export interface ApiRequest {
  endpoint: EndpointName;
  path: string;
  query: Record<string, string>;
}

/** Positive integers; defaults from the spec. */
export interface PageParams {
  page?: number;
  limit?: number;
}

/** Spec endpoints 18 and 19. */
export interface HistoryParams {
  /** Such as 1 or 1.5; default: the current season. */
  season?: number | string;
  /** Spec default 20, applied by the API when omitted. */
  skip?: number;
  /** Spec default 0: all. */
  game_mode?: number;
  /** Unix seconds: only matches after it. */
  timestamp?: number;
}

/**
 * Percent-encodes one path segment (RFC 3986 unreserved characters stay) so no input can reach another path.
 * @throws {ApiArgumentError} if empty, `.`/`..` (URL parsers drop dot segments, encoded or not), ill-formed UTF-16, or too long.
 */
export function encodeSegment(endpoint: EndpointName, argument: string, value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') throw new ApiArgumentError(endpoint, argument, 'notText');
  const text = String(value).trim();
  if (text === '') throw new ApiArgumentError(endpoint, argument, 'empty');
  if (text === '.' || text === '..') throw new ApiArgumentError(endpoint, argument, 'dots');
  if (!text.isWellFormed()) throw new ApiArgumentError(endpoint, argument, 'badCharacters');
  if (text.length > MAX_SEGMENT_LENGTH) throw new ApiArgumentError(endpoint, argument, 'tooLong', { max: MAX_SEGMENT_LENGTH });
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function positiveInt(endpoint: EndpointName, argument: string, value: unknown, fallback?: number): number | undefined {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new ApiArgumentError(endpoint, argument, 'notPositive');
  }
  return value;
}

function nonNegativeInt(endpoint: EndpointName, argument: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ApiArgumentError(endpoint, argument, 'negative');
  }
  return value;
}

/**
 * A season (0 or positive, one decimal at most; Season 0 exists) as the query value, written `1.5`, never `1.50` (spec endpoints 8, 17-19).
 * Undefined, null or empty text: undefined, the API's default season.
 * @throws {ApiArgumentError} for a negative number, more than one decimal, non-numeric text, or above 1000.
 */
export function seasonParam(endpoint: EndpointName, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1000 || Math.round(n * 10) !== n * 10) {
    throw new ApiArgumentError(endpoint, 'season', 'season');
  }
  // String(-0) is "0", so a negative zero is sent as 0 too.
  return String(n);
}

/** @throws {ApiArgumentError} unless one of pc, ps, xbox (case-insensitive). */
export function platformParam(endpoint: EndpointName, value: unknown): Platform {
  if (value === undefined || value === null) return 'pc';
  const p = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!(PLATFORMS as readonly string[]).includes(p)) throw new ApiArgumentError(endpoint, 'platform', 'oneOf', { choices: PLATFORMS });
  return p as Platform;
}

/** @throws {ApiArgumentError} unless one of emote, mvp, nameplate, spray (case-insensitive). */
export function itemTypeParam(endpoint: EndpointName, value: unknown): ItemType | undefined {
  if (value === undefined || value === null) return undefined;
  const t = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!(ITEM_TYPES as readonly string[]).includes(t)) throw new ApiArgumentError(endpoint, 'type', 'oneOf', { choices: ITEM_TYPES });
  return t as ItemType;
}

/** The spec's defaults written out, so cache keys agree. */
export function pageQuery(endpoint: EndpointName, params: PageParams = {}, defaultLimit = DEFAULT_LIMIT): Record<string, string> {
  return {
    page: String(positiveInt(endpoint, 'page', params.page, DEFAULT_PAGE)),
    limit: String(positiveInt(endpoint, 'limit', params.limit, defaultLimit)),
  };
}

/** Omitted values are left to the API's defaults. */
export function historyQuery(endpoint: EndpointName, params: HistoryParams = {}): Record<string, string> {
  const query: Record<string, string> = {};
  const season = seasonParam(endpoint, params.season);
  if (season !== undefined) query.season = season;
  const skip = nonNegativeInt(endpoint, 'skip', params.skip);
  if (skip !== undefined) query.skip = String(skip);
  const gameMode = nonNegativeInt(endpoint, 'game_mode', params.game_mode);
  if (gameMode !== undefined) query.game_mode = String(gameMode);
  const timestamp = nonNegativeInt(endpoint, 'timestamp', params.timestamp);
  if (timestamp !== undefined) query.timestamp = String(timestamp);
  return query;
}

/** `path?query` with query keys sorted and values encoded: the URL suffix and the cache key. */
export function pathWithQuery(request: Pick<ApiRequest, 'path' | 'query'>): string {
  const keys = Object.keys(request.query).sort();
  if (keys.length === 0) return request.path;
  return `${request.path}?${keys.map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(request.query[k]!)}`).join('&')}`;
}
