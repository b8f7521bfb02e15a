/**
 * `npm run rest-proxy`: the REST proxy service (./discord/rest-proxy.ts), one per bot, so every process pointed at it with
 * DISCORD_REST_PROXY shares Discord's global and per-route limits. Environment (read here, not by src/app/config.ts):
 * `DISCORD_TOKEN` (required; requests with another `Authorization` get 401), `DISCORD_API_URL`, `REST_PROXY_PORT`, `LOG_LEVEL`.
 * SIGTERM or SIGINT lets requests under way finish, bounded, then exits 0; bad configuration or a taken port exits 1.
 */
import * as z from 'zod';
import { startRestProxy } from './discord/rest-proxy.js';
import { dropEmptyVariables } from './app/env-file.js';
import { createLogger } from './core/logger.js';
import { EXIT_OK, logWritten, ProcessPolicy } from './core/process-policy.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const schema = z.object({
  DISCORD_TOKEN: z.string({ error: 'is required: the bot token the proxy forwards for' }).trim().min(1),
  DISCORD_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://discord.com/api'),
  REST_PROXY_PORT: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0).max(65_535).default(8080),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
});

// A variable left empty is unset, here and for @discordjs/rest beneath.
dropEmptyVariables();
const parsed = schema.safeParse(process.env);
if (!parsed.success) {
  // Never the token's value: only the variable's name and the problem.
  const problems = parsed.error.issues.map((issue) => `  - ${String(issue.path[0] ?? 'environment')}: ${issue.message}`);
  process.stderr.write(`Invalid configuration of the REST proxy:\n${problems.join('\n')}\n`);
  process.exit(1);
}
const env = parsed.data;
const apiUrl = env.DISCORD_API_URL.replace(/\/+$/, '');

const logger = createLogger({ level: env.LOG_LEVEL, secrets: [env.DISCORD_TOKEN] }).child({ component: 'rest-proxy' });
const policy = new ProcessPolicy({ logger });
policy.install();
try {
  const proxy = await startRestProxy({ token: env.DISCORD_TOKEN, apiUrl, port: env.REST_PROXY_PORT, logger });
  policy.setShutdown(async (reason) => {
    logger.info({ reason, ...proxy.stats() }, 'REST proxy stopping: finishing the requests under way');
    await proxy.close(10_000);
  });
  process.once('SIGTERM', () => void policy.terminate(EXIT_OK, 'SIGTERM'));
  process.once('SIGINT', () => void policy.terminate(EXIT_OK, 'SIGINT'));
  logger.info({ port: proxy.port, api: apiUrl }, `REST proxy listening on port ${proxy.port}`);
} catch (err) {
  const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
  logger.fatal({ err }, inUse ? `port ${env.REST_PROXY_PORT} is in use: set REST_PROXY_PORT to a free port` : 'the REST proxy could not start');
  logger.flush();
  await logWritten(logger);
  process.exit(1);
}
