/**
 * The API key's rate budget for a whole deployment: with `REDIS_URL`, `RIVALS_API_RPM`
 * holds for every bot process together. Each request start takes a slot in one rolling window kept
 * in Redis; a 429's `Retry-After` pauses every process. The local limiter (src/api/rate-limiter.ts)
 * keeps its priority queue and deadlines and asks this window before each start.
 *
 * Why a script of our own and not a library: rate-limiter-flexible (`RateLimiterRedis`, the
 * well-kept choice, node-redis v5 with `useRedisPackage`) counts points in a fixed window per key
 * (a counter that expires `duration` after its first point), so a deployment could start
 * `RIVALS_API_RPM` requests at the end of one window and as many again at the start of the next:
 * twice the API's per-minute limit within a few seconds, which the API's own rolling count would
 * answer with 429s. The sliding log here (a sorted set of start times, Redis's clock, one Lua
 * script so that the check and the insert are atomic across processes) never admits more than the
 * cap in any window, and tells a refused caller when the oldest start leaves it. Its cost, one
 * member per request for a window, is nothing at API rates (tens to hundreds a minute).
 *
 * Keys (one hash tag, so that a Redis Cluster keeps them on one node): `{<prefix>}:window` (all
 * starts), `{<prefix>}:bulk` (bulk starts, held to their share deployment-wide too),
 * `{<prefix>}:paused` (the shared back-off, with its PTTL). Needs Redis 5 or later (scripts that
 * write after `TIME`).
 *
 * Redis down or slow: {@link RedisLink} answers at once (or after its short timeout, then not again
 * for its cool-down) and the verdict is `unavailable`: the caller falls back to its local window.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../core/logger.js';
import { RedisLink } from '../cache/redis-link.js';

/** Default key prefix (inside the hash tag). */
export const WINDOW_PREFIX = 'rivals:api:rate';

/** The node-redis v5 command used. */
interface WindowCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * KEYS: window, share window (the bulk share's or a gathering's), pause. ARGV: cap, window ms, member,
 * share cap (0: a start in no share).
 * Returns {1, 0, 0} when the start is admitted (recorded), {0, ms, scope} when refused: ms until the
 * back-off ends or the oldest start leaves the full window (the later of the two windows for a start
 * in a share); scope 1 when the deployment's window (or its back-off) refused, 2 when only the share did.
 */
const TAKE = `
local paused = redis.call('pttl', KEYS[3])
if paused > 0 then return {0, paused, 1} end
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cap, window, bulkCap = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4])
local wait = 0
redis.call('zremrangebyscore', KEYS[1], '-inf', now - window)
if redis.call('zcard', KEYS[1]) >= cap then
  local oldest = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
  wait = tonumber(oldest[2]) + window - now
end
local scope = 1
if bulkCap > 0 then
  redis.call('zremrangebyscore', KEYS[2], '-inf', now - window)
  if redis.call('zcard', KEYS[2]) >= bulkCap then
    local oldest = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES')
    local bulkWait = tonumber(oldest[2]) + window - now
    if wait <= 0 then scope = 2 end
    wait = math.max(wait, bulkWait)
  end
end
if wait > 0 then return {0, wait, scope} end
redis.call('zadd', KEYS[1], now, ARGV[3])
redis.call('pexpire', KEYS[1], window)
if bulkCap > 0 then
  redis.call('zadd', KEYS[2], now, ARGV[3])
  redis.call('pexpire', KEYS[2], window)
end
return {1, 0, 0}`;

/** KEYS: pause. ARGV: ms. A shorter back-off never cuts a longer one short. */
const PAUSE = "if redis.call('pttl', KEYS[1]) < tonumber(ARGV[1]) then redis.call('set', KEYS[1], '1', 'PX', ARGV[1]) end return 1";

