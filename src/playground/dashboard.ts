/**
 * The playground's dashboard (src/web/): its pretend server as the dashboard reads a server from Discord, and a sign-in as
 * any of its members, so every page can be tried offline. Members without Manage Server get the dashboard's 403.
 */
import { ChannelType } from 'discord-api-types/v10';
import type { WebDirectory } from '../web/directory.js';
import type { Identity } from '../web/sign-in.js';
import { CHANNELS, GUILD, permissionsOf, type PlaygroundGuild } from './guild.js';

/** {@link WebDirectory} over the pretend server: its channels, its roles but the bot's own, its members' permissions. */
export function playgroundDirectory(guild: PlaygroundGuild): WebDirectory {
  return {
    guild: async (guildId) => (guildId === GUILD.id ? { id: GUILD.id, name: GUILD.name, icon: null } : null),
    memberPermissions: async (guildId, userId) => {
      const member = guildId === GUILD.id ? guild.member(userId) : undefined;
      return member ? BigInt(permissionsOf(member)) : null;
    },
    channels: async (guildId) =>
      guildId === GUILD.id ? CHANNELS.map((c) => ({ id: c.id, name: c.name, announcement: c.type === ChannelType.GuildAnnouncement })) : [],
    roles: async (guildId) =>
      guildId === GUILD.id ? guild.roles.filter((r) => !r.managed && r.position > 0).map((r) => ({ id: r.id, name: r.name, position: r.position })) : [],
  };
}

/** Who signs in as member `id`: the pretend server listed when they are an admin there, as Discord lists managed servers. */
export function playgroundIdentity(guild: PlaygroundGuild): (id: string) => Identity | undefined {
  return (id) => {
    const member = guild.member(id);
    if (!member) return undefined;
    return { userId: member.id, name: member.name, avatar: null, guilds: member.admin ? [{ id: GUILD.id, name: GUILD.name, icon: null }] : [] };
  };
}
