/**
 * Settings caches of several processes kept coherent through Redis pub/sub (src/store/settings-sync.ts),
 * and the feed leadership's deadline when Redis dies (src/feeds/leadership.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCacheStore, createCacheStore } from '../../src/cache/store.js';
import { RedisLeadership, redisClientOf } from '../../src/feeds/leadership.js';
import { syncSettingsOverRedis } from '../../src/store/settings-sync.js';
import { GuildSettingsRepository } from '../../src/store/guild-settings.js';
import { capturingLogger } from '../helpers/replica.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { openTestState } from '../helpers/state.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

/** Polls `check` until it holds (no timing assertion: the test's own timeout bounds it). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

describe('settings sync over Redis', () => {
  it("a change made by one process is seen at once by another process's cache", async () => {
    const state = await openTestState('sqlite');
    const { logger } = capturingLogger();
    // Two repositories over one database, each with its own cache, as two processes have; a TTL far
    // longer than the test, so only the pub/sub invalidation can make the change visible.
    const a = new GuildSettingsRepository(state.database.db, { cacheTtlMs: 3_600_000 });
    const b = new GuildSettingsRepository(state.database.db, { cacheTtlMs: 3_600_000 });
    const storeA = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const storeB = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const stopA = await syncSettingsOverRedis(redisClientOf(storeA), a, logger);
    const stopB = await syncSettingsOverRedis(redisClientOf(storeB), b, logger);
    try {
      expect((await b.get('g1')).ephemeralByDefault).toBe(false); // now cached in b
      await a.update('g1', (s) => void (s.ephemeralByDefault = true));
      await eventually(async () => b.peek('g1') === undefined);
      expect((await b.get('g1')).ephemeralByDefault).toBe(true);
      // b's own change invalidates a, and a's own message does not drop a's fresh entry.
      await b.update('g1', (s) => void (s.leaderboardPlatform = 'ps'));
      await eventually(async () => (await a.get('g1')).leaderboardPlatform === 'ps');
      expect(b.peek('g1')?.leaderboardPlatform).toBe('ps');
    } finally {
      await stopA();
      await stopB();
      await closeCacheStore(storeA);
      await closeCacheStore(storeB);
      await state.close();
    }
  });
});

describe('RedisLeadership when Redis dies', () => {
  it('a check fails within its deadline instead of waiting for the reconnection, and works again after', async () => {
    const store = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    const leadership = new RedisLeadership(redisClientOf(store), 'test:leader:dies', 60_000, 300);
    try {
      expect(await leadership.isLeader()).toBe(true);
      await redis.kill();
      await expect(leadership.isLeader()).rejects.toThrow(/did not answer within 300 ms|ECONNREFUSED|closed|Socket/i);
      await expect(leadership.release()).rejects.toThrow();
      await redis.restart();
      await eventually(() => leadership.isLeader().catch(() => false));
    } finally {
      await closeCacheStore(store);
    }
  });
});
