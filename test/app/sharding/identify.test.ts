/** The identify throttler over a real redis-server: buckets shared by processes, and the fallback when Redis dies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Keyv from 'keyv';
import { SimpleIdentifyThrottler } from '@discordjs/ws';
import { RedisIdentifyThrottler, type IdentifyRedis } from '../../../src/app/sharding/identify.js';
import { startRedis, type RedisServer } from '../../helpers/redis.js';
import { closeCacheStore, createCacheStore, redisClientOf } from '../../../src/cache/store.js';
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
    const prefix = `test:identify:${Math.random()}`;
    /** Every SET NX on a bucket, as its process saw the answer: which process asked, and whether it took the bucket. */
    const takes: { process: 'A' | 'B'; bucket: string; took: boolean }[] = [];
    const make = async (name: 'A' | 'B') => {
      const p = await processThrottler(2, 1_000);
      const recording = async (): Promise<IdentifyRedis> => {
        const redis = await p.client();
        return {
          set: async (key, value, options) => {
            const answer = await redis.set(key, value, options);
            takes.push({ process: name, bucket: key.slice(prefix.length + 1), took: answer === 'OK' });
            return answer;
          },
          pTTL: (key) => redis.pTTL(key),
        };
      };
      return new RedisIdentifyThrottler(2, recording, new SimpleIdentifyThrottler(2), capturingLogger().logger, { windowMs: 1_000, keyPrefix: prefix });
    };
    const [a, b] = [await make('A'), await make('B')];
    const signal = new AbortController().signal;
    // Shards 0 and 2 share bucket 0, shards 1 and 3 bucket 1 (shard_id % max_concurrency); A runs 0 and 1, B runs 2 and 3.
    await Promise.all([a.waitForIdentify(0, signal), a.waitForIdentify(1, signal), b.waitForIdentify(2, signal), b.waitForIdentify(3, signal)]);
    // Each process has one shard in each bucket, whose attempts are in order: per bucket, one process's
    // first attempt took it, and the other's attempts were refused until one took it.
    const attempts = (process: 'A' | 'B', bucket: string) => takes.filter((t) => t.process === process && t.bucket === bucket).map((t) => t.took);
    for (const bucket of ['0', '1']) {
      const [first, second] = [attempts('A', bucket), attempts('B', bucket)].sort((x, y) => x.length - y.length);
      const seen = JSON.stringify(takes);
      // The first IDENTIFY of each bucket went at once: it waited neither for the other bucket nor for a window.
      expect(first, seen).toEqual([true]);
      // The other process's was refused while that IDENTIFY's window lasted, and went only when Redis let it
      // take the bucket: once the first's key had expired, a window after it was set (nothing else removes it).
      expect(second!.length, seen).toBeGreaterThanOrEqual(2);
      expect(second, seen).toEqual([...Array<boolean>(second!.length - 1).fill(false), true]);
    }
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
      // Redis comes back only after this resolves: the throttler gave up on it (its 300 ms deadline) instead of waiting for it.
      await throttler.waitForIdentify(0, new AbortController().signal);
      expect(lines.join('\n')).toMatch(/identify throttling over Redis failed/);
    } finally {
      await redis.restart();
    }
  });
});
