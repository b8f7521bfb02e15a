/**
 * Health and metrics of one bot process, put together from what the composition root has:
 * the metrics (./metrics.ts, made before the Discord client so that its REST budget can time its
 * waits), the discord.js client's shards, the state store and the response cache, served on
 * `METRICS_PORT` (./server.ts). src/index.ts imports this module only when `METRICS_PORT` is set.
 */
import type { Client } from 'discord.js';
import type { Config } from '../config.js';
import type { Logger } from '../../core/logger.js';
import type { ApiServices } from '../services.js';
import { gatewayOf, healthCheck, storePing } from './health.js';
import { createMetrics } from './create-metrics.js';
import type { PrometheusMetrics } from './prometheus.js';
import { startOpsServer } from './server.js';

export interface OpsOptions {
  /** `metricsPort` is the port (0: a free one); the secrets listed are masked in health reasons. */
  config: Pick<Config, 'metricsPort' | 'discord' | 'rivals' | 'databaseUrl' | 'redisUrl'>;
  client: Client;
  /** The store (pinged by the health check) and the response cache (its counters read at each scrape). */
  services: Pick<ApiServices, 'state' | 'cache'>;
  logger: Logger;
  /** The metrics the components were given ({@link createMetrics}); default: made here with `cluster`. */
  metrics?: PrometheusMetrics;
  /** The default label `cluster` when the metrics are made here (default `0`). */
  cluster?: string;
  /** Address to listen on (default `0.0.0.0`). */
  host?: string;
}

export interface Ops {
  metrics: PrometheusMetrics;
  /** The server's base URL: `${url}/healthz`, `${url}/metrics`. */
  url: string;
  port: number;
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts `GET /healthz` and `GET /metrics` on `config.metricsPort`, and logs one line with the URL.
 * The health check is healthy when every shard of `client` is READY and the store answers `select 1`
 * within 1 s (./health.ts); the metrics read the gateway and the cache's counters at each scrape.
 * @throws {Error} when `config.metricsPort` is unset, or the port cannot be listened on (its message
 *   names METRICS_PORT and the cause, e.g. EADDRINUSE).
 */
export async function startOps(options: OpsOptions): Promise<Ops> {
  const { config, client, services } = options;
  const port = config.metricsPort;
  if (port === undefined) throw new Error('health and metrics need METRICS_PORT');
  const logger = options.logger.child({ component: 'ops' });
  const metrics = options.metrics ?? (await createMetrics({ cluster: options.cluster ?? '0' }));
  const gateway = gatewayOf(client);
  metrics.watch({ gateway, cache: () => services.cache.stats });
  const health = healthCheck({
    gateway,
    store: storePing(services.state.database.db),
    secrets: [
      config.discord.token,
      config.rivals.apiKey,
      config.databaseUrl,
      ...passwordsOf(config.databaseUrl),
      config.redisUrl,
      ...passwordsOf(config.redisUrl),
    ],
  });
  let server;
  try {
    server = await startOpsServer({ port, host: options.host, metrics, health, logger });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'the port is in use' : code === 'EACCES' ? 'no permission to listen on it' : String((err as Error).message);
    throw new Error(`cannot serve health and metrics on METRICS_PORT ${port}: ${why}${code ? ` (${code})` : ''}`, { cause: err });
  }
  logger.info({ url: server.url }, `health and metrics: ${server.url}/healthz and ${server.url}/metrics`);
  return { metrics, url: server.url, port: server.port, close: () => server.close() };
}

/** The password of a `scheme://user:password@host` URL, as typed and decoded; none without one. */
function passwordsOf(url: string | undefined): string[] {
  let typed: string;
  try {
    typed = url ? new URL(url).password : '';
  } catch {
    return [];
  }
  if (!typed) return [];
  try {
    return [typed, decodeURIComponent(typed)];
  } catch {
    // A malformed escape: only the typed form can appear.
    return [typed];
  }
}
