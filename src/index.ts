/**
 * Composition root (STYLE.md): config -> logger -> state store and cache -> API client -> Discord
 * runtime -> feeds. Without DISCORD_TOKEN (or with `--playground`, `npm run playground`) the same
 * router, handlers and feeds serve the local playground web page on PORT instead of Discord.
 */
import { commands } from '../commands/index.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { Router } from './discord/router.js';
import { createDiscordClient, discordChannelAccess, DiscordRuntime } from './discord/runtime.js';
import { createLogger } from './logger.js';
import { DeliveryLedger } from './feeds/delivery.js';
import { discordFeedTransport } from './feeds/discord-transport.js';
import { RedisLeadership, redisClientOf, SOLE_LEADER } from './feeds/leadership.js';
import { FeedPoller } from './feeds/poller.js';
import { createFeedTester } from './feeds/test-post.js';
import { EXIT_STORE_UNAVAILABLE, StoreOpenError } from './store/database.js';
import { syncSettingsOverRedis } from './store/settings-sync.js';
import { faultsFromEnv } from './replica/faults.js';
import { createApiServices, createCommandContext } from './services.js';
import { startPlayground, type Playground } from './playground/start.js';

let config: Config;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\nSee .env.example for every variable.\n`);
  process.exit(1);
}

const logger = createLogger({ level: config.logLevel, secrets: [config.rivals.apiKey, config.discord.token] });
let services: Awaited<ReturnType<typeof createApiServices>>;
try {
  services = await createApiServices(config, logger, faultsFromEnv(process.env));
} catch (err) {
  if (!(err instanceof StoreOpenError)) throw err;
  // One line naming the place and what to do (README, "Durable state"), and a distinct exit code.
  logger.fatal({ store: err.location }, err.message);
  logger.flush();
  process.exit(EXIT_STORE_UNAVAILABLE);
}
if (services.replica) {
  logger.info({ replica: services.replica.url }, 'offline: no RIVALS_API_KEY, so the bot uses the in-process API replica');
} else {
  logger.info({ api: config.rivals.baseUrl, rpm: config.rivals.requestsPerMinute, cache: config.redisUrl ? 'redis' : 'memory' }, 'using the game API');
}
logger.info({ store: services.state.database.location, engine: services.state.database.engine }, 'state store open');

/** On the first SIGINT or SIGTERM: runs `shutdown`, closes the API services, and exits 0. */
function stopOnSignal(shutdown: (signal: string) => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await shutdown(signal);
    await services.close();
    logger.info('stopped');
    logger.flush();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

const playgroundAsked = process.argv.includes('--playground');
if (!config.discord.token || playgroundAsked) {
  if (!config.discord.token) logger.info('DISCORD_TOKEN is not set, so the bot runs in the local playground. Set DISCORD_TOKEN and DISCORD_CLIENT_ID (see .env.example) to run it on Discord.');
  let playground: Playground;
  try {
    playground = await startPlayground({ config, services, logger });
  } catch (err) {
    const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
    logger.fatal({ err }, inUse ? `port ${config.port} is in use: set PORT to a free port` : 'the playground could not start');
    await services.close();
    logger.flush();
    process.exit(1);
  }
  logger.info({ url: playground.url }, `playground ready: open ${playground.url} in a browser`);
  stopOnSignal(async (signal) => {
    logger.info({ signal }, 'shutting down the playground');
    await playground.close();
  });
} else {
  const client = createDiscordClient(config.discord.apiUrl);
  const transport = discordFeedTransport(client.rest);
  const settings = services.state.settings;
  const runtime = new DiscordRuntime(client, {
    router: new Router(commands),
    context: createCommandContext(services.api, services.state, services.cacheStore, discordChannelAccess(client), Date.now, createFeedTester(services.api, settings, transport)),
    logger: logger.child({ component: 'discord' }),
  });
  const feedLogger = logger.child({ component: 'feeds' });
  const stopSettingsSync = config.redisUrl
    ? await syncSettingsOverRedis(redisClientOf(services.cacheStore), settings, logger.child({ component: 'settings-sync' })).catch((err: unknown) => {
        logger.warn({ err }, 'settings sync over Redis is off: other processes see changes within 30 s');
        return async () => undefined;
      })
    : async () => undefined;
  const leadership = config.redisUrl ? new RedisLeadership(redisClientOf(services.cacheStore)) : SOLE_LEADER;
  const poller = new FeedPoller({
    api: services.api,
    db: services.state.database.db,
    feedState: services.state.feedState,
    settings,
    ledger: new DeliveryLedger(services.state.database.db, transport, feedLogger),
    leadership,
    logger: feedLogger,
    intervalSeconds: config.feedPollSeconds,
  });
  client.once('clientReady', (c) => {
    logger.info({ user: c.user.tag, guilds: c.guilds.cache.size }, 'logged in to Discord');
    poller.start();
  });
  client.on('error', (err) => logger.error({ err }, 'Discord client error'));
  stopOnSignal(async (signal) => {
    logger.info({ signal, inflight: runtime.inflight }, 'shutting down: finishing replies in flight');
    await poller.stop();
    await leadership.release().catch(() => undefined);
    await stopSettingsSync();
    await runtime.shutdown();
  });
  try {
    await client.login(config.discord.token);
  } catch (err) {
    logger.fatal({ err }, 'could not log in to Discord (check DISCORD_TOKEN and DISCORD_API_URL)');
    await services.close();
    process.exitCode = 1;
  }
}
