/** What a self-hoster reads when the bot starts on Discord: how to invite it, whether its commands are registered, and why a login failed. */
import { ApplicationIntegrationType, OAuth2Scopes, PermissionFlagsBits } from 'discord-api-types/v10';

/**
 * The permissions the bot's features need in a server (Discord: "Permissions"): posting feeds, alerts and ladder moments
 * with embeds and charts, reading a channel's history for corrections, threads for feed posts' full text, and
 * Manage Roles for rank roles.
 */
export const INVITE_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.CreatePublicThreads |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.ManageRoles;

/**
 * The link that adds the bot to a server (guild install, `integration_type=0`) with {@link INVITE_PERMISSIONS} and its
 * slash commands (Discord: "OAuth2", bot authorization flow; "Installation contexts").
 */
export function inviteUrl(applicationId: string): string {
  const params = new URLSearchParams({
    client_id: applicationId,
    integration_type: String(ApplicationIntegrationType.GuildInstall),
    scope: [OAuth2Scopes.Bot, OAuth2Scopes.ApplicationsCommands].join(' '),
    permissions: String(INVITE_PERMISSIONS),
  });
  return `https://discord.com/oauth2/authorize?${params.toString()}`;
}

/**
 * The link that adds the game commands to a member's own account (user install, `integration_type=1`): no bot user and
 * no permissions, only `applications.commands` (Discord: "Installation contexts"). The application must allow user
 * install (Developer Portal, Installation).
 */
export function userInstallUrl(applicationId: string): string {
  const params = new URLSearchParams({
    client_id: applicationId,
    integration_type: String(ApplicationIntegrationType.UserInstall),
    scope: OAuth2Scopes.ApplicationsCommands,
  });
  return `https://discord.com/oauth2/authorize?${params.toString()}`;
}

/** Network failures that mean Discord was not reached at all (DNS, refused, reset, timed out). */
const UNREACHABLE = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** The codes on an error and its causes, outermost first: Node's and undici's `code`, discord.js's `code`, Discord's JSON error `code` and HTTP `status`. */
function codesOf(err: unknown): string[] {
  const codes: string[] = [];
  for (
    let e = err as { code?: unknown; status?: unknown; cause?: unknown; name?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' || typeof e.code === 'number') codes.push(String(e.code));
    if (typeof e.status === 'number') codes.push(`HTTP ${e.status}`);
    if (e.name === 'AbortError' || e.name === 'TimeoutError') codes.push('ETIMEDOUT');
  }
  return codes;
}

/** What failed, for the sentences of {@link discordFailure}. */
export interface DiscordStep {
  /** The host of DISCORD_API_URL (or of the REST proxy). */
  host: string;
  /** What was being done, after "could not": "log in to Discord", "register the slash commands". */
  doing: string;
  /** What to run once it is fixed: "start again", "run `npm run deploy` again". */
  again: string;
  /** DISCORD_DEV_GUILD_ID, when the step was about that server. */
  devGuildId?: string;
}

/**
 * Why a call to Discord failed, as one line of advice naming the variable to fix, and whether Discord refused the
 * credentials (a restart cannot help until they change). The one mapping behind `npm start`'s login and `npm run
 * deploy` (Discord: "HTTP Response Codes", "JSON Error Codes"); never echoes the token.
 */
export function discordFailure(err: unknown, step: DiscordStep): { message: string; refused: boolean } {
  const codes = codesOf(err);
  if (codes.includes('TokenInvalid') || codes.includes('HTTP 401') || codes.includes('401'))
    return {
      message: `Discord refused DISCORD_TOKEN (401): reset it in the Developer Portal (your application → Bot → Reset Token), put the new token in DISCORD_TOKEN, and ${step.again}`,
      refused: true,
    };
  const unreachable = codes.find((c) => UNREACHABLE.has(c));
  if (unreachable)
    return {
      message: `cannot reach ${step.host} (${unreachable}): check this machine's network and DNS, or DISCORD_API_URL; DISCORD_TOKEN was not tried`,
      refused: false,
    };
  // Discord's JSON error codes: 10002 Unknown Application, 10004 Unknown Guild, 50001 Missing Access.
  if (codes.includes('10002'))
    return {
      message: `Discord knows no application with DISCORD_CLIENT_ID: copy the Application ID from the Developer Portal (your application → General Information), and ${step.again}`,
      refused: true,
    };
  if (codes.includes('50001') || codes.includes('10004') || codes.includes('HTTP 403'))
    return {
      message: step.devGuildId
        ? `Discord refused access to the server DISCORD_DEV_GUILD_ID (${step.devGuildId}): add the bot to that server first with the invite link, check that DISCORD_CLIENT_ID is this token's application, and ${step.again}`
        : `Discord refused access (403): DISCORD_CLIENT_ID must be the Application ID of the application whose token is DISCORD_TOKEN; fix it and ${step.again}`,
      refused: true,
    };
  if (codes.includes('HTTP 429')) return { message: `Discord is rate-limiting this application (429): wait a minute, then ${step.again}`, refused: false };
  const server = codes.find((c) => /^HTTP 5\d\d$/.test(c));
  if (server)
    return {
      message: `Discord had a problem on its side (${server.slice(5)}) and could not ${step.doing}: ${step.again} in a few minutes; DISCORD_TOKEN is not to blame`,
      refused: false,
    };
  return { message: `could not ${step.doing}: ${(err as Error | undefined)?.message ?? String(err)}`, refused: false };
}

/**
 * Why logging in failed, as one line of advice, and the exit code: a refused token must be changed before a restart
 * helps (`refused`); an unreachable Discord may pass. `host` the host of DISCORD_API_URL.
 */
export function loginFailure(err: unknown, host: string): { message: string; refused: boolean } {
  return discordFailure(err, { host, doing: 'log in to Discord', again: 'start again' });
}

/**
 * A failure of the start itself that has no advice of its own, as one line: its message and code, and where to see
 * more. The stack is for `LOG_LEVEL=debug`, never the first thing a self-hoster reads.
 */
export function startFailure(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown } | undefined;
  const message = typeof e?.message === 'string' && e.message !== '' ? e.message : String(err);
  const code = typeof e?.code === 'string' ? ` (${e.code})` : '';
  return `the bot could not start: ${message}${code}. LOG_LEVEL=debug shows where it failed`;
}
