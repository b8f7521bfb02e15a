/**
 * Single-flight across processes sharing the cache in Redis: one asks the API, the others wait. The lock is `SET NX PX`,
 * renewed while the load runs so a dead holder frees it within `lockMs`; release deletes it and publishes the outcome in
 * one script; waiters also poll the lock's PTTL in case the message is lost. Redis down: each process loads alone.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../core/logger.js';
import { RedisLink } from './redis-link.js';

/** Versioned with the cache namespace (src/cache/store.ts). */
export const FLIGHT_PREFIX = 'rivals:cache:v1:flight';

interface FlightCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  pTTL(key: string): Promise<number>;
  get(key: string): Promise<string | null>;
}

interface Subscriber {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'error', listener: (err: Error) => void): unknown;
  destroy(): void;
}

/** Takes the lock (-3) and clears the last flight's kept news, or answers the holder's PTTL (ms; -1: no expiry). */
const CLAIM = "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then redis.call('del', KEYS[2]) return -3 end return redis.call('pttl', KEYS[1])";
const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
/**
 * Publishes even if the lock had lapsed: the answer is in the store all the same. A failure is also kept beside the lock
 * for ARGV[4] ms: a waiter whose poll sees the lock gone before the message arrives reads it there, not in the store.
 */
const RELEASE =
  "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end if ARGV[4] ~= '0' then redis.call('set', KEYS[2], ARGV[3], 'PX', ARGV[4]) end redis.call('publish', ARGV[2], ARGV[3]) return 1";

/** Enough to rebuild an `ApiError` of the same kind. */
export interface FlightFailure {
  kind: string;
  status?: number;
  retryAfterMs?: number;
  retryAfterFromHeader?: boolean;
}

/** `done`: the answer is in the shared store; `failed`: waiters apply their own stale-if-error; `retry`: the holder could not ask, one waiter claims next. */
export type Outcome = { o: 'done' } | { o: 'retry' } | ({ o: 'failed' } & FlightFailure);

/** A published {@link Outcome}, or what the waiter saw itself. */
export type News =
  | Outcome
  /** The lock is gone without news: released (message lost) or lapsed (holder dead). */
  | { o: 'free' }
  | { o: 'timeout' }
  | { o: 'unavailable' };

export interface FlightLock {
  /** Never throws; a failure leaves the lock to expire. */
  release(outcome: Outcome): Promise<void>;
}

export type Claim =
  | { kind: 'acquired'; lock: FlightLock }
  /** `ttlMs`: what the holder's lock has left (-1: no expiry, a foreign key). */
  | { kind: 'held'; ttlMs: number }
  | { kind: 'unavailable' };

export interface SharedFlightOptions {
  client: () => Promise<unknown>;
  /** Lock lifetime, ms (default 3 000): how soon a dead holder's key is free. */
  lockMs?: number;
  /** Longest a holder renews, ms (default 15 000; the API request timeout plus a margin is passed). */
  maxHoldMs?: number;
  /** Waiters' fallback poll period, ms (default 250). */
  pollMs?: number;
  /** ms (default 500, the cache's store timeout). */
  timeoutMs?: number;
  /** ms after a Redis failure during which claims answer `unavailable` (default 5 000). */
  cooldownMs?: number;
  prefix?: string;
  logger?: Logger;
}

/** One instance per process. */
export class SharedFlight {
  readonly lockMs: number;
  readonly maxHoldMs: number;
  readonly pollMs: number;
  readonly #link: RedisLink<FlightCommands>;
  readonly #prefix: string;
  readonly #channel: string;
  readonly #owner = randomUUID();
  readonly #logger?: Logger;
  readonly #waiters = new Map<string, Set<(news: News) => void>>();
  /** Reset after a failed setup so that a later wait tries again. */
  #subscribed?: Promise<boolean>;
  #subscriber?: Subscriber;
  #closed = false;

