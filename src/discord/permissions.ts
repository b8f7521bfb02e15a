/** A member's permissions in a channel from raw REST objects, as Discord documents them (Permissions, "Permission Overwrites"). */
import { OverwriteType, PermissionFlagsBits, type APIOverwrite, type APIRole } from 'discord-api-types/v10';

/** Every permission bit: what the owner and an administrator have. */
const ALL = (1n << 64n) - 1n;

/** What {@link channelPermissions} needs, in the shapes Discord's REST API returns. */
export interface PermissionInputs {
  guildId: string;
  /** The guild's `owner_id`. */
  ownerId: string;
  /** The guild's roles (`GET /guilds/{id}/roles`, or `roles` of the guild object). */
  roles: readonly Pick<APIRole, 'id' | 'permissions'>[];
  /** The member's user id and role ids (`GET /guilds/{id}/members/{user}`). */
  userId: string;
  memberRoleIds: readonly string[];
  /** The channel's `permission_overwrites` (`GET /channels/{id}`). */
  overwrites: readonly APIOverwrite[];
}

/** The member's permission bits in the channel: owner and ADMINISTRATOR get all; overwrites apply for @everyone, roles (denies, allows), the member. */
export function channelPermissions(p: PermissionInputs): bigint {
  if (p.userId === p.ownerId) return ALL;
  const roleBits = new Map(p.roles.map((r) => [r.id, BigInt(r.permissions)]));
  let base = roleBits.get(p.guildId) ?? 0n;
  for (const id of p.memberRoleIds) base |= roleBits.get(id) ?? 0n;
  if ((base & PermissionFlagsBits.Administrator) !== 0n) return ALL;

  let perms = base;
  const everyone = p.overwrites.find((o) => o.id === p.guildId);
  if (everyone) perms = (perms & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let deny = 0n;
  let allow = 0n;
  const memberRoles = new Set(p.memberRoleIds);
  for (const o of p.overwrites) {
    if (o.type === OverwriteType.Role && o.id !== p.guildId && memberRoles.has(o.id)) {
      deny |= BigInt(o.deny);
      allow |= BigInt(o.allow);
    }
  }
  perms = (perms & ~deny) | allow;
  const own = p.overwrites.find((o) => o.type === OverwriteType.Member && o.id === p.userId);
  if (own) perms = (perms & ~BigInt(own.deny)) | BigInt(own.allow);
  return perms;
}
