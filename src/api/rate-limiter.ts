/**
 * The rate limiter of one API key: at most `requestsPerMinute` starts in any rolling minute (`RIVALS_API_RPM`: the spec,
 * Limits 1, says limits are per key but not their values), by priority, paused by a 429's `Retry-After`. A request with a
 * deadline is never queued past it. With a shared window (Redis) the rate is the deployment's; the queue hands out turns
 * one at a time so a request waiting on Redis holds back those behind it rather than letting them race it out of order.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import PQueue from 'p-queue';
import { SharedRateWindow, type SharedWindowOptions, type Verdict } from './shared-window.js';

/**
 * `interactive` a member's command; `background` jobs members see late (feeds); `bulk` gathering jobs, after the feeds and held
 * to {@link BULK_SHARE}; `gathering` a gathering members wait for (first meta after a start), held to {@link GATHERING_SHARE};
 * `tracking` reads of tracked players, last of all and only while the window keeps {@link UpstreamRateLimiter.reserve} free.
 */
export type Priority = 'interactive' | 'background' | 'gathering' | 'bulk' | 'tracking';

const PRIORITY: Record<Priority, number> = { interactive: 10, background: 5, gathering: 2, bulk: 0, tracking: -1 };

/** Cap on a `Retry-After` pause: a bogus header must not stop the bot for hours. */
export const MAX_BACKOFF_MS = 10 * 60_000;

/** So that a gathering never fills the window members and feeds need. */
export const BULK_SHARE = 0.25;
/** Most of the rate, but never the window's last third, which stays for members and feeds. */
export const GATHERING_SHARE = 2 / 3;

/** The part of the window tracking always leaves free, however quiet members are. */
export const TRACKING_MIN_RESERVE = 0.05;
/** Windows of members' demand remembered for the reserve. */
const DEMAND_WINDOWS = 5;

/** At least one. */
export function shareCap(requestsPerMinute: number, share: number): number {
  return Math.max(1, Math.floor(requestsPerMinute * share));
}

export interface RateLimiterOptions {
  requestsPerMinute: number;
  /** ms (default 60 000); tests shorten it. */
  windowMs?: number;
  /** Default {@link BULK_SHARE}. */
  bulkShare?: number;
  /** The deployment-wide window in Redis: rate and shares then hold for all processes together. */
  shared?: SharedWindowOptions;
}

/** `waitMs`: the estimated wait when the request was refused. */
export class RateLimitWaitError extends Error {
  override name = 'RateLimitWaitError';
  constructor(readonly waitMs: number) {
    super(`the rate limit would hold this request for ${Math.ceil(waitMs / 1000)} s, past its deadline`);
  }
}

export class UpstreamRateLimiter {
  readonly #queue: PQueue;
  readonly #shares: Partial<Record<Priority, PQueue>>;
  readonly #cap: number;
  readonly #windowMs: number;
  /** Start times of the latest requests, oldest first, ms since the epoch. */
  readonly #starts: number[] = [];
  readonly #waitingBy: Record<Priority, number> = { interactive: 0, background: 0, gathering: 0, bulk: 0, tracking: 0 };
  /** Members' starts per window, the latest last (`[window index, count]`), for the reserve. */
  readonly #demand: [number, number][] = [];
  #resumeTimer: NodeJS.Timeout | undefined;
  #pausedUntil = 0;
  readonly #shared?: SharedRateWindow;
  /** When the shared window said its next slot frees (ms since the epoch; 0: not known full). */
  #sharedFreeAt = 0;
  readonly #stopping = new AbortController();
  readonly #trackingGate = new PQueue({ concurrency: 1 });
  /** When the last tracking read started (ms since the epoch). */
  #lastTrackingStart = Number.NEGATIVE_INFINITY;

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
   * Runs `task` when the rate allows, after every waiting task of its priority or higher (shares and shared window included);
   * settles as the task does. `deadline` (ms since the epoch): latest start; `signal` aborts the wait, not a started task.
   * @throws {RateLimitWaitError} when the task cannot start by `deadline`: at once if {@link estimateWait} overshoots it, else when it passes.
   */
  schedule<T>(task: () => Promise<T>, priority: Priority = 'interactive', deadline?: number, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason as unknown);
    if (priority === 'tracking') return this.#throughGate(task, deadline, signal);
    const share = this.#shares[priority];
    if (share && deadline === undefined) return share.add<T>(() => this.#enqueue(task, priority, undefined, signal), { signal });
    return this.#enqueue(task, priority, deadline, signal);
  }

