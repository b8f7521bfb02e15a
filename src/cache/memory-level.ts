/**
 * The response cache's first level: the values themselves, in this process's memory, with no
 * serialisation on a hit. A least-recently-used map bounded both in bytes and in entries.
 */
import { LRUCache } from 'lru-cache';

/** Default of `CACHE_MAX_BYTES`: 64 MiB of cached answers, measured as their JSON length. */
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** Default of `CACHE_MAX_ENTRIES`. */
export const DEFAULT_CACHE_MAX_ENTRIES = 10_000;

/** What a response-cache entry's own fields add to its value's JSON (`{"v":…,"at":1763900000000}`), characters. */
const ENTRY_OVERHEAD = 25;

/** Sizes already known of objects, in JSON characters: an API answer's, from its response body ({@link noteJsonSize}). */
const knownSizes = new WeakMap<object, number>();

/**
 * Records that `value` came from `length` characters of JSON (an API response body, src/api/client.ts),
 * so that {@link jsonSize} need not serialise it again: a 60 KB profile costs a `JSON.stringify` of
 * about 0.5 ms otherwise, and the first ones after a start several milliseconds each.
 *
 * The body's length stands for the parsed answer's, which differs: the schemas resolve image paths to
 * URLs, fill missing fields and drop others. Against minified bodies (as the real API sends them) the
 * parsed answers of the recorded samples measure 10–17 % more for heroes, profiles and matches and
 * 15 % less for match histories; against pretty-printed ones, less. `CACHE_MAX_BYTES` is kept to
 * that degree.
 */
export function noteJsonSize(value: unknown, length: number): void {
  if (value !== null && typeof value === 'object' && Number.isFinite(length) && length > 0) knownSizes.set(value, length);
}

/** The size noted for `value` with {@link noteJsonSize}, if any. */
export function knownJsonSize(value: unknown): number | undefined {
  return value !== null && typeof value === 'object' ? knownSizes.get(value) : undefined;
}

/**
 * An entry's size estimate in bytes: the length of its JSON text (UTF-16 code units, which is the
 * byte count for the mostly ASCII API data). For an object whose size was noted ({@link noteJsonSize}),
 * or an object holding such a value in `v` (a response-cache entry, `{ v, at }`), that size (plus
 * the entry's own fields); otherwise one `JSON.stringify`, so call it once per write, never on a read.
 * A value JSON cannot represent (`undefined`, a function) counts as 1.
 * @throws {TypeError} for a value JSON cannot serialise (a cycle, a BigInt).
 */
export function jsonSize(value: unknown): number {
  if (value !== null && typeof value === 'object') {
    const known = knownSizes.get(value);
    if (known !== undefined) return known;
    const inner = (value as { v?: unknown }).v;
    const innerSize = inner !== null && typeof inner === 'object' ? knownSizes.get(inner) : undefined;
    if (innerSize !== undefined) return innerSize + ENTRY_OVERHEAD;
  }
  return JSON.stringify(value)?.length || 1;
}

export interface MemoryLevelOptions {
  /** Total size bound in bytes, each entry counted as given to {@link MemoryLevel.set}. Positive. */
  maxBytes: number;
  /** Entry-count bound; small values (a negative-cache entry) would otherwise fill the map unbounded by bytes. Positive. */
  maxEntries: number;
  /**
   * Largest single entry kept, bytes; a larger one is not stored (the answer is still served, just
   * not cached here). Default a quarter of `maxBytes`, so that one huge answer cannot flush most of the cache.
   */
  maxEntryBytes?: number;
  /** Clock for the TTLs, ms (default `Date.now`; the response cache passes its own, which tests fake). Must not return 0. */
  now?: () => number;
}

/** What {@link MemoryLevel.set} stores with a value. */
export interface MemorySetOptions {
  /** Size estimate in bytes, e.g. from {@link jsonSize}. */
  bytes: number;
  /** Lifetime in ms from now; absent or `Infinity`: until evicted. */
  ttlMs?: number;
}

/**
 * A byte-bounded LRU map of objects (lru-cache 11 `maxSize` + per-entry `ttl`). `get` returns the
 * stored object itself, the same one every time: callers must treat it as immutable. Expiry follows
 * the `now` clock given (lru-cache's `perf`), read on every access (no 1 ms debounce timer per read).
 */
export class MemoryLevel<V extends object> {
  readonly #lru: LRUCache<string, V>;
  readonly maxBytes: number;
  readonly maxEntries: number;
  readonly maxEntryBytes: number;

  /** @throws {RangeError} when a bound is not a positive integer. */
  constructor(options: MemoryLevelOptions) {
    this.maxBytes = options.maxBytes;
    this.maxEntries = options.maxEntries;
    this.maxEntryBytes = options.maxEntryBytes ?? Math.max(1, Math.floor(options.maxBytes / 4));
    for (const [name, v] of Object.entries({ maxBytes: this.maxBytes, maxEntries: this.maxEntries, maxEntryBytes: this.maxEntryBytes })) {
      if (!Number.isSafeInteger(v) || v <= 0) throw new RangeError(`MemoryLevel ${name} must be a positive integer (got ${v})`);
    }
    const now = options.now ?? Date.now;
    this.#lru = new LRUCache<string, V>({ max: this.maxEntries, maxSize: this.maxBytes, maxEntrySize: this.maxEntryBytes, perf: { now }, ttlResolution: 0 });
  }

  /** The stored object (not a copy), or undefined when absent or expired. Counts as a use for the LRU order. */
  get(key: string): V | undefined {
    return this.#lru.get(key);
  }

  /**
   * Stores `value` under `key`, evicting least recently used entries until both bounds hold.
   * @returns false when `value` is larger than `maxEntryBytes`: then nothing is stored and any older
   *   value under `key` is removed (it is no longer the latest).
   */
  set(key: string, value: V, options: MemorySetOptions): boolean {
    const size = Math.max(1, Math.ceil(options.bytes));
    if (size > this.maxEntryBytes) {
      this.#lru.delete(key);
      return false;
    }
    const ttl = options.ttlMs !== undefined && Number.isFinite(options.ttlMs) ? Math.max(1, Math.ceil(options.ttlMs)) : undefined;
    this.#lru.set(key, value, { size, ttl });
    return true;
  }

  delete(key: string): boolean {
    return this.#lru.delete(key);
  }

  /** Ms left before `key` expires: `Infinity` without a TTL, 0 when absent or expired. Does not count as a use. */
  remainingTtl(key: string): number {
    return this.#lru.has(key) ? this.#lru.getRemainingTTL(key) : 0;
  }

  /** Entries held now (expired ones included until they are read or evicted). */
  get size(): number {
    return this.#lru.size;
  }

  /** Sum of the held entries' sizes, bytes. */
  get bytes(): number {
    return this.#lru.calculatedSize;
  }
}
