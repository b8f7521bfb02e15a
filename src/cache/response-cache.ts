/**
 * Cache policy (STYLE.md, src/cache): a TTL per resource, single-flight for concurrent identical
 * requests, stale-if-error, and a brief negative cache for not-found answers.
 *
 * Two levels. First, this process's memory ({@link MemoryLevel}): the answers themselves, so a hit
 * neither parses nor copies anything; bounded in bytes (each entry's JSON length, measured once when
 * it is written) and in entries, least recently used first. Second, when the keyv store is shared
 * (Redis, `REDIS_URL`), that store: JSON only there. A read that misses memory asks Redis and copies
 * what it finds into memory; a write goes to both. Both levels keep an entry for its TTL plus
 * {@link STALE_RETENTION_MS} (src/cache/ttl.ts).
 *
 * Single-flight: concurrent calls for one key in this process share one load. With a
 * {@link SharedFlight} over the same Redis, a load first takes the key's lock there, so that
 * concurrent misses in every process make one upstream request: the other processes wait for the
 * holder's answer (a value or a not-found, read from the shared store) or failure, and ask the API
 * themselves only when Redis cannot coordinate or the holder is gone or too slow.
 */
import type Keyv from 'keyv';
import { ApiError, budgetSpent } from '../core/api-errors.js';
import { settleWithin } from '../core/deadline.js';
import type { Logger } from '../core/logger.js';
import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_MAX_ENTRIES, jsonSize, MemoryLevel } from './memory-level.js';
import type { FlightLock, Outcome, SharedFlight } from './shared-flight.js';
import { LruStore } from './store.js';
import { STALE_RETENTION_MS, ttlTable, type Resource } from './ttl.js';

/**
 * A value with where it came from. `ageMs` is 0 for a value just fetched.
 * `data` may be the very object the cache holds (a memory hit returns the same object every time):
 * read it, never mutate it; copy before sorting or editing.
 */
export interface Fetched<T> {
  data: T;
  /** When the value was fetched from the API, ms since the epoch. */
  fetchedAt: number;
  /** Milliseconds since `fetchedAt`. */
  ageMs: number;
  /** True when the API failed and an expired value was served instead ("as of 12 minutes ago"). */
  stale: boolean;
  /** `upstream`: fetched now; `cache`: fresh from the cache; `stale`: expired, served because the API failed. */
  source: 'upstream' | 'cache' | 'stale';
}

/** What is stored: a value (`v`) or a remembered not-found (`nf`), with the fetch time. */
type Entry = { v: unknown; at: number } | { nf: string | null; status?: number; at: number };

/** Default of {@link ResponseMemoryOptions.recheckMs}. */
export const DEFAULT_RECHECK_MS = 5_000;

/** The memory level's bounds and, with a shared store, how long its copies are trusted. */
export interface ResponseMemoryOptions {
  /**
   * Byte bound (`CACHE_MAX_BYTES`; default 64 MiB), entries measured by their JSON length; an entry
   * over a quarter of it is not kept in memory. 0 turns the memory level off: every read goes to the
   * keyv store and through its JSON (the benchmark's baseline, the former design).
   */
  maxBytes?: number;
  /** Entry bound (`CACHE_MAX_ENTRIES`); default: the bound of the {@link LruStore} under `store`, else 10 000. */
  maxEntries?: number;
  /**
   * With a shared store only: ms (on the cache's clock) a memory copy answers after this process
   * wrote it or last compared it with the shared store; past it the next read asks the shared store
   * again, so that a value another process refreshed (a Refresh button, the feed poller) shows here
   * within this time. A memory copy past its TTL is always compared first. Default 5 000.
   */
  recheckMs?: number;
}

