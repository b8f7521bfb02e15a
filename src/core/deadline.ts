/** An interaction's time budget, counted from its snowflake, since queueing counts against Discord's 3 s ack limit; carried in an AsyncLocalStorage. */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Discord's epoch (2015-01-01T00:00:00Z), ms since the Unix epoch. */
export const DISCORD_EPOCH_MS = 1_420_070_400_000;

export const DISCORD_ACK_LIMIT_MS = 3_000;

/** Default total budget from creation, ms (`INTERACTION_BUDGET_MS`). */
export const DEFAULT_BUDGET_MS = 10_000;

/** Planned latest acknowledgement, ms from creation: leaves room for the REST round trip. */
export const ACK_BY_MS = 2_000;

/** A snowflake older than this at arrival (ms) is taken as clock skew and clamped to it, not as queueing. */
export const MAX_TRUSTED_AGE_MS = 2_500;

/** Times in ms since the Unix epoch. */
export interface InteractionBudget {
  /** The snowflake's time, clamped to [receivedAt − {@link MAX_TRUSTED_AGE_MS}, receivedAt]. */
  createdAt: number;
  receivedAt: number;
  ackBy: number;
  answerBy: number;
}

/** ms since the Unix epoch encoded in a Discord snowflake (Discord: "Snowflakes"); undefined if malformed. */
export function snowflakeTime(id: string): number | undefined {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  return Number(BigInt(id) >> 22n) + DISCORD_EPOCH_MS;
}

/** The budget of the interaction with snowflake `id`, received at `now`; `totalMs` counts from creation. */
export function interactionBudget(id: string, now: number, totalMs = DEFAULT_BUDGET_MS): InteractionBudget {
  const minted = snowflakeTime(id) ?? now;
  const createdAt = Math.min(now, Math.max(minted, now - MAX_TRUSTED_AGE_MS));
  return { createdAt, receivedAt: now, ackBy: createdAt + ACK_BY_MS, answerBy: createdAt + Math.max(totalMs, ACK_BY_MS) };
}

/** `work`'s value, or `fallback()`'s once `signal` aborts first; the listener comes off the signal when either settles. */
export function settleUntilAborted<T>(work: Promise<T>, signal: AbortSignal, fallback: () => T): Promise<T> {
  if (signal.aborted) return Promise.resolve(fallback());
  return new Promise<T>((resolve, reject) => {
    const abort = () => resolve(fallback());
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Node timers fire at once past 2^31 − 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/** `work`'s value, or `fallback()`'s after `ms`. Not p-timeout: it builds a TimeoutError, stack and all, on every call, which shows on the hot path. */
export function settleWithin<T, F>(work: Promise<T>, ms: number, fallback: () => F | PromiseLike<F>): Promise<T | F> {
  return new Promise<T | F>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        try {
          resolve(fallback());
        } catch (err) {
          reject(err);
        }
      },
      Math.min(MAX_TIMER_MS, Math.max(0, ms)),
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

const storage = new AsyncLocalStorage<number>();

/** Runs `work` with `deadline` (ms since the epoch, or none) as the deadline of every API call inside it. */
export function runWithDeadline<T>(deadline: number | undefined, work: () => Promise<T>): Promise<T> {
  return deadline === undefined ? work() : storage.run(deadline, work);
}

export function currentDeadline(): number | undefined {
  return storage.getStore();
}

/** Runs `work` with no deadline, for background work a handler starts that must not give up when the member's answer goes. */
export function runWithoutDeadline<T>(work: () => Promise<T>): Promise<T> {
  return storage.exit(work);
}

/** The final answer goes out this long before the budget's end (ms), so its REST calls land within it even under a burst. */
export const SEND_RESERVE_MS = 1_000;
/** Autocomplete has 3 s and cannot defer: past this (ms), an empty list is sent. */
export const AUTOCOMPLETE_DEADLINE_MS = 2_500;
