/**
 * The API key's rate budget across processes sharing `REDIS_URL`: a sliding log of request starts in Redis (one Lua script,
 * Redis's clock), plus a shared 429 back-off. Not rate-limiter-flexible: its fixed windows admit twice the cap around a
 * window boundary, which the API's rolling count answers with 429s. Keys share one hash tag (Redis Cluster); needs Redis 5+.
 * Redis down or slow: the verdict is `unavailable` and the caller uses its local window.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../core/logger.js';
import { RedisLink } from '../cache/redis-link.js';

/** Inside the hash tag. */
export const WINDOW_PREFIX = 'rivals:api:rate';

interface WindowCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * KEYS: window, share window (bulk or gathering), pause. ARGV: cap, window ms, member, share cap (0: none), headroom (starts
 * the window must keep free after this one; 0: none). Returns {1, 0, 0} if admitted, else {0, ms to wait, scope}: 1 the
 * deployment's window or back-off refused, 2 only the share or the headroom.
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
local headroom = tonumber(ARGV[5] or '0')
if wait <= 0 and headroom > 0 then
  local over = redis.call('zcard', KEYS[1]) + headroom + 1 - cap
  if over > 0 then
    local freeing = redis.call('zrange', KEYS[1], over - 1, over - 1, 'WITHSCORES')
    wait = math.max(1, tonumber(freeing[2]) + window - now)
    scope = 2
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

export type Verdict =
  | { kind: 'granted' }
  /** `bulkShare`: only the share (or the headroom asked for) is full; the deployment's window has room for other requests. */
  | { kind: 'denied'; retryMs: number; bulkShare: boolean }
  | { kind: 'unavailable' };

export interface SharedWindowOptions {
  /** The cache store's node-redis v5 client. */
  client: () => Promise<unknown>;
  /** ms per start (default 250): past it the start goes by the local window. */
  timeoutMs?: number;
  /** ms after a Redis failure during which starts go by the local window (default 5 000). */
  cooldownMs?: number;
  /** Processes sharing a key's budget share it. */
  prefix?: string;
  logger?: Logger;
}

/** One instance per process. */
export class SharedRateWindow {
  readonly #link: RedisLink<WindowCommands>;
  readonly #keys: { window: string; bulk: string; gathering: string; paused: string };
  readonly #id = randomUUID();
  #seq = 0;

  constructor(
    /** All caps count all processes together, per window. */
    readonly cap: number,
    /** ms. */
    readonly windowMs: number,
    readonly bulkCap: number,
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
   * Takes a slot for a start now (and in `share`'s cap, and leaving `headroom` starts of the window free): `granted`, `denied`
   * with ms to wait, or `unavailable`. Never throws.
   */
  async take(share?: 'bulk' | 'gathering', headroom = 0): Promise<Verdict> {
    const redis = await this.#link.ready();
    if (!redis) return { kind: 'unavailable' };
    const shareCap = share === 'bulk' ? this.bulkCap : share === 'gathering' ? this.gatheringCap : 0;
    try {
      const reply = (await redis.eval(TAKE, {
        keys: [this.#keys.window, share === 'gathering' ? this.#keys.gathering : this.#keys.bulk, this.#keys.paused],
        arguments: [String(this.cap), String(this.windowMs), `${this.#id}:${++this.#seq}`, String(shareCap), String(headroom)],
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