export interface ResponseCacheOptions {
  /**
   * The keyv store from `createCacheStore` (src/cache/store.ts). Over Redis (any store but an
   * {@link LruStore}) it is the shared second level behind this process's memory level. Over an
   * in-process {@link LruStore} it holds no responses: the memory level does that job without JSON
   * (unless `memory.maxBytes` is 0).
   */
  store: Keyv;
  /** The memory level (see {@link ResponseMemoryOptions}). */
  memory?: ResponseMemoryOptions;
  /** TTL overrides in ms (see src/cache/ttl.ts). */
  ttls?: Partial<Record<Resource, number>>;
  /** Clock, ms since the epoch (tests pass a fake one). */
  now?: () => number;
  logger?: Logger;
  /** Longest wait for the store in ms (default 500): past it a read is a miss and a write is dropped, so a Redis outage slows nothing. */
  storeTimeoutMs?: number;
  /**
   * Single-flight across processes over the same Redis as `store` (src/cache/shared-flight.ts).
   * Ignored when `store` is an in-process {@link LruStore} (nothing is shared then).
   */
  flight?: SharedFlight;
}

export interface GetOptions {
  /** Skip the TTL check and ask the API; the answer refreshes the cache (Refresh button, feed poller). */
  fresh?: boolean;
  /**
   * When the caller stops waiting, ms since the epoch on the wall clock (an interaction's budget, src/core/deadline.ts):
   * past it the stale value is served, or a `timeout` thrown, while the load goes on and fills the cache.
   */
  deadline?: number;
}

/** Counters since start, for logs and the benchmark. */
export interface CacheStats {
  hits: number;
  misses: number;
  stale: number;
  negativeHits: number;
  /** Calls that joined an upstream request already in flight. */
  shared: number;
}

/** How the two levels were used since start (beside {@link CacheStats}, which counts answers). */
export interface CacheLevelStats {
  /** Reads sent to the keyv store (Redis): a memory miss, a memory copy due for a recheck or past its TTL. */
  sharedReads: number;
  /** Entries copied from the keyv store into memory (newer than the memory copy, or none there). */
  sharedFills: number;
  /** Writes the memory level refused because the entry was larger than its per-entry bound. */
  oversized: number;
  /** With a shared flight: loads answered by another process's upstream request (a value or a not-found) instead of asking the API. */
  flightJoins: number;
  /** With a shared flight: loads that took another process's upstream failure (then served stale, or thrown) instead of asking again. */
  flightFailures: number;
  /** With a shared flight: loads that asked the API without the lock (Redis unavailable, or the holder past the longest wait). */
  flightAlone: number;
}

/** The response cache. One instance per process; the second level may be shared (Redis). */
export class ResponseCache {
  /** This process's level; absent when `memory.maxBytes` is 0. */
  readonly #memory?: MemoryLevel<Entry>;
  /** The keyv level (Redis); absent when the keyv store is an in-process {@link LruStore} under a memory level. */
  readonly #shared?: Keyv;
  /** When (cache clock) each memory copy was written or last found current in the shared level. */
  readonly #checkedAt = new WeakMap<Entry, number>();
  readonly #recheckMs: number;
  readonly #ttls: Record<Resource, number>;
  readonly #now: () => number;
  readonly #logger?: Logger;
  readonly #storeTimeoutMs: number;
  /** Present only over a shared level. */
  readonly #flight?: SharedFlight;
  readonly #inflight = new Map<string, Promise<Fetched<unknown>>>();
  readonly #reading = new Map<string, Promise<Entry | undefined>>();
  readonly stats: CacheStats = { hits: 0, misses: 0, stale: 0, negativeHits: 0, shared: 0 };
  readonly levelStats: CacheLevelStats = { sharedReads: 0, sharedFills: 0, oversized: 0, flightJoins: 0, flightFailures: 0, flightAlone: 0 };

