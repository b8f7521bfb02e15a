/** Slash-command registration (Discord: "Registering Commands", bulk overwrite) for `npm run deploy`; never at boot, as it is rate limited. */
import { REST } from '@discordjs/rest';
import { Routes, type RESTPostAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { localizeCommand } from '../i18n/commands.js';
import type { CommandModule } from './command.js';

/** The registration payload: every command's definition, in order, in every language the bot speaks (src/i18n/commands.ts). */
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

/** Overwrites the application's commands (PUT), globally or in `guildId`. @throws DiscordAPIError when Discord refuses, e.g. a bad token (401). */
export async function deployCommands(o: DeployOptions): Promise<{ count: number; scope: string }> {
  const rest = new REST({ api: o.apiUrl }).setToken(o.token);
  const route = o.guildId ? Routes.applicationGuildCommands(o.clientId, o.guildId) : Routes.applicationCommands(o.clientId);
  const result = (await rest.put(route, { body: registrationPayload(o.modules) })) as unknown[];
  return { count: result.length, scope: o.guildId ? `guild ${o.guildId}` : 'global' };
}

/** Command ids by name (Discord: "Get Global/Guild Application Commands"), for command mentions. @throws the REST error when Discord does not answer. */
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
