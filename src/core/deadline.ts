/**
 * The time budget of one interaction, taken from the interaction's own creation time (its snowflake,
 * Discord: "Snowflakes") rather than from when the bot got to it: time spent queued in the gateway,
 * the event loop or discord.js counts against Discord's 3 s acknowledgement limit (Discord:
 * "Receiving and Responding": "you must send an initial response within 3 seconds"), so it counts
 * against the budget too.
 *
 * The budget travels with the work in an AsyncLocalStorage: every API call a handler makes, however
 * deep (hero and map directories included), reads its deadline ({@link currentDeadline}) without
 * each call site passing it along.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Discord's epoch, ms since the Unix epoch (2015-01-01T00:00:00Z). */
export const DISCORD_EPOCH_MS = 1_420_070_400_000;

/** Discord's limit for the first response to an interaction, ms from its creation. */
export const DISCORD_ACK_LIMIT_MS = 3_000;

/** Default total budget of an interaction, ms from its creation (`INTERACTION_BUDGET_MS`). */
export const DEFAULT_BUDGET_MS = 10_000;

/**
 * The latest acknowledgement the policy plans for, ms from creation: well before
 * {@link DISCORD_ACK_LIMIT_MS}, leaving room for the REST round trip to Discord.
 */
export const ACK_BY_MS = 2_000;

/**
 * How far a snowflake's time may lie before the time the interaction was received (ms) before it is
 * taken for clock skew rather than queueing: the bot's clock is not Discord's. Past it, the
 * interaction counts as created this long before it arrived, which still acknowledges it at once.
 */
export const MAX_TRUSTED_AGE_MS = 2_500;

/** When the interaction was created and what it may still spend; times in ms since the Unix epoch. */
export interface InteractionBudget {
  /** Creation time from the snowflake, clamped to [receivedAt − {@link MAX_TRUSTED_AGE_MS}, receivedAt]. */
  createdAt: number;
  /** When the interaction was received (the handler started). */
  receivedAt: number;
  /** The acknowledgement (reply or deferral) goes out before this: createdAt + {@link ACK_BY_MS}. */
  ackBy: number;
  /** The final answer goes out before this: createdAt + the total budget. */
  answerBy: number;
}

/** Time encoded in a Discord snowflake, ms since the Unix epoch; undefined for a malformed id. */
export function snowflakeTime(id: string): number | undefined {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  return Number(BigInt(id) >> 22n) + DISCORD_EPOCH_MS;
}

/**
 * The budget of the interaction with snowflake `id`, received at `now`.
 * @param totalMs the total budget from creation (default {@link DEFAULT_BUDGET_MS}).
 */
export function interactionBudget(id: string, now: number, totalMs = DEFAULT_BUDGET_MS): InteractionBudget {
  const minted = snowflakeTime(id) ?? now;
  const createdAt = Math.min(now, Math.max(minted, now - MAX_TRUSTED_AGE_MS));
  return { createdAt, receivedAt: now, ackBy: createdAt + ACK_BY_MS, answerBy: createdAt + Math.max(totalMs, ACK_BY_MS) };
}

/** Longest delay a Node timer takes (2^31 − 1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * `work`'s value, or `fallback()`'s when `work` has not settled within `ms` (≤ 0: on the next timer
 * tick); a rejection of `work` within `ms` passes through. The hot-path sibling of p-timeout's
 * `fallback` option: p-timeout builds a TimeoutError, stack trace included, for every call even when
 * it never times out, which cost 7 % of the CPU of a 2,000-interaction burst (npm run bench:burst).
 */
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

/** Runs `work` with `deadline` (ms since the epoch) as the deadline of every API call inside it; undefined: none. */
export function runWithDeadline<T>(deadline: number | undefined, work: () => Promise<T>): Promise<T> {
  return deadline === undefined ? work() : storage.run(deadline, work);
}

/** The deadline of the work running now (ms since the epoch), if any. */
export function currentDeadline(): number | undefined {
  return storage.getStore();
}

/**
 * Runs `work` outside any interaction's deadline: its API calls, and everything they start, see no
 * deadline ({@link currentDeadline} is undefined there). For background work that a handler may start
 * but must not bind to its own budget (the hero meta's refresh, src/game/meta.ts), which would
 * otherwise inherit the deadline through the AsyncLocalStorage and give up when the member's answer goes.
 */
export function runWithoutDeadline<T>(work: () => Promise<T>): Promise<T> {
  return storage.exit(work);
}

/**
 * The final answer is sent this long before the budget's end (ms), so that its REST calls (an edit,
 * or a delete and a follow-up) reach Discord within the budget, even under a burst.
 */
export const SEND_RESERVE_MS = 1_000;
/** Discord gives autocomplete 3 s and no way to defer: past this, an empty list is sent. */
export const AUTOCOMPLETE_DEADLINE_MS = 2_500;
