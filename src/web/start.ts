/**
 * Starting the dashboard: listening on `WEB_PORT`, signing admins in with Discord (or, in the playground, as its members),
 * sessions in the cache store. The bot's process starts it beside the bot; `npm run web` (src/web.ts) on its own.
 */
import type { AddressInfo } from 'node:net';
import { REST } from '@discordjs/rest';
import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord-api-types/v10';
import type { Config } from '../app/config.js';
import { createCacheStore, closeCacheStore } from '../cache/store.js';
import type { CommandContext, CommandInput } from '../discord/command.js';
import type { Router } from '../discord/router.js';
import type { State } from '../store/state.js';
import type { Logger } from '../core/logger.js';
import type { View } from '../render/view.js';
import type { ConfigAuditRepository } from '../store/config-audit.js';
import { createWebApp, randomSessionSecret, type WebAppOptions } from './app.js';
import { discordWebDirectory, type WebDirectory } from './directory.js';
import { discordSignIn, type SignIn } from './sign-in.js';
import { rankRolesPreviewer } from './rank-roles-preview.js';

/** The sessions' namespace in the cache store. */
const SESSIONS_NAMESPACE = 'rivals:web-sessions:v1';
/** Sessions kept in memory without Redis. */
const MEMORY_SESSIONS = 10_000;

/** A dashboard that listens. `url`: the address it serves on this machine (`http://127.0.0.1:<port>` for a free port). */
export interface Dashboard {
  url: string;
  close(): Promise<void>;
}

/** What the dashboard needs from its process: the /config it runs and the audit log it shows. */
export interface DashboardCommands {
  configDefinition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  runConfig: (input: CommandInput) => Promise<View>;
  audit: Pick<ConfigAuditRepository, 'list' | 'record'>;
  publicPages: WebAppOptions['publicPages'];
  publicSources: WebAppOptions['publicSources'];
  previewRankRoles?: WebAppOptions['previewRankRoles'];
  memberLocale?: WebAppOptions['memberLocale'];
}

/**
 * What the dashboard needs of a process that runs the bot's commands: `/config` through `router`, over `context` (logging
 * to `logger`), its audit log, public pages and the members' languages from `state`; null when `router` has no `/config`.
 */
export function dashboardCommands(
  router: Pick<Router, 'commands' | 'command'>,
  context: Omit<CommandContext, 'logger'>,
  state: Pick<State, 'audit' | 'publicPages' | 'ladder' | 'serverMatches' | 'links'>,
  logger: Logger,
): DashboardCommands | null {
  const config = router.commands.find((c) => c.definition.name === 'config');
  if (!config) return null;
  const ctx = { ...context, logger };
  return {
    configDefinition: config.definition as RESTPostAPIChatInputApplicationCommandsJSONBody,
    runConfig: (input) => router.command('config', input, ctx),
    audit: state.audit,
    publicPages: state.publicPages,
    publicSources: { ladder: state.ladder, serverMatches: state.serverMatches, heroes: context.heroes },
    memberLocale: (userId) => state.links.locale(userId),
    previewRankRoles: rankRolesPreviewer(ctx),
  };
}

/**
 * Starts the dashboard: `signIn` and `directory` say who signs in and what Discord says of servers (defaults: Discord's
 * OAuth2 and REST, from `config`). Logs the address it serves.
 * @throws the listen error (`EADDRINUSE`, `EACCES`).
 */
export async function startDashboard(
  o: DashboardCommands & {
    config: Config;
    logger: Logger;
    /** The address admins open; absent (the playground): the one it listens on. */
    publicUrl?: string;
    signIn: SignIn;
    directory: WebDirectory;
    /** Default every interface; `port` default `WEB_PORT`. */
    host?: string;
    port?: number;
    now?: () => number;
  },
): Promise<Dashboard> {
  const sessions = createCacheStore({ redisUrl: o.config.redisUrl, maxEntries: MEMORY_SESSIONS, namespace: SESSIONS_NAMESPACE });
  if (!o.config.web.sessionSecret && o.publicUrl)
    o.logger.warn('WEB_SESSION_SECRET is not set: a random one is used, so admins sign in again after each restart, and only one web process can serve them');
  const app = await createWebApp({
    ...(o.publicUrl ? { publicUrl: o.publicUrl } : {}),
    sessionSecret: o.config.web.sessionSecret ?? randomSessionSecret(),
    signIn: o.signIn,
    directory: o.directory,
    sessions,
    configDefinition: o.configDefinition,
    runConfig: o.runConfig,
    audit: o.audit,
    publicPages: o.publicPages,
    publicSources: o.publicSources,
    ...(o.previewRankRoles ? { previewRankRoles: o.previewRankRoles } : {}),
    ...(o.memberLocale ? { memberLocale: o.memberLocale } : {}),
    logger: o.logger,
    ...(o.now ? { now: o.now } : {}),
  });
  try {
    await app.listen({ port: o.port ?? o.config.web.port, host: o.host ?? '0.0.0.0' });
  } catch (err) {
    await app.close();
    await closeCacheStore(sessions);
    throw err;
  }
  const port = (app.server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  o.logger.info({ listening: url, publicUrl: o.publicUrl ?? url }, `dashboard ready: admins open ${o.publicUrl ?? url}`);
  return {
    url,
    async close() {
      await app.close();
      await closeCacheStore(sessions);
    },
  };
}

/** Discord's sign-in and REST reads for `config`, which {@link webProblem} passed: the token, client id and secret, public URL are set. */
export function discordDashboardParts(config: Config, logger: Logger): { signIn: SignIn; directory: WebDirectory; publicUrl: string } {
  const publicUrl = config.web.publicUrl!;
  const rest = new REST({ api: config.discordRestProxy ? `${config.discordRestProxy}/api` : config.discord.apiUrl, version: '10' }).setToken(
    config.discord.token!,
  );
  return {
    publicUrl,
    directory: discordWebDirectory(rest),
    signIn: discordSignIn({ apiUrl: config.discord.apiUrl, clientId: config.discord.clientId!, clientSecret: config.web.clientSecret!, publicUrl, logger }),
  };
}
