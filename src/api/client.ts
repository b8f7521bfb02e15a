/** The game API client: one typed method per endpoint of api-spec.md "Endpoints" (numbered as there) through cache, rate limiter and transport. */
import pTimeout from 'p-timeout';
import type { Dispatcher } from 'undici';
import type { ResponseCache, Fetched } from '../cache/response-cache.js';
import { knownJsonSize, noteJsonSize } from '../cache/memory-level.js';
import type { Logger } from '../core/logger.js';
import {
  DEFAULT_HISTORY_LIMIT,
  DEVICE_OF_PLATFORM,
  encodeSegment,
  historyQuery,
  itemTypeParam,
  pageQuery,
  pathWithQuery,
  platformParam,
  seasonParam,
  type ApiRequest,
  type CachedEndpointName,
  type EndpointName,
  type HistoryParams,
  type PageParams,
} from './endpoints.js';
import { ApiArgumentError, ApiError, budgetSpent } from '../core/api-errors.js';
import { HttpTransport } from './http.js';
import { createImageResolver } from './images.js';
import { RateLimitWaitError, type Priority, type UpstreamRateLimiter } from './rate-limiter.js';
import { currentDeadline } from '../core/deadline.js';
import { abandonOn } from '../core/background-job.js';
import { createSchemas, type MatchHistory, type PlayerUpdate, type Schemas } from './schemas.js';
import { NO_METRICS, type Metrics } from '../core/metrics.js';
import type * as z from 'zod';

export type { Fetched };

/** The most entries a season ladder page is asked for: public clients page by 100; larger pages are unproven. */
export const TOP_PLAYERS_LIMIT = 100;

export interface CallOptions {
  /** Bypass the TTL; the answer refreshes the cache. */
  fresh?: boolean;
  /** Default `interactive`. */
  priority?: Priority;
  /** Gives the call up while it waits for the rate limit (then never sent) or on the wire. */
  signal?: AbortSignal;
}

export interface RivalsApiOptions {
  baseUrl: string;
  apiKey?: string;
  /** Default `<origin of baseUrl>/rivals`. */
  imageBaseUrl?: string;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  cache?: ResponseCache;
  /** Without it calls are not rate limited (tests, the uncached baseline). */
  limiter?: UpstreamRateLimiter;
  logger?: Logger;
  now?: () => number;
  metrics?: Metrics;
}

export interface ApiStats {
  upstreamRequests: number;
}

/**
 * What this process's requests to the API last met, for /status: times in ms since the epoch (the client's clock), null
 * before the first. Any answer but a 5xx counts as the API answering (a 404 is an answer); a request given up by its
 * caller counts as nothing.
 */
export interface ApiHealth {
  answeredAt: number | null;
  /** The last request with no answer, or a 5xx, and its kind (`unavailable`, `timeout`). */
  failedAt: number | null;
  failure: 'unavailable' | 'timeout' | null;
  /** The last 429 the API sent. */
  rateLimitedAt: number | null;
  /** ms the key's requests are held after a 429's `Retry-After`; 0 when not held. */
  pausedMs: number;
  /** ms a request of a member's would wait now for the key's rate (the limiter's estimate); 0 when it would go at once. */
  queuedMs: number;
}

/**
 * Every method returns a {@link Fetched} value and throws {@link ApiArgumentError} before any request or {@link ApiError}.
 * Within an interaction's budget a call never outlasts it: a request the limiter would hold past it is not sent (`rate_limited`),
 * and an answer missing at the deadline is replaced by the stale cached one or `timeout`, while the request goes on to fill the cache.
 */
export class RivalsApi {
  readonly #transport: HttpTransport;
  readonly #schemas: Schemas;
  readonly #cache?: ResponseCache;
  readonly #limiter?: UpstreamRateLimiter;
  readonly #logger?: Logger;
  readonly #now: () => number;
  readonly #metrics: Metrics;
  /** Signal-holding reads by cache key: aborted only once every holder gave up, so a member who joined a job's read still gets it. */
  readonly #holds = new Map<string, { controller: AbortController; holders: number }>();
  readonly stats: ApiStats = { upstreamRequests: 0 };
  readonly #health: Omit<ApiHealth, 'pausedMs' | 'queuedMs'> = { answeredAt: null, failedAt: null, failure: null, rateLimitedAt: null };
  /** The probe under way, shared by every caller meanwhile. */
  #probing: Promise<void> | undefined;

