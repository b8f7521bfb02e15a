/**
 * The upstream rate limiter of one API key: at most `requestsPerMinute` requests in any rolling
 * minute (p-queue's strict window), interactive requests before background ones, and a pause when
 * the API answers 429 with `Retry-After`. Interactive requests go first, then background ones (feeds),
 * then bulk ones (gathering jobs: the hero meta, the balance index). The spec (Limits 1) states that limits are per key but not
 * their values, hence the configurable `RIVALS_API_RPM`.
 *
 * A request with a deadline (a member's interaction budget) is never queued past it: when the
 * estimated wait already overshoots, it is refused at once with {@link RateLimitWaitError}; when
 * it is still waiting at its deadline, it leaves the queue with the same error. Requests without a
 * deadline (feeds) wait their turn.
 *
 * With a shared window (`shared`, Redis: src/api/shared-window.ts) the rate is the whole
 * deployment's: the local queue still decides the order, and the request at its head takes a slot in
 * the shared window before it starts; when that window is full, the whole local queue waits for the
 * time Redis gives and asks again, and a 429's back-off pauses every process. Redis down or slow: the
 * local window alone, at once.
 *
 * The queue hands out turns one at a time (concurrency 1; a turn is the wait for the rate, not the
 * request, which runs outside the queue), so that a request waiting for the shared window holds back
 * the ones behind it instead of letting them race it to Redis out of priority order.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import PQueue from 'p-queue';
import { SharedRateWindow, type SharedWindowOptions, type Verdict } from './shared-window.js';

/**
 * Who is waiting: a member's command (`interactive`), a job whose lateness members see, such as the
 * feed poller (`background`), or a gathering job that may wait for both, such as the hero meta's 37
 * requests an hour (`bulk`: with the default 60 requests a minute, one gathering in front of the feeds
 * would hold a new patch note back for most of a minute). `gathering` is a gathering that members are
 * waiting for (the first hero meta after a fresh start): after the feeds too, but held to
 * {@link GATHERING_SHARE} of the rate instead of the bulk share.
 */
export type Priority = 'interactive' | 'background' | 'gathering' | 'bulk';

const PRIORITY: Record<Priority, number> = { interactive: 10, background: 5, gathering: 2, bulk: 0 };

/** Longest pause taken from a `Retry-After` header (a bogus header must not stop the bot for hours). */
export const MAX_BACKOFF_MS = 10 * 60_000;

/** Share of the rate that bulk requests may take, so that a gathering never fills the window members and feeds need. */
export const BULK_SHARE = 0.25;
/**
 * Share of the rate a gathering members wait for may take: most of it, but never the window's last
 * third, which stays for members and feeds (at 60 a minute, 40: the 37 heroes of the meta fit in one).
 */
export const GATHERING_SHARE = 2 / 3;

/** Requests a share of `requestsPerMinute` allows in a window: at least one. */
export function shareCap(requestsPerMinute: number, share: number): number {
  return Math.max(1, Math.floor(requestsPerMinute * share));
}

export interface RateLimiterOptions {
  requestsPerMinute: number;
  /** Length of the window in ms (default 60 000); tests shorten it. */
  windowMs?: number;
  /** Share of `requestsPerMinute` that `bulk` requests may use in any window (default {@link BULK_SHARE}; at least one request). */
  bulkShare?: number;
  /**
   * The deployment-wide window in Redis (`REDIS_URL`): the cache store's client and its bounds. The
   * rate and the bulk share then hold for all processes together (src/api/shared-window.ts).
   */
  shared?: SharedWindowOptions;
}

/** A request could not start before its deadline: `waitMs` is the estimated wait from when it was refused. */
export class RateLimitWaitError extends Error {
  override name = 'RateLimitWaitError';
  constructor(readonly waitMs: number) {
    super(`the rate limit would hold this request for ${Math.ceil(waitMs / 1000)} s, past its deadline`);
  }
}

/** Schedules upstream requests within the key's rate. */
export class UpstreamRateLimiter {
  readonly #queue: PQueue;
  /** Hold `bulk` and `gathering` requests to their share of the rate before they join {@link #queue}. */
  readonly #shares: Partial<Record<Priority, PQueue>>;
  readonly #cap: number;
  readonly #windowMs: number;
  /** Start times of the latest requests (at most `#cap`, oldest first), ms since the epoch. */
  readonly #starts: number[] = [];
  readonly #waitingBy: Record<Priority, number> = { interactive: 0, background: 0, gathering: 0, bulk: 0 };
  #resumeTimer: NodeJS.Timeout | undefined;
  #pausedUntil = 0;
  readonly #shared?: SharedRateWindow;
  /** When the shared window last said its next slot frees (ms since the epoch; 0: not full as far as known). */
  #sharedFreeAt = 0;
  /** Aborts the waits for the shared window (stop). */
  readonly #stopping = new AbortController();