  /** @throws {RangeError} when `memory.maxBytes` or `memory.maxEntries` is negative or not whole. */
  constructor(options: ResponseCacheOptions) {
    this.#ttls = ttlTable(options.ttls);
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger;
    this.#storeTimeoutMs = options.storeTimeoutMs ?? 500;
    this.#recheckMs = options.memory?.recheckMs ?? DEFAULT_RECHECK_MS;
    const local = options.store.store instanceof LruStore ? options.store.store : undefined;
    const maxBytes = options.memory?.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    if (maxBytes !== 0) {
      const maxEntries = options.memory?.maxEntries ?? local?.max ?? DEFAULT_CACHE_MAX_ENTRIES;
      this.#memory = new MemoryLevel<Entry>({ maxBytes, maxEntries, now: this.#now });
    }
    // A second copy in this same process would only add JSON: an in-process keyv store is no level.
    if (!(this.#memory && local)) this.#shared = options.store;
    if (this.#shared && !(this.#shared.store instanceof LruStore)) this.#flight = options.flight;
    // Without a listener keyv rethrows store errors as unhandled 'error' events.
    options.store.on('error', (err: unknown) => this.#logger?.warn({ err }, 'cache store error'));
  }

  /** The TTL in ms of a resource (`Infinity` for never). */
  ttl(resource: Resource): number {
    return this.#ttls[resource];
  }

  /**
   * Returns the cached value of `key` if fresh, else calls `load` once for all concurrent callers
   * of the same key and stores its result.
   * - On a transient failure (`ApiError.isTransient`: 5xx, connection errors, timeout, 429, a
   *   malformed body) with an older value in store, that value is returned with `stale: true` and its age.
   * - With `options.deadline`, a load still running at the deadline is left to finish in the
   *   background; the caller gets the older value (stale, with its age) or a `timeout` {@link ApiError}.
   * - A `not_found` answer is remembered for the `notFound` TTL and rethrown to later callers
   *   without calling `load`.
   * - With a shared flight, a miss in several processes at once calls `load` in one of them (see the
   *   module's docstring); `fresh` calls join a load under way in any process rather than start another.
   * @throws what `load` throws when there is nothing to fall back on; {@link ApiError} `not_found` from the negative cache.
   */
  async get<T>(key: string, resource: Resource, load: () => Promise<T>, options: GetOptions = {}): Promise<Fetched<T>> {
    let entry: Entry | undefined;
    if (!options.fresh) {
      entry = await this.#read(key, resource);
      const now = this.#now();
      if (entry && 'v' in entry && now - entry.at < this.#ttls[resource]) {
        this.stats.hits++;
        return { data: entry.v as T, fetchedAt: entry.at, ageMs: Math.max(0, now - entry.at), stale: false, source: 'cache' };
      }
      if (entry && 'nf' in entry && now - entry.at < this.#ttls.notFound) {
        this.stats.negativeHits++;
        throw new ApiError({ kind: 'not_found', endpoint: resource, status: entry.status, upstreamMessage: entry.nf ?? undefined });
      }
    }
    let promise = this.#inflight.get(key) as Promise<Fetched<T>> | undefined;
    if (promise) {
      this.stats.shared++;
    } else {
      this.stats.misses++;
      promise = this.#load(key, resource, load, entry, options.fresh === true).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, promise);
    }
    if (options.deadline === undefined) return promise;
    const known = entry;
    // Deadlines are on the wall clock (src/core/deadline.ts), whatever clock the TTLs use.
    return settleWithin(promise, options.deadline - Date.now(), () => this.#outOfTime<T>(key, resource, known));
  }

  /** The older value of `key` (stale, with its age) for a caller whose deadline passed, else a `timeout`. */
  async #outOfTime<T>(key: string, resource: Resource, known: Entry | undefined): Promise<Fetched<T>> {
    const old = known ?? (await this.#read(key, resource));
    if (old && 'v' in old) {
      this.stats.stale++;
      const ageMs = Math.max(0, this.#now() - old.at);
      this.#logger?.warn({ key, ageMs }, 'no API answer within the interaction budget; serving stale cached value');
      return { data: old.v as T, fetchedAt: old.at, ageMs, stale: true, source: 'stale' };
    }
    throw budgetSpent(resource);
  }

  /**
   * Removes one key from both levels (e.g. after an admin action that makes it wrong). Other
   * processes drop their memory copy at their next comparison with the shared store (`memory.recheckMs`).
   * Never throws: a shared store that fails or takes over the store timeout is logged.
   */
  async delete(key: string): Promise<void> {
    this.#memory?.delete(key);
    if (!this.#shared) return;
    await this.#bounded(this.#shared.delete(key), 'delete').catch((err: unknown) => this.#logger?.warn({ err, key }, 'cache delete failed'));
  }

  async #load<T>(key: string, resource: Resource, load: () => Promise<T>, known: Entry | undefined, fresh: boolean): Promise<Fetched<T>> {
    let lock: FlightLock | undefined;
    if (this.#flight) {
      const joined = await this.#join(key, resource, fresh, this.#flight);
      if ('entry' in joined) return this.#joined<T>(joined.entry, resource);
      if ('failure' in joined) return this.#afterFailure<T>(joined.failure, key, resource, known);
      lock = joined.lock;
    }
    try {
      const data = await load();
      const at = this.#now();
      const ttl = this.#ttls[resource];
      await this.#write(key, { v: data, at }, Number.isFinite(ttl) ? ttl + STALE_RETENTION_MS : undefined);
      // After the write: a waiter told `done` reads the answer from the shared store.
      await this.#release(lock, { o: 'done' });
      return { data, fetchedAt: at, ageMs: 0, stale: false, source: 'upstream' };
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not_found') {
        await this.#write(key, { nf: err.upstreamMessage ?? null, status: err.status, at: this.#now() }, this.#ttls.notFound);
        await this.#release(lock, { o: 'done' });
        throw err;
      }
      await this.#release(lock, outcomeOf(err));
      return this.#afterFailure<T>(err, key, resource, known);
    }
  }

  /**
   * Releases a flight lock before the answer goes back: otherwise this process's next claim of the key
   * (a Refresh press right after) could reach Redis before the release, find its own finished
   * flight's lock and wait on it. Bounded by the store timeout; a failure is the lock's to log.
   */
  async #release(lock: FlightLock | undefined, outcome: Parameters<FlightLock['release']>[0]): Promise<void> {
    if (lock) await this.#bounded(lock.release(outcome), 'release').catch(() => undefined);
  }

  /** After a failed load: on a transient failure the older value (stale, with its age) if there is one, else `err` rethrown. */
  async #afterFailure<T>(err: unknown, key: string, resource: Resource, known: Entry | undefined): Promise<Fetched<T>> {
    if (err instanceof ApiError && err.isTransient) {
      const old = known ?? (await this.#read(key, resource));
      if (old && 'v' in old) {
        this.stats.stale++;
        const ageMs = Math.max(0, this.#now() - old.at);
        this.#logger?.warn({ key, kind: err.kind, ageMs }, 'API failed; serving stale cached value');
        return { data: old.v as T, fetchedAt: old.at, ageMs, stale: true, source: 'stale' };
      }
    }
    throw err;
  }

  /**
   * Before a load, with a shared flight: takes `key`'s lock in Redis, or waits for the process that
   * holds it. Returns the answer that process wrote (`entry`: a value, or a not-found, fresh, or for a
   * `fresh` call written since it began), its failure (`failure`), or this process's turn to load:
   * with the lock, or without it (`lock` absent) when Redis cannot coordinate or the holder outlived
   * {@link SharedFlight.maxWaitMs}. When a holder fails in a way that says nothing of the API (its own
   * rate limiter refused, a bug) or its lock lapses, the waiters claim the lock again: one of them loads.
   * The caller's deadline is not awaited here: `get` answers at it (stale or `timeout`) while this goes on.
   */
  async #join(
    key: string,
    resource: Resource,
    fresh: boolean,
    flight: SharedFlight,
  ): Promise<{ entry: Entry } | { failure: ApiError } | { lock?: FlightLock }> {
    const startedAt = this.#now();
    const giveUpAt = Date.now() + flight.maxWaitMs;
    for (;;) {
      const claim = await flight.claim(key);
      if (claim.kind === 'unavailable') {
        this.levelStats.flightAlone++;
        return {};
      }
      if (claim.kind === 'acquired') {
        // The answer may have landed between this process's miss and its claim, its writer gone since.
        const entry = await this.#peek(key);
        if (entry && this.#answers(entry, resource, fresh, startedAt)) {
          void claim.lock.release({ o: 'done' });
          this.levelStats.flightJoins++;
          return { entry };
        }
        return { lock: claim.lock };
      }
      const left = giveUpAt - Date.now();
      if (left <= 0) {
        this.levelStats.flightAlone++;
        this.#logger?.warn({ key, waitedMs: flight.maxWaitMs }, 'another process has held this cache key for too long; asking the API here too');
        return {};
      }
      const news = await flight.wait(key, left);
      if (news.o === 'unavailable') {
        this.levelStats.flightAlone++;
        return {};
      }
      if (news.o === 'failed') {
        this.levelStats.flightFailures++;
        const { kind, status, retryAfterMs, retryAfterFromHeader } = news;
        return {
          failure: new ApiError({
            kind: kind as ApiError['kind'],
            endpoint: resource,
            status,
            retryAfterMs,
            retryAfterFromHeader,
            upstreamMessage: 'the API failed for another bot process asking the same',
          }),
        };
      }
      if (news.o === 'retry') continue;
      // done, or the lock gone, or the wait's bound: the answer is in the shared store, or the lock is free to claim.
      const entry = await this.#peek(key);
      if (entry && this.#answers(entry, resource, fresh, startedAt)) {
        this.levelStats.flightJoins++;
        return { entry };
      }
    }
  }

  /** The answer another process wrote, as this call's: a value, or the not-found thrown. */
  #joined<T>(entry: Entry, resource: Resource): Fetched<T> {
    if ('nf' in entry) throw new ApiError({ kind: 'not_found', endpoint: resource, status: entry.status, upstreamMessage: entry.nf ?? undefined });
    const ageMs = Math.max(0, this.#now() - entry.at);
    return { data: entry.v as T, fetchedAt: entry.at, ageMs, stale: false, source: 'cache' };
  }

  /**
   * Whether `entry` answers a call begun at `startedAt`: fresh by its TTL, or for a `fresh` call,
   * written after it began. Strictly after: an entry of the same millisecond may be the very value the
   * member asked to refresh (a Refresh pressed as the first answer was written).
   */
  #answers(entry: Entry, resource: Resource, fresh: boolean, startedAt: number): boolean {
    return fresh ? entry.at > startedAt : this.#isFresh(entry, resource);
  }

  /** The shared level's entry of `key` now, reconciled with memory (as {@link #readShared}). */
  #peek(key: string): Promise<Entry | undefined> {
    return this.#readShared(key, this.#shared!, this.#memory?.get(key));
  }

  /** Whether `entry` is within its TTL now: its resource's for a value, `notFound`'s for a not-found. */
  #isFresh(entry: Entry, resource: Resource): boolean {
    return this.#now() - entry.at < ('v' in entry ? this.#ttls[resource] : this.#ttls.notFound);
  }

  /**
   * The entry of `key`, fresh or not, or undefined. The memory copy when there is no shared level, or
   * when it is within its TTL and was checked within `recheckMs`; else the shared level decides:
   * a newer entry there replaces the memory copy, none there removes it, and a failure or timeout
   * leaves the memory copy (if any) as the answer.
   */
  async #read(key: string, resource: Resource): Promise<Entry | undefined> {
    const local = this.#memory?.get(key);
    if (!this.#shared) return local;
    if (local && this.#isFresh(local, resource) && this.#now() - (this.#checkedAt.get(local) ?? Number.NEGATIVE_INFINITY) < this.#recheckMs) return local;
    // Concurrent readers of one key share one shared-store read (and one parse).
    let reading = this.#reading.get(key);
    if (!reading) {
      reading = this.#readShared(key, this.#shared, local).finally(() => this.#reading.delete(key));
      this.#reading.set(key, reading);
    }
    return reading;
  }

  /** The shared level's answer for `key`, reconciled with the memory copy `local` (see {@link #read}). */
  async #readShared(key: string, shared: Keyv, local: Entry | undefined): Promise<Entry | undefined> {
    this.levelStats.sharedReads++;
    let remote: Entry | undefined;
    let expires: number | undefined;
    try {
      const raw = await this.#bounded(shared.get<Entry>(key, { raw: true }), 'read');
      remote = isEntry(raw?.value) ? raw.value : undefined;
      expires = typeof raw?.expires === 'number' ? raw.expires : undefined;
    } catch (err) {
      // Redis is down or slow: do not wait on it again for the single-flight's lock right after.
      this.#flight?.suspend(err);
      const held = this.#memory?.get(key);
      this.#logger?.warn({ err, key }, held ? 'cache read failed; using the memory copy' : 'cache read failed; treating as a miss');
      // Do not wait on the shared store for this key again until the next recheck.
      if (held) this.#checkedAt.set(held, this.#now());
      return held;
    }
    // A write may have landed while the shared store answered: reconcile with what memory holds now.
    const held = this.#memory?.get(key);
    if (!remote) {
      // Gone there (deleted, expired, evicted): the memory copy read before goes too.
      if (held && held === local) {
        this.#memory!.delete(key);
        return undefined;
      }
      return held;
    }
    if (held && remote.at <= held.at) {
      // Nothing newer: keep the memory copy (the same object, no re-measuring).
      this.#checkedAt.set(held, this.#now());
      return held;
    }
    this.#fill(key, remote, expires);
    return remote;
  }

  /** Copies an entry read from the shared level into memory, for what is left of its lifetime there. */
  #fill(key: string, entry: Entry, expires: number | undefined): void {
    if (!this.#memory) return;
    // keyv's `expires` is on the wall clock; the memory level takes a duration.
    const ttlMs = expires === undefined ? undefined : expires - Date.now();
    if (ttlMs !== undefined && ttlMs <= 0) return;
    if (this.#remember(key, entry, ttlMs)) this.levelStats.sharedFills++;
  }

  /** Puts `entry` in the memory level, measured once; false when it is too large to keep there. */
  #remember(key: string, entry: Entry, ttlMs: number | undefined): boolean {
    let bytes: number;
    try {
      bytes = jsonSize(entry);
    } catch (err) {
      this.#logger?.warn({ err, key }, 'cache entry cannot be measured as JSON; not kept in memory');
      this.#memory!.delete(key);
      return false;
    }
    const kept = this.#memory!.set(key, entry, { bytes, ttlMs });
    if (kept) this.#checkedAt.set(entry, this.#now());
    else {
      this.levelStats.oversized++;
      this.#logger?.debug({ key, bytes, maxEntryBytes: this.#memory!.maxEntryBytes }, 'cache entry too large for the memory level; served, not kept');
    }
    return kept;
  }

  /** `operation` or a rejection after the store timeout. */
  #bounded<T>(operation: Promise<T>, what: string): Promise<T> {
    // settleWithin, not p-timeout: this runs for every shared read and write (see src/core/deadline.ts).
    return settleWithin(operation, this.#storeTimeoutMs, () => {
      throw new Error(`cache store ${what} took over ${this.#storeTimeoutMs} ms`);
    });
  }

  /** Writes to memory, then to the shared level (bounded by the store timeout; a failure is logged, never thrown). */
  async #write(key: string, entry: Entry, ttlMs: number | undefined): Promise<void> {
    if (this.#memory) this.#remember(key, entry, ttlMs);
    if (!this.#shared) return;
    try {
      await this.#bounded(this.#shared.set(key, entry, ttlMs), 'write');
    } catch (err) {
      this.#logger?.warn({ err, key }, 'cache write failed');
    }
  }
}

/**
 * What a holder's failed load tells its waiters. An upstream failure (the API answered with an error,
 * did not answer in time, or could not be reached) is passed on, so that the waiters apply their own
 * stale-if-error rather than each asking a failing API in turn. A refusal by this process's own rate
 * limiter (a `rate_limited` with no HTTP status: the wait would outlast its caller's deadline) or an
 * unexpected error says nothing about the API: `retry`, and one waiter takes the lock.
 */
function outcomeOf(err: unknown): Outcome {
  if (err instanceof ApiError && !(err.kind === 'rate_limited' && err.status === undefined)) {
    return { o: 'failed', kind: err.kind, status: err.status, retryAfterMs: err.retryAfterMs, retryAfterFromHeader: err.retryAfterFromHeader };
  }
  return { o: 'retry' };
}

/** Whether a value read from the shared store has the shape of an {@link Entry}. */
function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && typeof (value as { at?: unknown }).at === 'number';
}
