/**
 * Discord's identify limit across every process of a bot (Discord: Gateway, "Session Start Limit",
 * `max_concurrency`): shards whose `shard_id % max_concurrency` is equal share a bucket, and a bucket
 * takes one IDENTIFY every 5 seconds. discord.js's own throttler (@discordjs/ws SimpleIdentifyThrottler)
 * counts within one process; with several cluster processes and machines the buckets live in Redis.
 *
 * A bucket is a Redis key set with `SET NX PX 5000`: whoever sets it may identify now, the others
 * wait for the key's remaining time (PTTL) and try again. The key expires by itself, so a process that
 * dies holding it blocks nobody for more than 5 s.
 */
import { randomUUID } from 'node:crypto';
import pTimeout from 'p-timeout';
import type { IIdentifyThrottler } from '@discordjs/ws';
import type { Logger } from '../../core/logger.js';

/**
 * How long a bucket is held per IDENTIFY, ms: Discord's 5 s window, plus 500 ms for the time between
 * taking the bucket here and the IDENTIFY reaching Discord (one process's may leave later than the
 * next one's, and Discord times arrivals).
 */
export const IDENTIFY_WINDOW_MS = 5_500;

/** The node-redis v5 commands the throttler uses (the cache store's client, src/feeds/leadership.ts redisClientOf). */
export interface IdentifyRedis {
  set(key: string, value: string, options: { condition: 'NX'; expiration: { type: 'PX'; value: number } }): Promise<string | null>;
  pTTL(key: string): Promise<number>;
}

/**
 * An identify throttler shared through Redis by every process of one bot.
 *
 * When Redis fails or does not answer within `timeoutMs`, it falls back to `fallback` (this process's
 * own throttler) for that IDENTIFY and logs it: the shard still connects, as it would on one machine,
 * rather than waiting for Redis; Discord then answers an early IDENTIFY of another process by closing
 * with 4009 at worst, after which discord.js identifies again.
 */
export class RedisIdentifyThrottler implements IIdentifyThrottler {
  readonly #owner = randomUUID();

  /**
   * @param maxConcurrency Discord's `session_start_limit.max_concurrency` (`GET /gateway/bot`), at least 1.
   * @param redis the Redis client, resolved when needed.
   * @param fallback this process's throttler, used when Redis fails.
   */
  constructor(
    private readonly maxConcurrency: number,
    private readonly redis: () => Promise<IdentifyRedis>,
    private readonly fallback: IIdentifyThrottler,
    private readonly logger: Logger,
    private readonly options: { keyPrefix?: string; windowMs?: number; timeoutMs?: number } = {},
  ) {}

  /**
   * Resolves when shard `shardId` may send IDENTIFY.
   * @throws the signal's reason when `signal` aborts while waiting (discord.js aborts on destroy).
   */
  async waitForIdentify(shardId: number, signal: AbortSignal): Promise<void> {
    const bucket = shardId % Math.max(1, this.maxConcurrency);
    const key = `${this.options.keyPrefix ?? 'rivals:identify'}:${bucket}`;
    const windowMs = this.options.windowMs ?? IDENTIFY_WINDOW_MS;
    const timeoutMs = this.options.timeoutMs ?? 2_000;
    for (;;) {
      signal.throwIfAborted();
      let waitMs: number;
      try {
        waitMs = await pTimeout(this.#tryTake(key, windowMs), { milliseconds: timeoutMs, message: `Redis did not answer within ${timeoutMs} ms` });
      } catch (err) {
        this.logger.warn({ err, shard: shardId }, 'identify throttling over Redis failed: this process throttles its own shards only');
        return this.fallback.waitForIdentify(shardId, signal);
      }
      if (waitMs <= 0) return;
      await sleep(waitMs + Math.floor(Math.random() * 50), signal);
    }
  }

  /** 0 when the bucket was taken for this IDENTIFY, else the ms until it frees. */
  async #tryTake(key: string, windowMs: number): Promise<number> {
    const redis = await this.redis();
    if ((await redis.set(key, this.#owner, { condition: 'NX', expiration: { type: 'PX', value: windowMs } })) === 'OK') return 0;
    const left = await redis.pTTL(key);
    // -1 (no expiry: set by hand) or -2 (expired meanwhile): try again shortly.
    return left > 0 ? left : 25;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
