/**
 * The upstream rate limiter of one API key: at most `requestsPerMinute` requests in any rolling
 * minute (p-queue's strict window), interactive requests before background ones, and a pause when
 * the API answers 429 with `Retry-After`. The spec (Limits 1) states that limits are per key but not
 * their values, hence the configurable `RIVALS_API_RPM`.
 */
import PQueue from 'p-queue';

/** Who is waiting: a member's command (`interactive`) or a job such as the patch-note poller (`background`). */
export type Priority = 'interactive' | 'background';

const PRIORITY: Record<Priority, number> = { interactive: 10, background: 0 };

/** Longest pause taken from a `Retry-After` header (a bogus header must not stop the bot for hours). */
export const MAX_BACKOFF_MS = 10 * 60_000;

export interface RateLimiterOptions {
  requestsPerMinute: number;
  /** Length of the window in ms (default 60 000); tests shorten it. */
  windowMs?: number;
}

/** Schedules upstream requests within the key's rate. */
export class UpstreamRateLimiter {
  readonly #queue: PQueue;
  #resumeTimer: NodeJS.Timeout | undefined;
  #pausedUntil = 0;

  constructor(options: RateLimiterOptions) {
    if (!(options.requestsPerMinute >= 1)) throw new RangeError('requestsPerMinute must be at least 1');
    this.#queue = new PQueue({ intervalCap: Math.floor(options.requestsPerMinute), interval: options.windowMs ?? 60_000, strict: true });
  }

  /**
   * Runs `task` when the rate allows, after every waiting task of higher priority.
   * Resolves or rejects with the task's own result.
   */
  schedule<T>(task: () => Promise<T>, priority: Priority = 'interactive'): Promise<T> {
    return this.#queue.add(task, { priority: PRIORITY[priority] }) as Promise<T>;
  }

  /**
   * Holds every waiting request for `delayMs` (from a 429's `Retry-After`), capped at {@link MAX_BACKOFF_MS}.
   * A shorter back-off never cuts a longer one short.
   */
  backoff(delayMs: number, now = Date.now()): void {
    const until = now + Math.min(Math.max(0, delayMs), MAX_BACKOFF_MS);
    if (until <= this.#pausedUntil) return;
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

  /** Requests waiting for their turn. */
  get waiting(): number {
    return this.#queue.size;
  }

  /** Drops the back-off timer (shutdown). Waiting tasks are cleared. */
  stop(): void {
    clearTimeout(this.#resumeTimer);
    this.#queue.clear();
  }
}
