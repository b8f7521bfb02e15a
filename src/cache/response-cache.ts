/**
 * Cache policy over keyv (STYLE.md, src/cache): a TTL per resource, single-flight for concurrent
 * identical requests, stale-if-error, and a brief negative cache for not-found answers.
 */
import type Keyv from 'keyv';
import { ApiError, budgetSpent } from '../api/errors.js';
import { settleWithin } from '../deadline.js';
import type { Logger } from '../logger.js';
import { STALE_RETENTION_MS, ttlTable, type Resource } from './ttl.js';

/** A value with where it came from. `ageMs` is 0 for a value just fetched. */
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

export interface ResponseCacheOptions {
  store: Keyv;
  /** TTL overrides in ms (see src/cache/ttl.ts). */
  ttls?: Partial<Record<Resource, number>>;
  /** Clock, ms since the epoch (tests pass a fake one). */
  now?: () => number;
  logger?: Logger;
  /** Longest wait for the store in ms (default 500): past it a read is a miss and a write is dropped, so a Redis outage slows nothing. */
  storeTimeoutMs?: number;
}

export interface GetOptions {
  /** Skip the TTL check and ask the API; the answer refreshes the cache (Refresh button, feed poller). */
  fresh?: boolean;
  /**
   * When the caller stops waiting, ms since the epoch on the wall clock (an interaction's budget, src/deadline.ts):
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

/** The response cache. One instance per process; the store may be shared (Redis). */
export class ResponseCache {
  readonly #store: Keyv;
  readonly #ttls: Record<Resource, number>;
  readonly #now: () => number;
  readonly #logger?: Logger;
  readonly #storeTimeoutMs: number;
  readonly #inflight = new Map<string, Promise<Fetched<unknown>>>();
  readonly stats: CacheStats = { hits: 0, misses: 0, stale: 0, negativeHits: 0, shared: 0 };

  constructor(options: ResponseCacheOptions) {
    this.#store = options.store;
    this.#ttls = ttlTable(options.ttls);
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger;
    this.#storeTimeoutMs = options.storeTimeoutMs ?? 500;
    // Without a listener keyv rethrows store errors as unhandled 'error' events.
    this.#store.on('error', (err: unknown) => this.#logger?.warn({ err }, 'cache store error'));
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
   * @throws what `load` throws when there is nothing to fall back on; {@link ApiError} `not_found` from the negative cache.
   */
  async get<T>(key: string, resource: Resource, load: () => Promise<T>, options: GetOptions = {}): Promise<Fetched<T>> {
    let entry: Entry | undefined;
    if (!options.fresh) {
      entry = await this.#read(key);
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
      promise = this.#load(key, resource, load, entry).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, promise);
    }
    if (options.deadline === undefined) return promise;
    const known = entry;
    // Deadlines are on the wall clock (src/deadline.ts), whatever clock the TTLs use.
    return settleWithin(promise, options.deadline - Date.now(), () => this.#outOfTime<T>(key, resource, known));
  }

  /** The older value of `key` (stale, with its age) for a caller whose deadline passed, else a `timeout`. */
  async #outOfTime<T>(key: string, resource: Resource, known: Entry | undefined): Promise<Fetched<T>> {
    const old = known ?? (await this.#read(key));
    if (old && 'v' in old) {
      this.stats.stale++;
      const ageMs = Math.max(0, this.#now() - old.at);
      this.#logger?.warn({ key, ageMs }, 'no API answer within the interaction budget; serving stale cached value');
      return { data: old.v as T, fetchedAt: old.at, ageMs, stale: true, source: 'stale' };
    }
    throw budgetSpent(resource);
  }

  /** Removes one key (e.g. after an admin action that makes it wrong). */
  async delete(key: string): Promise<void> {
    await this.#store.delete(key).catch((err: unknown) => this.#logger?.warn({ err, key }, 'cache delete failed'));
  }

  async #load<T>(key: string, resource: Resource, load: () => Promise<T>, known: Entry | undefined): Promise<Fetched<T>> {
    try {
      const data = await load();
      const at = this.#now();
      const ttl = this.#ttls[resource];
      await this.#write(key, { v: data, at }, Number.isFinite(ttl) ? ttl + STALE_RETENTION_MS : undefined);
      return { data, fetchedAt: at, ageMs: 0, stale: false, source: 'upstream' };
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not_found') {
        await this.#write(key, { nf: err.upstreamMessage ?? null, status: err.status, at: this.#now() }, this.#ttls.notFound);
        throw err;
      }
      if (err instanceof ApiError && err.isTransient) {
        const old = known ?? (await this.#read(key));
        if (old && 'v' in old) {
          this.stats.stale++;
          const ageMs = Math.max(0, this.#now() - old.at);
          this.#logger?.warn({ key, kind: err.kind, ageMs }, 'API failed; serving stale cached value');
          return { data: old.v as T, fetchedAt: old.at, ageMs, stale: true, source: 'stale' };
        }
      }
      throw err;
    }
  }

  async #read(key: string): Promise<Entry | undefined> {
    try {
      const value = (await this.#bounded(this.#store.get(key), 'read')) as Entry | undefined;
      return value && typeof value === 'object' && typeof value.at === 'number' ? value : undefined;
    } catch (err) {
      this.#logger?.warn({ err, key }, 'cache read failed; treating as a miss');
      return undefined;
    }
  }

  /** `operation` or a rejection after the store timeout. */
  #bounded<T>(operation: Promise<T>, what: string): Promise<T> {
    // settleWithin, not p-timeout: this runs for every cached read and write (see src/deadline.ts).
    return settleWithin(operation, this.#storeTimeoutMs, () => {
      throw new Error(`cache store ${what} took over ${this.#storeTimeoutMs} ms`);
    });
  }

  async #write(key: string, entry: Entry, ttlMs: number | undefined): Promise<void> {
    try {
      await this.#bounded(this.#store.set(key, entry, ttlMs), 'write');
    } catch (err) {
      this.#logger?.warn({ err, key }, 'cache write failed');
    }
  }
}
