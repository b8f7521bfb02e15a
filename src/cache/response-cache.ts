/**
 * Cache policy: a TTL per resource, single-flight (across processes with a {@link SharedFlight}), stale-if-error, a brief negative
 * cache. Two levels: process memory holding the answers themselves (a hit neither parses nor copies), then the shared Redis store.
 */
import type Keyv from 'keyv';
import { ApiError, budgetSpent } from '../core/api-errors.js';
import { settleWithin } from '../core/deadline.js';
import type { Logger } from '../core/logger.js';
import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_MAX_ENTRIES, jsonSize, MemoryLevel } from './memory-level.js';
import type { FlightLock, Outcome, SharedFlight } from './shared-flight.js';
import { LruStore } from './store.js';
import { STALE_RETENTION_MS, ttlTable, type Resource } from './ttl.js';

/** `data` may be the very object the cache holds: never mutate it; copy before sorting or editing. */
export interface Fetched<T> {
  data: T;
  /** ms since the epoch. */
  fetchedAt: number;
  ageMs: number;
  /** True when the API failed and an expired value was served instead. */
  stale: boolean;
  source: 'upstream' | 'cache' | 'stale';
}

type Entry = { v: unknown; at: number } | { nf: string | null; status?: number; at: number };

export const DEFAULT_RECHECK_MS = 5_000;

export interface ResponseMemoryOptions {
  /** Bytes (`CACHE_MAX_BYTES`), entries measured by their JSON length; 0 turns the memory level off, every read going through the keyv store's JSON. */
  maxBytes?: number;
  /** `CACHE_MAX_ENTRIES`; default: the bound of the {@link LruStore} under `store`, else 10 000. */
  maxEntries?: number;
  /** Shared store only: ms a memory copy is trusted before rechecking the shared store, so another process's refresh shows here within it. */
  recheckMs?: number;
}

export interface ResponseCacheOptions {
  /** From `createCacheStore`. Over Redis it is the shared second level; an in-process {@link LruStore} holds no responses (memory does, without JSON). */
  store: Keyv;
  memory?: ResponseMemoryOptions;
  /** ms (see src/cache/ttl.ts). */
  ttls?: Partial<Record<Resource, number>>;
  /** ms since the epoch; tests pass a fake. */
  now?: () => number;
  logger?: Logger;
  /** ms (default 500): past it a read is a miss and a write is dropped, so a Redis outage slows nothing. */
  storeTimeoutMs?: number;
  /** Single-flight across processes over the same Redis; ignored over an in-process {@link LruStore}. */
  flight?: SharedFlight;
}

export interface GetOptions {
  /** Skip the TTL check and ask the API; the answer refreshes the cache (Refresh button, feed poller). */
  fresh?: boolean;
  /** ms since the epoch, wall clock: past it the stale value is served, or `timeout` thrown, while the load goes on and fills the cache. */
  deadline?: number;
}

export interface CacheStats {
  hits: number;
  misses: number;
  stale: number;
  negativeHits: number;
  /** Calls that joined an upstream request already in flight. */
  shared: number;
}

export interface CacheLevelStats {
  /** Reads sent to the keyv store: a memory miss, or a copy due for a recheck or past its TTL. */
  sharedReads: number;
  sharedFills: number;
  oversized: number;
  /** Loads answered by another process's upstream request. */
  flightJoins: number;
  /** Loads that took another process's upstream failure instead of asking again. */
  flightFailures: number;
  /** Loads that asked the API without the lock (Redis unavailable, or the holder took too long). */
  flightAlone: number;
}

/** One instance per process. */
export class ResponseCache {
  /** Absent when `memory.maxBytes` is 0. */
  readonly #memory?: MemoryLevel<Entry>;
  /** Absent when the keyv store is an in-process {@link LruStore} under a memory level. */
  readonly #shared?: Keyv;
  /** When (cache clock) each memory copy was written or last found current in the shared level. */
  readonly #checkedAt = new WeakMap<Entry, number>();
  readonly #recheckMs: number;
  readonly #ttls: Record<Resource, number>;
  readonly #now: () => number;
  readonly #logger?: Logger;
  readonly #storeTimeoutMs: number;
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

  /** ms; `Infinity` for never. */
  ttl(resource: Resource): number {
    return this.#ttls[resource];
  }

