/**
 * Single-flight across processes: when several bot processes share the response cache in
 * Redis and all miss the same key at once, one of them asks the API and the others wait for its answer.
 *
 * - The lock: `SET <prefix>:lock:<cache key> <owner token> NX PX lockMs`. The holder renews it every
 *   third of `lockMs` while its load runs, for at most `maxHoldMs`; so a holder that dies (crash,
 *   SIGKILL) frees the key within `lockMs`, while a slow but live one (a queued request, a slow API)
 *   keeps it. Released by compare-and-delete on the owner token.
 * - The news: on release the holder publishes `{k: key, o: outcome}` on one channel
 *   (`<prefix>:news`); each process has one subscriber connection (`duplicate()` of the client) and a
 *   map key → waiters. Outcomes: `done` (an answer, a value or a not-found, was written to the shared
 *   store before the lock was released), `failed` (the API failed: kind and status, so waiters apply
 *   their own stale-if-error instead of all asking again), `retry` (the holder could not ask, e.g. its
 *   own rate limiter refused: one waiter takes the lock next).
 * - The fallback: a waiter also polls the lock's PTTL every `pollMs`; when the lock is gone (released
 *   with the message lost, or expired with its holder dead) it reads the store or claims the lock.
 *
 * Release deletes the lock and publishes in one script, and a waiter is registered before its first
 * poll, so no outcome falls between the two. Redis down or slow: {@link RedisLink} answers at once
 * and the cache loads alone, as without this module.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../core/logger.js';
import { RedisLink } from './redis-link.js';

/** Default key prefix: beside the cache namespace (src/cache/store.ts), versioned with it. */
export const FLIGHT_PREFIX = 'rivals:cache:v1:flight';

/** The node-redis v5 commands used on the main connection. */
interface FlightCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  pTTL(key: string): Promise<number>;
}

/** The node-redis v5 commands used on the subscriber connection. */
interface Subscriber {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'error', listener: (err: Error) => void): unknown;
  destroy(): void;
}

/** Takes the lock, or answers how long the current holder's lock has left (ms; -1: no expiry). */
const CLAIM = "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return -3 end return redis.call('pttl', KEYS[1])";
const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
/** Deletes the lock if still ours, then publishes the outcome (even if the lock had lapsed: the answer is in the store all the same). */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end redis.call('publish', ARGV[2], ARGV[3]) return 1";

/** The upstream failure a holder hands to its waiters: enough to rebuild an `ApiError` of the same kind. */
export interface FlightFailure {
  kind: string;
  status?: number;
  retryAfterMs?: number;
  retryAfterFromHeader?: boolean;
}

/** How the holder's load ended, published to the waiters. */
export type Outcome = { o: 'done' } | { o: 'retry' } | ({ o: 'failed' } & FlightFailure);

/** What ended a wait: an {@link Outcome} published by the holder, or what the waiter saw itself. */
export type News =
  | Outcome
  /** The lock is gone and no outcome arrived: released (message lost) or lapsed (holder dead). */
  | { o: 'free' }
  /** The wait reached its bound with the lock still held. */
  | { o: 'timeout' }
  /** Redis failed while waiting: load alone. */
  | { o: 'unavailable' };

/** A lock this process holds. */
export interface FlightLock {
  /** Stops renewing, deletes the lock (if still ours) and tells the waiters. Never throws; a failure leaves the lock to expire. */
  release(outcome: Outcome): Promise<void>;
}

/** The result of {@link SharedFlight.claim}. */
export type Claim =
  | { kind: 'acquired'; lock: FlightLock }
  /** Another process holds the lock; `ttlMs` is what its lock has left (-1: no expiry, a foreign key). */
  | { kind: 'held'; ttlMs: number }
  /** Redis cannot coordinate now: load alone. */
  | { kind: 'unavailable' };

export interface SharedFlightOptions {
  /** The cache store's node-redis v5 client (src/feeds/leadership.ts `redisClientOf`). */
  client: () => Promise<unknown>;
  /** Lock lifetime in ms, renewed every third of it while the load runs: how soon a dead holder's key is free. Default 3 000. */
  lockMs?: number;
  /**
   * Longest a holder keeps renewing, ms; past it the lock lapses and one waiter takes over. Default 15 000;
   * the composition root passes the API request timeout plus a margin.
   */
  maxHoldMs?: number;
  /** Period of the waiters' fallback poll of the lock, ms. Default 250. */
  pollMs?: number;
  /** Longest wait for one Redis command, ms (default 500, the cache's store timeout). */
  timeoutMs?: number;
  /** After a Redis failure, ms during which claims answer `unavailable` without trying (default 5 000). */
  cooldownMs?: number;
  /** Key and channel prefix (default {@link FLIGHT_PREFIX}). */
  prefix?: string;
  logger?: Logger;
}

