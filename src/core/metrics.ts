/** Prometheus hooks (default {@link NO_METRICS}); prom-client loads only with `METRICS_PORT`. Names and labels: src/app/ops/prometheus.ts. */

export type InteractionKind = 'command' | 'component' | 'autocomplete';

/** Label `outcome` of `rivals_interactions_total`; `late`: no View by the budget's end; `failed`: Discord refused the ack or answer, or the runtime threw. */
export type InteractionOutcome = 'answered' | 'error' | 'late' | 'failed' | 'restarting';

export type FeedPostEvent = 'found' | 'delivered' | 'failed';

export type UpstreamStatus = number | 'network' | 'timeout';

export type LimiterName = 'upstream' | 'discord';

/** Every method is cheap, synchronous and never throws; times are in seconds (Prometheus's base unit). */
export interface Metrics {
  /** False for {@link NO_METRICS}: a caller may skip work whose only use is a metric. */
  readonly enabled: boolean;
  /** `command` is the command's name, a component's custom-ID route (`lb.p`) or `unknown`, so the label stays a small fixed set. */
  interaction(kind: InteractionKind, command: string, outcome: InteractionOutcome): void;
  /** Seconds from the interaction's creation (its snowflake, clamped as the budget reads it) to Discord accepting the ack. */
  ack(kind: InteractionKind, seconds: number): void;
  /** Seconds from creation to Discord accepting the answer, once an interaction: newer versions edited in later are not counted. */
  answer(kind: InteractionKind, seconds: number): void;
  /** `endpoint` is the endpoint's name (src/api/endpoints.ts), never the path. */
  upstream(endpoint: string, status: UpstreamStatus): void;
  limiterWait(limiter: LimiterName, priority: string, seconds: number): void;
  feedPosts(event: FeedPostEvent, feed: string, count?: number): void;
}

const nothing = (): void => undefined;

export const NO_METRICS: Metrics = Object.freeze({
  enabled: false,
  interaction: nothing,
  ack: nothing,
  answer: nothing,
  upstream: nothing,
  limiterWait: nothing,
  feedPosts: nothing,
});
