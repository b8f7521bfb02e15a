/**
 * Builds the API side of the bot from a validated config: cache store -> response cache -> rate
 * limiter -> API client, over the real API or, with no API key, an in-process replica. Shared by the
 * composition root (src/index.ts), the command-line tools and the benchmark.
 */
import { RivalsApi } from './api/client.js';
import { UpstreamRateLimiter } from './api/rate-limiter.js';
import { ResponseCache } from './cache/response-cache.js';
import { closeCacheStore, createCacheStore } from './cache/store.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Faults } from './replica/faults.js';
import { startReplica, type Replica } from './replica/server.js';

/** What {@link createApiServices} builds. */
export interface ApiServices {
  api: RivalsApi;
  cache: ResponseCache;
  limiter: UpstreamRateLimiter;
  /** Present when running offline on the in-process replica. */
  replica?: Replica;
  /** `real` for the configured API, `replica` offline. */
  mode: 'real' | 'replica';
  /** Stops the limiter, closes connections, the cache store and the replica. */
  close(): Promise<void>;
}

/**
 * Creates the API services. With no `RIVALS_API_KEY` an in-process replica is started on a free
 * loopback port, with `replicaFaults` (from the `REPLICA_*` variables), and used instead of the real
 * API (the offline default); the caller says so in its first log line.
 */
export async function createApiServices(config: Config, logger: Logger, replicaFaults: Faults = {}): Promise<ApiServices> {
  const replica = config.rivals.apiKey ? undefined : await startReplica({ logger: logger.child({ component: 'replica' }), faults: replicaFaults });
  const baseUrl = replica?.url ?? config.rivals.baseUrl;
  const store = createCacheStore({ redisUrl: config.redisUrl, maxEntries: config.cache.maxEntries });
  const cache = new ResponseCache({ store, ttls: config.cache.ttlOverrides, logger: logger.child({ component: 'cache' }) });
  const limiter = new UpstreamRateLimiter({ requestsPerMinute: config.rivals.requestsPerMinute });
  const api = new RivalsApi({
    baseUrl,
    apiKey: replica?.apiKey ?? config.rivals.apiKey,
    imageBaseUrl: config.rivals.imageBaseUrl,
    timeoutMs: config.rivals.timeoutMs,
    cache,
    limiter,
    logger: logger.child({ component: 'api' }),
  });
  return {
    api,
    cache,
    limiter,
    replica,
    mode: replica ? 'replica' : 'real',
    close: async () => {
      limiter.stop();
      await api.close();
      await closeCacheStore(store);
      await replica?.close();
    },
  };
}
