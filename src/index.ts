/**
 * Composition root (STYLE.md): config -> logger -> cache -> API client. The Discord runtime, the
 * store and the feeds join here as their issues land.
 */
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createApiServices } from './services.js';

let config;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\nSee .env.example for every variable.\n`);
  process.exit(1);
}

const logger = createLogger({ level: config.logLevel, secrets: [config.rivals.apiKey, config.discord.token] });
const services = await createApiServices(config, logger);
if (services.replica) {
  logger.info({ replica: services.replica.url }, 'offline: no RIVALS_API_KEY, so the bot uses the in-process API replica');
} else {
  logger.info({ api: config.rivals.baseUrl, rpm: config.rivals.requestsPerMinute, cache: config.redisUrl ? 'redis' : 'memory' }, 'using the game API');
}

try {
  const heroes = await services.api.heroes();
  logger.info({ heroes: heroes.data.length, source: heroes.source }, 'game API reachable');
} catch (err) {
  logger.error({ err }, 'game API check failed; commands will report the API as unavailable');
}

if (!config.discord.token) {
  logger.warn(
    'DISCORD_TOKEN is not set, so the bot cannot log in to Discord. Set DISCORD_TOKEN and DISCORD_CLIENT_ID (see .env.example) to serve a server.',
  );
  await services.close();
  logger.flush();
} else {
  logger.warn('the Discord runtime is not part of this build yet; exiting');
  await services.close();
  logger.flush();
}
