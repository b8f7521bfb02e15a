/**
 * Discord's identify limit across processes (Discord: Gateway, "Session Start Limit"): a bucket per
 * `shard_id % max_concurrency`, taken with `SET NX PX` in Redis so a process that dies holding it blocks nobody for long.
 */
import { randomUUID } from 'node:crypto';
import pTimeout from 'p-timeout';
import type { IIdentifyThrottler } from '@discordjs/ws';
import type { Logger } from '../../core/logger.js';

/** Ms a bucket is held: Discord's 5 s window plus a margin, as Discord times arrivals and processes leave at different times. */
export const IDENTIFY_WINDOW_MS = 5_500;

/** The node-redis v5 commands the throttler uses. */
export interface IdentifyRedis {
  set(key: string, value: string, options: { condition: 'NX'; expiration: { type: 'PX'; value: number } }): Promise<string | null>;
  pTTL(key: string): Promise<number>;
}

/**
 * An identify throttler shared through Redis. When Redis fails or is slow it falls back to this process's
 * throttler: the shard still connects, and at worst Discord closes an early IDENTIFY with 4009 and discord.js retries.
 */
export class RedisIdentifyThrottler implements IIdentifyThrottler {
  readonly #owner = randomUUID();

  /** `maxConcurrency`: Discord's `session_start_limit.max_concurrency`, at least 1. */
  constructor(
    private readonly maxConcurrency: number,
    private readonly redis: () => Promise<IdentifyRedis>,
    private readonly fallback: IIdentifyThrottler,
    private readonly logger: Logger,
    private readonly options: { keyPrefix?: string; windowMs?: number; timeoutMs?: number } = {},
  ) {}

  /** @throws the signal's reason when it aborts while waiting (discord.js aborts on destroy). */
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
