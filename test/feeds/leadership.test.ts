/** The Redis lock that lets exactly one of several processes poll the feeds. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCacheStore, createCacheStore } from '../../src/cache/store.js';
import { RedisLeadership, redisClientOf } from '../../src/feeds/leadership.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

describe('RedisLeadership', () => {
  it('one leader at a time; it renews; it releases; an expired lead passes on', async () => {
    const a = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const b = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const first = new RedisLeadership(redisClientOf(a), 'test:leader', 400);
    const second = new RedisLeadership(redisClientOf(b), 'test:leader', 400);
    expect(await first.isLeader()).toBe(true);
    expect(await second.isLeader()).toBe(false);
    await new Promise((r) => setTimeout(r, 250));
    expect(await first.isLeader()).toBe(true); // renewed
    await new Promise((r) => setTimeout(r, 250));
    expect(await second.isLeader()).toBe(false); // still held thanks to the renewal
    await first.release();
    expect(await second.isLeader()).toBe(true);
    expect(await first.isLeader()).toBe(false);
    await new Promise((r) => setTimeout(r, 500)); // the second stops renewing and its lead expires
    expect(await first.isLeader()).toBe(true);
    await closeCacheStore(a);
    await closeCacheStore(b);
  });

  it('refuses a store that is not Redis', () => {
    expect(() => redisClientOf(createCacheStore({ maxEntries: 10 }))).toThrow(/not Redis/);
  });
});
