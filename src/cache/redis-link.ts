/**
 * The cache store's Redis client (src/cache/store.ts, `REDIS_URL`) as used for coordination between
 * processes on the request path: the cross-process single-flight of the response cache
 * (src/cache/shared-flight.ts) and the deployment-wide rate window (src/api/shared-window.ts).
 *
 * Coordination is an optimisation there, never a dependency: every command is bounded by a short
 * timeout, and while Redis is down (the client is not ready, or a command failed or timed out within
 * the last `cooldownMs`) {@link RedisLink.ready} answers `undefined` at once, without a round trip,
 * so that the callers fall back to working alone with no added latency. The outage is logged once,
 * and so is the recovery.
 */
import type { Logger } from '../core/logger.js';
import { settleWithin } from '../core/deadline.js';

/** The part of a node-redis v5 client (`RedisClientType`) this module relies on. */
interface NodeRedisClient {
  readonly isReady: boolean;
  /** node-redis v5: a view of the client whose commands carry these options (`timeout`: ms, then rejected and, if unsent, dropped from the queue). */
  withCommandOptions(options: { timeout: number }): unknown;
}

export interface RedisLinkOptions {
  /** The node-redis v5 client, e.g. the cache store's (`@keyv/redis` `getClient`; src/feeds/leadership.ts `redisClientOf`). */
  client: () => Promise<unknown>;
  /** Longest wait for one command, ms (also for getting the client, which may try to connect). */
  timeoutMs: number;
  /** After a failure, ms during which {@link RedisLink.ready} answers `undefined` without trying (default 5 000). */
  cooldownMs?: number;
  /** What the link is for, in the outage log line (e.g. `the response cache's single-flight`). */
  purpose: string;
  logger?: Logger;
}

/**
 * A bounded, fail-fast view of one node-redis client. `C` is the caller's own interface of the
 * commands it uses (node-redis v5 signatures).
 */
export class RedisLink<C> {
  readonly timeoutMs: number;
  readonly #client: () => Promise<unknown>;
  readonly #cooldownMs: number;
  readonly #purpose: string;
  readonly #logger?: Logger;
  /** The bounded view of each client object seen (one object in practice). */
  readonly #views = new WeakMap<object, C>();
  /** Wall-clock ms before which no command is tried (after a failure). */
  #downUntil = 0;
  #down = false;

  constructor(options: RedisLinkOptions) {
    this.timeoutMs = options.timeoutMs;
    this.#client = options.client;
    this.#cooldownMs = options.cooldownMs ?? 5_000;
    this.#purpose = options.purpose;
    this.#logger = options.logger;
  }

  /**
   * The client with every command bounded by `timeoutMs` (a command that times out rejects and, if
   * still unsent, never runs), or `undefined` at once while Redis is known to be unavailable.
   * Never throws; a client that cannot be had within `timeoutMs` counts as a failure.
   */
  async ready(): Promise<C | undefined> {
    if (Date.now() < this.#downUntil) return undefined;
    let raw: NodeRedisClient | undefined;
    try {
      raw = (await settleWithin(this.#client(), this.timeoutMs, () => undefined)) as NodeRedisClient | undefined;
    } catch (err) {
      this.failed(err);
      return undefined;
    }
    // Not ready: disconnected and reconnecting. A command now would wait in node-redis's offline queue.
    if (!raw || !raw.isReady) {
      this.failed(new Error(raw ? 'the Redis client is not connected' : `no Redis client within ${this.timeoutMs} ms`));
      return undefined;
    }
    let view = this.#views.get(raw);
    if (!view) {
      view = raw.withCommandOptions({ timeout: this.timeoutMs }) as C;
      this.#views.set(raw, view);
    }
    return view;
  }

  /** The client itself (not bounded), for `duplicate()`; undefined while unavailable, as {@link ready}. */
  async raw(): Promise<unknown> {
    return (await this.ready()) === undefined ? undefined : await this.#client();
  }

  /** Records a failed or timed-out command: Redis is not tried again for `cooldownMs`. Logs the start of an outage once. */
  failed(err: unknown): void {
    this.#downUntil = Date.now() + this.#cooldownMs;
    if (this.#down) return;
    this.#down = true;
    this.#logger?.warn({ err, retryInMs: this.#cooldownMs }, `Redis unavailable for ${this.#purpose}: each process works alone until it is back`);
  }

  /** Records a command that succeeded. Logs the end of an outage once. */
  ok(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#logger?.info(`Redis is back for ${this.#purpose}`);
  }

  /** Whether the last command failed (an outage is under way). */
  get down(): boolean {
    return this.#down;
  }
}
