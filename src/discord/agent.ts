/** The HTTP agent of the bot's requests to Discord's REST API, shared by the bot (./runtime.ts) and the REST proxy (./rest-proxy.ts). */
import { Agent } from 'undici';

/**
 * Most connections the bot keeps to Discord's REST API. discord.js's default agent has no bound: a
 * burst of 10,000 acknowledgements opened over 12,000 connections (npm run bench:burst), and undici's
 * pool, which scans its connections for a free one on every request, then spent more CPU than the
 * requests did (13 % of the profile, in the bare discord.js bot too). 512 keep-alive connections
 * still carry thousands of requests a second at Discord's round-trip times.
 */
export const DISCORD_REST_CONNECTIONS = 512;

/**
 * An undici agent for Discord's REST API with at most `connections` connections (default
 * {@link DISCORD_REST_CONNECTIONS}). The project's undici is the version @discordjs/rest and
 * discord.js depend on, so npm installs one copy and the bot loads one.
 */
export function discordAgent(connections = DISCORD_REST_CONNECTIONS): Agent {
  return new Agent({ connections, connect: { timeout: 30_000 } });
}
