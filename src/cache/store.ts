/**
 * The keyv instance of the cache: a bounded least-recently-used map in memory by default, or Redis
 * when `REDIS_URL` is set so that several bot processes share one cache. It holds the recent lookups
 * (src/store/recent-lookups.ts) and gives the Redis client for coordination (src/feeds/leadership.ts,
 * src/store/settings-sync.ts). Over Redis it is also the response cache's shared second level; in
 * memory the response cache keeps its answers in its own memory level instead (src/cache/response-cache.ts).
 */
import Keyv from 'keyv';
import type KeyvRedis from '@keyv/redis';
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';

/** Key prefix of the response cache; bump the version when the cached value shapes change. */
export const CACHE_NAMESPACE = 'rivals:cache:v1';

/**
 * A Map-like keyv store over lru-cache: keyv passes its TTL as a number, lru-cache wants `{ttl}`.
 * Bounded by entry count; the least recently used entry goes first. keyv stores JSON text in it.
 */
export class LruStore<V = unknown> {
  readonly #lru: LRUCache<string, V & {}>;
  /** The entry bound given. */
  readonly max: number;
  constructor(maxEntries: number) {
    this.max = maxEntries;
    this.#lru = new LRUCache<string, V & {}>({ max: maxEntries });
  }
  get(key: string): V | undefined {
    return this.#lru.get(key);
  }
  set(key: string, value: V & {}, ttl?: number): boolean {
    this.#lru.set(key, value, ttl !== undefined && Number.isFinite(ttl) && ttl > 0 ? { ttl } : undefined);
    return true;
  }
  delete(key: string): boolean {
    return this.#lru.delete(key);
  }
  has(key: string): boolean {
    return this.#lru.has(key);
  }
  clear(): void {
    this.#lru.clear();
  }
  /** Entries held now. */
  get size(): number {
    return this.#lru.size;
  }
}

export interface CacheStoreOptions {
  /** `redis://` URL; absent: in memory. */
  redisUrl?: string;
  /** Bound of the in-memory store. */
  maxEntries: number;
  namespace?: string;
}

/**
 * @keyv/redis's adapter class, loaded on first use: a bot without REDIS_URL never loads the Redis
 * client ("import only what the mode needs"). Synchronous, through `require`, so that
 * {@link createCacheStore} stays synchronous for its callers. Every user of Redis through keyv loads it
 * here, so that one copy of the package is loaded, not its ES module and its CommonJS builds both.
 */
export function redisAdapter(): typeof KeyvRedis {
  return (createRequire(import.meta.url)('@keyv/redis') as { default: typeof KeyvRedis }).default;
}

/**
 * Creates the keyv instance for the response cache.
 * Store errors are emitted as `error` events by keyv; the cache treats them as misses.
 */
export function createCacheStore(options: CacheStoreOptions): Keyv {
  const namespace = options.namespace ?? CACHE_NAMESPACE;
  if (options.redisUrl) {
    return new Keyv({
      store: new (redisAdapter())(options.redisUrl, { throwOnConnectError: false, connectionTimeout: 2_000 }),
      namespace,
      useKeyPrefix: false,
    });
  }
  return new Keyv({ store: new LruStore(options.maxEntries), namespace });
}

/**
 * Closes a cache store: gracefully (pending writes flushed) within `graceMs`, else forcibly, so that
 * shutdown never hangs on a Redis server that went away (a graceful close waits for queued commands).
 */
export async function closeCacheStore(store: Keyv, graceMs = 1_000): Promise<void> {
  const adapter = store.store as { disconnect?: (force?: boolean) => Promise<void> };
  if (typeof adapter.disconnect !== 'function') return;
  let timer: NodeJS.Timeout | undefined;
  const graceful = adapter.disconnect(false).then(
    () => true,
    () => false,
  );
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
  });
  const closed = await Promise.race([graceful, expired]);
  clearTimeout(timer);
  if (!closed) await adapter.disconnect(true).catch(() => undefined);
}
