/**
 * Composition root (STYLE.md): config -> logger -> state store and cache -> API client -> Discord
 * runtime -> feeds. Without DISCORD_TOKEN it checks the API and says what to set.
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
import { GuildSettingsRepository } from './store/guild-settings.js';
import { faultsFromEnv } from './replica/faults.js';
import { createApiServices, createCommandContext } from './services.js';

let config: Config;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\nSee .env.example for every variable.\n`);
  process.exit(1);
}

const logger = createLogger({ level: config.logLevel, secrets: [config.rivals.apiKey, config.discord.token] });
const services = await createApiServices(config, logger, faultsFromEnv(process.env));
if (services.replica) {
  logger.info({ replica: services.replica.url }, 'offline: no RIVALS_API_KEY, so the bot uses the in-process API replica');
} else {
  logger.info({ api: config.rivals.baseUrl, rpm: config.rivals.requestsPerMinute, cache: config.redisUrl ? 'redis' : 'memory' }, 'using the game API');
}

if (!config.discord.token) {
  try {
    const heroes = await services.api.heroes();
    logger.info({ heroes: heroes.data.length, source: heroes.source }, 'game API reachable');
  } catch (err) {
    logger.error({ err }, 'game API check failed');
  }
  logger.warn(
    'DISCORD_TOKEN is not set, so the bot cannot log in to Discord. Set DISCORD_TOKEN and DISCORD_CLIENT_ID (see .env.example), run `npm run deploy` once, then `npm start`. Try the commands meanwhile with `npm run cli -- player query:1403392756`.',
  );
  await services.close();
  logger.flush();
} else {
  const client = createDiscordClient(config.discord.apiUrl);
  const transport = discordFeedTransport(client.rest);
  const settings = new GuildSettingsRepository(services.state);
  const runtime = new DiscordRuntime(client, {
    router: new Router(commands),
    context: createCommandContext(services.api, services.state, discordChannelAccess(client), Date.now, createFeedTester(services.api, settings, transport)),
    logger: logger.child({ component: 'discord' }),
  });
  const feedLogger = logger.child({ component: 'feeds' });
  const leadership = config.redisUrl ? new RedisLeadership(redisClientOf(services.state)) : SOLE_LEADER;
  const poller = new FeedPoller({
    api: services.api,
    state: services.state,
    settings,
    ledger: new DeliveryLedger(services.state, transport, feedLogger),
    leadership,
    logger: feedLogger,
    intervalSeconds: config.feedPollSeconds,
  });
  client.once('clientReady', (c) => {
    logger.info({ user: c.user.tag, guilds: c.guilds.cache.size }, 'logged in to Discord');
    poller.start();
  });
  client.on('error', (err) => logger.error({ err }, 'Discord client error'));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, inflight: runtime.inflight }, 'shutting down: finishing replies in flight');
    await poller.stop();
    await leadership.release().catch(() => undefined);
    await runtime.shutdown();
    await services.close();
    logger.info('stopped');
    logger.flush();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  try {
    await client.login(config.discord.token);
  } catch (err) {
    logger.fatal({ err }, 'could not log in to Discord (check DISCORD_TOKEN and DISCORD_API_URL)');
    await services.close();
    process.exitCode = 1;
  }
}