  constructor(options: RateLimiterOptions) {
    if (!(options.requestsPerMinute >= 1)) throw new RangeError('requestsPerMinute must be at least 1');
    this.#cap = Math.floor(options.requestsPerMinute);
    this.#windowMs = options.windowMs ?? 60_000;
    this.#queue = new PQueue({ concurrency: 1, intervalCap: this.#cap, interval: this.#windowMs, strict: true });
    const bulkCap = shareCap(this.#cap, options.bulkShare ?? BULK_SHARE);
    const gatheringCap = shareCap(this.#cap, GATHERING_SHARE);
    const share = (intervalCap: number) => new PQueue({ intervalCap, interval: this.#windowMs, strict: true });
    this.#shares = { bulk: share(bulkCap), gathering: share(gatheringCap) };
    if (options.shared) this.#shared = new SharedRateWindow(this.#cap, this.#windowMs, bulkCap, gatheringCap, options.shared);
  }

  /**
   * Runs `task` when the rate allows, after every waiting task of its priority or higher; a `bulk`
   * task also within {@link BULK_SHARE} of the rate (`bulkShare`), a `gathering` one within
   * {@link GATHERING_SHARE} (with a shared window, across the deployment as well).
   * With a shared window, also within the deployment's rate.
   * Resolves or rejects with the task's own result.
   * @param deadline ms since the epoch by which the task must have started; absent: no limit.
   * @param signal gives up the wait when aborted: the task is not run, and the promise rejects with
   *   the signal's reason (a task already started is the task's own business).
   * @throws {RateLimitWaitError} (as a rejection) when the task could not start by `deadline`:
   *   at once when {@link estimateWait} already overshoots it, else when the deadline passes while it
   *   waits (or when the shared window's wait would pass it).
   */
  schedule<T>(task: () => Promise<T>, priority: Priority = 'interactive', deadline?: number, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason as unknown);
    // Bulk and gathering requests (no deadline) first wait for their share of the rate, then for their turn like any other.
    const share = this.#shares[priority];
    if (share && deadline === undefined) return share.add<T>(() => this.#enqueue(task, priority, undefined, signal), { signal });
    return this.#enqueue(task, priority, deadline, signal);
  }

  #enqueue<T>(task: () => Promise<T>, priority: Priority, deadline: number | undefined, signal?: AbortSignal): Promise<T> {
    const now = Date.now();
    if (deadline !== undefined) {
      const wait = this.estimateWait(priority, now);
      if (now + wait > deadline) return Promise.reject(new RateLimitWaitError(wait));
    }
    let started = false;
    this.#waitingBy[priority]++;
    const controller = deadline === undefined ? undefined : new AbortController();
    const timer = controller && setTimeout(() => controller.abort(new RateLimitWaitError(this.estimateWait(priority))), Math.max(0, deadline! - now));
    // The wait ends at the deadline or when the caller gives up (`signal`), whichever comes first.
    const waitSignal = controller && signal ? AbortSignal.any([controller.signal, signal]) : (controller?.signal ?? signal);
    /** The turn: 0 when the task may start now, else ms after which a bulk task whose deployment-wide share is full asks again. */
    const turn = async (): Promise<number> => {
      started = true;
      clearTimeout(timer);
      this.#waitingBy[priority]--;
      if (this.#shared) {
        const later = await this.#takeShared(this.#shared, priority, deadline);
        if (later > 0) return later;
      }
      this.#recordStart(Date.now());
      return 0;
    };
    // A bulk task refused by the bulk share gives its turn back and queues again later, so that it
    // never holds members' requests behind it while the deployment's window has room for them.
    const go = async (later: number): Promise<T> => {
      if (later === 0) return task();
      await sleep(later, undefined, { signal: signal ? AbortSignal.any([this.#stopping.signal, signal]) : this.#stopping.signal });
      return this.#enqueue(task, priority, deadline, signal);
    };
    return this.#queue.add<number>(turn, { priority: PRIORITY[priority], signal: waitSignal }).then(go, (err: unknown) => {
      if (!started) {
        clearTimeout(timer);
        this.#waitingBy[priority]--;
      }
      throw err;
    });
  }

  /**
   * Waits for a slot in the shared window (the head of the local queue: everything behind waits too).
   * A refusal is remembered for {@link estimateWait}; Redis unavailable means the local window alone.
   * @returns 0 once the slot is taken; for a bulk task refused by the deployment's bulk share alone,
   *   the ms after which it may ask again (it then waits outside the queue).
   * @throws {RateLimitWaitError} when the wait Redis gives (or a local back-off) would pass `deadline`.
   * @throws the stop signal's reason after {@link stop}.
   */
  async #takeShared(shared: SharedRateWindow, priority: Priority, deadline: number | undefined): Promise<number> {
    for (;;) {
      // A local back-off (from a 429 here) holds even when Redis does not know of it.
      const held = this.backoffRemaining();
      const share = priority === 'bulk' || priority === 'gathering' ? priority : undefined;
      const verdict: Verdict = held > 0 ? { kind: 'denied', retryMs: held, bulkShare: false } : await shared.take(share);
      if (verdict.kind !== 'denied') {
        this.#sharedFreeAt = 0;
        return 0;
      }
      // Only the bulk share is full: this bulk task waits outside the queue, and says nothing of other requests' wait.
      if (verdict.bulkShare) return verdict.retryMs;
      const now = Date.now();
      const { retryMs } = verdict;
      this.#sharedFreeAt = now + retryMs;
      if (deadline !== undefined && now + retryMs > deadline) throw new RateLimitWaitError(this.estimateWait(priority, now));
      await sleep(retryMs, undefined, { signal: this.#stopping.signal });
    }
  }

  /**
   * Estimated ms before a request of `priority` scheduled now would start: the back-off left, and
   * the rolling window's turn behind every waiting request that goes first. An estimate (requests
   * finish and leave the queue meanwhile); {@link schedule}'s deadline holds whatever it says.
   */
  estimateWait(priority: Priority = 'interactive', now = Date.now()): number {
    const w = this.#waitingBy;
    // Everything waiting at this priority or higher goes first.
    const ahead = (Object.keys(w) as Priority[]).reduce((n, p) => (PRIORITY[p] >= PRIORITY[priority] ? n + w[p] : n), 0);
    // The shared window's last refusal says when the deployment's next slot frees, as far as this process knows.
    const from = Math.max(now + this.backoffRemaining(now), this.#sharedFreeAt);
    // Starts are in time order: the first one inside the window ending at `from`, by binary search.
    let lo = 0;
    let hi = this.#starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#starts[mid]! > from - this.#windowMs) hi = mid;
      else lo = mid + 1;
    }
    const inWindow = this.#starts.length - lo;
    const free = this.#cap - inWindow;
    if (ahead < free) return from - now;
    // The k-th slot to free up: the k-th oldest start of the window expires first; later ones, a window per cap.
    const k = ahead - free;
    if (k < inWindow) return Math.max(from, this.#starts[lo + k]! + this.#windowMs) - now;
    return from - now + this.#windowMs * (1 + Math.floor((k - inWindow) / this.#cap));
  }

  #recordStart(at: number): void {
    this.#starts.push(at);
    if (this.#starts.length > this.#cap) this.#starts.shift();
  }

  /**
   * Holds every waiting request for `delayMs` (from a 429's `Retry-After`), capped at {@link MAX_BACKOFF_MS};
   * with a shared window, in every process (the pause is kept in Redis).
   * A shorter back-off never cuts a longer one short.
   */
  backoff(delayMs: number, now = Date.now()): void {
    const until = now + Math.min(Math.max(0, delayMs), MAX_BACKOFF_MS);
    if (until <= this.#pausedUntil) return;
    void this.#shared?.pause(until - now);
    this.#pausedUntil = until;
    this.#queue.pause();
    clearTimeout(this.#resumeTimer);
    this.#resumeTimer = setTimeout(() => {
      this.#pausedUntil = 0;
      this.#queue.start();
    }, until - now);
  }

  /** Milliseconds left of the current back-off (0 when not paused). */
  backoffRemaining(now = Date.now()): number {
    return Math.max(0, this.#pausedUntil - now);
  }

  /** Requests waiting for their turn (bulk ones held to their share included). */
  get waiting(): number {
    return this.#queue.size + Object.values(this.#shares).reduce((n, q) => n + q.size, 0);
  }

  /** Drops the back-off timer (shutdown). Waiting tasks are cleared; one waiting for the shared window is rejected. */
  stop(): void {
    this.#stopping.abort(new Error('the rate limiter was stopped'));
    clearTimeout(this.#resumeTimer);
    this.#queue.clear();
    for (const q of Object.values(this.#shares)) q.clear();
  }
}
