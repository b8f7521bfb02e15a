/**
 * Composition root (STYLE.md): config -> logger -> state store and cache -> API client -> Discord
 * runtime -> feeds. Without DISCORD_TOKEN (or with `--playground`, `npm run playground`) the same
 * router, handlers and feeds serve the local playground web page on PORT instead of Discord.
 */
import { commands } from '../commands/index.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { Router } from './discord/router.js';
import { createDiscordClient, discordChannelAccess, DiscordRuntime } from './discord/runtime.js';
import { DiscordRestBudget } from './discord/rest-budget.js';
import { createMetrics, NO_METRICS } from './ops/metrics.js';
import { watchGateway } from './discord/gateway-policy.js';
import { EXIT_OK, logWritten, ProcessPolicy } from './process-policy.js';
import { createLogger } from './logger.js';
import { MainsRefresher } from './feeds/alerts.js';
import { feedClock } from './feeds/clock.js';
import { CorrectionEditor } from './feeds/corrections.js';
import { DeliveryLedger } from './feeds/delivery.js';
import { discordFeedTransport } from './feeds/discord-transport.js';
import { RedisLeadership, redisClientOf, SOLE_LEADER } from './feeds/leadership.js';
import { FeedPoller } from './feeds/poller.js';
import { createFeedTester } from './feeds/test-post.js';
import { EXIT_STORE_UNAVAILABLE, StoreOpenError } from './store/database.js';
import { syncSettingsOverRedis } from './store/settings-sync.js';
import { createApiServices, createCommandContext } from './services.js';
import { HeroMeta } from './game/meta.js';
import { BalanceIndexer } from './game/balance-indexer.js';
import type { Playground } from './playground/start.js';

