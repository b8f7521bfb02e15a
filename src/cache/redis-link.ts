/** The Redis client for cross-process coordination: an optimisation, never a dependency, so commands are bounded and an outage answers `undefined` at once. */
import type { Logger } from '../core/logger.js';
import { settleWithin } from '../core/deadline.js';

interface NodeRedisClient {
  readonly isReady: boolean;
  /** node-redis v5: a view whose commands time out after `timeout` ms (and, if unsent, are dropped from the queue). */
  withCommandOptions(options: { timeout: number }): unknown;
}

export interface RedisLinkOptions {
  /** The node-redis v5 client, e.g. the cache store's (`@keyv/redis` `getClient`). */
  client: () => Promise<unknown>;
  /** Longest wait for one command, or for getting the client, ms. */
  timeoutMs: number;
  /** ms after a failure during which {@link RedisLink.ready} answers `undefined` without trying (default 5 000). */
  cooldownMs?: number;
  /** For the outage log line, e.g. `the response cache's single-flight`. */
  purpose: string;
  logger?: Logger;
}

/** A bounded, fail-fast view of one node-redis client; `C` is the caller's interface of the commands it uses. */
export class RedisLink<C> {
  readonly timeoutMs: number;
  readonly #client: () => Promise<unknown>;
  readonly #cooldownMs: number;
  readonly #purpose: string;
  readonly #logger?: Logger;
  readonly #views = new WeakMap<object, C>();
  #downUntil = 0;
  #down = false;

  constructor(options: RedisLinkOptions) {
    this.timeoutMs = options.timeoutMs;
    this.#client = options.client;
    this.#cooldownMs = options.cooldownMs ?? 5_000;
    this.#purpose = options.purpose;
    this.#logger = options.logger;
  }

  /** The client with every command bounded by `timeoutMs`, or `undefined` at once while Redis is known to be down. Never throws. */
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

  /** The unbounded client, for `duplicate()`; undefined while unavailable. */
  async raw(): Promise<unknown> {
    return (await this.ready()) === undefined ? undefined : await this.#client();
  }

  /** Redis is not tried again for `cooldownMs`; logs an outage's start once. */
  failed(err: unknown): void {
    this.#downUntil = Date.now() + this.#cooldownMs;
    if (this.#down) return;
    this.#down = true;
    this.#logger?.warn({ err, retryInMs: this.#cooldownMs }, `Redis unavailable for ${this.#purpose}: each process works alone until it is back`);
  }

  /** Logs an outage's end once. */
  ok(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#logger?.info(`Redis is back for ${this.#purpose}`);
  }

  get down(): boolean {
    return this.#down;
  }
}
