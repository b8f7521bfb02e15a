/**
 * Rank roles over the pretend server ({@link RoleTransport}): the sync of src/ladder/rank-roles.ts gives and takes back
 * roles on {@link PlaygroundGuild}'s members, with Discord's answers to what Discord refuses (Discord: "JSON Error Codes").
 */
import type { GuildRoles } from '../game/rank-roles.js';
import type { RoleTransport } from '../ladder/rank-roles.js';
import { PlaygroundRestError } from './channels.js';
import { BOT_ROLE, GUILD, roleById, type PlaygroundGuild } from './guild.js';

/** The @everyone role: the guild's own id, position 0 (Discord: "Role Object"). */
const EVERYONE = { id: GUILD.id, name: '@everyone', position: 0, managed: false, permissions: '0' };

/** The bot holds {@link BOT_ROLE} (Manage Roles), so it may give any role below it. */
export function playgroundRoleTransport(guild: PlaygroundGuild): RoleTransport {
  const server = (guildId: string) => {
    if (guildId !== GUILD.id) throw new PlaygroundRestError('Unknown Guild', 10004, 404);
  };
  const member = (userId: string) => {
    if (!guild.member(userId)) throw new PlaygroundRestError('Unknown Member', 10007, 404);
  };
  const change = (guildId: string, userId: string, roleId: string) => {
    server(guildId);
    member(userId);
    const role = roleById(roleId);
    if (!role) throw new PlaygroundRestError('Unknown Role', 10011, 404);
    if (role.managed || role.position >= BOT_ROLE.position) throw new PlaygroundRestError('Missing Permissions', 50013, 403);
  };
  return {
    async guildRoles(guildId): Promise<GuildRoles> {
      server(guildId);
      return {
        guildId,
        roles: [EVERYONE, ...guild.roles.map((r) => ({ id: r.id, name: r.name, position: r.position, managed: r.managed, permissions: r.permissions }))],
        manageRoles: true,
        botTop: BOT_ROLE.position,
      };
    },
    async memberRoles(guildId, userId) {
      server(guildId);
      member(userId);
      return guild.rolesOf(userId);
    },
    async add(guildId, userId, roleId) {
      change(guildId, userId, roleId);
      guild.addRole(userId, roleId);
    },
    async remove(guildId, userId, roleId) {
      change(guildId, userId, roleId);
      guild.removeRole(userId, roleId);
    },
  };
}

/**
 * `work` run by one caller at a time: a call while it runs gets one more run after it (a change may have come after the
 * run under way read what to do), shared by every call meanwhile. Resolves when the run that saw the call ends.
 */
export function coalesced(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again: Promise<void> | undefined;
  const call = (): Promise<void> => {
    if (!running) {
      running = work().finally(() => (running = undefined));
      return running;
    }
    again ??= running
      .catch(() => undefined)
      .then(() => {
        again = undefined;
        return call();
      });
    return again;
  };
  return call;
}
