/**
 * What the bot measures for Prometheus ("Health and metrics"), as a small interface the
 * components call: the discord.js runtime, the API client and its transport, the Discord REST budget,
 * the feed poller and the delivery ledger each take an optional `metrics` (default {@link NO_METRICS})
 * through their options. prom-client loads only when `METRICS_PORT` is set (src/app/ops/create-metrics.ts):
 * without it the bot's idle memory stays as it was (README, "Lean and fast: the bot beside a bare
 * discord.js bot"), and every hook below is an empty method.
 *
 * Metric names and labels (a Grafana dashboard reads exactly these): see src/app/ops/prometheus.ts.
 */

/** The three kinds of interaction the bot answers. */
export type InteractionKind = 'command' | 'component' | 'autocomplete';

/**
 * How an interaction ended, as the label `outcome` of `rivals_interactions_total`:
 * - `answered`: the final answer is the handler's View;
 * - `error`: the final answer is an error message (a typed error's actionable text, or the generic
 *   message with a reference ID of an unexpected one: the router maps both to an error View);
 * - `late`: the handler had no View by the end of the budget, so the "took too long" message went
 *   instead (autocomplete: the empty list sent at its deadline);
 * - `failed`: Discord did not take the acknowledgement or the final answer (10062 Unknown interaction
 *   past 3 s, a 5xx, the network), or the runtime itself threw;
 * - `restarting`: the process was shutting down and answered "restarting".
 */
export type InteractionOutcome = 'answered' | 'error' | 'late' | 'failed' | 'restarting';

/** What happened to a feed post: found by the poller, delivered to a channel, or given up for a channel. */
export type FeedPostEvent = 'found' | 'delivered' | 'failed';

/** The HTTP status of an upstream response, or why none came. */
export type UpstreamStatus = number | 'network' | 'timeout';

/** The rate limiters whose waits are measured: the game API key's and the Discord REST budget. */
export type LimiterName = 'upstream' | 'discord';

/**
 * The hooks the components call. Every method is cheap and synchronous and never throws; times are in
 * seconds (Prometheus's base unit).
 */
export interface Metrics {
  /** False for {@link NO_METRICS}: a caller may skip work whose only use is a metric. */
  readonly enabled: boolean;
  /**
   * One interaction finished with `outcome`. `command` is the slash (or context-menu) command's name,
   * or for a component the route of its custom ID (`lb.p`), or `unknown` for one the router does not
   * know (so that the label's values stay a fixed, small set). Autocomplete counts separately.
   */
  interaction(kind: InteractionKind, command: string, outcome: InteractionOutcome): void;
  /**
   * The acknowledgement (the initial response) was accepted by Discord, `seconds` after the
   * interaction's creation: its snowflake's time, taken as at most 2.5 s before the bot received it
   * (clock skew; src/core/deadline.ts, interactionBudget), as the answer's budget reads it.
   */
  ack(kind: InteractionKind, seconds: number): void;
  /** The final answer (the reply, the update, or the edit or follow-up after a deferral) was accepted, `seconds` after creation. */
  answer(kind: InteractionKind, seconds: number): void;
  /** One request to the game API ended: `endpoint` is the endpoint's name (src/api/endpoints.ts), never the path. */
  upstream(endpoint: string, status: UpstreamStatus): void;
  /** A request waited `seconds` in `limiter` (at `priority`) before it started. */
  limiterWait(limiter: LimiterName, priority: string, seconds: number): void;
  /** `count` posts of `feed` were found, delivered or given up. */
  feedPosts(event: FeedPostEvent, feed: string, count?: number): void;
}

const nothing = (): void => undefined;

/** Metrics off: every hook does nothing. */
export const NO_METRICS: Metrics = Object.freeze({
  enabled: false,
  interaction: nothing,
  ack: nothing,
  answer: nothing,
  upstream: nothing,
  limiterWait: nothing,
  feedPosts: nothing,
});
