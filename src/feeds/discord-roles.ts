/** {@link RoleTransport} over discord.js's REST client, whose queue keeps each route within its bucket and honours 429s' `Retry-After`. */
import type { REST } from '@discordjs/rest';
import { PermissionFlagsBits, Routes, type APIGuild, type APIGuildMember } from 'discord-api-types/v10';
import type { GuildRoles } from '../game/rank-roles.js';
import type { RoleTransport } from './rank-roles.js';

/**
 * `botId()` the bot's user id (known once logged in). Reads Get Guild and Get Guild Member (the bot's, and a member's before the bot first gives them a role); changes with Add and Remove
 * Guild Member Role, each carrying the audit-log reason (Discord: "Guild Resource").
 */
export function discordRoleTransport(rest: REST, botId: () => string | undefined): RoleTransport {
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
    async memberRoles(guildId, userId) {
      return ((await rest.get(Routes.guildMember(guildId, userId))) as APIGuildMember).roles;
    },
    async add(guildId, userId, roleId, reason) {
      await rest.put(Routes.guildMemberRole(guildId, userId, roleId), { reason });
    },
    async remove(guildId, userId, roleId, reason) {
      await rest.delete(Routes.guildMemberRole(guildId, userId, roleId), { reason });
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
