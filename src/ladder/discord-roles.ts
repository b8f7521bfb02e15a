/** {@link RoleTransport} over discord.js's REST client, whose queue keeps each route within its bucket and honours 429s' `Retry-After`. */
import { RESTEvents, type RateLimitData, type REST } from '@discordjs/rest';
import { PermissionFlagsBits, Routes, type APIGuild, type APIGuildMember } from 'discord-api-types/v10';
import type { GuildRoles, RoleFailureDetail } from '../game/rank-roles.js';
import { RoleRouteFailure, type RoleTransport } from './rank-roles.js';

/** Add and Remove Guild Member Role as @discordjs/rest names their bucket's route (every id as `:id`). */
const MEMBER_ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';

/**
 * The longest single wait on a member's role route that discord.js may start, ms: its sleeps (a bucket's reset, a 429's
 * `Retry-After`) do not heed a request's signal, so a longer one would outlast the member's deadline by that much.
 */
export const ROLE_WAIT_LIMIT_MS = 15_000;

/**
 * @discordjs/rest's `rejectOnRateLimit`: a wait longer than {@link ROLE_WAIT_LIMIT_MS} on a member's role route rejects
 * the request with `RateLimitError` instead of sleeping; every other route, and the global limit, are waited out as
 * before (Discord: "Rate Limits").
 */
export function rejectLongRoleWaits(data: RateLimitData): boolean {
  return !data.global && data.route === MEMBER_ROLE_ROUTE && Math.max(data.retryAfter, data.timeToReset) > ROLE_WAIT_LIMIT_MS;
}

/** Network failures undici and Node report by code: Discord did not answer. */
const NETWORK_CODES = /^(ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|UND_ERR_\w+)$/;

/**
 * What a failed request to a member's route was, when Discord failed rather than answered: a 429 discord.js did not
 * wait out, a 5xx after its retries, no answer before `signal` or discord.js's own timeout (`lastStatus` the last status
 * Discord answered meanwhile: a deadline spent on 429s is a rate limit), the network. Null for Discord's answers (4xx
 * with a JSON code), which the caller reads itself.
 */
export function roleRouteFailureOf(err: unknown, signal?: AbortSignal, lastStatus = 0): RoleFailureDetail | null {
  const e = err as { name?: unknown; status?: unknown; global?: unknown; code?: unknown; cause?: { code?: unknown } } | null;
  const name = typeof e?.name === 'string' ? e.name : '';
  // discord.js names it `RateLimitError[route]`; a global one is the bot's, not the member's.
  if (name.startsWith('RateLimitError')) return e?.global === true ? null : { kind: 'rate-limited', status: 429 };
  if (name === 'HTTPError' && typeof e?.status === 'number') return { kind: 'server-error', status: e.status };
  if (signal?.aborted || name === 'AbortError' || name === 'TimeoutError') {
    if (lastStatus === 429) return { kind: 'rate-limited', status: 429 };
    return lastStatus >= 500 ? { kind: 'server-error', status: lastStatus } : { kind: 'timeout' };
  }
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : '';
  if (NETWORK_CODES.test(code)) return { kind: 'network' };
  return null;
}

/**
 * `botId()` the bot's user id (known once logged in). Reads Get Guild and Get Guild Member (the bot's, and a member's before the bot first gives them a role); changes with Add and Remove
 * Guild Member Role, each carrying the audit-log reason (Discord: "Guild Resource"). A member's requests end when their
 * `signal` aborts; a failure of Discord on them is thrown as {@link RoleRouteFailure}.
 */
export function discordRoleTransport(rest: REST, botId: () => string | undefined): RoleTransport {
  /** The last status Discord answered on each member route under way (0: none yet): a deadline cut short after 429s or 5xx says so. */
  const lastStatus = new Map<string, number>();
  const onResponse = (request: { path: string }, response: { status: number }) => {
    if (lastStatus.has(request.path)) lastStatus.set(request.path, response.status);
  };
  const onMember = async <T>(path: `/${string}`, signal: AbortSignal | undefined, request: () => Promise<T>): Promise<T> => {
    // Listened to only while a member's request is under way: with a listener, @discordjs/rest clones every response.
    if (lastStatus.size === 0) rest.on(RESTEvents.Response, onResponse);
    lastStatus.set(path, 0);
    try {
      return await request();
    } catch (err) {
      const failed = roleRouteFailureOf(err, signal, lastStatus.get(path));
      throw failed ? new RoleRouteFailure(failed, { cause: err }) : err;
    } finally {
      lastStatus.delete(path);
      if (lastStatus.size === 0) rest.off(RESTEvents.Response, onResponse);
    }
  };
  return {
    async guildRoles(guildId) {
      const id = botId();
      if (!id) throw new Error('rank roles need the bot to be logged in');
      const [guild, me] = await Promise.all([
        rest.get(Routes.guild(guildId)) as Promise<APIGuild>,
        rest.get(Routes.guildMember(guildId, id)) as Promise<APIGuildMember>,
      ]);
      return guildRolesOf(guild, me, id);
    },
    memberRoles(guildId, userId, signal) {
      const path = Routes.guildMember(guildId, userId);
      return onMember(path, signal, async () => ((await rest.get(path, { signal })) as APIGuildMember).roles);
    },
    add(guildId, userId, roleId, reason, signal) {
      const path = Routes.guildMemberRole(guildId, userId, roleId);
      return onMember(path, signal, async () => void (await rest.put(path, { reason, signal })));
    },
    remove(guildId, userId, roleId, reason, signal) {
      const path = Routes.guildMemberRole(guildId, userId, roleId);
      return onMember(path, signal, async () => void (await rest.delete(path, { reason, signal })));
    },
  };
}

/** The bot's standing among a server's roles from Discord's objects (Discord: "Permissions", "Role Hierarchy"). */
export function guildRolesOf(guild: Pick<APIGuild, 'id' | 'owner_id' | 'roles'>, me: Pick<APIGuildMember, 'roles'>, botId: string): GuildRoles {
  const mine = new Set(me.roles);
  let bits = 0n;
  let botTop = 0;
  for (const r of guild.roles) {
    if (r.id !== guild.id && !mine.has(r.id)) continue;
    bits |= BigInt(r.permissions);
    if (r.id !== guild.id) botTop = Math.max(botTop, r.position);
  }
  const manageRoles = guild.owner_id === botId || (bits & (PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageRoles)) !== 0n;
  return {
    guildId: guild.id,
    roles: guild.roles.map((r) => ({ id: r.id, name: r.name, position: r.position, managed: r.managed, permissions: r.permissions })),
    manageRoles,
    botTop,
  };
}
