/** Health and metrics of one bot process on `METRICS_PORT`; src/index.ts imports this only when it is set. */
import type { Client } from 'discord.js';
import type { Config } from '../config.js';
import type { Logger } from '../../core/logger.js';
import type { ApiServices } from '../services.js';
import { gatewayOf, healthCheck, storePing } from './health.js';
import { createMetrics } from './create-metrics.js';
import type { PrometheusMetrics } from './prometheus.js';
import { startOpsServer } from './server.js';

export interface OpsOptions {
  /** Its secrets are masked in health reasons. */
  config: Pick<Config, 'metricsPort' | 'discord' | 'rivals' | 'databaseUrl' | 'redisUrl'>;
  client: Client;
  services: Pick<ApiServices, 'state' | 'cache'>;
  logger: Logger;
  /** Default: made here with `cluster`. */
  metrics?: PrometheusMetrics;
  /** Default `0`. */
  cluster?: string;
  /** Default `0.0.0.0`. */
  host?: string;
}

export interface Ops {
  metrics: PrometheusMetrics;
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts `GET /healthz` and `GET /metrics` on `config.metricsPort`.
 * @throws {Error} when `config.metricsPort` is unset or cannot be listened on (the message names METRICS_PORT and the cause).
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
    return [typed];
  }
}
