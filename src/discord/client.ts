/** The bot's discord.js client: the Guilds intent only, no caches but the guilds', REST through the process's budget or the REST proxy. */
import { Client, GatewayIntentBits, Options, ShardClientUtil } from 'discord.js';
import type { ShardInfo } from '../render/status.js';
import { DefaultRestOptions } from '@discordjs/rest';
import { currentDeadline } from '../core/deadline.js';
import { rejectLongRoleWaits } from '../ladder/discord-roles.js';
import { discordAgent } from './agent.js';
import { DiscordRestBudget, INTERACTIVE_PRIORITY, PRIORITY_HEADER, UNCOUNTED, type MakeRequest } from './rest-budget.js';

export interface DiscordClientOptions {
  /** Discord's REST API without the version (DISCORD_API_URL, e.g. `https://discord.com/api`). */
  apiUrl: string;
  /** The REST proxy's base URL (DISCORD_REST_PROXY, src/rest-proxy.ts); absent: requests go straight to `apiUrl`. */
  proxyUrl?: string;
  /** The process's budget when there is no proxy (default: a new one, ./rest-budget.ts). Not allowed with `proxyUrl`. */
  budget?: DiscordRestBudget;
}

/**
 * A discord.js client with the Guilds intent, no mentions, no cache but the guilds'. REST goes through `budget`, or to the proxy holding the
 * global limit (Discord: Rate Limits) for every process; requests answering an interaction carry {@link PRIORITY_HEADER}. A wait on a
 * member's role route longer than ROLE_WAIT_LIMIT_MS rejects with discord.js's `RateLimitError` (src/ladder/discord-roles.ts).
 * @throws Error when both `proxyUrl` and `budget` are given.
 */
export function createDiscordClient({ apiUrl, proxyUrl, budget }: DiscordClientOptions): Client {
  if (proxyUrl !== undefined && budget !== undefined) throw new Error('createDiscordClient: with a REST proxy the proxy holds the budget; pass no budget');
  const api = proxyUrl === undefined ? apiUrl : `${proxyUrl.replace(/\/+$/, '')}/api`;
  const makeRequest = proxyUrl === undefined ? (budget ?? new DiscordRestBudget()).wrap() : markingPriority(DefaultRestOptions.makeRequest);
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    allowedMentions: { parse: [] },
    // The budget or the proxy counts the global limit in sliding seconds; @discordjs/rest's fixed windows would hold requests back twice.
    // A member-role route's long wait is handed back to the rank roles' sync, which sets that member aside (src/ladder/rank-roles.ts).
    rest: { api, agent: discordAgent(), globalRequestsPerSecond: UNCOUNTED, makeRequest, rejectOnRateLimit: rejectLongRoleWaits },
    makeCache: Options.cacheWithLimits(Object.fromEntries(UNCACHED_MANAGERS.map((name) => [name, 0]))),
  });
  return client;
}

/** `makeRequest` that adds {@link PRIORITY_HEADER} to the requests made while answering an interaction (a deadline is set, src/core/deadline.ts). */
function markingPriority(makeRequest: MakeRequest): MakeRequest {
  return (url, init) =>
    currentDeadline() === undefined
      ? makeRequest(url, init)
      : makeRequest(url, { ...init, headers: { ...(init.headers as Record<string, string>), [PRIORITY_HEADER]: INTERACTIVE_PRIORITY } });
}

/** The discord.js managers whose cache is off (size 0): every one but the guilds'. */
export const UNCACHED_MANAGERS = [
  'ChannelManager',
  'GuildChannelManager',
  'RoleManager',
  'PermissionOverwriteManager',
  'GuildMemberManager',
  'MessageManager',
  'UserManager',
  'PresenceManager',
  'ReactionManager',
  'ReactionUserManager',
  'VoiceStateManager',
  'GuildEmojiManager',
  'GuildStickerManager',
  'GuildScheduledEventManager',
  'StageInstanceManager',
  'ThreadManager',
  'ThreadMemberManager',
  'GuildBanManager',
  'GuildInviteManager',
  'AutoModerationRuleManager',
  'ApplicationCommandManager',
  'BaseGuildEmojiManager',
  'GuildSoundboardSoundManager',
  'EntitlementManager',
  'DMMessageManager',
  'GuildMessageManager',
  'GuildForumThreadManager',
  'GuildTextThreadManager',
  'ApplicationEmojiManager',
  'GuildApplicationCommandManager',
  'PartialGroupDMMessageManager',
  'SubscriptionManager',
  'PollAnswerVoterManager',
] as const;

/**
 * The shard of this process that serves `guildId` (Discord: "Sharding", `(guild_id >> 22) % num_shards`; DMs are shard
 * 0's), with the shard count and its last heartbeat's round trip; null before the client knows its shards.
 */
export function shardServing(client: Client, guildId: string | null): ShardInfo | null {
  const count = client.options.shardCount;
  if (typeof count !== 'number' || count < 1) return null;
  const id = guildId ? ShardClientUtil.shardIdForGuildId(guildId, count) : 0;
  const ping = client.ws.shards.get(id)?.ping;
  return { id, count, pingMs: ping === undefined || ping < 0 ? null : Math.round(ping) };
}
