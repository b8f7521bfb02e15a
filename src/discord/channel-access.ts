/** Whether the bot can post a feed in a channel, read over Discord's REST API without a channel, role or member cache. */
import { ChannelType, PermissionFlagsBits, type Client } from 'discord.js';
import type { DiscordAPIError } from '@discordjs/rest';
import { Routes, type APIChannel, type APIGuild, type APIGuildMember, type APIOverwrite } from 'discord-api-types/v10';
import { LRUCache } from 'lru-cache';
import type { ChannelAccess, ChannelCheck } from './command.js';
import { channelPermissions } from './permissions.js';

/** Permissions the bot needs to post a feed embed in a channel, with the names members see in Discord. */
const POST_PERMISSIONS = [
  [PermissionFlagsBits.ViewChannel, 'View Channel'],
  [PermissionFlagsBits.SendMessages, 'Send Messages'],
  [PermissionFlagsBits.EmbedLinks, 'Embed Links'],
] as const;

/** What a feed posting each post's full text in a thread needs besides (Discord: "Start Thread from Message"). */
const THREAD_PERMISSIONS = [
  [PermissionFlagsBits.CreatePublicThreads, 'Create Public Threads'],
  [PermissionFlagsBits.SendMessagesInThreads, 'Send Messages in Threads'],
] as const;

/** How long a channel check that found nothing missing is reused, ms: a fixed permission is seen at once, a removed one within this. */
export const CHANNEL_CHECK_TTL_MS = 60_000;

/** The Discord error codes of a channel the bot cannot see: Unknown Channel, Missing Access. */
const UNKNOWN_CHANNEL = 10003;
const MISSING_ACCESS = 50001;

/**
 * {@link ChannelAccess} over REST with no cache: the channel, the guild and the bot's member, fetched in parallel (./permissions.ts computes).
 * The bot's id is the logged-in client's, else `bot()`'s (a process that never logs in to the gateway: the dashboard's).
 * A check that found nothing missing is kept {@link CHANNEL_CHECK_TTL_MS}; one that found a problem is not, so an admin's fix shows at once.
 * @throws the REST error when Discord fails otherwise (5xx, network).
 */
export function discordChannelAccess(client: Client, now: () => number = Date.now, bot: () => string | undefined = () => undefined): ChannelAccess {
  const passed = new LRUCache<string, ChannelCheck>({ max: 1_000, ttl: CHANNEL_CHECK_TTL_MS, ttlAutopurge: false, perf: { now } });
  const running = new Map<string, Promise<ChannelCheck>>();
  const fetchCheck = async (guildId: string, channelId: string): Promise<ChannelCheck> => {
    const rest = client.rest;
    const botId = client.user?.id ?? client.application?.id ?? bot();
    if (!botId) throw new Error('the channel check needs the bot to be logged in');
    const fetched = await Promise.all([
      rest.get(Routes.channel(channelId)) as Promise<APIChannel & { guild_id?: string; permission_overwrites?: APIOverwrite[] }>,
      rest.get(Routes.guild(guildId)) as Promise<APIGuild>,
      rest.get(Routes.guildMember(guildId, botId)) as Promise<APIGuildMember>,
    ]).catch((err: unknown) => {
      // By its code, not `instanceof`: discord.js may bring its own copy of @discordjs/rest.
      const code = (err as Partial<DiscordAPIError> | null)?.code;
      if (code === UNKNOWN_CHANNEL) return 'gone' as const;
      if (code === MISSING_ACCESS) return 'hidden' as const;
      throw err;
    });
    if (fetched === 'hidden') return { exists: true, announcement: false, missing: POST_PERMISSIONS.map(([, name]) => name) };
    // A channel of another guild is not one this guild can post to.
    if (fetched === 'gone' || fetched[0].guild_id !== guildId) return { exists: false, announcement: false, missing: [] };
    const [channel, guild, me] = fetched;
    const bits = channelPermissions({
      guildId,
      ownerId: guild.owner_id,
      roles: guild.roles,
      userId: botId,
      memberRoleIds: me.roles,
      overwrites: channel.permission_overwrites ?? [],
    });
    return {
      exists: true,
      announcement: channel.type === ChannelType.GuildAnnouncement,
      missing: POST_PERMISSIONS.filter(([bit]) => (bits & bit) !== bit).map(([, name]) => name),
      missingForThreads: THREAD_PERMISSIONS.filter(([bit]) => (bits & bit) !== bit).map(([, name]) => name),
    };
  };
  return {
    async check(guildId, channelId) {
      const key = `${guildId}/${channelId}`;
      const kept = passed.get(key);
      if (kept) return kept;
      let pending = running.get(key);
      if (!pending) {
        pending = fetchCheck(guildId, channelId).finally(() => running.delete(key));
        running.set(key, pending);
      }
      const check = await pending;
      if (check.exists && check.missing.length === 0) passed.set(key, check);
      return check;
    },
  };
}