  /**
   * Tracking waits outside the queue, one read at a time, until the window has spare starts: a turn it gave back would still
   * use one of the queue's starts. The next read is let through once this one has started.
   */
  #throughGate<T>(task: () => Promise<T>, deadline: number | undefined, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#trackingGate
        .add(
          async () => {
            await this.#whenSpare(signal);
            let started!: () => void;
            const turn = new Promise<void>((r) => (started = r));
            const run = this.#enqueue(task, 'tracking', deadline, signal, started);
            run.then(resolve, reject);
            await Promise.race([turn, run.catch(() => undefined)]);
          },
          { signal },
        )
        .catch(reject);
    });
  }

  #enqueue<T>(task: () => Promise<T>, priority: Priority, deadline: number | undefined, signal?: AbortSignal, onStart?: () => void): Promise<T> {
    const now = Date.now();
    if (deadline !== undefined) {
      const wait = this.estimateWait(priority, now);
      if (now + wait > deadline) return Promise.reject(new RateLimitWaitError(wait));
    }
    let started = false;
    this.#waitingBy[priority]++;
    const controller = deadline === undefined ? undefined : new AbortController();
    const timer = controller && setTimeout(() => controller.abort(new RateLimitWaitError(this.estimateWait(priority))), Math.max(0, deadline! - now));
    const waitSignal = controller && signal ? AbortSignal.any([controller.signal, signal]) : (controller?.signal ?? signal);
    /** 0: start now; else ms after which a task refused by its deployment-wide share asks again. */
    const turn = async (): Promise<number> => {
      started = true;
      clearTimeout(timer);
      this.#waitingBy[priority]--;
      if (this.#shared) {
        const later = await this.#takeShared(this.#shared, priority, deadline);
        if (later > 0) return later;
      }
      this.#recordStart(Date.now(), priority);
      if (priority === 'tracking') this.#lastTrackingStart = Date.now();
      onStart?.();
      return 0;
    };
    // A task refused by its share gives its turn back and queues again later, never holding members' requests behind it.
    const go = async (later: number): Promise<T> => {
      if (later === 0) return task();
      await sleep(later, undefined, { signal: signal ? AbortSignal.any([this.#stopping.signal, signal]) : this.#stopping.signal });
      return this.#enqueue(task, priority, deadline, signal, onStart);
    };
    return this.#queue.add<number>(turn, { priority: PRIORITY[priority], signal: waitSignal }).then(go, (err: unknown) => {
      if (!started) {
        clearTimeout(timer);
        this.#waitingBy[priority]--;
      }
      throw err;
    });
  }

  /** Resolves once {@link trackingWait} says a tracking read may start. @throws the signal's reason, or the stop's. */
  async #whenSpare(signal?: AbortSignal): Promise<void> {
    const stop = signal ? AbortSignal.any([this.#stopping.signal, signal]) : this.#stopping.signal;
    stop.throwIfAborted();
    for (let wait = this.trackingWait(); wait > 0; wait = this.trackingWait()) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          stop.removeEventListener('abort', abort);
          resolve();
        }, wait);
        const abort = () => {
          clearTimeout(timer);
          reject(stop.reason as Error);
        };
        if (stop.aborted) return abort();
        stop.addEventListener('abort', abort, { once: true });
      });
    }
  }

  /**
   * Waits for a shared-window slot, as the queue's head. Returns 0 once taken, or for a share-refused task the ms before asking again.
   * @throws {RateLimitWaitError} when the wait would pass `deadline`; the stop signal's reason after {@link stop}.
   */
  async #takeShared(shared: SharedRateWindow, priority: Priority, deadline: number | undefined): Promise<number> {
    for (;;) {
      // A local back-off (from a 429 here) holds even when Redis does not know of it.
      const held = this.backoffRemaining();
      const share = priority === 'bulk' || priority === 'gathering' ? priority : undefined;
      const headroom = priority === 'tracking' ? this.reserve() : 0;
      const verdict: Verdict = held > 0 ? { kind: 'denied', retryMs: held, bulkShare: false } : await shared.take(share, headroom);
      if (verdict.kind !== 'denied') {
        this.#sharedFreeAt = 0;
        return 0;
      }
      if (verdict.bulkShare) return verdict.retryMs;
      const now = Date.now();
      const { retryMs } = verdict;
      this.#sharedFreeAt = now + retryMs;
      if (deadline !== undefined && now + retryMs > deadline) throw new RateLimitWaitError(this.estimateWait(priority, now));
      await sleep(retryMs, undefined, { signal: this.#stopping.signal });
    }
  }

  /** Estimated ms before a request of `priority` scheduled now would start; {@link schedule}'s deadline holds whatever it says. */
  estimateWait(priority: Priority = 'interactive', now = Date.now()): number {
    const w = this.#waitingBy;
    const ahead = (Object.keys(w) as Priority[]).reduce((n, p) => (PRIORITY[p] >= PRIORITY[priority] ? n + w[p] : n), 0);
    const from = Math.max(now + this.backoffRemaining(now), this.#sharedFreeAt);
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
    // The k-th slot to free: the k-th oldest start in the window, then a window per cap.
    const k = ahead - free;
    if (k < inWindow) return Math.max(from, this.#starts[lo + k]! + this.#windowMs) - now;
    return from - now + this.#windowMs * (1 + Math.floor((k - inWindow) / this.#cap));
  }

  #recordStart(at: number, priority: Priority): void {
    this.#starts.push(at);
    if (this.#starts.length > this.#cap) this.#starts.shift();
    if (priority !== 'interactive') return;
    const window = Math.floor(at / this.#windowMs);
    const last = this.#demand.at(-1);
    if (last?.[0] === window) last[1]++;
    else this.#demand.push([window, 1]);
    if (this.#demand.length > DEMAND_WINDOWS) this.#demand.shift();
  }

  /**
   * Starts of the window tracking leaves free: twice members' busiest recent window (of the last
   * five), and never less than {@link TRACKING_MIN_RESERVE} of the cap. Members' own starts only, this process's.
   */
  reserve(now = Date.now()): number {
    const current = Math.floor(now / this.#windowMs);
    const peak = this.#demand.reduce((max, [window, count]) => (window > current - DEMAND_WINDOWS ? Math.max(max, count) : max), 0);
    return Math.min(this.#cap - 1, Math.max(Math.ceil(this.#cap * TRACKING_MIN_RESERVE), 2 * peak));
  }

  /**
   * ms before a tracking read would start by this process's view: 0 when nothing else waits, the last tracking read
   * started a window ÷ cap ago or more, and the window holds more than {@link reserve} free starts after it; else when
   * the first of these will hold.
   */
  trackingWait(now = Date.now()): number {
    const held = Math.max(this.backoffRemaining(now), this.#sharedFreeAt - now);
    if (held > 0) return held;
    const w = this.#waitingBy;
    if (w.interactive + w.background + w.gathering + w.bulk > 0) return this.#windowMs / this.#cap;
    // Evenly spread, one per window ÷ cap: bunched starts would age out together and leave a burst of members waiting.
    const paced = this.#lastTrackingStart + this.#windowMs / this.#cap - now;
    if (paced > 0) return paced;
    const inWindow = this.#starts.filter((t) => t > now - this.#windowMs);
    const over = inWindow.length + this.reserve(now) + 1 - this.#cap;
    if (over <= 0) return 0;
    return Math.max(1, inWindow[over - 1]! + this.#windowMs - now);
  }

  /** Holds every waiting request for `delayMs` (a 429's `Retry-After`, capped), in every process with a shared window; never shortens a pause. */
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

  /** ms; 0 when not paused. */
  backoffRemaining(now = Date.now()): number {
    return Math.max(0, this.#pausedUntil - now);
  }

  /** Shares' queues included. */
  get waiting(): number {
    return this.#queue.size + Object.values(this.#shares).reduce((n, q) => n + q.size, 0);
  }

  /** Shutdown: waiting tasks are cleared; one waiting for the shared window is rejected. */
  stop(): void {
    this.#stopping.abort(new Error('the rate limiter was stopped'));
    clearTimeout(this.#resumeTimer);
    this.#queue.clear();
    for (const q of Object.values(this.#shares)) q.clear();
  }
}
