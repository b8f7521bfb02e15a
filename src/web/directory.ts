/**
 * What the dashboard reads of a server from Discord with the bot's token: whether the bot is in it, its name, text
 * channels and roles for the pickers, and a member's permissions, which decide who may change its settings. Read over
 * REST with no gateway cache, so `npm run web` works apart from the bot's processes.
 */
import { ChannelType, PermissionFlagsBits, Routes, type APIChannel, type APIGuild, type APIGuildMember } from 'discord-api-types/v10';
import type { REST } from '@discordjs/rest';
import { LRUCache } from 'lru-cache';

/** A server as the dashboard shows it. `icon`: Discord's icon hash, or null. */
export interface WebGuild {
  id: string;
  name: string;
  icon: string | null;
}

/** A channel a feed may post to (Discord channel types 0 and 5), in the server's order. */
export interface WebChannel {
  id: string;
  name: string;
  announcement: boolean;
}

/** A role the bot could hand out or ping; `@everyone` and roles an integration manages are left out. Highest first. */
export interface WebRole {
  id: string;
  name: string;
  position: number;
}

/** What the dashboard asks Discord about a server; each read may throw Discord's or the network's error. */
export interface WebDirectory {
  /** The server, or null when the bot is not in it (or it does not exist). */
  guild(guildId: string): Promise<WebGuild | null>;
  /**
   * The member's permissions in the server as Discord's bit field (owner and Administrator: every bit), or null when they
   * are not a member or the bot is not in it. At most {@link PERMISSIONS_TTL_MS} old.
   */
  memberPermissions(guildId: string, userId: string): Promise<bigint | null>;
  channels(guildId: string): Promise<WebChannel[]>;
  roles(guildId: string): Promise<WebRole[]>;
}

/** How long a server, its roles or a member's permissions are reused, ms: a role taken away counts within this. */
export const PERMISSIONS_TTL_MS = 60_000;

/** Every permission bit: what the owner and an administrator have. */
const ALL = (1n << 64n) - 1n;

/** Whether `bits` let a member change the server's settings: Manage Server, or Administrator. */
export const managesServer = (bits: bigint | null): boolean =>
  bits !== null && ((bits & PermissionFlagsBits.ManageGuild) !== 0n || (bits & PermissionFlagsBits.Administrator) !== 0n);

/** Discord's error codes for a server or member the bot cannot see: Unknown Guild, Unknown Member, Missing Access, Unknown User. */
const NOT_THERE = new Set([10004, 10007, 10013, 50001]);

const notThere = (err: unknown): null => {
  // By its code and status, not `instanceof`: discord.js may bring its own copy of @discordjs/rest.
  const e = err as { code?: unknown; status?: unknown } | null;
  if ((typeof e?.code === 'number' && NOT_THERE.has(e.code)) || e?.status === 403 || e?.status === 404) return null;
  throw err;
};

/**
 * {@link WebDirectory} over Discord's REST API (Get Guild, Get Guild Channels, Get Guild Member), with the bot's token.
 * Permissions are the member's server-level ones (Discord: "Permissions", computing base permissions): the @everyone role's
 * and their roles', all of them for the owner or an Administrator.
 */
export function discordWebDirectory(rest: REST, now: () => number = Date.now): WebDirectory {
  const guilds = new LRUCache<string, { guild: APIGuild | null }>({ max: 5_000, ttl: PERMISSIONS_TTL_MS, perf: { now } });
  const members = new LRUCache<string, { roles: string[] | null }>({ max: 20_000, ttl: PERMISSIONS_TTL_MS, perf: { now } });
  const readGuild = async (guildId: string): Promise<APIGuild | null> => {
    const kept = guilds.get(guildId);
    if (kept) return kept.guild;
    const guild = await (rest.get(Routes.guild(guildId)) as Promise<APIGuild>).catch(notThere);
    guilds.set(guildId, { guild });
    return guild;
  };
  return {
    async guild(guildId) {
      const g = await readGuild(guildId);
      return g ? { id: g.id, name: g.name, icon: g.icon } : null;
    },
    async memberPermissions(guildId, userId) {
      const guild = await readGuild(guildId);
      if (!guild) return null;
      if (guild.owner_id === userId) return ALL;
      const key = `${guildId}:${userId}`;
      let held = members.get(key);
      if (!held) {
        const member = await (rest.get(Routes.guildMember(guildId, userId)) as Promise<APIGuildMember>).catch(notThere);
        held = { roles: member?.roles ?? null };
        members.set(key, held);
      }
      if (!held.roles) return null;
      const mine = new Set([guildId, ...held.roles]);
      let bits = 0n;
      for (const role of guild.roles) if (mine.has(role.id)) bits |= BigInt(role.permissions);
      return (bits & PermissionFlagsBits.Administrator) !== 0n ? ALL : bits;
    },
    async channels(guildId) {
      const list = (await rest.get(Routes.guildChannels(guildId))) as APIChannel[];
      return list
        .filter((c) => c.type === ChannelType.GuildText || c.type === ChannelType.GuildAnnouncement)
        .sort((a, b) => ('position' in a ? a.position : 0) - ('position' in b ? b.position : 0))
        .map((c) => ({ id: c.id, name: c.name ?? c.id, announcement: c.type === ChannelType.GuildAnnouncement }));
    },
    async roles(guildId) {
      const guild = await readGuild(guildId);
      if (!guild) return [];
      return guild.roles
        .filter((r) => r.id !== guildId && !r.managed)
        .sort((a, b) => b.position - a.position)
        .map((r) => ({ id: r.id, name: r.name, position: r.position }));
    },
  };
}