/** The answer to {@link SharedRateWindow.take}. */
export type Verdict =
  | { kind: 'granted' }
  /**
   * The window is full or the deployment backs off: ask again in `retryMs`. `bulkShare`: only the
   * bulk share is full (the deployment's window has room for other requests).
   */
  | { kind: 'denied'; retryMs: number; bulkShare: boolean }
  /** Redis cannot tell now: use the local window alone. */
  | { kind: 'unavailable' };

export interface SharedWindowOptions {
  /** The cache store's node-redis v5 client (src/feeds/leadership.ts `redisClientOf`). */
  client: () => Promise<unknown>;
  /** Longest wait for Redis per start, ms (default 250): past it the start goes by the local window. */
  timeoutMs?: number;
  /** After a Redis failure, ms during which starts go by the local window without asking (default 5 000). */
  cooldownMs?: number;
  /** Key prefix (default {@link WINDOW_PREFIX}); processes sharing a key's budget share it. */
  prefix?: string;
  logger?: Logger;
}

/** The deployment-wide rolling window of one API key. One instance per process. */
export class SharedRateWindow {
  readonly #link: RedisLink<WindowCommands>;
  readonly #keys: { window: string; bulk: string; gathering: string; paused: string };
  readonly #id = randomUUID();
  #seq = 0;

  constructor(
    /** Starts allowed in any window, all processes together. */
    readonly cap: number,
    /** Window length, ms. */
    readonly windowMs: number,
    /** Bulk starts allowed in any window, all processes together. */
    readonly bulkCap: number,
    /** Starts of a gathering members wait for (src/api/rate-limiter.ts `gathering`) allowed in any window, all processes together. */
    readonly gatheringCap: number,
    options: SharedWindowOptions,
  ) {
    const prefix = options.prefix ?? WINDOW_PREFIX;
    this.#keys = { window: `{${prefix}}:window`, bulk: `{${prefix}}:bulk`, gathering: `{${prefix}}:gathering`, paused: `{${prefix}}:paused` };
    this.#link = new RedisLink<WindowCommands>({
      client: options.client,
      timeoutMs: options.timeoutMs ?? 250,
      cooldownMs: options.cooldownMs,
      purpose: 'the upstream rate window',
      logger: options.logger,
    });
  }

  /**
   * Takes a slot for a request starting now (`share`: in that share of the rate too, the bulk share or
   * a gathering's). Never throws.
   * @returns `granted` (the start is counted), `denied` with the ms to wait before asking again, or
   *   `unavailable` (Redis down or slow: count on the local window).
   */
  async take(share?: 'bulk' | 'gathering'): Promise<Verdict> {
    const redis = await this.#link.ready();
    if (!redis) return { kind: 'unavailable' };
    const shareCap = share === 'bulk' ? this.bulkCap : share === 'gathering' ? this.gatheringCap : 0;
    try {
      const reply = (await redis.eval(TAKE, {
        keys: [this.#keys.window, share === 'gathering' ? this.#keys.gathering : this.#keys.bulk, this.#keys.paused],
        arguments: [String(this.cap), String(this.windowMs), `${this.#id}:${++this.#seq}`, String(shareCap)],
      })) as [number, number, number];
      this.#link.ok();
      return Number(reply[0]) === 1 ? { kind: 'granted' } : { kind: 'denied', retryMs: Math.max(1, Number(reply[1])), bulkShare: Number(reply[2]) === 2 };
    } catch (err) {
      this.#link.failed(err);
      return { kind: 'unavailable' };
    }
  }

  /** Pauses every process for `ms` (a 429's `Retry-After`), unless a longer pause is under way. Never throws. */
  async pause(ms: number): Promise<void> {
    if (!(ms > 0)) return;
    const redis = await this.#link.ready();
    if (!redis) return;
    try {
      await redis.eval(PAUSE, { keys: [this.#keys.paused], arguments: [String(Math.ceil(ms))] });
      this.#link.ok();
    } catch (err) {
      this.#link.failed(err);
    }
  }
}
