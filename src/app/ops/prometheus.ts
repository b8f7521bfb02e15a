/** The {@link Metrics} hooks over prom-client 15, one registry per process; every series carries the default label `cluster`. */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CacheStats } from '../../cache/response-cache.js';
import type { GatewayState } from './health.js';
import type { FeedPostEvent, InteractionKind, InteractionOutcome, LimiterName, Metrics, UpstreamStatus } from '../../core/metrics.js';

export interface PrometheusMetricsOptions {
  /** The cluster's id when sharded over processes, else `0`. */
  cluster: string;
}

export interface ScrapeSources {
  gateway?: () => GatewayState;
  cache?: () => CacheStats;
}

/** Seconds, dense around Discord's 3 s limit and the deadline policy's marks (src/core/deadline.ts). */
const ACK_BUCKETS = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 5];
/** Seconds, up to the default budget (`INTERACTION_BUDGET_MS`) and past it. */
const ANSWER_BUCKETS = [0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 7.5, 10, 15, 30, 60];
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const KINDS: readonly InteractionKind[] = ['command', 'component', 'autocomplete'];

/** Label children made once per set of values: prom-client's `labels()` checks and copies on every call. */
class Children<C> {
  readonly #made = new Map<string, Map<string | number, C>>();
  readonly #make: (a: string, b: string) => C;
  constructor(make: (a: string, b: string) => C) {
    this.#make = make;
  }
  get(a: string, b: string | number = ''): C {
    let inner = this.#made.get(a);
    if (!inner) this.#made.set(a, (inner = new Map<string | number, C>()));
    let child = inner.get(b);
    if (!child) inner.set(b, (child = this.#make(a, String(b))));
    return child;
  }
}

/** Metrics in a prom-client {@link Registry} of their own; `text()` is what `GET /metrics` serves. */
export class PrometheusMetrics implements Metrics {
  readonly enabled = true;
  readonly registry = new Registry();
  #sources: ScrapeSources = {};
  readonly #interactions: Children<Counter.Internal>;
  readonly #autocomplete: Children<Counter.Internal>;
  readonly #ack: Record<InteractionKind, Histogram.Internal<string>>;
  readonly #answer: Record<InteractionKind, Histogram.Internal<string>>;
  readonly #upstream: Children<Counter.Internal>;
  readonly #waits: Children<Histogram.Internal<string>>;
  readonly #feeds: Record<FeedPostEvent, Children<Counter.Internal>>;

  constructor(options: PrometheusMetricsOptions) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ cluster: options.cluster });
    collectDefaultMetrics({ register: this.registry });

    const interactions = new Counter({
      name: 'rivals_interactions_total',
      help: 'Slash commands and components answered, by command (or component route) and outcome.',
      labelNames: ['command', 'outcome'],
      registers,
    });
    this.#interactions = new Children((command, outcome) => interactions.labels(command, outcome));
    const autocomplete = new Counter({
      name: 'rivals_autocomplete_total',
      help: 'Autocomplete calls answered, by command and outcome (answered, late, failed).',
      labelNames: ['command', 'outcome'],
      registers,
    });
    this.#autocomplete = new Children((command, outcome) => autocomplete.labels(command, outcome));

    const ack = new Histogram({
      name: 'rivals_interaction_ack_seconds',
      help: "Time from an interaction's creation (its snowflake) to its initial response accepted by Discord, by kind.",
      labelNames: ['kind'],
      buckets: ACK_BUCKETS,
      registers,
    });
    const answer = new Histogram({
      name: 'rivals_interaction_answer_seconds',
      help: "Time from an interaction's creation (its snowflake) to its answer accepted by Discord (not the newer versions edited in later), by kind.",
      labelNames: ['kind'],
      buckets: ANSWER_BUCKETS,
      registers,
    });
    this.#ack = Object.fromEntries(KINDS.map((k) => [k, ack.labels(k)])) as Record<InteractionKind, Histogram.Internal<string>>;
    this.#answer = Object.fromEntries(KINDS.map((k) => [k, answer.labels(k)])) as Record<InteractionKind, Histogram.Internal<string>>;