  constructor(options: RivalsApiOptions) {
    this.#transport = new HttpTransport({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      dispatcher: options.dispatcher,
      timeoutMs: options.timeoutMs,
      logger: options.logger,
      now: options.now,
      metrics: options.metrics,
    });
    this.#schemas = createSchemas(createImageResolver(options.imageBaseUrl ?? `${new URL(options.baseUrl).origin}/rivals`));
    this.#cache = options.cache;
    this.#limiter = options.limiter;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    this.#metrics = options.metrics ?? NO_METRICS;
  }

  /** 1. `GET /api/v1/heroes`: every hero with transformations, costumes and abilities. */
  heroes(options?: CallOptions) {
    return this.#call('heroes', { endpoint: 'heroes', path: '/api/v1/heroes', query: {} }, options);
  }

  /** 2. `GET /api/v1/heroes/hero/{query}`: one hero by name or id. */
  hero(query: string | number, options?: CallOptions) {
    return this.#call('hero', { endpoint: 'hero', path: `/api/v1/heroes/hero/${encodeSegment('hero', 'query', query)}`, query: {} }, options);
  }

  /**
   * 3. `GET /api/v1/heroes/hero/{query}/stats?season=`: a hero's statistics. An unknown hero is `not_found`. The spec documents
   * no parameter; `season` (sent only when asked) is what one public client sends for a past season, unproven (docs/data.md
   * "The API's other reads"): callers check the answer against the current season's.
   */
  heroStats(query: string | number, params: { season?: number | string } = {}, options?: CallOptions) {
    const seg = encodeSegment('heroStats', 'query', query);
    const season = seasonParam('heroStats', params.season);
    return this.#call('heroStats', { endpoint: 'heroStats', path: `/api/v1/heroes/hero/${seg}/stats`, query: season === undefined ? {} : { season } }, options);
  }

  /** 4. `GET /api/v1/heroes/hero/{query}/costumes`: a hero's costumes. */
  heroCostumes(query: string | number, options?: CallOptions) {
    const seg = encodeSegment('heroCostumes', 'query', query);
    return this.#call('costumes', { endpoint: 'heroCostumes', path: `/api/v1/heroes/hero/${seg}/costumes`, query: {} }, options);
  }

  /**
   * 5. `GET /api/v1/heroes/leaderboard/{query}?platform=&season=`: a hero's leaderboard; platform pc (default), ps or xbox, as
   * the spec's `platform` only (a `device` beside it is unproven and an unknown parameter may be refused). `season`, sent only
   * when asked, is undocumented: each entry's `rank_season.rank_game_id` says which season the API answered.
   */
  heroLeaderboard(query: string | number, params: { platform?: string; season?: number | string } = {}, options?: CallOptions) {
    const seg = encodeSegment('heroLeaderboard', 'query', query);
    const platform = platformParam('heroLeaderboard', params.platform);
    const season = seasonParam('heroLeaderboard', params.season);
    const q: Record<string, string> = season === undefined ? { platform } : { platform, season };
    return this.#call('leaderboard', { endpoint: 'heroLeaderboard', path: `/api/v1/heroes/leaderboard/${seg}`, query: q }, options);
  }

  /** 6. `GET /api/v1/achievements?query=&page=&limit=`: achievements, optionally filtered by a hero name or id. */
  achievements(params: PageParams & { query?: string } = {}, options?: CallOptions) {
    const query = pageQuery('achievements', params);
    if (params.query !== undefined) {
      const q = String(params.query).trim();
      if (q === '') throw new ApiArgumentError('achievements', 'query', 'empty');
      query.query = q;
    }
    return this.#call('achievements', { endpoint: 'achievements', path: '/api/v1/achievements', query }, options);
  }

  /** 7. `GET /api/v1/achievement/{query}`: one achievement by id or name. */
  achievement(query: string | number, options?: CallOptions) {
    const seg = encodeSegment('achievement', 'query', query);
    return this.#call('achievement', { endpoint: 'achievement', path: `/api/v1/achievement/${seg}`, query: {} }, options);
  }

  /** 8. `GET /api/v1/battlepass?season=`: a season's battle pass (API default season 1.5). */
  battlePass(params: { season?: number | string } = {}, options?: CallOptions) {
    const season = seasonParam('battlePass', params.season);
    return this.#call('battlePass', { endpoint: 'battlePass', path: '/api/v1/battlepass', query: season === undefined ? {} : { season } }, options);
  }

  /** 9. `GET /api/v1/items?type=&page=&limit=`: items, optionally of one type (emote, mvp, nameplate, spray). */
  items(params: PageParams & { type?: string } = {}, options?: CallOptions) {
    const query = pageQuery('items', params);
    const type = itemTypeParam('items', params.type);
    if (type) query.type = type;
    return this.#call('items', { endpoint: 'items', path: '/api/v1/items', query }, options);
  }

  /** 10. `GET /api/v1/item/{query}`: one item by id or name. */
  item(query: string | number, options?: CallOptions) {
    return this.#call('item', { endpoint: 'item', path: `/api/v1/item/${encodeSegment('item', 'query', query)}`, query: {} }, options);
  }

  /** 11. `GET /api/v1/maps?page=&limit=`: maps. */
  maps(params: PageParams = {}, options?: CallOptions) {
    return this.#call('maps', { endpoint: 'maps', path: '/api/v1/maps', query: pageQuery('maps', params) }, options);
  }

  /** 12. `GET /api/v1/balances?page=&limit=`: balance posts, newest first. */
  balances(params: PageParams = {}, options?: CallOptions) {
    return this.#call('balances', { endpoint: 'balances', path: '/api/v1/balances', query: pageQuery('balances', params) }, options);
  }

  /** 13. `GET /api/v1/patch-notes?page=&limit=`: patch notes, newest first. */
  patchNotes(params: PageParams = {}, options?: CallOptions) {
    return this.#call('patchNotes', { endpoint: 'patchNotes', path: '/api/v1/patch-notes', query: pageQuery('patchNotes', params) }, options);
  }

  /** 14. `GET /api/v1/dev-diaries?page=&limit=`: dev diaries, newest first. */
  devDiaries(params: PageParams = {}, options?: CallOptions) {
    return this.#call('devDiaries', { endpoint: 'devDiaries', path: '/api/v1/dev-diaries', query: pageQuery('devDiaries', params) }, options);
  }

  /** 15. `GET /api/v1/dev-diary/{id}`: one dev diary. */
  devDiary(id: string | number, options?: CallOptions) {
    return this.#call('post', { endpoint: 'devDiary', path: `/api/v1/dev-diary/${encodeSegment('devDiary', 'id', id)}`, query: {} }, options);
  }

  /** 16. `GET /api/v1/game-versions?page=&limit=`: game versions, newest first. */
  gameVersions(params: PageParams = {}, options?: CallOptions) {
    return this.#call('gameVersions', { endpoint: 'gameVersions', path: '/api/v1/game-versions', query: pageQuery('gameVersions', params) }, options);
  }

  /** 17. `GET /api/v1/player/{query}?season=`: a player profile by uid or name (uid is more stable). */
  player(query: string | number, params: { season?: number | string } = {}, options?: CallOptions) {
    return this.#call('player', playerRequest(query, params), options);
  }

  /**
   * Drops what the response cache holds of a player's profile (endpoint 17) asked by `query` (a UID or a name), for the
   * current season and for each of `seasons` (in-game numbers, "2.5"), in memory and in Redis. Never throws: a query that
   * cannot be a path segment was never cached.
   */
  async forgetPlayer(query: string, seasons: readonly string[] = []): Promise<void> {
    if (!this.#cache) return;
    let seg: string;
    try {
      seg = encodeSegment('player', 'query', query);
    } catch {
      return;
    }
    const path = `/api/v1/player/${seg}`;
    const keys = [undefined, ...seasons].map((season) => `player:${pathWithQuery({ path, query: season === undefined ? {} : { season } })}`);
    await Promise.all(keys.map((key) => this.#cache!.delete(key)));
  }

  /** 18. `GET /api/v1/player/{query}/match-history`: match history version 1. */
  matchHistoryV1(query: string | number, params: HistoryParams = {}, options?: CallOptions) {
    return this.#call('matchHistory', historyV1Request(query, params), options);
  }

  /** 19. `GET /api/v2/player/{query}/match-history`: match history version 2, paged (default limit 40) with `pagination`. */
  matchHistoryV2(query: string | number, params: HistoryParams & PageParams = {}, options?: CallOptions) {
    return this.#call('matchHistory', historyV2Request(query, params), options);
  }

  /**
   * What the response cache holds of {@link matchHistoryV1}'s answer to the same arguments, fresh or past its TTL, with no
   * request and no turn at the rate limit: undefined when nothing is held (or only the API's 404), and always without a cache.
   * Never throws but {@link ApiArgumentError}.
   */
  heldMatchHistoryV1(query: string | number, params: HistoryParams = {}): Promise<Fetched<MatchHistory> | undefined> {
    return this.#held(historyV1Request(query, params));
  }

  /** {@link heldMatchHistoryV1} for {@link matchHistoryV2}'s answer to the same arguments. */
  heldMatchHistoryV2(query: string | number, params: HistoryParams & PageParams = {}): Promise<Fetched<MatchHistory> | undefined> {
    return this.#held(historyV2Request(query, params));
  }

  /**
   * What the response cache holds of player `query` (a UID or a name), at any age, never asking the API: their profile
   * (endpoint 17, current season) and the first history pages as src/catalog/history.ts asks them (v2 page 1 of
   * {@link DEFAULT_HISTORY_LIMIT}, v1 from 0). Null or empty for what it does not hold, and without a cache.
   * @throws {ApiArgumentError} for a query that cannot be a path segment.
   */
  async held(query: string | number): Promise<{ profile: z.output<Schemas['player']> | null; histories: z.output<Schemas['matchHistory']>[] }> {
    const cache = this.#cache;
    if (!cache) return { profile: null, histories: [] };
    const keyOf = (r: ApiRequest & { endpoint: CachedEndpointName }) => `${r.endpoint}:${pathWithQuery(r)}`;
    const player = playerRequest(query, {});
    const [profile, ...histories] = await Promise.all([
      cache.peek<z.output<Schemas['player']>>(keyOf(player), player.endpoint),
      ...[historyV2Request(query, { page: 1, limit: DEFAULT_HISTORY_LIMIT }), historyV1Request(query, { skip: 0 })].map((r) =>
        cache.peek<z.output<Schemas['matchHistory']>>(keyOf(r), r.endpoint),
      ),
    ]);
    return { profile: profile?.data ?? null, histories: histories.flatMap((h) => (h ? [h.data] : [])) };
  }

  /** 20. `GET /api/v1/match/{match_uid}`: a match detail (never changes once located; cached forever). */
  match(matchUid: string, options?: CallOptions) {
    const seg = encodeSegment('match', 'match_uid', matchUid);
    return this.#call('match', { endpoint: 'match', path: `/api/v1/match/${seg}`, query: {} }, options);
  }

  /**
   * `GET /api/v1/player/{query}/update` (api-spec.md "Operations that exist but are not described"): asks the API to refresh a
   * player. Never cached; success body unknown, so `{ message: string | null }`.
   * @throws {ApiError} `rate_limited` during the player's update cooldown: the real 429 carries it only in its message
   * (api-samples/errors/linkyy-player-update-429.json), so `retryAfterFromHeader` is false and the key is not paused; `not_found`.
   * @throws {ApiArgumentError} for a query that cannot be a path segment.
   */
  async playerUpdate(query: string | number, options: Omit<CallOptions, 'fresh'> = {}): Promise<Fetched<PlayerUpdate>> {
    const url = `/api/v1/player/${encodeSegment('playerUpdate', 'query', query)}/update`;
    const deadline = currentDeadline();
    const request = this.#fetch('playerUpdate', 'playerUpdate', url, options);
    const data =
      deadline === undefined
        ? await request
        : await pTimeout(request, { milliseconds: Math.max(1, deadline - Date.now()), message: budgetSpent('playerUpdate') });
    return { data, fetchedAt: this.#now(), ageMs: 0, stale: false, source: 'upstream' };
  }

  /**
   * `GET /api/v2/players/leaderboard?page=&limit=&device=&season=` (not in the spec; docs/data.md "The API's other reads"):
   * a page of the season's ranked ladder of all players. `platform` pc, ps or xbox is sent as the `device` the ladder takes
   * (ps as `psn`); `season` only for a past season, the API's default being the current one; `limit` (default and most
   * {@link TOP_PLAYERS_LIMIT}) above that is asked as that.
   * @throws {ApiArgumentError} for a platform, season, page or limit the API cannot take; {@link ApiError} `bad_response`
   * for an answer holding no list of players.
   */
  topPlayers(params: PageParams & { platform?: string; season?: number | string } = {}, options?: CallOptions) {
    const query = pageQuery('topPlayers', params, TOP_PLAYERS_LIMIT);
    query.limit = String(Math.min(Number(query.limit), TOP_PLAYERS_LIMIT));
    query.device = DEVICE_OF_PLATFORM[platformParam('topPlayers', params.platform)];
    const season = seasonParam('topPlayers', params.season);
    if (season !== undefined) query.season = season;
    return this.#call('topPlayers', { endpoint: 'topPlayers', path: '/api/v2/players/leaderboard', query }, options);
  }

  /**
   * `GET /api/v1/seasons` (not in the spec; docs/data.md "The API's other reads"): the game's seasons, in-game numbers with
   * names and dates where the API gives them. @throws {ApiError} `bad_response` for an answer holding no list.
   */
  seasons(options?: CallOptions) {
    return this.#call('seasons', { endpoint: 'seasons', path: '/api/v1/seasons', query: {} }, options);
  }

  /**
   * `GET /api/v1/find-player/{name}` (not in the spec; docs/data.md "The API's other reads"): the player the API finds by a
   * name, `{uid, name}`, `uid` null when none. An unknown name is {@link ApiError} `not_found` (404, or 400 "Player not found").
   * @throws {ApiArgumentError} for a name that cannot be a path segment.
   */
  findPlayer(name: string, options?: CallOptions) {
    const seg = encodeSegment('findPlayer', 'name', name);
    return this.#call('foundPlayer', { endpoint: 'findPlayer', path: `/api/v1/find-player/${seg}`, query: {} }, options);
  }

  async close(): Promise<void> {
    await this.#transport.close();
  }

  /** What this process's requests last met (no request is made). */
  health(): ApiHealth {
    const now = this.#now();
    return { ...this.#health, pausedMs: this.#limiter?.backoffRemaining(now) ?? 0, queuedMs: this.#limiter?.estimateWait('interactive', now) ?? 0 };
  }

  /**
   * Asks the API a question of one small answer (spec endpoint 12, game versions, one per page), past the cache, to see
   * whether it answers now; gives up after `timeoutMs`. @throws {ApiError} as every call; an `AbortError` past `timeoutMs`.
   */
  probe(timeoutMs: number): Promise<void> {
    // One probe at a time: members asking /status together share it rather than each spending a request.
    this.#probing ??= this.#fetch(
      'gameVersions',
      'gameVersions',
      pathWithQuery({ path: '/api/v1/game-versions', query: pageQuery('gameVersions', { limit: 1 }) }),
      {
        signal: AbortSignal.timeout(timeoutMs),
      },
    )
      .then(() => undefined)
      .finally(() => (this.#probing = undefined));
    return this.#probing;
  }

  /** Records what a sent request met, for {@link health}. */
  #note(err?: unknown): void {
    const at = this.#now();
    if (err === undefined) {
      this.#health.answeredAt = at;
      return;
    }
    if (!(err instanceof ApiError)) return;
    if (err.kind === 'unavailable' || err.kind === 'timeout') {
      this.#health.failedAt = at;
      this.#health.failure = err.kind;
      return;
    }
    this.#health.answeredAt = at;
    if (err.kind === 'rate_limited') this.#health.rateLimitedAt = at;
  }

  /** The cached answer to a history request, under the key {@link #call} writes it. */
  async #held(request: ApiRequest & { endpoint: 'matchHistoryV1' | 'matchHistoryV2' }): Promise<Fetched<MatchHistory> | undefined> {
    return this.#cache?.peek<MatchHistory>(`${request.endpoint}:${pathWithQuery(request)}`, request.endpoint);
  }

  async #call<K extends keyof Schemas>(
    schema: K,
    request: ApiRequest & { endpoint: CachedEndpointName },
    options: CallOptions = {},
  ): Promise<Fetched<z.output<Schemas[K]>>> {
    const url = pathWithQuery(request);
    if (!this.#cache) {
      const data = await this.#fetch(schema, request.endpoint, url, options);
      return { data, fetchedAt: this.#now(), ageMs: 0, stale: false, source: 'upstream' };
    }
    const key = `${request.endpoint}:${url}`;
    const cacheOptions = { fresh: options.fresh, deadline: currentDeadline() };
    const { signal, ...rest } = options;
    let hold = this.#holds.get(key);
    if (!signal && !hold) return this.#cache.get(key, request.endpoint, () => this.#fetch(schema, request.endpoint, url, rest), cacheOptions);
    // Given up through the hold's own signal once every holder has given up (see #holds).
    if (!hold) this.#holds.set(key, (hold = { controller: new AbortController(), holders: 0 }));
    const held = hold;
    held.holders++;
    const release = (gaveUp: unknown) => {
      if (--held.holders > 0) return;
      if (this.#holds.get(key) === held) this.#holds.delete(key);
      if (gaveUp !== undefined) held.controller.abort(gaveUp);
    };
    const answer = this.#cache.get(
      key,
      request.endpoint,
      () => this.#fetch(schema, request.endpoint, url, { ...rest, signal: held.controller.signal }),
      cacheOptions,
    );
    if (!signal) return answer.finally(() => release(undefined));
    let gaveUp: unknown;
    try {
      return await abandonOn(answer, signal);
    } catch (err) {
      if (signal.aborted) gaveUp = signal.reason ?? new Error('the caller gave up');
      throw err;
    } finally {
      release(gaveUp);
    }
  }

  async #fetch<K extends keyof Schemas>(schema: K, endpoint: EndpointName, url: string, options: CallOptions): Promise<z.output<Schemas[K]>> {
    const priority = options.priority ?? 'interactive';
    const queuedAt = performance.now();
    const send = () => {
      this.stats.upstreamRequests++;
      if (this.#limiter) this.#metrics.limiterWait('upstream', priority, (performance.now() - queuedAt) / 1000);
      return this.#transport.get(endpoint, url, options.signal).then(
        (raw) => {
          this.#note();
          return raw;
        },
        (err: unknown) => {
          // Given up by its caller: it says nothing of the API.
          if (!options.signal?.aborted) this.#note(err);
          throw err;
        },
      );
    };
    let raw: unknown;
    try {
      raw = this.#limiter ? await this.#limiter.schedule(send, priority, currentDeadline(), options.signal) : await send();
    } catch (err) {
      if (err instanceof RateLimitWaitError) {
        // Not sent: the wait for the key's rate would outlast the interaction's budget.
        throw new ApiError({ kind: 'rate_limited', endpoint, retryAfterMs: err.waitMs, upstreamMessage: err.message, cause: err });
      }
      // Only a header-given delay pauses the whole key: a 429 body message can be a per-player cooldown.
      if (err instanceof ApiError && err.kind === 'rate_limited' && err.retryAfterFromHeader && err.retryAfterMs !== undefined && this.#limiter) {
        this.#limiter.backoff(err.retryAfterMs, this.#now());
      }
      throw err;
    }
    const parsed = this.#schemas[schema].safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'unexpected shape';
      this.#logger?.warn({ endpoint, issues: parsed.error.issues.slice(0, 5) }, 'unusable API response');
      throw new ApiError({ kind: 'bad_response', endpoint, upstreamMessage: where, wellFormed: true });
    }
    // The cache sizes the parsed answer by its body's length.
    const size = knownJsonSize(raw);
    if (size !== undefined) noteJsonSize(parsed.data, size);
    return parsed.data as z.output<Schemas[K]>;
  }
}

/** Endpoint 17's request; its cache key is the endpoint and this path. */
function playerRequest(query: string | number, params: { season?: number | string }): ApiRequest & { endpoint: 'player' } {
  const seg = encodeSegment('player', 'query', query);
  const season = seasonParam('player', params.season);
  return { endpoint: 'player', path: `/api/v1/player/${seg}`, query: season === undefined ? {} : { season } };
}

/** Endpoint 18's request: `query` a uid or name. @throws {ApiArgumentError} for an argument the API cannot take. */
function historyV1Request(query: string | number, params: HistoryParams): ApiRequest & { endpoint: 'matchHistoryV1' } {
  const seg = encodeSegment('matchHistoryV1', 'query', query);
  return { endpoint: 'matchHistoryV1', path: `/api/v1/player/${seg}/match-history`, query: historyQuery('matchHistoryV1', params) };
}

/** Endpoint 19's request, `limit` 40 when not given. @throws {ApiArgumentError} for an argument the API cannot take. */
function historyV2Request(query: string | number, params: HistoryParams & PageParams): ApiRequest & { endpoint: 'matchHistoryV2' } {
  const seg = encodeSegment('matchHistoryV2', 'query', query);
  const q = { ...historyQuery('matchHistoryV2', params), ...pageQuery('matchHistoryV2', params, DEFAULT_HISTORY_LIMIT) };
  return { endpoint: 'matchHistoryV2', path: `/api/v2/player/${seg}/match-history`, query: q };
}
