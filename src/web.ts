/**
 * `npm run web`: the dashboard on its own (docs/operations.md, "The dashboard"), for a sharded deployment whose bot runs in
 * cluster processes. It reads the same store and cache as the bot, runs `/config` itself, and tells the bot's processes of
 * each change through the settings' sync over Redis (without Redis, they see it within the settings cache's 30 s).
 * Without DISCORD_TOKEN, DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and WEB_PUBLIC_URL it says so in one line and exits 1.
 * SIGTERM or SIGINT closes it and exits 0.
 */
import { Routes, type RESTGetAPIUserResult } from 'discord-api-types/v10';
import { commands } from '../commands/index.js';
import { ConfigError, loadConfig, webProblem, type Config } from './app/config.js';
import { EnvFileError, loadEnvFile } from './app/env-file.js';
import { createApiServices } from './app/services.js';
import { createBackground } from './app/background.js';
import { redisClientOf } from './cache/store.js';
import { createLogger } from './core/logger.js';
import { EXIT_OK, logWritten, ProcessPolicy } from './core/process-policy.js';
import { createDiscordClient } from './discord/client.js';
import { discordChannelAccess } from './discord/channel-access.js';
import { Router } from './discord/router.js';
import { discordFeedTransport } from './feeds/discord-transport.js';
import { NEVER_LEADER } from './feeds/leadership.js';
import { pollSignalOverRedis } from './feeds/poll-signal.js';
import { discordRoleTransport } from './ladder/discord-roles.js';
import { syncSettingsOverRedis } from './store/settings-sync.js';
import { dashboardCommands, discordDashboardParts, startDashboard } from './web/start.js';

let config: Config;
try {
  loadEnvFile();
  config = loadConfig(process.env);
} catch (err) {
  const known = err instanceof ConfigError || err instanceof EnvFileError;
  process.stderr.write(known ? `${err.message}\nSee .env.example for every variable.\n` : `${(err as Error).message}\n`);
  process.exit(1);
}
const off = webProblem(config);
if (off) {
  process.stderr.write(`npm run web: ${off}\n`);
  process.exit(1);
}

const logger = createLogger({
  level: config.logLevel,
  secrets: [config.rivals.apiKey, config.discord.token, config.web.clientSecret, config.web.sessionSecret],
}).child({
  component: 'web',
});
const policy = new ProcessPolicy({ logger, expectedWarnings: ['UnsupportedCacheOverwriteWarning'] });
policy.install();
try {
  const services = await createApiServices(config, logger);
  policy.setShutdown(() => services.close());
  // REST only: this process never connects to the gateway.
  const client = createDiscordClient({ apiUrl: config.discord.apiUrl, proxyUrl: config.discordRestProxy });
  client.rest.setToken(config.discord.token!);
  const bot = (await client.rest.get(Routes.user())) as RESTGetAPIUserResult;
  const redis = config.redisUrl ? redisClientOf(services.cacheStore) : undefined;
  const pollSignal = redis ? await pollSignalOverRedis(redis, () => undefined, logger) : undefined;
  const { context } = createBackground({
    api: services.api,
    state: services.state,
    cacheStore: services.cacheStore,
    channels: discordChannelAccess(client, Date.now, () => bot.id),
    transport: discordFeedTransport(client.rest, () => bot.id),
    roles: discordRoleTransport(client.rest, () => bot.id),
    logger,
    requestsPerMinute: config.rivals.requestsPerMinute,
    feedPollSeconds: config.feedPollSeconds,
    // It never polls, tracks or syncs roles: a backfill asked here is polled by the bot's leader.
    leadership: NEVER_LEADER,
    preferredLocale: () => undefined,
    onPollNow: () => pollSignal?.publish(),
    tracking: config.tracking,
  });
  const stopSync = redis ? await syncSettingsOverRedis(redis, services.state.settings, logger) : async () => undefined;
  const dashboard = await startDashboard({
    config,
    logger,
    ...discordDashboardParts(config, logger),
    ...dashboardCommands(new Router(commands), context, services.state, logger)!,
  });
  policy.setShutdown(async (reason) => {
    logger.info({ reason }, 'dashboard stopping');
    await dashboard.close();
    await stopSync();
    await pollSignal?.stop();
    await services.close();
  });
  process.once('SIGTERM', () => void policy.terminate(EXIT_OK, 'SIGTERM'));
  process.once('SIGINT', () => void policy.terminate(EXIT_OK, 'SIGINT'));
} catch (err) {
  const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
  logger.debug({ err }, 'the dashboard start error');
  logger.fatal(inUse ? `port ${config.web.port} is in use: set WEB_PORT to a free port` : `the dashboard could not start: ${(err as Error).message}`);
  logger.flush();
  await logWritten(logger);
  process.exit(1);
}