  /**
   * The cached value if fresh, else one `load` shared by concurrent callers (and other processes, with a shared flight). A transient
   * failure or the deadline serves the older value as stale; a `not_found` is remembered for the `notFound` TTL.
   * @throws what `load` throws with nothing to fall back on; {@link ApiError} `timeout` at the deadline, `not_found` from the negative cache.
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

  /**
   * What the cache holds under `key` at any age (an expired answer is kept a while for stale-if-error), never loading it; null
   * for nothing or a remembered 404. For what the bot already knows at no request's cost.
   */
  async held<T>(key: string, resource: Resource): Promise<Fetched<T> | null> {
    const entry = await this.#read(key, resource);
    if (!entry || !('v' in entry)) return null;
    const ageMs = Math.max(0, this.#now() - entry.at);
    return { data: entry.v as T, fetchedAt: entry.at, ageMs, stale: ageMs >= this.#ttls[resource], source: 'cache' };
  }

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

  /** Removes `key` from both levels; other processes drop their copy at their next recheck. Never throws. */
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

  /** Before the answer goes back: else this process's next claim (a Refresh right after) could find its own finished flight's lock and wait on it. */
  async #release(lock: FlightLock | undefined, outcome: Parameters<FlightLock['release']>[0]): Promise<void> {
    if (lock) await this.#bounded(lock.release(outcome), 'release').catch(() => undefined);
  }

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
   * With a shared flight: takes `key`'s lock or waits for its holder's answer (`entry`) or failure; loads without the lock when Redis
   * cannot coordinate or the holder outlives {@link SharedFlight.maxWaitMs}. The deadline is not awaited here: `get` answers at it.
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

  #joined<T>(entry: Entry, resource: Resource): Fetched<T> {
    if ('nf' in entry) throw new ApiError({ kind: 'not_found', endpoint: resource, status: entry.status, upstreamMessage: entry.nf ?? undefined });
    const ageMs = Math.max(0, this.#now() - entry.at);
    return { data: entry.v as T, fetchedAt: entry.at, ageMs, stale: false, source: 'cache' };
  }

  /** Fresh by its TTL, or for a `fresh` call written strictly after it began: one of the same ms may be the value being refreshed. */
  #answers(entry: Entry, resource: Resource, fresh: boolean, startedAt: number): boolean {
    return fresh ? entry.at > startedAt : this.#isFresh(entry, resource);
  }

  #peek(key: string): Promise<Entry | undefined> {
    return this.#readShared(key, this.#shared!, this.#memory?.get(key));
  }

  #isFresh(entry: Entry, resource: Resource): boolean {
    return this.#now() - entry.at < ('v' in entry ? this.#ttls[resource] : this.#ttls.notFound);
  }

  /** The memory copy if fresh and rechecked within `recheckMs`, else the shared level decides; a shared failure leaves the memory copy. */
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

  async #readShared(key: string, shared: Keyv, local: Entry | undefined): Promise<Entry | undefined> {
    this.levelStats.sharedReads++;
    let remote: Entry | undefined;
    let expires: number | undefined;
    try {
      const raw = await this.#bounded(shared.get<Entry>(key, { raw: true }), 'read');
      remote = isEntry(raw?.value) ? raw.value : undefined;
      expires = typeof raw?.expires === 'number' ? raw.expires : undefined;
    } catch (err) {
      // Do not wait on a down Redis again for the single-flight's lock right after.
      this.#flight?.suspend(err);
      const held = this.#memory?.get(key);
      this.#logger?.warn({ err, key }, held ? 'cache read failed; using the memory copy' : 'cache read failed; treating as a miss');
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

  #fill(key: string, entry: Entry, expires: number | undefined): void {
    if (!this.#memory) return;
    // keyv's `expires` is on the wall clock; the memory level takes a duration.
    const ttlMs = expires === undefined ? undefined : expires - Date.now();
    if (ttlMs !== undefined && ttlMs <= 0) return;
    if (this.#remember(key, entry, ttlMs)) this.levelStats.sharedFills++;
  }

  /** Measured once; false when too large to keep. */
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

  #bounded<T>(operation: Promise<T>, what: string): Promise<T> {
    // settleWithin, not p-timeout: this runs for every shared read and write (see src/core/deadline.ts).
    return settleWithin(operation, this.#storeTimeoutMs, () => {
      throw new Error(`cache store ${what} took over ${this.#storeTimeoutMs} ms`);
    });
  }

  /** A shared failure is logged, never thrown. */
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

/** Upstream failures pass on (waiters apply stale-if-error); our own limiter's refusal (`rate_limited`, no status) or a bug says nothing of the API. */
function outcomeOf(err: unknown): Outcome {
  if (err instanceof ApiError && !(err.kind === 'rate_limited' && err.status === undefined)) {
    return { o: 'failed', kind: err.kind, status: err.status, retryAfterMs: err.retryAfterMs, retryAfterFromHeader: err.retryAfterFromHeader };
  }
  return { o: 'retry' };
}

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && typeof (value as { at?: unknown }).at === 'number';
}
