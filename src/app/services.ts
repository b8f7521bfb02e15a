/** The API side of the bot from a validated config: cache store, response cache, rate limiter, API client (real, or the replica offline). */
import { join } from 'node:path';
import { RivalsApi } from '../api/client.js';
import { UpstreamRateLimiter } from '../api/rate-limiter.js';
import { ResponseCache } from '../cache/response-cache.js';
import { SharedFlight } from '../cache/shared-flight.js';
import { closeCacheStore, createCacheStore, redisClientOf } from '../cache/store.js';
import type Keyv from 'keyv';
import { openState, type State } from '../store/state.js';
import { RecentLookups } from '../store/recent-lookups.js';
import { BackTargets } from '../store/back-targets.js';
import { HeroDirectory } from '../catalog/hero-directory.js';
import { MapDirectory } from '../catalog/map-directory.js';
import type { ChannelAccess, CommandContext } from '../discord/command.js';
import type { FeedTester } from '../feeds/test-post.js';
import type { ChartRenderer } from '../charts/renderer.js';
import { takeChartRenderer } from '../charts/prestart.js';
import { cachedCharts, withCardImages } from '../discord/chart-attachments.js';
import { ImageStore } from '../api/image-store.js';
import type { Config } from './config.js';
import { NO_METRICS, type Metrics } from '../core/metrics.js';
import type { Logger } from '../core/logger.js';
import type { Faults } from '../replica/faults.js';
import type { Replica } from '../replica/server.js';

export interface ApiServices {
  api: RivalsApi;
  /** SQLite under DATA_DIR, or PostgreSQL at DATABASE_URL. */
  state: State;
  /** Memory, or Redis: recent lookups, kept Back buttons, the Redis client for coordination, the responses' shared level. */
  cacheStore: Keyv;
  cache: ResponseCache;
  limiter: UpstreamRateLimiter;
  replica?: Replica;
  mode: 'real' | 'replica';
  /** A worker pool started on the first chart, recent charts kept. */
  charts: ChartRenderer;
  close(): Promise<void>;
}

/**
 * The API services. Without `RIVALS_API_KEY` an in-process replica (with `replicaFaults`) stands in for the real API.
 * @throws {StoreOpenError} when the database cannot be opened (nothing is left running).
 */
export async function createApiServices(config: Config, logger: Logger, replicaFaults: Faults = {}, metrics: Metrics = NO_METRICS): Promise<ApiServices> {
  const state = await openState({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    logger: logger.child({ component: 'store' }),
  });
  // The replica's module (and its dataset) loads only offline.
  const replica = config.rivals.apiKey
    ? undefined
    : await (await import('../replica/server.js')).startReplica({ logger: logger.child({ component: 'replica' }), faults: replicaFaults });
  const baseUrl = replica?.url ?? config.rivals.baseUrl;
  const store = createCacheStore({ redisUrl: config.redisUrl, maxEntries: config.cache.maxEntries });
  // With Redis, every process shares one upstream request per key (the lock held at most a timeout plus a margin)
  // and one rate budget; both fall back to this process alone while Redis is down.
  const redis = config.redisUrl ? redisClientOf(store) : undefined;
  const cacheLogger = logger.child({ component: 'cache' });
  const flight = redis && new SharedFlight({ client: redis, maxHoldMs: config.rivals.timeoutMs + 5_000, logger: cacheLogger });
  const cache = new ResponseCache({
    store,
    memory: { maxBytes: config.cache.maxBytes, maxEntries: config.cache.maxEntries },
    ttls: config.cache.ttlOverrides,
    logger: cacheLogger,
    flight,
  });
  const limiter = new UpstreamRateLimiter({
    requestsPerMinute: config.rivals.requestsPerMinute,
    shared: redis && { client: redis, logger: logger.child({ component: 'rate-limiter' }) },
  });
  const api = new RivalsApi({
    baseUrl,
    apiKey: replica?.apiKey ?? config.rivals.apiKey,
    imageBaseUrl: config.rivals.imageBaseUrl,
    timeoutMs: config.rivals.timeoutMs,
    cache,
    limiter,
    logger: logger.child({ component: 'api' }),
    metrics,
  });
  const chartLogger = logger.child({ component: 'charts' });
  const images = new ImageStore({ dir: join(config.dataDir, 'images'), maxDiskBytes: config.imageCacheBytes, logger: logger.child({ component: 'images' }) });
  const charts = withCardImages(
    cachedCharts(takeChartRenderer({ onError: (err) => chartLogger.warn({ err }, 'the chart worker pool failed outside a render') })),
    images,
  );
  return {
    api,
    state,
    cacheStore: store,
    cache,
    limiter,
    replica,
    mode: replica ? 'replica' : 'real',
    charts,
    close: async () => {
      limiter.stop();
      await api.close();
      await charts.close();
      await flight?.close();
      await closeCacheStore(store);
      await state.close();
      await replica?.close();
    },
  };
}

/** The dependencies every handler receives, built once; the runtime adds a per-interaction logger. */
export function createCommandContext(
  api: RivalsApi,
  state: Pick<State, 'settings' | 'links'> & Partial<Pick<State, 'feedPosts' | 'matches'>>,
  cacheStore: Keyv,
  channels: ChannelAccess = OFFLINE_CHANNELS,
  now: () => number = Date.now,
  feedTester?: FeedTester,
  charts?: ChartRenderer,
): Omit<CommandContext, 'logger'> {
  return {
    channels,
    feedTester,
    charts,
    api,
    heroes: new HeroDirectory(api),
    maps: new MapDirectory(api),
    links: state.links,
    settings: state.settings,
    ...(state.feedPosts ? { feedPosts: state.feedPosts } : {}),
    ...(state.matches ? { matches: state.matches } : {}),
    recent: new RecentLookups(cacheStore),
    backTargets: new BackTargets(cacheStore),
    now,
  };
}

/** For the CLI: every channel exists and the bot may post there. */
export const OFFLINE_CHANNELS: ChannelAccess = { check: async () => ({ exists: true, announcement: false, missing: [] }) };
