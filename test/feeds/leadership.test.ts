/** The Redis lock that lets exactly one of several processes poll the feeds, and the turns of the hourly jobs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCacheStore, createCacheStore } from '../../src/cache/store.js';
import { RedisJobTurns, RedisLeadership, redisClientOf } from '../../src/feeds/leadership.js';
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

describe('RedisJobTurns', () => {
  it('one process of the deployment per period, whoever asks first; the feed lock is left alone; a new period is free', async () => {
    const a = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const b = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const first = new RedisJobTurns(redisClientOf(a), 'test-job', 400);
    const second = new RedisJobTurns(redisClientOf(b), 'test-job', 400);
    const other = new RedisJobTurns(redisClientOf(b), 'other-job', 400);
    const poller = new RedisLeadership(redisClientOf(b), 'test:turns-leader', 400);
    expect(await poller.isLeader()).toBe(true);
    expect([await second.take(), await first.take(), await first.take(), await other.take()]).toEqual([true, false, false, true]);
    // Asking for a job's turn never takes or touches the feed lock.
    expect(await new RedisLeadership(redisClientOf(a), 'test:turns-leader', 400).isLeader()).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    // The period is over: the next to ask gets the turn, and only one of them.
    expect([await first.take(), await second.take()]).toEqual([true, false]);
    await closeCacheStore(a);
    await closeCacheStore(b);
  });

  it('a Redis that does not answer is an error within the timeout, not a wait', async () => {
    const store = createCacheStore({ redisUrl: 'redis://127.0.0.1:1', maxEntries: 10 });
    const turns = new RedisJobTurns(redisClientOf(store), 'test-job', 400, 200);
    const started = Date.now();
    await expect(turns.take()).rejects.toThrow(/did not answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    await closeCacheStore(store).catch(() => undefined);
  });
});
