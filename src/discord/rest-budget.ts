/**
 * One process-wide budget for the bot's requests to Discord's REST API ("fan-out with
 * headroom"). Discord allows a bot 50 requests a second across all routes (Discord: Topics, Rate
 * Limits, "Global Rate Limit"). @discordjs/rest counts that in fixed one-second windows starting with a
 * window's first request, so a steady fan-out lands up to 50 requests in a window's last moments and 50
 * more in the next one's first: a server that counts in sliding seconds, as Discord may, sees over 50
 * and answers 429.
 *
 * This budget starts at most {@link DISCORD_REQUESTS_PER_SECOND} requests in any sliding second, and
 * no two within {@link DISCORD_REQUEST_SPACING_MS} of each other: a second's requests are spread over
 * it instead of leaving in one burst, so the headroom under 50 covers about 80 ms of spread between
 * when a request starts here and when it reaches Discord (four requests' spacing), not a few
 * milliseconds. A fan-out to 1,000 channels then takes about 1,000 / 46 s, 1.09 × the floor of 20 s.
 * Both limits are p-queue's strict (sliding) mode: the spacing queue hands requests on in order, and
 * the window queue, which starts the actual requests, holds any that would make a 47th in a second.
 * Interaction endpoints (the callback and the interaction token's webhook
 * routes) are not bound to the global limit (Discord: Interactions, "Receiving and Responding") and
 * skip it, so feed fan-outs never delay an acknowledgement or a final answer. Within the budget,
 * requests made while answering an interaction (a /config channel check) go before background ones
 * (a feed post), so a fan-out to thousands of channels does not starve a member's command.
 * Per-route buckets stay with @discordjs/rest, which runs each route's queue in front of this.
 */
import PQueue from 'p-queue';
import { DefaultRestOptions, type RESTOptions } from '@discordjs/rest';
import { currentDeadline } from '../core/deadline.js';
import { NO_METRICS, type Metrics } from '../core/metrics.js';

/**
 * Requests started in any sliding second: 46 of Discord's 50. At 47 the bench's fake Discord, which
 * stamps arrivals on its own event loop, counted 49 in a sliding second in several runs and 51 (a 429)
 * in one of four: a stall of the receiver puts several requests' arrivals together. At 46 a second
 * is 4 under the limit, about 80 ms of such spread, for 2 % more time on a fan-out.
 */
export const DISCORD_REQUESTS_PER_SECOND = 46;
/** Least time between two requests' starts, ms (the pace of 50 a second). */
export const DISCORD_REQUEST_SPACING_MS = 20;

/** @discordjs/rest's `globalRequestsPerSecond` when something else counts the global limit (this budget, or the REST proxy's). */
export const UNCOUNTED = Number.MAX_SAFE_INTEGER;

/**
 * The header with which a bot process tells the REST proxy (./rest-proxy.ts) that a request is part of
 * an answer to a member, with the value {@link INTERACTIVE_PRIORITY}: the proxy's budget starts those
 * before the others, as this budget does in one process. @discordjs/proxy does not pass it on to Discord.
 */
export const PRIORITY_HEADER = 'x-rivals-priority';
export const INTERACTIVE_PRIORITY = 'interactive';

/** The priorities of requests within the budget: a higher number goes first. */
const INTERACTIVE = 1;
const BACKGROUND = 0;
/** The label `priority` of each, in `rivals_rate_limiter_wait_seconds{limiter="discord"}` (src/ops). */
const PRIORITY_NAMES = ['background', 'interactive'] as const;

/** True for the interaction endpoints Discord exempts from the global rate limit. */
export function isInteractionRoute(url: string): boolean {
  const path = new URL(url).pathname;
  return /\/interactions\/\d+\/[^/]+\/callback$/.test(path) || /\/webhooks\/\d+\/[^/]+(\/|$)/.test(path);
}

export type MakeRequest = RESTOptions['makeRequest'];

/** The budget: wraps @discordjs/rest's `makeRequest` (its last step before the network). */
export class DiscordRestBudget {
  /** Hands requests on, by priority, one per spacing. */
  readonly #pace: PQueue;
  /** Starts them, at most `perSecond` in any sliding second. */
  readonly #window: PQueue;
  readonly #metrics: Metrics;

  /**
   * `perSecond` requests in any sliding second (default {@link DISCORD_REQUESTS_PER_SECOND}), at least
   * `spacingMs` apart (default {@link DISCORD_REQUEST_SPACING_MS}; 0: no spacing). `metrics` hears how
   * long each request waited for its slot (`limiterWait('discord', priority, seconds)`). `windowMs` is
   * the sliding window's length (default a second, Discord's; a test lengthens it to keep requests waiting).
   */
  constructor(perSecond = DISCORD_REQUESTS_PER_SECOND, spacingMs = DISCORD_REQUEST_SPACING_MS, metrics: Metrics = NO_METRICS, windowMs = 1_000) {
    this.#pace = spacingMs > 0 ? new PQueue({ intervalCap: 1, interval: spacingMs, strict: true }) : new PQueue();
    this.#window = new PQueue({ intervalCap: perSecond, interval: windowMs, strict: true });
    this.#metrics = metrics;
  }

  /** Requests waiting for their slot now (not yet started). */
  get waiting(): number {
    return this.#pace.size + this.#window.size;
  }

  /**
   * `makeRequest` (default: @discordjs/rest's own) behind the budget: interaction routes go at once;
   * others wait for a slot, those for which `isInteractive()` is true first (default: those of an
   * interaction's handler, where a deadline is set, src/core/deadline.ts; the REST proxy, src/discord/rest-proxy.ts,
   * asks its clients' priority header instead). A request whose `init.signal` aborts while it waits
   * (@discordjs/rest's timeout, or a proxy's client that went away) leaves the queue without taking a
   * slot, and the call rejects with the signal's reason (an `AbortError`, which @discordjs/rest retries).
   */
  wrap(makeRequest: MakeRequest = DefaultRestOptions.makeRequest, isInteractive: () => boolean = () => currentDeadline() !== undefined): MakeRequest {
    return (url, init) => {
      if (isInteractionRoute(url)) return makeRequest(url, init);
      const priority = isInteractive() ? INTERACTIVE : BACKGROUND;
      // undici's AbortSignal type and the DOM's differ in their declarations only.
      const signal = init.signal ?? undefined;
      const queuedAt = performance.now();
      const start = () => {
        this.#metrics.limiterWait('discord', PRIORITY_NAMES[priority], (performance.now() - queuedAt) / 1000);
        return makeRequest(url, init);
      };
      return new Promise((resolve, reject) => {
        // The pace's task ends when the window takes the request, so the pace never waits on the network.
        this.#pace.add(() => void this.#window.add(start, { priority, signal }).then(resolve, reject), { priority, signal }).catch(reject);
      });
    };
  }
}
