/**
 * One process-wide budget under Discord's global limit (Rate Limits, "Global Rate Limit"): @discordjs/rest's fixed windows let a fan-out land
 * twice the limit in a sliding second, so this counts sliding seconds and spaces requests. Interaction routes skip it; interactive requests go first.
 */
import PQueue from 'p-queue';
import { DefaultRestOptions, type RESTOptions } from '@discordjs/rest';
import { currentDeadline } from '../core/deadline.js';
import { NO_METRICS, type Metrics } from '../core/metrics.js';

/** Requests started in any sliding second: headroom under Discord's 50 for arrivals bunched up between here and Discord. */
export const DISCORD_REQUESTS_PER_SECOND = 46;
/** Least time between two requests' starts, ms (the pace of 50 a second). */
export const DISCORD_REQUEST_SPACING_MS = 20;

/** @discordjs/rest's `globalRequestsPerSecond` when something else counts the global limit (this budget, or the REST proxy's). */
export const UNCOUNTED = Number.MAX_SAFE_INTEGER;

/** Header marking a proxied request as part of an answer to a member (value {@link INTERACTIVE_PRIORITY}); not passed on to Discord. */
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

  /** `perSecond` per sliding `windowMs` (default a second), at least `spacingMs` apart (0: none); `metrics` hears each request's wait for a slot. */
  constructor(perSecond = DISCORD_REQUESTS_PER_SECOND, spacingMs = DISCORD_REQUEST_SPACING_MS, metrics: Metrics = NO_METRICS, windowMs = 1_000) {
    this.#pace = spacingMs > 0 ? new PQueue({ intervalCap: 1, interval: spacingMs, strict: true }) : new PQueue();
    this.#window = new PQueue({ intervalCap: perSecond, interval: windowMs, strict: true });
    this.#metrics = metrics;
  }

  get waiting(): number {
    return this.#pace.size + this.#window.size;
  }

  /**
   * `makeRequest` behind the budget: interaction routes go at once; others wait for a slot, `isInteractive()` ones first (default: a deadline is
   * set). A request whose `init.signal` aborts while waiting leaves without a slot, rejecting with the signal's reason (@discordjs/rest retries).
   */
  wrap(makeRequest: MakeRequest = DefaultRestOptions.makeRequest, isInteractive: () => boolean = () => currentDeadline() !== undefined): MakeRequest {
    return (url, init) => {
      if (isInteractionRoute(url)) return makeRequest(url, init);
      const priority = isInteractive() ? INTERACTIVE : BACKGROUND;
      // null → undefined for p-queue; undici's AbortSignal and the DOM's differ in their declarations only.
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
