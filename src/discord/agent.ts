/** The undici agent of the bot's Discord REST requests, shared by the bot (./client.ts) and the REST proxy (./rest-proxy.ts). */
import { Agent } from 'undici';

/** Bound on connections to Discord's REST API: with none (discord.js's default), undici's pool spends more CPU finding a free one than sending. */
export const DISCORD_REST_CONNECTIONS = 512;

/** An undici agent for Discord's REST API; the same undici @discordjs/rest and discord.js use, so one copy is installed and loaded. */
export function discordAgent(connections = DISCORD_REST_CONNECTIONS): Agent {
  return new Agent({ connections, connect: { timeout: 30_000 } });
}
