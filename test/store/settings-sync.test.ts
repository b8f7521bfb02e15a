/**
 * Settings caches of several processes kept coherent through Redis pub/sub (src/store/settings-sync.ts),
 * and the feed leadership's deadline when Redis dies (src/feeds/leadership.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCacheStore, createCacheStore, redisClientOf } from '../../src/cache/store.js';
import { RedisLeadership } from '../../src/feeds/leadership.js';
import { syncSettingsOverRedis } from '../../src/store/settings-sync.js';
import { GuildSettingsRepository } from '../../src/store/guild-settings.js';
import { capturingLogger } from '../helpers/replica.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { openTestState } from '../helpers/state.js';
import { pollUntil } from '../helpers/until.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

/** Polls `check` until it holds (no timing assertion: the timeout is a safety net). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  await pollUntil(check, what);
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
      await eventually(async () => b.peek('g1') === undefined, "a's change to reach b");
      expect((await b.get('g1')).ephemeralByDefault).toBe(true);
      // b's own change invalidates a, and b's own message does not drop b's fresh entry.
      expect((await b.get('g2')).ephemeralByDefault).toBe(false); // cached in b, for the marker below
      await b.update('g1', (s) => void (s.leaderboardPlatform = 'ps'));
      await eventually(async () => (await a.get('g1')).leaderboardPlatform === 'ps', "b's change to reach a");
      // A marker published after Redis took b's message (a has seen it): Redis delivers a subscriber's
      // messages in order, so once b has dropped g2, b's subscriber has had its own message about g1 too.
      await a.update('g2', (s) => void (s.ephemeralByDefault = true));
      await eventually(async () => b.peek('g2') === undefined, "a's marker to reach b");
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
      await eventually(() => leadership.isLeader().catch(() => false), 'the lead again once Redis is back');
    } finally {
      await closeCacheStore(store);
    }
  });
});