    const upstream = new Counter({
      name: 'rivals_upstream_requests_total',
      help: 'Requests to the game API, by endpoint name and HTTP status (or network, timeout).',
      labelNames: ['endpoint', 'status'],
      registers,
    });
    this.#upstream = new Children((endpoint, status) => upstream.labels(endpoint, status));
    const waits = new Histogram({
      name: 'rivals_rate_limiter_wait_seconds',
      help: 'Time a request waited in a rate limiter before it started, by limiter (upstream, discord) and priority.',
      labelNames: ['limiter', 'priority'],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.#waits = new Children((limiter, priority) => waits.labels(limiter, priority));

    const feedCounter = (event: FeedPostEvent, help: string) => {
      const counter = new Counter({ name: `rivals_feed_posts_${event}_total`, help, labelNames: ['feed'], registers });
      return new Children((feed) => counter.labels(feed));
    };
    this.#feeds = {
      found: feedCounter('found', 'New feed posts found by the poller, by feed.'),
      delivered: feedCounter('delivered', 'Feed messages delivered to a channel (posts, thread parts, digests, alerts), by feed.'),
      failed: feedCounter('failed', 'Feed messages given up for a channel (a broken channel, or too many failed attempts), by feed.'),
    };

    const cache = (name: string, help: string, read: (stats: CacheStats) => number) => {
      const sources = () => this.#sources;
      new Counter({
        name,
        help,
        registers,
        collect() {
          const stats = sources().cache?.();
          // A count kept by the cache itself: the counter shows it as it is at the scrape.
          this.reset();
          if (stats) this.inc(read(stats));
        },
      });
    };
    cache('rivals_cache_hits_total', 'Response cache answers from a fresh entry.', (s) => s.hits);
    cache('rivals_cache_misses_total', 'Response cache misses that asked the API.', (s) => s.misses);
    cache('rivals_cache_stale_total', 'Response cache answers from a stale entry (the API failed or was too slow).', (s) => s.stale);
    cache('rivals_cache_negative_hits_total', 'Response cache answers from a cached "not found".', (s) => s.negativeHits);
    cache('rivals_cache_shared_total', 'Calls that joined an API request already in flight.', (s) => s.shared);

    const gateway = (name: string, help: string, value: (shard: GatewayState['shards'][number]) => number | undefined) => {
      const sources = () => this.#sources;
      new Gauge({
        name,
        help,
        labelNames: ['shard'],
        registers,
        collect() {
          // Read at the scrape: a shard this process no longer runs disappears.
          this.reset();
          for (const shard of sources().gateway?.().shards ?? []) {
            const v = value(shard);
            if (v !== undefined) this.set({ shard: String(shard.id) }, v);
          }
        },
      });
    };
    gateway('rivals_gateway_latency_seconds', "The shard's last heartbeat round trip to Discord's gateway (absent before the first).", (s) =>
      s.ping >= 0 ? s.ping / 1000 : undefined,
    );
    gateway(
      'rivals_gateway_status',
      "The shard's discord.js Status: 0 Ready, 1 Connecting, 2 Reconnecting, 3 Idle, 4 Nearly, 5 Disconnected, 6 WaitingForGuilds, 7 Identifying, 8 Resuming.",
      (s) => s.status,
    );
    gateway('rivals_gateway_ready', '1 when the shard is READY, else 0.', (s) => (s.status === 0 ? 1 : 0));
  }

  /** The Prometheus text exposition's content type (`text/plain; version=0.0.4; charset=utf-8`). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in the text exposition format, running the scrape-time reads. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** Sets what is read at scrape time: the gateway (once the client exists) and the response cache. */
  watch(sources: ScrapeSources): void {
    this.#sources = { ...this.#sources, ...sources };
  }

  interaction(kind: InteractionKind, command: string, outcome: InteractionOutcome): void {
    (kind === 'autocomplete' ? this.#autocomplete : this.#interactions).get(command, outcome).inc();
  }

  ack(kind: InteractionKind, seconds: number): void {
    this.#ack[kind].observe(seconds);
  }

  answer(kind: InteractionKind, seconds: number): void {
    this.#answer[kind].observe(seconds);
  }

  upstream(endpoint: string, status: UpstreamStatus): void {
    this.#upstream.get(endpoint, status).inc();
  }

  limiterWait(limiter: LimiterName, priority: string, seconds: number): void {
    this.#waits.get(limiter, priority).observe(seconds);
  }

  feedPosts(event: FeedPostEvent, feed: string, count = 1): void {
    this.#feeds[event].get(feed).inc(count);
  }
}
