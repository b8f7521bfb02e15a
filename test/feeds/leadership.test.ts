/** The Redis lock that lets exactly one of several processes poll the feeds, and the turns of the hourly jobs. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeCacheStore, createCacheStore, redisClientOf } from '../../src/cache/store.js';
import { RedisJobTurns, RedisLeadership } from '../../src/feeds/leadership.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

type Store = ReturnType<typeof createCacheStore>;
/** A Lua one-liner on `key` through `store`'s client: what a test reads of a lock, or does to it, directly in Redis. */
async function onKey(store: Store, script: string, key: string, ...args: string[]): Promise<number> {
  const client = (await redisClientOf(store)()) as { eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown> };
  return Number(await client.eval(script, { keys: [key], arguments: args }));
}
/** ms left before `key` expires; -2 once it is gone. */
const msLeft = (store: Store, key: string) => onKey(store, "return redis.call('pttl', KEYS[1])", key);
/**
 * The lock's time runs out: `key` is left `ms` to live. Time passes on Redis's clock, which the test
 * cannot move: shortening what is left stands for the wait, whatever the machine's load.
 */
const leaveOnly = (store: Store, key: string, ms: number) => onKey(store, "return redis.call('pexpire', KEYS[1], ARGV[1])", key, String(ms));
/** Waits for Redis to expire `key` (the event itself, polled; the timeout is a safety net). */
const expired = (store: Store, key: string) => vi.waitFor(async () => expect(await msLeft(store, key)).toBe(-2), { timeout: 5_000, interval: 10 });

describe('RedisLeadership', () => {
  it('one leader at a time; it renews; it releases; an expired lead passes on', async () => {
    const a = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const b = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const key = 'test:leader';
    const first = new RedisLeadership(redisClientOf(a), key, 60_000);
    const second = new RedisLeadership(redisClientOf(b), key, 60_000);
    expect(await first.isLeader()).toBe(true);
    expect(await second.isLeader()).toBe(false);
    // Half the lead's time has passed: the leader's next check renews it to the full minute.
    await leaveOnly(a, key, 30_000);
    expect(await msLeft(a, key)).toBeLessThanOrEqual(30_000);
    expect(await first.isLeader()).toBe(true);
    expect(await msLeft(a, key)).toBeGreaterThan(30_000); // renewed
    expect(await second.isLeader()).toBe(false); // still held
    await first.release();
    expect(await second.isLeader()).toBe(true);
    expect(await first.isLeader()).toBe(false);
    // The second stops renewing: its lead, set to expire, runs out, and the lock passes on.
    expect(await msLeft(b, key)).toBeGreaterThan(0);
    await leaveOnly(b, key, 1);
    await expired(a, key);
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
    const first = new RedisJobTurns(redisClientOf(a), 'test-job', 60_000);
    const second = new RedisJobTurns(redisClientOf(b), 'test-job', 60_000);
    const other = new RedisJobTurns(redisClientOf(b), 'other-job', 60_000);
    const poller = new RedisLeadership(redisClientOf(b), 'test:turns-leader', 60_000);
    expect(await poller.isLeader()).toBe(true);
    expect([await second.take(), await first.take(), await first.take(), await other.take()]).toEqual([true, false, false, true]);
    // Asking for a job's turn never takes or touches the feed lock.
    expect(await new RedisLeadership(redisClientOf(a), 'test:turns-leader', 60_000).isLeader()).toBe(false);
    // The turn lasts the period and then expires by itself.
    const left = await msLeft(a, 'rivals:jobs:test-job');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(60_000);
    await leaveOnly(a, 'rivals:jobs:test-job', 1);
    await expired(a, 'rivals:jobs:test-job');
    // The period is over: the next to ask gets the turn, and only one of them.
    expect([await first.take(), await second.take()]).toEqual([true, false]);
    await closeCacheStore(a);
    await closeCacheStore(b);
  });

  it('a Redis that does not answer is an error within the timeout, not a wait', async () => {
    const store = createCacheStore({ redisUrl: 'redis://127.0.0.1:1', maxEntries: 10 });
    const turns = new RedisJobTurns(redisClientOf(store), 'test-job', 400, 200);
    // The bound runs on the test's clock: the take has failed once 200 ms have passed on it, however slow the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const failed = expect(turns.take()).rejects.toThrow(/did not answer within 200 ms/);
      await vi.advanceTimersByTimeAsync(200);
      await failed;
    } finally {
      vi.useRealTimers();
    }
    await closeCacheStore(store).catch(() => undefined);
  });
});
