/** The identify throttler over a real redis-server: buckets shared by processes, and the fallback when Redis dies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Keyv from 'keyv';
import { SimpleIdentifyThrottler } from '@discordjs/ws';
import { RedisIdentifyThrottler, type IdentifyRedis } from '../../../src/app/sharding/identify.js';
import { startRedis, type RedisServer } from '../../helpers/redis.js';
import { closeCacheStore, createCacheStore } from '../../../src/cache/store.js';
import { redisClientOf } from '../../../src/feeds/leadership.js';
import { capturingLogger } from '../../helpers/replica.js';

let redis: RedisServer;
const stores: Keyv[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const s of stores) await closeCacheStore(s, 200);
  await redis.stop();
});

/** One "process": its own Redis connection and throttler. */
async function processThrottler(maxConcurrency: number, windowMs: number) {
  // As the bot gets it: the cache store's Redis client.
  const store = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
  store.on('error', () => undefined);
  stores.push(store);
  const client = redisClientOf(store) as unknown as () => Promise<IdentifyRedis>;
  const { logger, lines } = capturingLogger();
  const throttler = new RedisIdentifyThrottler(maxConcurrency, client, new SimpleIdentifyThrottler(maxConcurrency), logger, {
    windowMs,
    timeoutMs: 300,
    keyPrefix: `test:identify:${Math.random()}`,
  });
  return { throttler, lines, client };
}

describe('RedisIdentifyThrottler', () => {
  it('spaces the IDENTIFYs of one bucket by the window across processes, and lets other buckets go together', async () => {
    const prefix = `test:identify:${Date.now()}`;
    const make = async () => {
      const p = await processThrottler(2, 400);
      return new RedisIdentifyThrottler(2, p.client, new SimpleIdentifyThrottler(2), capturingLogger().logger, { windowMs: 400, keyPrefix: prefix });
    };
    const [a, b] = [await make(), await make()];
    const started = performance.now();
    const times: { shard: number; at: number }[] = [];
    const signal = new AbortController().signal;
    // Shards 0 and 2 share bucket 0, shards 1 and 3 bucket 1 (shard_id % max_concurrency); A runs 0 and 1, B runs 2 and 3.
    await Promise.all(
      [
        [a, 0],
        [a, 1],
        [b, 2],
        [b, 3],
      ].map(async ([t, shard]) => {
        await (t as RedisIdentifyThrottler).waitForIdentify(shard as number, signal);
        times.push({ shard: shard as number, at: performance.now() - started });
      }),
    );
    const at = (shard: number) => times.find((t) => t.shard === shard)!.at;
    expect(Math.abs(at(0) - at(2))).toBeGreaterThanOrEqual(390);
    expect(Math.abs(at(1) - at(3))).toBeGreaterThanOrEqual(390);
    // The first of each bucket went at once.
    expect(Math.min(at(0), at(2))).toBeLessThan(300);
    expect(Math.min(at(1), at(3))).toBeLessThan(300);
  });

  it('gives up waiting when discord.js aborts (the client is destroyed)', async () => {
    const { throttler } = await processThrottler(1, 5_000);
    const controller = new AbortController();
    await throttler.waitForIdentify(0, controller.signal);
    const waiting = throttler.waitForIdentify(0, controller.signal);
    controller.abort(new Error('destroyed'));
    await expect(waiting).rejects.toThrow('destroyed');
  });

  it('falls back to its own throttler when Redis is gone, and says so', async () => {
    const { throttler, lines } = await processThrottler(1, 5_000);
    await redis.kill();
    try {
      const started = performance.now();
      await throttler.waitForIdentify(0, new AbortController().signal);
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(lines.join('\n')).toMatch(/identify throttling over Redis failed/);
    } finally {
      await redis.restart();
    }
  });
});
