/** The cache's keyv: an in-memory LRU, or Redis with `REDIS_URL` so processes share it (and its client serves coordination). */
import Keyv from 'keyv';
import type KeyvRedis from '@keyv/redis';
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';

/** Key prefix of the response cache; bump the version when the cached value shapes change. */
export const CACHE_NAMESPACE = 'rivals:cache:v1';

/** A Map-like keyv store over lru-cache, bounded by entry count: keyv passes its TTL as a number, lru-cache wants `{ttl}`. */
export class LruStore<V = unknown> {
  readonly #lru: LRUCache<string, V & {}>;
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
  get size(): number {
    return this.#lru.size;
  }
}

export interface CacheStoreOptions {
  /** `redis://` URL; absent: in memory. */
  redisUrl?: string;
  maxEntries: number;
  namespace?: string;
}

/** @keyv/redis, loaded on first use (a bot without REDIS_URL never loads it), via `require` to stay synchronous, and only here so one build loads. */
export function redisAdapter(): typeof KeyvRedis {
  return (createRequire(import.meta.url)('@keyv/redis') as { default: typeof KeyvRedis }).default;
}

/** The node-redis client of each Redis-backed store made here, kept as it is made: its other users share the connection. */
const redisClients = new WeakMap<Keyv, () => Promise<unknown>>();

/** The response cache's keyv; keyv emits store errors as `error` events, which the cache treats as misses. */
export function createCacheStore(options: CacheStoreOptions): Keyv {
  const namespace = options.namespace ?? CACHE_NAMESPACE;
  if (options.redisUrl) {
    const adapter = new (redisAdapter())(options.redisUrl, { throwOnConnectError: false, connectionTimeout: 2_000 });
    const store = new Keyv({ store: adapter, namespace, useKeyPrefix: false });
    redisClients.set(store, () => adapter.getClient());
    return store;
  }
  return new Keyv({ store: new LruStore(options.maxEntries), namespace });
}

/**
 * The node-redis v5 client of a store {@link createCacheStore} made with a `redisUrl`, for coordination between processes
 * (locks, pub/sub, shared budgets); each user types the commands it calls. @throws {Error} for a store without Redis.
 */
export function redisClientOf(store: Keyv): () => Promise<unknown> {
  const client = redisClients.get(store);
  if (!client) throw new Error('the cache store is not Redis');
  return client;
}

/** Closes gracefully within `graceMs`, else forcibly: a graceful close waits on queued commands to a Redis that may be gone. */
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
