/** The cache on a real redis-server: several processes (here, two cache instances) share one cache. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { closeCacheStore, createCacheStore } from '../../src/cache/store.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

describe('Redis-backed cache', () => {
  it('a value loaded by one instance is a hit for another', async () => {
    const a = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const b = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const cacheA = new ResponseCache({ store: a });
    const cacheB = new ResponseCache({ store: b });
    let loads = 0;
    const profile = { uid: '1', name: 'Ünïcode 😀', nested: { n: 1.5, none: null } };
    await cacheA.get('player:/api/v1/player/1', 'player', async () => (++loads, profile));
    const hit = await cacheB.get('player:/api/v1/player/1', 'player', async () => (++loads, profile));
    expect(hit.source).toBe('cache');
    expect(hit.data).toEqual(profile);
    expect(loads).toBe(1);
    await closeCacheStore(a);
    await closeCacheStore(b);
  });

  it('negative entries are shared too', async () => {
    const store = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const other = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const { ApiError } = await import('../../src/api/errors.js');
    let loads = 0;
    const load = async () => {
      loads++;
      throw new ApiError({ kind: 'not_found', endpoint: 'player', status: 404 });
    };
    await expect(new ResponseCache({ store }).get('nf', 'player', load)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(new ResponseCache({ store: other }).get('nf', 'player', load)).rejects.toMatchObject({ kind: 'not_found' });
    expect(loads).toBe(1);
    await closeCacheStore(store);
    await closeCacheStore(other);
  });

  it('a store that cannot connect is a miss, not a crash', async () => {
    const store = createCacheStore({ redisUrl: 'redis://127.0.0.1:1', maxEntries: 10 });
    const cache = new ResponseCache({ store });
    const got = await cache.get('k', 'player', async () => 'from upstream');
    expect(got).toMatchObject({ data: 'from upstream', source: 'upstream' });
    await closeCacheStore(store);
  });
});
