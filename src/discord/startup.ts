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

/** The codes on an error and its causes, outermost first. */
function codesOf(err: unknown): string[] {
  const codes: string[] = [];
  for (let e = err as { code?: unknown; cause?: unknown; name?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' || typeof e.code === 'number') codes.push(String(e.code));
    if (e.name === 'AbortError' || e.name === 'TimeoutError') codes.push('ETIMEDOUT');
  }
  return codes;
}

/**
 * Why logging in failed, as one line of advice, and the exit code: a refused token must be changed before a restart
 * helps (`refused`); an unreachable Discord may pass. `host` the host of DISCORD_API_URL.
 */
export function loginFailure(err: unknown, host: string): { message: string; refused: boolean } {
  const codes = codesOf(err);
  if (codes.includes('TokenInvalid') || codes.includes('401'))
    return {
      message:
        'Discord refused DISCORD_TOKEN (401): reset it in the Developer Portal (your application → Bot → Reset Token), put the new token in DISCORD_TOKEN, and start again',
      refused: true,
    };
  const unreachable = codes.find((c) => UNREACHABLE.has(c));
  if (unreachable)
    return {
      message: `cannot reach ${host} (${unreachable}): check this machine's network and DNS, or DISCORD_API_URL; DISCORD_TOKEN was not tried`,
      refused: false,
    };
  return { message: `could not log in to Discord: ${(err as Error | undefined)?.message ?? String(err)}`, refused: false };
}