/** The lock and the news of one deployment's cache keys. One instance per process. */
export class SharedFlight {
  readonly lockMs: number;
  readonly maxHoldMs: number;
  readonly pollMs: number;
  readonly #link: RedisLink<FlightCommands>;
  readonly #prefix: string;
  readonly #channel: string;
  readonly #owner = randomUUID();
  readonly #logger?: Logger;
  /** Waiters of this process, by cache key. */
  readonly #waiters = new Map<string, Set<(news: News) => void>>();
  /** The subscriber's setup: true once subscribed; reset after a failure so that a later wait tries again. */
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

  /** The Redis key of `key`'s lock (tests take it to play a dead holder). */
  lockKey(key: string): string {
    return `${this.#prefix}:lock:${key}`;
  }

  /** Longest a waiter waits for one holder, ms: a live holder renews for `maxHoldMs`, then its lock lasts `lockMs`. */
  get maxWaitMs(): number {
    return this.maxHoldMs + this.lockMs;
  }

  /**
   * Tells the flight that the shared store just failed (the cache's own read): claims answer
   * `unavailable` at once for the cool-down, so a Redis outage costs one store timeout, not two.
   */
  suspend(err: unknown): void {
    this.#link.failed(err);
  }

  /**
   * Tries to take `key`'s lock. Never throws: a Redis failure or timeout is `unavailable`.
   * @returns `acquired` with the lock (renewed until released or `maxHoldMs`), `held` with the holder's
   *   lock time left, or `unavailable`.
   */
  async claim(key: string): Promise<Claim> {
    if (this.#closed) return { kind: 'unavailable' };
    const redis = await this.#link.ready();
    if (!redis) return { kind: 'unavailable' };
    const token = `${this.#owner}:${randomUUID()}`;
    let answer: number;
    try {
      answer = Number(await redis.eval(CLAIM, { keys: [this.lockKey(key)], arguments: [token, String(this.lockMs)] }));
      this.#link.ok();
    } catch (err) {
      this.#link.failed(err);
      return { kind: 'unavailable' };
    }
    if (answer === -3) return { kind: 'acquired', lock: this.#held(key, token) };
    // Held: the holder's PTTL (-1: a key without expiry, not one of ours; the waiter's bound covers it).
    return { kind: 'held', ttlMs: Number.isFinite(answer) ? answer : this.lockMs };
  }

  /**
   * Waits for news of `key`'s holder: its published {@link Outcome}, the lock gone (`free`), Redis
   * failing (`unavailable`), or `maxMs` passing (`timeout`). Never throws, never waits past `maxMs`.
   */
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
        if (ttl === -2) return finish({ o: 'free' });
        // Poll again at the period, or right when the lock would expire if sooner.
        pollTimer = setTimeout(() => void poll(), ttl >= 0 ? Math.min(this.pollMs, ttl + 1) : this.pollMs);
      };
      if (this.#closed) return finish({ o: 'unavailable' });
      // The waiter is registered before the subscription exists (first wait of the process) or is
      // used: every outcome published from then on reaches it. One published before (between the
      // claim and a subscription still being set up) shows to the poll as the lock being gone.
      this.#subscribe();
      void poll();
    });
  }

  /** Closes the subscriber and ends every wait (`unavailable`). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const waiters of [...this.#waiters.values()]) for (const finish of [...waiters]) finish({ o: 'unavailable' });
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    destroy(subscriber);
  }

  /** A lock just taken: renewed every third of `lockMs` until released or `maxHoldMs` has passed. */
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
          await redis.eval(RELEASE, { keys: [lockKey], arguments: [token, this.#channel, JSON.stringify({ k: key, ...outcome })] });
          this.#link.ok();
        } catch (err) {
          this.#link.failed(err);
        }
      },
    };
  }

  /** The lock's PTTL (ms; -2 gone, -1 no expiry), or undefined when Redis failed. */
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

  /** Subscribes this process to the news channel, once, in the background (the waiters poll meanwhile); a failed setup is tried again by a later wait. */
  #subscribe(): void {
    if (this.#subscribed) return;
    const setup = this.#setUpSubscriber();
    this.#subscribed = setup;
    void setup.then((ok) => {
      if (!ok && this.#subscribed === setup) this.#subscribed = undefined;
    });
  }

  /** Never rejects: false when the subscriber cannot be set up (the waiters poll meanwhile). */
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
    let news: ({ k?: unknown } & Outcome) | undefined;
    try {
      news = JSON.parse(message) as { k?: unknown } & Outcome;
    } catch {
      return;
    }
    if (typeof news?.k !== 'string') return;
    const waiters = this.#waiters.get(news.k);
    if (!waiters) return;
    const { k: _key, ...outcome } = news;
    for (const finish of [...waiters]) finish(outcome);
  }
}

/** Ends a subscriber connection at once, whatever its state (node-redis throws for one already closed). */
function destroy(subscriber: Subscriber | undefined): void {
  try {
    subscriber?.destroy();
  } catch {
    // already closed
  }
}