let config: Config;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\nSee .env.example for every variable.\n`);
  process.exit(1);
}

const logger = createLogger({ level: config.logLevel, secrets: [config.rivals.apiKey, config.discord.token] });
// README "Process policy": an uncaught exception stops the process (exit 70), an unhandled rejection
// is logged and the bot keeps running; every stop below goes through `policy.terminate`, bounded.
// discord.js warns that the caches the bot turns off are unsupported (src/discord/runtime.ts, createDiscordClient says why).
const policy = new ProcessPolicy({ logger, expectedWarnings: ['UnsupportedCacheOverwriteWarning'] });
policy.install();
let services: Awaited<ReturnType<typeof createApiServices>>;
try {
  // The replica (and its fault injection) loads only offline, with no RIVALS_API_KEY (issue 12: import only what the mode needs).
  const replicaFaults = config.rivals.apiKey ? {} : (await import('./replica/faults.js')).faultsFromEnv(process.env);
  services = await createApiServices(config, logger, replicaFaults);
} catch (err) {
  if (!(err instanceof StoreOpenError)) throw err;
  // One line naming the place and what to do (README, "Durable state"), and a distinct exit code.
  logger.fatal({ store: err.location }, err.message);
  logger.flush();
  await logWritten(logger);
  process.exit(EXIT_STORE_UNAVAILABLE);
}
if (services.replica) {
  logger.info({ replica: services.replica.url }, 'offline: no RIVALS_API_KEY, so the bot uses the in-process API replica');
} else {
  logger.info({ api: config.rivals.baseUrl, rpm: config.rivals.requestsPerMinute, cache: config.redisUrl ? 'redis' : 'memory' }, 'using the game API');
}
logger.info({ store: services.state.database.location, engine: services.state.database.engine }, 'state store open');
policy.setShutdown(() => services.close());

/**
 * Sets the graceful stop: `shutdown`, then the API services and the store. The first SIGINT or
 * SIGTERM runs it and exits 0; the process policy runs the same stop before a non-zero exit.
 */
function stopOnSignal(shutdown: (reason: string) => Promise<void>): void {
  policy.setShutdown(async (reason) => {
    await shutdown(reason);
    await services.close();
  });
  process.once('SIGINT', () => void policy.terminate(EXIT_OK, 'SIGINT'));
  process.once('SIGTERM', () => void policy.terminate(EXIT_OK, 'SIGTERM'));
}

const playgroundAsked = process.argv.includes('--playground');
if (!config.discord.token || playgroundAsked) {
  if (!config.discord.token) logger.info('DISCORD_TOKEN is not set, so the bot runs in the local playground. Set DISCORD_TOKEN and DISCORD_CLIENT_ID (see .env.example) to run it on Discord.');
  let playground: Playground;
  try {
    // The playground (its web server and esbuild) loads only in this mode.
    const { startPlayground } = await import('./playground/start.js');
    playground = await startPlayground({ config, services, logger });
  } catch (err) {
    const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
    logger.fatal({ err }, inUse ? `port ${config.port} is in use: set PORT to a free port` : 'the playground could not start');
    await services.close();
    logger.flush();
    await logWritten(logger);
    process.exit(1);
  }
  logger.info({ url: playground.url }, `playground ready: open ${playground.url} in a browser`);
  stopOnSignal(async (reason) => {
    logger.info({ reason }, 'shutting down the playground');
    await playground.close();
  });
} else {
  // Health and metrics on METRICS_PORT (issue 15); without it prom-client is never loaded. Made before
  // the client, whose REST budget times its waits. `cluster` is this process's cluster id (0: unsharded).
  const prometheus = config.metricsPort === undefined ? undefined : await createMetrics({ cluster: '0' });
  const metrics = prometheus ?? NO_METRICS;
  const client = createDiscordClient(config.discord.apiUrl, new DiscordRestBudget(undefined, undefined, metrics));
  const transport = discordFeedTransport(client.rest);
  const settings = services.state.settings;
  const context = createCommandContext(services.api, services.state, services.cacheStore, discordChannelAccess(client), Date.now, createFeedTester(services.api, settings, transport), services.charts);
  // The hero meta for /meta: every hero's statistics, gathered hourly at background priority.
  const meta = new HeroMeta({ api: services.api, heroes: context.heroes, logger: logger.child({ component: 'meta' }) });
  // Each hero's balance history for /hero: every balance post and patch note, read hourly at background priority.
  const balanceIndexer = new BalanceIndexer({ api: services.api, heroes: context.heroes, history: services.state.balanceHistory, logger: logger.child({ component: 'balance-history' }) });
  // Members' mains for /alerts, read hourly (at most daily each) at bulk priority.
  const mains = new MainsRefresher({ api: services.api, links: services.state.links, alerts: services.state.alerts, logger: logger.child({ component: 'alerts' }) });
  const runtime = new DiscordRuntime(client, {
    router: new Router(commands),
    context: { ...context, meta, balance: { history: services.state.balanceHistory, indexer: balanceIndexer }, alerts: { members: services.state.alerts, mains } },
    logger: logger.child({ component: 'discord' }),
    budgetMs: config.interactionBudgetMs,
    metrics,
  });
  // GET /healthz and /metrics, logged with their URL; a port that cannot be used stops the process (exit 1) as bad configuration does.
  const { startOps } = prometheus ? await import('./ops/index.js') : { startOps: undefined };
  const ops = await startOps?.({ config, client, services, logger, metrics: prometheus }).catch(async (err: unknown) => {
    logger.fatal({ err }, (err as Error).message);
    await policy.terminate(1, 'METRICS_PORT unusable');
    throw err;
  });
  const feedLogger = logger.child({ component: 'feeds' });
  const stopSettingsSync = config.redisUrl
    ? await syncSettingsOverRedis(redisClientOf(services.cacheStore), settings, logger.child({ component: 'settings-sync' })).catch((err: unknown) => {
        logger.warn({ err }, 'settings sync over Redis is off: other processes see changes within 30 s');
        return async () => undefined;
      })
    : async () => undefined;
  const leadership = config.redisUrl ? new RedisLeadership(redisClientOf(services.cacheStore)) : SOLE_LEADER;
  const feedNow = feedClock(config.feedClockFile);
  const poller = new FeedPoller({
    api: services.api,
    db: services.state.database.db,
    feedState: services.state.feedState,
    settings,
    ledger: new DeliveryLedger(services.state.database.db, transport, feedLogger, feedNow, metrics),
    feedPosts: services.state.feedPosts,
    digests: services.state.feedDigests,
    alerts: services.state.alerts,
    editor: new CorrectionEditor(services.state.database.db, transport, feedLogger, feedNow),
    heroes: context.heroes,
    leadership,
    logger: feedLogger,
    intervalSeconds: config.feedPollSeconds,
    now: feedNow,
    metrics,
  });
  client.once('clientReady', (c) => {
    logger.info({ user: c.user.tag, guilds: c.guilds.cache.size }, 'logged in to Discord');
    poller.start();
    meta.start();
    balanceIndexer.start();
    mains.start();
  });
  // Gateway closes and errors are logged; one Discord says is not reconnectable (4004, 4010-4014) stops the process (exit 78).
  watchGateway(client, { logger: logger.child({ component: 'gateway' }), policy });
  stopOnSignal(async (reason) => {
    logger.info({ reason, inflight: runtime.inflight }, 'shutting down: finishing replies in flight');
    await poller.stop();
    meta.stop();
    await balanceIndexer.stop();
    await mains.stop();
    await leadership.release().catch(() => undefined);
    await stopSettingsSync();
    await runtime.shutdown();
    await ops?.close();
  });
  try {
    await client.login(config.discord.token);
  } catch (err) {
    // A fatal close during login (4004 on the first IDENTIFY) has its own line and is already stopping the process.
    if (!policy.terminating) {
      logger.fatal({ err }, 'could not log in to Discord (check DISCORD_TOKEN and DISCORD_API_URL)');
      await policy.terminate(1, 'login failed');
    }
  }
}
