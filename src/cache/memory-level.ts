/** The response cache's first level: the values themselves in process memory (no serialisation on a hit), LRU-bounded in bytes and entries. */
import { LRUCache } from 'lru-cache';

/** Default of `CACHE_MAX_BYTES`, measured as cached answers' JSON length. */
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** Default of `CACHE_MAX_ENTRIES`. */
export const DEFAULT_CACHE_MAX_ENTRIES = 10_000;

/** Characters a response-cache entry's own fields add to its value's JSON (`{"v":…,"at":1763900000000}`). */
const ENTRY_OVERHEAD = 25;

const knownSizes = new WeakMap<object, number>();

/** Records that `value` was parsed from `length` JSON characters, so {@link jsonSize} need not serialise it (an approximation: schemas reshape answers). */
export function noteJsonSize(value: unknown, length: number): void {
  if (value !== null && typeof value === 'object' && Number.isFinite(length) && length > 0) knownSizes.set(value, length);
}

export function knownJsonSize(value: unknown): number | undefined {
  return value !== null && typeof value === 'object' ? knownSizes.get(value) : undefined;
}

/**
 * Size estimate, bytes: the JSON length (≈ bytes for mostly ASCII data), noted ({@link noteJsonSize}) or by one `JSON.stringify`: per write, never per read.
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
  /** Total size bound, bytes; positive. */
  maxBytes: number;
  /** Entry-count bound, positive: tiny values (negative-cache entries) would otherwise fill the map. */
  maxEntries: number;
  /** Largest entry kept, bytes (default a quarter of `maxBytes`, so one huge answer cannot flush the cache); larger ones are served, not stored. */
  maxEntryBytes?: number;
  /** Clock for the TTLs, ms (default `Date.now`); must not return 0. */
  now?: () => number;
}

export interface MemorySetOptions {
  /** Bytes, e.g. from {@link jsonSize}. */
  bytes: number;
  /** ms from now; absent or `Infinity`: until evicted. */
  ttlMs?: number;
}

/** A byte-bounded LRU of objects whose expiry follows the given clock; `get` returns the stored object itself, so treat it as immutable. */
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

  /** The stored object (not a copy), or undefined; counts as a use. */
  get(key: string): V | undefined {
    return this.#lru.get(key);
  }

  /** Stores `value`, evicting LRU entries; false when larger than `maxEntryBytes`, and then any older value under `key` is removed too. */
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

  /** ms before `key` expires: `Infinity` without a TTL, 0 when absent or expired; not a use. */
  remainingTtl(key: string): number {
    return this.#lru.has(key) ? this.#lru.getRemainingTTL(key) : 0;
  }

  get size(): number {
    return this.#lru.size;
  }

  get bytes(): number {
    return this.#lru.calculatedSize;
  }
}
