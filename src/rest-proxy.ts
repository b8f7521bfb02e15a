/**
 * `npm run rest-proxy` (built: `node dist/rest-proxy.js`): the REST proxy service
 * (./discord/rest-proxy.ts says what it does). Run one per bot; point every bot process at it with
 * DISCORD_REST_PROXY, and all of them share Discord's 50 requests a second and its per-route buckets.
 *
 * Environment (read here, not by the bot's src/app/config.ts; empty counts as unset):
 * - `DISCORD_TOKEN` (required): the bot's token. Requests carrying another `Authorization` are refused
 *   (401); the proxy never adds the token to a request that came without one.
 * - `DISCORD_API_URL` (default `https://discord.com/api`): Discord's REST API, without the version.
 * - `REST_PROXY_PORT` (default 8080): the TCP port it listens on, on every interface.
 * - `LOG_LEVEL` (default `info`): as the bot's.
 *
 * SIGTERM or SIGINT stops it gracefully: no new connections, the requests under way finish (up to
 * 10 s), exit 0. An invalid variable prints what is wrong and exits 1; a taken port exits 1 too.
 */
import * as z from 'zod';
import { startRestProxy } from './discord/rest-proxy.js';
import { createLogger } from './core/logger.js';
import { EXIT_OK, logWritten, ProcessPolicy } from './core/process-policy.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const schema = z.object({
  DISCORD_TOKEN: z.string({ error: 'is required: the bot token the proxy forwards for' }).trim().min(1),
  DISCORD_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://discord.com/api'),
  REST_PROXY_PORT: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0).max(65_535).default(8080),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
});

const cleaned = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== ''));
const parsed = schema.safeParse(cleaned);
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