  constructor(options: SharedFlightOptions) {
    this.lockMs = options.lockMs ?? 3_000;
    this.maxHoldMs = options.maxHoldMs ?? 15_000;
    this.pollMs = options.pollMs ?? 250;
    this.#prefix = options.prefix ?? FLIGHT_PREFIX;
    this.#channel = `${this.#prefix}:news`;
    this.#logger = options.logger;
    this.#link = new RedisLink<FlightCommands>({
      client: options.client,
      timeoutMs: options.timeoutMs ?? 500,
      cooldownMs: options.cooldownMs,
      purpose: "the response cache's single-flight",
      logger: options.logger,
    });
  }

  /** Tests take it to play a dead holder. */
  lockKey(key: string): string {
    return `${this.#prefix}:lock:${key}`;
  }

  /** Where a flight's failure is kept for a waiter that missed its message. */
  newsKey(key: string): string {
    return `${this.#prefix}:news:${key}`;
  }

  /** ms: a live holder renews for `maxHoldMs`, then its lock lasts `lockMs`. */
  get maxWaitMs(): number {
    return this.maxHoldMs + this.lockMs;
  }

  /** The cache's own store read just failed: claims answer `unavailable` for the cool-down, so an outage costs one timeout, not two. */
  suspend(err: unknown): void {
    this.#link.failed(err);
  }

  /** `acquired` (renewed until released or `maxHoldMs`), `held` with the holder's time left, or `unavailable`; never throws. */
  async claim(key: string): Promise<Claim> {
    if (this.#closed) return { kind: 'unavailable' };
    const redis = await this.#link.ready();
    if (!redis) return { kind: 'unavailable' };
    const token = `${this.#owner}:${randomUUID()}`;
    let answer: number;
    try {
      answer = Number(await redis.eval(CLAIM, { keys: [this.lockKey(key), this.newsKey(key)], arguments: [token, String(this.lockMs)] }));
      this.#link.ok();
    } catch (err) {
      this.#link.failed(err);
      return { kind: 'unavailable' };
    }
    if (answer === -3) return { kind: 'acquired', lock: this.#held(key, token) };
    // -1 is a key without expiry, not ours: the waiter's bound covers it.
    return { kind: 'held', ttlMs: Number.isFinite(answer) ? answer : this.lockMs };
  }

  /** Waits for the holder's {@link Outcome}, `free`, `unavailable` or `timeout` after `maxMs`; never throws. */
  wait(key: string, maxMs: number): Promise<News> {
    return new Promise<News>((resolve) => {
      let settled = false;
      let pollTimer: NodeJS.Timeout | undefined;
      const finish = (news: News) => {
        if (settled) return;
        settled = true;
        clearTimeout(pollTimer);
        clearTimeout(bound);
        const waiters = this.#waiters.get(key);
        waiters?.delete(finish);
        if (waiters?.size === 0) this.#waiters.delete(key);
        resolve(news);
      };
      const bound = setTimeout(() => finish({ o: 'timeout' }), Math.max(0, maxMs));
      let waiters = this.#waiters.get(key);
      if (!waiters) this.#waiters.set(key, (waiters = new Set()));
      waiters.add(finish);
      const poll = async () => {
        if (settled) return;
        const ttl = await this.#pttl(key);
        if (settled) return;
        if (ttl === undefined) return finish({ o: 'unavailable' });
        if (ttl === -2) return finish((await this.#keptNews(key)) ?? { o: 'free' });
        pollTimer = setTimeout(() => void poll(), ttl >= 0 ? Math.min(this.pollMs, ttl + 1) : this.pollMs);
      };
      if (this.#closed) return finish({ o: 'unavailable' });
      // Registered before subscribing: every later outcome reaches it; one published earlier shows to the poll as the lock gone.
      this.#subscribe();
      void poll();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiters of [...this.#waiters.values()]) for (const finish of [...waiters]) finish({ o: 'unavailable' });
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    destroy(subscriber);
  }

  #held(key: string, token: string): FlightLock {
    const lockKey = this.lockKey(key);
    const until = Date.now() + this.maxHoldMs;
    const renewal = setInterval(
      () => {
        if (Date.now() >= until) return clearInterval(renewal);
        void this.#link
          .ready()
          .then((redis) => redis?.eval(RENEW, { keys: [lockKey], arguments: [token, String(this.lockMs)] }))
          .catch((err: unknown) => this.#logger?.debug({ err, key }, 'could not renew a cache lock; it expires'));
      },
      Math.max(1, Math.floor(this.lockMs / 3)),
    );
    renewal.unref();
    let released = false;
    return {
      release: async (outcome) => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        const redis = await this.#link.ready();
        if (!redis) return;
        try {
          await redis.eval(RELEASE, {
            keys: [lockKey, this.newsKey(key)],
            arguments: [token, this.#channel, JSON.stringify({ k: key, ...outcome }), outcome.o === 'failed' ? String(this.lockMs) : '0'],
          });
          this.#link.ok();
        } catch (err) {
          this.#link.failed(err);
        }
      },
    };
  }

  /** The failure a holder of `key` kept when it released, if any; undefined also when Redis failed. */
  async #keptNews(key: string): Promise<Outcome | undefined> {
    const redis = await this.#link.ready();
    if (!redis) return undefined;
    try {
      const kept = await redis.get(this.newsKey(key));
      this.#link.ok();
      return kept === null ? undefined : parseNews(kept, key);
    } catch (err) {
      this.#link.failed(err);
      return undefined;
    }
  }

  /** ms; -2 gone, -1 no expiry; undefined when Redis failed. */
  async #pttl(key: string): Promise<number | undefined> {
    const redis = await this.#link.ready();
    if (!redis) return undefined;
    try {
      const ttl = Number(await redis.pTTL(this.lockKey(key)));
      this.#link.ok();
      return ttl;
    } catch (err) {
      this.#link.failed(err);
      return undefined;
    }
  }

  /** Once, in the background (waiters poll meanwhile); a failed setup is retried by a later wait. */
  #subscribe(): void {
    if (this.#subscribed) return;
    const setup = this.#setUpSubscriber();
    this.#subscribed = setup;
    void setup.then((ok) => {
      if (!ok && this.#subscribed === setup) this.#subscribed = undefined;
    });
  }

  /** Never rejects. */
  async #setUpSubscriber(): Promise<boolean> {
    if (this.#closed) return false;
    let subscriber: Subscriber | undefined;
    try {
      const raw = (await this.#link.raw()) as { duplicate(): Subscriber } | undefined;
      if (!raw) return false;
      subscriber = raw.duplicate();
      // Kept at once, so that close() ends a connection still being made.
      this.#subscriber = subscriber;
      subscriber.on('error', (err) => this.#logger?.debug({ err }, 'cache single-flight: Redis subscriber error'));
      await subscriber.connect();
      await subscriber.subscribe(this.#channel, (message) => this.#onNews(message));
      return !this.#closed;
    } catch (err) {
      if (this.#closed) return false;
      this.#logger?.warn({ err }, 'cache single-flight: could not subscribe; waiters poll the lock instead');
      if (this.#subscriber === subscriber) this.#subscriber = undefined;
      destroy(subscriber);
      return false;
    }
  }

  #onNews(message: string): void {
    const key = parseNewsKey(message);
    const waiters = key === undefined ? undefined : this.#waiters.get(key);
    const outcome = key === undefined ? undefined : parseNews(message, key);
    if (!waiters || !outcome) return;
    for (const finish of [...waiters]) finish(outcome);
  }
}

/** The cache key a published message is about. */
function parseNewsKey(message: string): string | undefined {
  try {
    const news = JSON.parse(message) as { k?: unknown } | null;
    return typeof news?.k === 'string' ? news.k : undefined;
  } catch {
    return undefined;
  }
}

/** A published or kept message's outcome, when it is about `key`. */
function parseNews(message: string, key: string): Outcome | undefined {
  try {
    const news = JSON.parse(message) as ({ k?: unknown } & Outcome) | null;
    if (news?.k !== key) return undefined;
    const { k: _key, ...outcome } = news;
    return outcome;
  } catch {
    return undefined;
  }
}

/** node-redis throws for a subscriber already closed. */
function destroy(subscriber: Subscriber | undefined): void {
  try {
    subscriber?.destroy();
  } catch {
    // already closed
  }
}
