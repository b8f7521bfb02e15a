/**
 * Slash-command registration (Discord: "Registering Commands", bulk overwrite). `npm run deploy` calls
 * it; the bot never registers at boot (registration is rate limited and global changes take time).
 */
import { REST } from '@discordjs/rest';
import { Routes, type RESTPostAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { localizeCommand } from '../i18n/commands.js';
import type { CommandModule } from './command.js';

/**
 * The registration payload: every command's definition, in registration order, with its names,
 * descriptions and choice names in every language the bot speaks (src/i18n/commands.ts).
 */
export function registrationPayload(modules: CommandModule[]): RESTPostAPIApplicationCommandsJSONBody[] {
  return modules.map((m) => localizeCommand(m.definition));
}

export interface DeployOptions {
  token: string;
  clientId: string;
  /** Register in this guild only (instant), instead of globally. */
  guildId?: string;
  /** DISCORD_API_URL. */
  apiUrl: string;
  modules: CommandModule[];
}

/**
 * Overwrites the application's commands with `modules` (PUT), globally or in one guild.
 * @returns how many commands Discord now has and where.
 * @throws the REST error (DiscordAPIError) when Discord refuses, e.g. a bad token (401).
 */
export async function deployCommands(o: DeployOptions): Promise<{ count: number; scope: string }> {
  const rest = new REST({ api: o.apiUrl }).setToken(o.token);
  const route = o.guildId ? Routes.applicationGuildCommands(o.clientId, o.guildId) : Routes.applicationCommands(o.clientId);
  const result = (await rest.put(route, { body: registrationPayload(o.modules) })) as unknown[];
  return { count: result.length, scope: o.guildId ? `guild ${o.guildId}` : 'global' };
}

/**
 * The ids Discord gave the application's commands, by command name ("Get Global Application
 * Commands", or "Get Guild Application Commands" for `guildId`, the development guild), for command
 * mentions in messages (src/i18n `setCommandIds`).
 * @throws the REST error (DiscordAPIError, HTTPError) when Discord does not answer with them.
 */
export async function fetchCommandIds(rest: Pick<REST, 'get'>, applicationId: string, guildId?: string): Promise<Map<string, string>> {
  const route = guildId ? Routes.applicationGuildCommands(applicationId, guildId) : Routes.applicationCommands(applicationId);
  const commands = await rest.get(route);
  const ids = new Map<string, string>();
  if (!Array.isArray(commands)) return ids;
  for (const c of commands as { id?: unknown; name?: unknown; type?: unknown }[]) {
    // Chat-input commands only (type 1, the default): context-menu commands cannot be mentioned.
    if (typeof c?.id === 'string' && typeof c.name === 'string' && (c.type === undefined || c.type === 1)) ids.set(c.name, c.id);
  }
  return ids;
}
