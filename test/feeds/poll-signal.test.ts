/**
 * "Poll now" across processes (src/feeds/poll-signal.ts): a backfill asked on a process that does not
 * poll the feeds reaches the one that does, over a real Redis.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeCacheStore, createCacheStore, redisClientOf } from '../../src/cache/store.js';
import { pollSignalOverRedis } from '../../src/feeds/poll-signal.js';
import { capturingLogger } from '../helpers/replica.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

/** Resolves once `check` holds; the test's own timeout bounds the wait. */
async function eventually(check: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(check()).toBe(true), { timeout: 15_000, interval: 10 });
}

describe('poll now, over Redis', () => {
  it('a request from one process reaches the others, never the process that sent it', async () => {
    const { logger } = capturingLogger();
    const stores = [0, 1, 2].map(() => createCacheStore({ redisUrl: redis.url, maxEntries: 10 }));
    const heard = [0, 0, 0];
    const signals = await Promise.all(stores.map((s, i) => pollSignalOverRedis(redisClientOf(s), () => void heard[i]!++, logger)));
    try {
      signals[0]!.publish();
      await eventually(() => heard[1] === 1 && heard[2] === 1);
      // A later request from process 1 reaches process 0 after the first one would have: 0 never heard its own.
      signals[1]!.publish();
      await eventually(() => heard[0] === 1 && heard[2] === 2);
      expect(heard).toEqual([1, 1, 2]);
    } finally {
      for (const s of signals) await s.stop();
      for (const s of stores) await closeCacheStore(s);
    }
  });
});
