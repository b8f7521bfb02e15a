/** The cache on a real redis-server: several processes (here, several cache instances) share one cache, each with its own memory level in front. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RECHECK_MS, ResponseCache } from '../../src/cache/response-cache.js';
import { closeCacheStore, createCacheStore } from '../../src/cache/store.js';
import { DEFAULT_TTLS, STALE_RETENTION_MS } from '../../src/cache/ttl.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { beforeTimer, timer } from '../helpers/timing.js';
import { pollUntil } from '../helpers/until.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());
afterEach(() => vi.restoreAllMocks());

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
    const { ApiError } = await import('../../src/core/api-errors.js');
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

describe('two levels: memory first, Redis second', () => {
  it('a second process gets the value from Redis once, then from its memory with no JSON', async () => {
    const a = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const b = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const cacheA = new ResponseCache({ store: a });
    const cacheB = new ResponseCache({ store: b });
    const profile = { uid: '2', name: 'Sir Final', rows: Array.from({ length: 500 }, (_, i) => ({ i, hero: 'Hela' })) };
    let loads = 0;
    const loaded = await cacheA.get('player:/api/v1/player/2', 'player', async () => (++loads, profile));
    expect(loaded.data).toBe(profile);
    // A asked Redis once (a miss) before loading; its next read is a memory hit: Redis is not asked.
    expect(cacheA.levelStats.sharedReads).toBe(1);
    expect((await cacheA.get('player:/api/v1/player/2', 'player', async () => (++loads, profile))).data).toBe(profile);
    expect(cacheA.levelStats.sharedReads).toBe(1);

    const parse = vi.spyOn(JSON, 'parse');
    const fromRedis = await cacheB.get('player:/api/v1/player/2', 'player', async () => (++loads, profile));
    expect(fromRedis).toMatchObject({ source: 'cache', stale: false });
    expect(fromRedis.data).toEqual(profile);
    expect(parse).toHaveBeenCalled();
    expect(cacheB.levelStats).toMatchObject({ sharedReads: 1, sharedFills: 1 });

    parse.mockClear();
    const stringify = vi.spyOn(JSON, 'stringify');
    for (let i = 0; i < 20; i++) {
      const fromMemory = await cacheB.get('player:/api/v1/player/2', 'player', async () => (++loads, profile));
      expect(fromMemory.source).toBe('cache');
      expect(fromMemory.data).toBe(fromRedis.data);
    }
    expect(parse).not.toHaveBeenCalled();
    expect(stringify).not.toHaveBeenCalled();
    expect(cacheB.levelStats.sharedReads).toBe(1);
    expect(loads).toBe(1);
    vi.restoreAllMocks();
    await closeCacheStore(a);
    await closeCacheStore(b);
  });

  it('a value another process refreshed shows here once the memory copy is due for a recheck', async () => {
    const clock = { now: 1_750_000_000_000 };
    const a = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const b = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const cacheA = new ResponseCache({ store: a, now: () => clock.now, memory: { recheckMs: 5_000 } });
    const cacheB = new ResponseCache({ store: b, now: () => clock.now, memory: { recheckMs: 5_000 } });
    await cacheA.get('notes', 'patchNotes', async () => ({ newest: 'v1' }));
    const v1 = await cacheB.get('notes', 'patchNotes', async () => ({ newest: 'never' }));
    expect(v1.data).toEqual({ newest: 'v1' });

    // Unchanged in Redis: after the recheck B keeps its very object.
    clock.now += 5_001;
    expect((await cacheB.get('notes', 'patchNotes', async () => ({ newest: 'never' }))).data).toBe(v1.data);
    expect(cacheB.levelStats).toMatchObject({ sharedReads: 2, sharedFills: 1 });

    // The feed poller in A asks fresh; B sees the new value at its next recheck, not before.
    clock.now += 1_000;
    await cacheA.get('notes', 'patchNotes', async () => ({ newest: 'v2' }), { fresh: true });
    expect((await cacheB.get('notes', 'patchNotes', async () => ({ newest: 'never' }))).data).toEqual({ newest: 'v1' });
    clock.now += 5_000;
    expect((await cacheB.get('notes', 'patchNotes', async () => ({ newest: 'never' }))).data).toEqual({ newest: 'v2' });
    await closeCacheStore(a);
    await closeCacheStore(b);
  });

  it('a memory copy past its TTL is compared with Redis before going upstream', async () => {
    const clock = { now: 1_750_000_000_000 };
    const a = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const b = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const cacheA = new ResponseCache({ store: a, now: () => clock.now, memory: { recheckMs: 60 * 60_000 } });
    const cacheB = new ResponseCache({ store: b, now: () => clock.now, memory: { recheckMs: 60 * 60_000 } });
    let loads = 0;
    await cacheB.get('p', 'player', async () => (++loads, 'first'));
    clock.now += DEFAULT_TTLS.player + 1;
    await cacheA.get('p', 'player', async () => (++loads, 'second'));
    expect((await cacheB.get('p', 'player', async () => (++loads, 'never'))).data).toBe('second');
    expect(loads).toBe(2);
    await closeCacheStore(a);
    await closeCacheStore(b);
  });

  it('a delete in one process removes the key from the others at their next recheck', async () => {
    const clock = { now: 1_750_000_000_000 };
    const a = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const b = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const cacheA = new ResponseCache({ store: a, now: () => clock.now });
    const cacheB = new ResponseCache({ store: b, now: () => clock.now });
    let loads = 0;
    await cacheA.get('d', 'heroes', async () => (++loads, 'x'));
    await cacheB.get('d', 'heroes', async () => (++loads, 'x'));
    await cacheA.delete('d');
    clock.now += DEFAULT_RECHECK_MS;
    expect((await cacheB.get('d', 'heroes', async () => (++loads, 'y'))).source).toBe('upstream');
    expect(loads).toBe(2);
    await closeCacheStore(a);
    await closeCacheStore(b);
  });

  it('keeps TTL plus stale retention in Redis too (not-found: its TTL; a match: no expiry)', async () => {
    const store = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const cache = new ResponseCache({ store });
    const { ApiError } = await import('../../src/core/api-errors.js');
    await cache.get('ttl-player', 'player', async () => 1);
    await cache.get('ttl-match', 'match', async () => 1);
    await cache
      .get('ttl-nf', 'player', async () => {
        throw new ApiError({ kind: 'not_found', endpoint: 'player', status: 404 });
      })
      .catch(() => undefined);
    const client = await (
      store.store as { getClient(): Promise<{ keys(pattern: string): Promise<string[]>; pTTL(key: string): Promise<number> }> }
    ).getClient();
    const pttl = async (suffix: string) => {
      const [key] = await client.keys(`*${suffix}`);
      expect(key).toBeDefined();
      return await client.pTTL(key!);
    };
    const player = await pttl('ttl-player');
    expect(player).toBeLessThanOrEqual(DEFAULT_TTLS.player + STALE_RETENTION_MS);
    expect(player).toBeGreaterThan(DEFAULT_TTLS.player + STALE_RETENTION_MS - 10_000);
    const nf = await pttl('ttl-nf');
    expect(nf).toBeLessThanOrEqual(DEFAULT_TTLS.notFound);
    expect(nf).toBeGreaterThan(DEFAULT_TTLS.notFound - 10_000);
    expect(await pttl('ttl-match')).toBe(-1);
    await closeCacheStore(store);
  });
});

describe('Redis killed mid-run', () => {
  let own: RedisServer;
  beforeAll(async () => {
    own = await startRedis();
  });
  afterAll(() => own?.stop());

  it('reads are misses within the store timeout, memory copies still answer, and it recovers', async () => {
    const clock = { now: 1_750_000_000_000 };
    const store = createCacheStore({ redisUrl: own.url, maxEntries: 10 });
    const cache = new ResponseCache({ store, now: () => clock.now, storeTimeoutMs: 300, memory: { recheckMs: 5_000 } });
    const kept = await cache.get('kept', 'player', async () => ({ name: 'kept' }));
    await own.kill();

    // A key never seen: the Redis read gives up at the store timeout, then upstream answers, with no second wait.
    const late = timer(300 + 250);
    let calledBeforeLate: boolean | undefined;
    const fresh = await cache.get('new', 'player', async () => ((calledBeforeLate = !late.fired), 'from upstream'));
    late.clear();
    expect(fresh).toMatchObject({ data: 'from upstream', source: 'upstream' });
    expect(calledBeforeLate).toBe(true);
    // ...and the answer is in memory even though the Redis write failed: Redis is not asked.
    const reads = cache.levelStats.sharedReads;
    expect(
      (
        await beforeTimer(
          100,
          cache.get('new', 'player', async () => 'again'),
        )
      ).data,
    ).toBe('from upstream');
    expect(cache.levelStats.sharedReads).toBe(reads);

    // A memory copy due for a recheck: one bounded wait, then it answers; the next read does not wait.
    clock.now += 6_000;
    const rechecked = await beforeTimer(
      300 + 250,
      cache.get('kept', 'player', async () => ({ name: 'never' })),
    );
    expect(rechecked.data).toBe(kept.data);
    expect(cache.levelStats.sharedReads).toBe(reads + 1);
    expect(
      (
        await beforeTimer(
          100,
          cache.get('kept', 'player', async () => ({ name: 'never' })),
        )
      ).data,
    ).toBe(kept.data);
    expect(cache.levelStats.sharedReads).toBe(reads + 1);

    // Past its TTL with the API down too: the memory copy is served stale.
    const { ApiError } = await import('../../src/core/api-errors.js');
    clock.now += DEFAULT_TTLS.player;
    const stale = await cache.get('kept', 'player', async () => {
      throw new ApiError({ kind: 'unavailable', endpoint: 'player', status: 503 });
    });
    expect(stale).toMatchObject({ stale: true, source: 'stale' });
    expect(stale.data).toBe(kept.data);

    // Redis back (empty): writes reach it again and another process reads them.
    await own.restart();
    const other = createCacheStore({ redisUrl: own.url, maxEntries: 10 });
    const otherCache = new ResponseCache({ store: other, now: () => clock.now });
    await pollUntil(
      async () => (
        await cache.get(`after-${clock.now}`, 'player', async () => 'written', { fresh: true }),
        (await otherCache.get(`after-${clock.now}`, 'player', async () => 'missed')).source === 'cache'
      ),
      "a write to reach the other process's cache through the restarted Redis",
      { timeoutMs: 15_000, everyMs: 100 },
    );
    await closeCacheStore(store);
    await closeCacheStore(other);
  }, 30_000);
});
