/** Back buttons kept in Redis (src/store/back-targets.ts): what one process keeps, another finds; Redis gone is a miss, not a failure. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCacheStore, createCacheStore } from '../../src/cache/store.js';
import { BACK_TTL_MS, BackTargets } from '../../src/store/back-targets.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

const TARGET = 'mt.o:6713355_1740604074_322_11001_10~1170~1~403~1740604635~0-2:1403392756::2:';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

describe('BackTargets on Redis', () => {
  it('a target one process keeps, another finds under the same key, with the week to live in Redis itself', async () => {
    const a = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const b = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    try {
      const key = await new BackTargets(a, 2_000).keep(TARGET);
      expect(key).not.toBeNull();
      expect(await new BackTargets(b, 2_000).find(key!)).toBe(TARGET);
      // Redis expires the entry itself: nothing is left behind by a process that stopped.
      const client = (b.store as { client: { pTTL(key: string): Promise<number> } }).client;
      const ttl = await client.pTTL(`rivals:cache:v1::back:${key}`);
      expect(ttl).toBeGreaterThan(BACK_TTL_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(BACK_TTL_MS);
    } finally {
      await closeCacheStore(a);
      await closeCacheStore(b);
    }
  });

  it('with Redis killed, keeping and finding never reject, and nothing is found: the view goes on without its Back', async () => {
    const store = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    try {
      const backs = new BackTargets(store, 500);
      const key = (await backs.keep(TARGET))!;
      await redis.kill();
      // Whether a write to a Redis just gone reports a failure depends on when its client notices: a key may come back.
      const later = await backs.keep(`${TARGET}x`);
      expect(await backs.find(key)).toBeNull();
      if (later !== null) expect(await backs.find(later)).toBeNull();
    } finally {
      await redis.restart();
      await closeCacheStore(store);
    }
  });
});
