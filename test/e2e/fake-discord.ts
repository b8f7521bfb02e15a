/**
 * A local fake of Discord for end-to-end tests: the REST endpoints the bot uses and a gateway over
 * WebSocket (HELLO, IDENTIFY answered by READY and GUILD_CREATE, heartbeats, dispatching
 * INTERACTION_CREATE, RESUME answered by the missed dispatches and RESUMED or by INVALID_SESSION,
 * and closing the connection with a close code). It records every REST call so tests assert on the
 * exact JSON the bot sent.
 * Optional, for benchmarks at scale ({@link FakeDiscordOptions}): many generated guilds instead of the
 * one test guild, and Discord's global rate limit, enforced strictly.
 * Sharding ({@link FakeDiscordOptions.shards}): every connection is its own session for the shard its
 * IDENTIFY names, gets the guilds of that shard only, and receives the dispatches of those guilds;
 * IDENTIFYs are recorded per rate-limit bucket so a test can check `max_concurrency` across processes.
 * Source of the shapes: Discord developer documentation, "Gateway" (Connection Lifecycle: Identifying,
 * Resuming; Sharding; Session Start Limit Object; Opcodes and Status Codes: Gateway Close Event Codes)
 * and "Interactions".
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export const APP_ID = '900000000000000001';
export const BOT_USER = { id: APP_ID, username: 'rivals-bot', discriminator: '0', global_name: 'Rivals Bot', avatar: null, bot: true, flags: 0 };
export const GUILD_ID = '910000000000000001';
export const CHANNEL_ID = '920000000000000001';
/** A text channel whose overwrite denies the bot's role Send Messages (the @everyone role here). */
export const LOCKED_CHANNEL_ID = '920000000000000002';
/** Two more text channels where the bot may post, for feeds. */
export const FEED_CHANNEL_IDS = ['920000000000000003', '920000000000000004'] as const;
/** Permission bitfield of a member with Manage Server. */
export const ADMIN_PERMISSIONS = String(2248473465835073n | 0x20n);

/** One REST call the bot made. */
export interface RestCall {
  method: string;
  path: string;
  query: string;
  body: unknown;
  /** ms since the fake started, when the request arrived: before its body is read, so a large upload's parsing here is not counted. */
  at: number;
  /** When the fake received it, ms since the Unix epoch (compare with {@link createdAtOf} an interaction's id). */
  receivedAt: number;
  authorization?: string;
  /** The files of a multipart/form-data request (its `payload_json` part is `body`). */
  files?: UploadedFile[];
}

/** One file part of a multipart request, as Discord receives uploads ("Uploading Files"). */
export interface UploadedFile {
  /** The part's name: `files[n]`. */
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** One IDENTIFY the fake received ({@link FakeDiscord.identifies}). */
export interface IdentifyRecord {
  /** The `shard` of the IDENTIFY: [0, 1] when it has none. */
  shard: number;
  total: number;
  /** ms since the fake started. */
  at: number;
  /**
   * `ready`: answered by READY; `rate-limited`: too early in its bucket under
   * {@link FakeDiscordOptions.strictIdentify}, answered by INVALID_SESSION; `invalid-shard`: closed 4010;
   * `rejected`: closed by {@link FakeDiscord.rejectNext}.
   */
  outcome: 'ready' | 'rate-limited' | 'invalid-shard' | 'rejected';
}

/** Two IDENTIFYs of one rate-limit bucket less than {@link IDENTIFY_WINDOW_MS} apart ({@link FakeDiscord.identifyViolations}). */
export interface IdentifyViolation {
  /** `shard % maxConcurrency` (Discord: "Sharding for Large Bots", rate_limit_key). */
  bucket: number;
  first: IdentifyRecord;
  second: IdentifyRecord;
  /** `second.at - first.at`, ms. */
  apartMs: number;
}

/** A gateway session of the fake ({@link FakeDiscord.gatewaySessions}). */
export interface GatewaySessionInfo {
  id: string;
  shard: number;
  total: number;
  /** Has an open connection that identified or resumed it. */
  connected: boolean;
  /** false once ended (a close that needs a new session, a client close 1000/1001): a RESUME gets INVALID_SESSION. */
  valid: boolean;
}

export interface FakeDiscord {
  /** REST base for DISCORD_API_URL (discord.js appends /v10). */
  apiUrl: string;
  /** The shard count `/gateway/bot` recommends ({@link FakeDiscordOptions.shards}). */
  readonly shards: number;
  calls: RestCall[];
  /**
   * Without `shard`: resolves when a client has first identified and received READY (and its guilds).
   * With `shard`: when a session of that shard first did (at any total); already resolved if one did.
   */
  ready(shard?: number): Promise<void>;
  /** Messages created in each channel (a send repeated with the same enforced nonce creates none). */
  channelMessages: Map<string, Record<string, unknown>[]>;
  /** Makes sends to a channel fail with this status and Discord JSON error code (undefined: stop failing). */
  failChannel(channelId: string, failure?: { status: number; code: number; message: string }): void;
  /** Makes every request with files (multipart) fail with this status and Discord JSON error code (undefined: stop failing). */
  refuseUploads(failure?: { status: number; code: number; message: string }): void;
  /**
   * The application's emojis (Discord: "List/Create/Delete Application Emoji"), as uploads left them; `image` is the
   * decoded upload. Names are 2 to 32 of `[A-Za-z0-9_]` and unique; an image over 256 KiB is refused (50045).
   */
  readonly appEmojis: { id: string; name: string; image: Buffer }[];
  /** Makes every emoji upload fail with this status and Discord JSON error code (undefined: stop failing). */
  refuseEmojiUploads(failure?: { status: number; code: number; message: string }): void;
  /** Deletes a channel message (as a moderator would): an edit of it is then answered 10008 Unknown Message. */
  deleteMessage(channelId: string, messageId: string): void;
  /** Delays every channel-message answer by `ms` (to catch a process in the middle of a fan-out). */
  setChannelDelay(ms: number): void;
  /**
   * Discord's nonce window ("the past few minutes") passes for every message created so far, as minutes would: a send with
   * one of their nonces and `enforce_nonce` creates a new message, and reading a channel no longer returns their `nonce`.
   */
  expireNonces(): void;
  /**
   * Sends INTERACTION_CREATE with `interaction` to the sessions of its guild's shard (as {@link dispatch})
   * and returns the time it was sent (ms since start). Throws `no gateway connection for shard N` when no
   * session of that shard has an open connection.
   */
  dispatchInteraction(interaction: Record<string, unknown>): number;
  /**
   * Sends the dispatch event `t` with data `d` (op 0) and returns the time it was sent (ms since start).
   * It goes to every valid session of the shard of `d.guild_id` (Discord: "Sharding", `(guild_id >> 22)
   * % num_shards` at each session's own shard count), or of shard 0 when `d` has no guild (DMs): with one
   * session, that session. Two sessions of one shard both get it, as Discord sends a shard's events to
   * every session of it (a bot run twice answers twice). Between a close and a RESUME it is kept for the
   * replay, as Discord does; throws `no gateway session for shard N` when that shard has no valid session.
   */
  dispatch(t: string, d: unknown): number;
  /**
   * Closes the gateway connection opened last with `code` (Discord: "Gateway Close Event Codes"); with
   * several shards, {@link closeShard} says which.
   * `invalidateSession` ends the session, so that a RESUME gets INVALID_SESSION (op 9, d false) and the
   * client must identify again; by default it does for the codes Discord documents as needing a new
   * session (4007 invalid seq, 4009 session timed out) and for the codes that are not reconnectable.
   */
  closeGateway(code: number, options?: { reason?: string; invalidateSession?: boolean }): void;
  /**
   * Closes every open connection of a session of shard `shard` with `code`, ending the sessions as
   * {@link closeGateway} does. Throws `no gateway connection for shard N` when it has none.
   */
  closeShard(shard: number, code: number, options?: { reason?: string; invalidateSession?: boolean }): void;
  /** The shard ids with an open, identified or resumed connection, ascending, each once. */
  connectedShards(): number[];
  /** Every session started, oldest first. */
  gatewaySessions(): GatewaySessionInfo[];
  /** Every IDENTIFY received, in order, whatever its outcome. */
  identifies: IdentifyRecord[];
  /**
   * The pairs of consecutive IDENTIFYs (any outcome) of one rate-limit bucket (`shard % maxConcurrency`,
   * default the fake's {@link FakeDiscordOptions.maxConcurrency}) less than {@link IDENTIFY_WINDOW_MS} apart
   * (Discord: "Session Start Limit Object", max_concurrency identifies per 5 seconds); empty when the
   * clients kept to it.
   */
  identifyViolations(maxConcurrency?: number): IdentifyViolation[];
  /**
   * The guilds the fake serves that are on shard `shard` of `total` (default {@link shards}), in the order
   * READY lists them: the test guilds ({@link testGuildIds}), then the generated ones.
   */
  guildsOfShard(shard: number, total?: number): string[];
  /** The first of {@link guildsOfShard}; throws when the fake has no guild on that shard. */
  guildForShard(shard: number, total?: number): string;
  /**
   * Answers the next IDENTIFY and/or RESUME (`on`, default both) by closing the connection with `code`
   * instead of READY / RESUMED, once: e.g. 4004 for a token reset while the bot was connected.
   */
  rejectNext(code: number, on?: readonly ('identify' | 'resume')[]): void;
  /**
   * Resolves with how the next session started: READY (and its guilds) after an IDENTIFY, or RESUMED
   * after a RESUME; with `shard`, the next one of that shard. Rejects after `timeoutMs` (default 10 s).
   */
  nextSession(options?: number | { timeoutMs?: number; shard?: number }): Promise<'identified' | 'resumed'>;
  /** Gateway opcodes received from clients, in order (1 heartbeat, 2 identify, 6 resume), with when (ms since start). */
  gatewayOps: { op: number; at: number }[];
  /** Connections closed by the fake or the client, in order, with their close code. */
  gatewayCloses: { code: number; by: 'fake' | 'client'; at: number }[];
  /** Waits for a REST call matching `test`, made after `since`. */
  waitFor(test: (c: RestCall) => boolean, timeoutMs?: number): Promise<RestCall>;
  /** The last IDENTIFY answered by READY (its `d`). */
  identify: unknown;
  /** When the fake last sent READY, ms since the Unix epoch (undefined before the first IDENTIFY). */
  readonly readySentAt: number | undefined;
  /**
   * When the last GUILD_CREATE of the last session was handed to the socket, ms since the Unix epoch.
   * With many guilds ({@link FakeDiscordOptions.guilds}) this is also when {@link FakeDiscord.ready} resolves.
   */
  readonly guildsSentAt: number | undefined;
  /** The REST calls answered 429 by the global limit ({@link FakeDiscordOptions.globalLimit}), in order; empty without it. */
  globalLimited: RestCall[];
  /** The REST calls answered 429 by a role route's bucket ({@link FakeDiscordOptions.roleRouteLimit}), in order, with the wait the answer asked; empty without it. */
  routeLimited: (RestCall & { retryAfterMs: number })[];
  /**
   * Makes every Add and Remove Guild Member Role of `userId` in the test guilds fail with `fault`, until called again
   * without one ({@link MemberRoleFault}). Faulted answers leave the route's bucket as it is.
   */
  failMemberRoles(userId: string, fault?: MemberRoleFault): void;
  /**
   * The test guilds' roles and members, which Get Guild, Get Guild Roles and Get Guild Member answer with and Add and
   * Remove Guild Member Role change. Each test guild starts with @everyone (no Manage Roles) and the bot as its one member.
   */
  guildRoles: FakeGuildRoles;
  /**
   * Discord's OAuth2 (authorization code grant, "OAuth2" in Discord's documentation): who a browser signs in as at
   * `/oauth2/authorize` (null: they press Cancel, and the browser comes back with `error=access_denied`), with the partial
   * guilds `users/@me/guilds` answers; the client secret `/oauth2/token` checks; the tokens revoked.
   */
  oauth: {
    signInAs: {
      user: { id: string; username: string; global_name?: string | null; avatar?: string | null; locale?: string };
      guilds: FakePartialGuild[];
    } | null;
    readonly clientSecret: string;
    readonly revoked: string[];
  };
  /** Renames a test guild's channel, as Get Channel and Get Guild Channels answer it. */
  renameChannel(channelId: string, name: string): void;
  close(): Promise<void>;
}

/** Discord's partial guild of `GET /users/@me/guilds`: `permissions` the member's there, as bit field text. */
export interface FakePartialGuild {
  id: string;
  name: string;
  icon: string | null;
  owner: boolean;
  permissions: string;
}

/** The OAuth2 client secret of the fake's application ({@link FakeDiscord.oauth}). */
export const FAKE_CLIENT_SECRET = 'fake-client-secret-000000000000000000';

/**
 * How one member's role route fails: `{ status: 429, retryAfterMs }` a per-resource limit that never clears (Discord:
 * "Rate Limits", `X-RateLimit-Scope: shared`, with the route's bucket headers as they stand), any other `status` with
 * Discord's JSON error `code` and `message` (a 403 refusal, a 5xx), or `'hang'`: no answer at all.
 */
export type MemberRoleFault = { status: 429; retryAfterMs: number } | { status: number; code?: number; message?: string } | 'hang';

/** A role of a test guild (Discord: "Role Object"); `permissions` a decimal bit set. */
export interface FakeRole {
  id: string;
  name: string;
  position: number;
  permissions: string;
  managed: boolean;
}

/** The calls to Add and Remove Guild Member Role among `calls` from index `from`, as "PUT user role" / "DELETE user role". */
export function memberRoleCalls(calls: readonly RestCall[], from = 0): string[] {
  return calls.slice(from).flatMap((c) => {
    const m = /^\/guilds\/\d+\/members\/(\d+)\/roles\/(\d+)$/.exec(c.path);
    return m ? [`${c.method} ${m[1]} ${m[2]}`] : [];
  });
}

/** Changes to the test guilds' roles and members, as a server's admins would make them ({@link FakeDiscord.guildRoles}). */
export interface FakeGuildRoles {
  /** Creates a role; `permissions` default none. @returns its id. */
  addRole(guildId: string, role: { name: string; position: number; permissions?: bigint; managed?: boolean }): string;
  /** Moves a role or changes its permissions. */
  editRole(guildId: string, roleId: string, change: { position?: number; permissions?: bigint }): void;
  /** Deletes a role: nobody holds it any more. */
  deleteRole(guildId: string, roleId: string): void;
  /** Adds a member (or sets their roles); the bot is member {@link APP_ID}. */
  setMember(guildId: string, userId: string, roleIds?: readonly string[]): void;
  /** The member leaves. */
  removeMember(guildId: string, userId: string): void;
  /** The member's role ids, or undefined when they are not a member. */
  memberRoles(guildId: string, userId: string): string[] | undefined;
}

/** What generated guilds hold: Discord's GUILD_CREATE with the Guilds intent, or with every list filled. */
export type GuildShape = 'full' | 'guilds-intent';

/** Options of {@link startFakeDiscord}; every one is off by default (one shard, the one test guild, no rate limit). */
export interface FakeDiscordOptions {
  /**
   * The shard count `/gateway/bot` recommends (default 1). Clients may identify with any total; one
   * with a shard id outside it (id ≥ total, or a malformed `shard`) is closed with 4010 Invalid Shard.
   */
  shards?: number;
  /** `session_start_limit.max_concurrency` of `/gateway/bot` (default 1): the identify rate-limit buckets. */
  maxConcurrency?: number;
  /**
   * Enforce `max_concurrency` as Discord does ("Identifying"): an IDENTIFY less than
   * {@link IDENTIFY_WINDOW_MS} after the last one answered by READY in its bucket (`shard %
   * maxConcurrency`) is answered by INVALID_SESSION (op 9, d false) instead of READY. Off by default:
   * every IDENTIFY is answered, and {@link FakeDiscord.identifyViolations} reports the early ones.
   */
  strictIdentify?: boolean;
  /**
   * How many test guilds ({@link testGuildIds}): guild k is on shard `(k + c) % total` for a fixed c, so
   * `total` consecutive ones cover every shard once. Default: {@link shards} (1: the one test guild), or
   * 0 with {@link guilds}. From 0 to {@link MAX_TEST_GUILDS}.
   */
  testGuilds?: number;
  /**
   * Instead of the one test guild: `count` generated guilds, listed unavailable in READY and then sent
   * one GUILD_CREATE each (Discord: "Gateway Events", Guild Create, lazy loading after READY); with
   * shards, each session gets those of its shard (guild g is on shard `(g + c) % total`, a fixed c).
   * Every guild has {@link GENERATED_GUILD} channels, roles and emojis (ids from {@link generatedGuildId}
   * and the functions beside it); `shape` `full` also sends its members, `guilds-intent` only the bot's
   * own member, as Discord does without the Guild Members intent. Guilds, channels, roles and members
   * answer GET /channels/{id}, GET /guilds/{id}, GET /guilds/{id}/roles and GET /guilds/{id}/members/{id}.
   * Each guild is generated from its index when it is sent or asked for: nothing is kept per guild.
   */
  guilds?: { count: number; shape: GuildShape };
  /**
   * Discord's global rate limit (Discord: "Rate Limits", Global Rate Limit), strictly: at most
   * `perSecond` requests with a bot token (`Authorization: Bot ...`) in any sliding second. One more is
   * answered 429 with `X-RateLimit-Global: true`, `X-RateLimit-Scope: global`, `Retry-After` (whole
   * seconds, rounded up, as in Discord's example) and the body `{message, retry_after (seconds, float),
   * global: true}`; it is not counted in the window, and is listed in {@link FakeDiscord.globalLimited}.
   * Interaction routes (`/interactions/{id}/{token}/callback`, `/webhooks/{application}/{token}...`)
   * are exempt, as Discord documents.
   */
  globalLimit?: { perSecond: number };
  /**
   * Per-route buckets on Add and Remove Guild Member Role (Discord: "Rate Limits", per-route limits, one bucket per
   * server as its major parameter): `limit` requests per `resetMs`. Answers carry `X-RateLimit-Bucket`, `-Limit`,
   * `-Remaining`, `-Reset-After`; one more is answered 429 with `X-RateLimit-Scope: user` and `Retry-After`, listed in
   * {@link FakeDiscord.routeLimited}.
   */
  roleRouteLimit?: { limit: number; resetMs: number };
  /**
   * The fake's clock, ms (default `performance.now`): the times it records (`at`, ms since it started) and
   * its rate limits (the global limit's sliding second, the IDENTIFY window) read it, so that a test can
   * move time itself rather than wait for it on a machine that may be busy.
   */
  now?: () => number;
}

/** What each generated guild holds ({@link FakeDiscordOptions.guilds}); `members` counts the bot's own member. */
export const GENERATED_GUILD = { channels: 50, roles: 30, members: 100, emojis: 50 } as const;
/**
 * One step of a snowflake's timestamp (the bits above 22): ids this far apart are on consecutive shards
 * under Discord's rule ({@link shardOf}), so guilds numbered k × SHARD_STEP apart spread over every shard.
 */
const SHARD_STEP = 1n << 22n;
/**
 * The shard a guild's events go to among `total` (Discord: "Sharding", `shard_id = (guild_id >> 22) %
 * num_shards`), computed on the whole snowflake.
 */
export const shardOf = (guildId: string, total: number) => Number((BigInt(guildId) >> 22n) % BigInt(total));
/** Two IDENTIFYs of one rate-limit bucket must be this far apart, ms (Discord: max_concurrency "per 5 seconds"). */
export const IDENTIFY_WINDOW_MS = 5_000;
/**
 * The pairs of consecutive IDENTIFYs in `identifies` (in the order received, any outcome) of one
 * rate-limit bucket (`shard % maxConcurrency`) less than {@link IDENTIFY_WINDOW_MS} apart by their `at`
 * (Discord: "Session Start Limit Object", max_concurrency identifies per 5 seconds).
 */
export function identifyViolations(identifies: readonly IdentifyRecord[], maxConcurrency: number): IdentifyViolation[] {
  const last = new Map<number, IdentifyRecord>();
  const violations: IdentifyViolation[] = [];
  for (const record of identifies) {
    const bucket = record.shard % maxConcurrency;
    const before = last.get(bucket);
    if (before && record.at - before.at < IDENTIFY_WINDOW_MS) violations.push({ bucket, first: before, second: record, apartMs: record.at - before.at });
    last.set(bucket, record);
  }
  return violations;
}
/** The most test guilds a fake serves ({@link FakeDiscordOptions.testGuilds}). */
export const MAX_TEST_GUILDS = 10_000;

/**
 * Ids of test guild number `k` (0-based; 0 is {@link GUILD_ID} with {@link CHANNEL_ID},
 * {@link LOCKED_CHANNEL_ID} and {@link FEED_CHANNEL_IDS}): every test guild has the same four channels,
 * each id the one of guild 0 plus k × 2^22, so guild k is on the shard after guild k − 1's.
 */
export function testGuildIds(k: number) {
  if (!(Number.isInteger(k) && k >= 0 && k < MAX_TEST_GUILDS)) throw new Error(`fake Discord: test guild ${k} is outside 0 to ${MAX_TEST_GUILDS - 1}`);
  const step = BigInt(k) * SHARD_STEP;
  const plus = (id: string) => String(BigInt(id) + step);
  return {
    guildId: plus(GUILD_ID),
    channelId: plus(CHANNEL_ID),
    lockedChannelId: plus(LOCKED_CHANNEL_ID),
    feedChannelIds: [plus(FEED_CHANNEL_IDS[0]), plus(FEED_CHANNEL_IDS[1])] as [string, string],
  };
}
/** The number of the test guild `id`, if it is one (of any count up to {@link MAX_TEST_GUILDS}). */
function testGuildIndex(id: string): number | undefined {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  const n = BigInt(id) - BigInt(GUILD_ID);
  return n >= 0n && n % SHARD_STEP === 0n && n / SHARD_STEP < BigInt(MAX_TEST_GUILDS) ? Number(n / SHARD_STEP) : undefined;
}
/** The test guild and channel position (0 general, 1 locked, 2 and 3 the feeds) of the channel `id`, if it is one. */
function testChannelIndex(id: string): { guild: number; channel: number } | undefined {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  const n = BigInt(id) - BigInt(CHANNEL_ID);
  if (n < 0n || n % SHARD_STEP >= 4n || n / SHARD_STEP >= BigInt(MAX_TEST_GUILDS)) return undefined;
  return { guild: Number(n / SHARD_STEP), channel: Number(n % SHARD_STEP) };
}

/**
 * `interaction` (built by {@link commandInteraction} and the functions beside it, which place it in the
 * one test guild's general channel) moved to guild `guildId` and channel `channelId`; the channel defaults
 * to the general channel of a test guild and to channel 0 of a generated guild. Throws for any other guild
 * without a channel.
 */
export function inGuild<T extends Record<string, unknown>>(interaction: T, guildId: string, channelId?: string): T {
  const k = testGuildIndex(guildId);
  const g = generatedGuildIndex(guildId, 1_000_000);
  const channel = channelId ?? (k !== undefined ? testGuildIds(k).channelId : g !== undefined ? generatedChannelId(g, 0) : undefined);
  if (channel === undefined) throw new Error(`fake Discord: guild ${guildId} is neither a test guild nor a generated one: give the channel`);
  const owners = { '0': guildId };
  const moved: Record<string, unknown> = {
    ...interaction,
    guild_id: guildId,
    channel_id: channel,
    channel: { ...(interaction.channel as Record<string, unknown> | undefined), id: channel, guild_id: guildId },
    authorizing_integration_owners: owners,
  };
  const message = interaction.message as Record<string, unknown> | undefined;
  if (message) {
    const metadata = message.interaction_metadata as Record<string, unknown> | undefined;
    moved.message = { ...message, channel_id: channel, ...(metadata ? { interaction_metadata: { ...metadata, authorizing_integration_owners: owners } } : {}) };
  }
  return moved as T;
}

/** Ids of generated objects: a base per kind, plus the guild's index × 1,000, plus the object's index; a guild's own id is its base plus its index × 2^22, to spread generated guilds over shards. */
const GENERATED_BASE = {
  guild: 950_000_000_000_000_000n,
  channel: 951_000_000_000_000_000n,
  role: 952_000_000_000_000_000n,
  user: 953_000_000_000_000_000n,
  emoji: 954_000_000_000_000_000n,
} as const;
const PER_GUILD = 1_000n;
/** The DM channel id of a user in the fake Discord ("Create DM"): the user's id with a 9 in front. */
export const dmChannelId = (userId: string) => `9${userId}`;
/** Id of generated guild number `guild` (0-based); guild g + 1 is on the shard after guild g's ({@link shardOf}). */
export const generatedGuildId = (guild: number) => String(GENERATED_BASE.guild + BigInt(guild) * SHARD_STEP);
/** Id of text channel number `channel` (0 to {@link GENERATED_GUILD}.channels − 1) of generated guild number `guild`. */
export const generatedChannelId = (guild: number, channel: number) => String(GENERATED_BASE.channel + BigInt(guild) * PER_GUILD + BigInt(channel));
/** Id of role number `role` (1 to 29; role 0 is @everyone, whose id is the guild's) of generated guild number `guild`. */
export const generatedRoleId = (guild: number, role: number) =>
  role === 0 ? generatedGuildId(guild) : String(GENERATED_BASE.role + BigInt(guild) * PER_GUILD + BigInt(role));
/** User id of member number `member` (1 to 99; member 0 is the bot) of generated guild number `guild`. */
export const generatedUserId = (guild: number, member: number) =>
  member === 0 ? APP_ID : String(GENERATED_BASE.user + BigInt(guild) * PER_GUILD + BigInt(member));
const generatedEmojiId = (guild: number, emoji: number) => String(GENERATED_BASE.emoji + BigInt(guild) * PER_GUILD + BigInt(emoji));

/** The guild index and object index of a generated id of `kind`, if it is one (of a guild below `count`). */
function generatedIndex(kind: 'channel' | 'role' | 'user', id: string, count: number, per: number): { guild: number; index: number } | undefined {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  const n = BigInt(id) - GENERATED_BASE[kind];
  if (n < 0n || n >= BigInt(count) * PER_GUILD) return undefined;
  const index = Number(n % PER_GUILD);
  return index < per ? { guild: Number(n / PER_GUILD), index } : undefined;
}
function generatedGuildIndex(id: string, count: number) {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  const n = BigInt(id) - GENERATED_BASE.guild;
  return n >= 0n && n % SHARD_STEP === 0n && n / SHARD_STEP < BigInt(count) ? Number(n / SHARD_STEP) : undefined;
}
/** The indexes of the generated guilds (of `count`) on shard `shard` of `total`, ascending. */
function generatedGuildsOfShard(count: number, shard: number, total: number): number[] {
  // Guild g is on shard ((base >> 22) + g) % total: the ids add g × 2^22 to a fixed base.
  const first = (((shard - Number((GENERATED_BASE.guild >> 22n) % BigInt(total))) % total) + total) % total;
  const out: number[] = [];
  for (let g = first; g < count; g += total) out.push(g);
  return out;
}

const generatedChannel = (guild: number, c: number) => ({
  id: generatedChannelId(guild, c),
  type: 0,
  name: `channel-${c}`,
  position: c,
  topic: null,
  nsfw: false,
  rate_limit_per_user: 0,
  parent_id: null,
  last_message_id: null,
  permission_overwrites: [],
});
const generatedRole = (guild: number, r: number) =>
  r === 0
    ? {
        id: generatedGuildId(guild),
        name: '@everyone',
        permissions: '2248473465835073',
        position: 0,
        color: 0,
        hoist: false,
        managed: false,
        mentionable: false,
        flags: 0,
      }
    : {
        id: generatedRoleId(guild, r),
        name: `role-${r}`,
        permissions: '0',
        position: r,
        color: r * 4_099,
        hoist: r % 5 === 0,
        managed: false,
        mentionable: false,
        flags: 0,
      };
const generatedMember = (guild: number, m: number) =>
  m === 0
    ? { ...member(APP_ID), user: BOT_USER }
    : {
        user: { id: generatedUserId(guild, m), username: `member-${guild}-${m}`, discriminator: '0', global_name: `Member ${m}`, avatar: null },
        roles: [generatedRoleId(guild, 1 + (m % (GENERATED_GUILD.roles - 1)))],
        joined_at: '2025-01-01T00:00:00.000Z',
        nick: null,
        deaf: false,
        mute: false,
        flags: 0,
      };
const generatedEmoji = (guild: number, e: number) => ({
  id: generatedEmojiId(guild, e),
  name: `emoji_${e}`,
  roles: [],
  require_colons: true,
  managed: false,
  animated: false,
  available: true,
});
const range = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));

/** Generated guild number `guild` as GUILD_CREATE sends it in `shape` ({@link FakeDiscordOptions.guilds}). */
export function generatedGuild(guild: number, shape: GuildShape) {
  return {
    id: generatedGuildId(guild),
    name: `Bench Guild ${guild + 1}`,
    icon: null,
    owner_id: generatedUserId(guild, 1),
    unavailable: false,
    member_count: GENERATED_GUILD.members,
    large: false,
    joined_at: '2025-01-01T00:00:00.000Z',
    roles: range(GENERATED_GUILD.roles, (r) => generatedRole(guild, r)),
    channels: range(GENERATED_GUILD.channels, (c) => generatedChannel(guild, c)),
    members: shape === 'full' ? range(GENERATED_GUILD.members, (m) => generatedMember(guild, m)) : [generatedMember(guild, 0)],
    emojis: range(GENERATED_GUILD.emojis, (e) => generatedEmoji(guild, e)),
    ...EMPTY_GUILD_LISTS,
  };
}

/** Interaction routes, which Discord does not count against the global rate limit. */
const INTERACTION_ROUTE = /^\/(interactions\/\d+\/[^/]+\/callback|webhooks\/\d+\/[^/]+(\/.*)?)$/;

/** Discord's epoch (2015-01-01T00:00:00Z), ms since the Unix epoch: snowflakes count from it. */
export const DISCORD_EPOCH = 1_420_070_400_000;
let snowflake = 0n;
/**
 * A fresh snowflake id as text, minted from the current time as Discord does (Discord: "Snowflakes":
 * ms since {@link DISCORD_EPOCH} in the top 42 bits), so an interaction's id tells when it was created.
 * Strictly increasing.
 */
export const nextId = (at = Date.now()) => {
  const minted = (BigInt(at - DISCORD_EPOCH) << 22n) | (1n << 17n);
  snowflake = minted > snowflake ? minted : snowflake + 1n;
  return String(snowflake);
};
/** When the snowflake `id` was minted, ms since the Unix epoch. */
export const createdAtOf = (id: string) => Number(BigInt(id) >> 22n) + DISCORD_EPOCH;

/** A guild member payload; `permissions` is the member's bitfield in the channel (default: no Manage Server). */
function member(userId: string, permissions = '2248473465835073') {
  return {
    user: { id: userId, username: `member${userId.slice(-2)}`, discriminator: '0', global_name: `Member ${userId.slice(-2)}`, avatar: null },
    roles: [],
    permissions,
    joined_at: '2025-01-01T00:00:00.000Z',
    deaf: false,
    mute: false,
    flags: 0,
  };
}

/** The lists of a GUILD_CREATE the fake never fills. */
const EMPTY_GUILD_LISTS = {
  threads: [],
  stickers: [],
  features: [],
  presences: [],
  voice_states: [],
  stage_instances: [],
  guild_scheduled_events: [],
  soundboard_sounds: [],
};

/** Test guild `k` ({@link testGuildIds}) as GUILD_CREATE sends it: the channels, the @everyone role, and the bot's own member. */
function testGuild(k = 0) {
  const { guildId, channelId, lockedChannelId, feedChannelIds } = testGuildIds(k);
  return {
    id: guildId,
    name: k === 0 ? 'Rivals Test Server' : `Rivals Test Server ${k + 1}`,
    icon: null,
    owner_id: '200000000000000001',
    unavailable: false,
    member_count: 3,
    large: false,
    joined_at: '2025-01-01T00:00:00.000Z',
    roles: [
      { id: guildId, name: '@everyone', permissions: '2248473465835073', position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 },
    ],
    channels: [
      { id: channelId, type: 0, name: 'general', position: 0, permission_overwrites: [] },
      { id: lockedChannelId, type: 0, name: 'locked', position: 1, permission_overwrites: [{ id: guildId, type: 0, allow: '0', deny: String(0x800) }] },
      ...feedChannelIds.map((id, i) => ({ id, type: 0, name: `feed-${i + 1}`, position: 2 + i, permission_overwrites: [] })),
    ],
    members: [{ ...member(APP_ID), user: BOT_USER }],
    emojis: [],
    ...EMPTY_GUILD_LISTS,
  };
}

/** A message by the bot, as Discord returns it; `fields` override the defaults. */
export function botMessage(fields: Record<string, unknown> = {}) {
  return {
    id: nextId(),
    channel_id: CHANNEL_ID,
    author: BOT_USER,
    content: '',
    embeds: [],
    components: [],
    attachments: [],
    mentions: [],
    mention_roles: [],
    pinned: false,
    mention_everyone: false,
    tts: false,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    flags: 0,
    type: 0,
    ...fields,
  };
}

/** The common part of every interaction payload. */
export function interactionBase(userId: string, permissions?: string) {
  return {
    id: nextId(),
    application_id: APP_ID,
    token: `token-${nextId()}`,
    version: 1,
    guild_id: GUILD_ID,
    channel_id: CHANNEL_ID,
    channel: { id: CHANNEL_ID, type: 0, guild_id: GUILD_ID, name: 'general' },
    member: member(userId, permissions),
    app_permissions: '2248473465835073',
    locale: 'en-US',
    guild_locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': GUILD_ID },
    context: 0,
  };
}

type OptionValue = string | number | boolean | { channel: string } | { role: string };

/** One option of an interaction: channels and roles are given as `{channel: id}` / `{role: id}`. */
function optionOf(name: string, value: OptionValue) {
  if (typeof value === 'object' && 'channel' in value) return { name, type: 7, value: value.channel };
  if (typeof value === 'object' && 'role' in value) return { name, type: 8, value: value.role };
  return { name, type: typeof value === 'number' ? 10 : typeof value === 'boolean' ? 5 : 3, value };
}

/** Resolved channels of the options (Discord sends partial channel objects for channel options). */
function resolvedOf(options: Record<string, OptionValue>) {
  const channels: Record<string, unknown> = {};
  for (const v of Object.values(options))
    if (typeof v === 'object' && 'channel' in v) channels[v.channel] = { id: v.channel, type: 0, name: 'feed', permissions: '2248473465835073' };
  return Object.keys(channels).length > 0 ? { resolved: { channels } } : {};
}

/** An APPLICATION_COMMAND interaction (type 2) for `/name [subcommand] option:value...`. */
export function commandInteraction(
  userId: string,
  name: string,
  options: Record<string, OptionValue> = {},
  extra: { subcommand?: string; permissions?: string } = {},
) {
  const list = Object.entries(options).map(([n, v]) => optionOf(n, v));
  return {
    ...interactionBase(userId, extra.permissions),
    type: 2,
    data: {
      id: nextId(),
      name,
      type: 1,
      options: extra.subcommand ? [{ name: extra.subcommand, type: 1, options: list }] : list,
      ...resolvedOf(options),
    },
  };
}

/** A user context-menu command (type 2, command type 2) used on `targetId`. */
export function userCommandInteraction(userId: string, name: string, targetId: string) {
  const target = member(targetId);
  return {
    ...interactionBase(userId),
    type: 2,
    data: {
      id: nextId(),
      name,
      type: 2,
      target_id: targetId,
      resolved: { users: { [targetId]: target.user }, members: { [targetId]: { ...target, user: undefined } } },
    },
  };
}

/** An APPLICATION_COMMAND_AUTOCOMPLETE interaction (type 4) with `focused` being typed. */
export function autocompleteInteraction(userId: string, name: string, focused: string, value: string) {
  return {
    ...interactionBase(userId),
    type: 4,
    data: { id: nextId(), name, type: 1, options: [{ name: focused, type: 3, value, focused: true }] },
  };
}

/** A MESSAGE_COMPONENT interaction (type 3) on a message that answered `invokerId`'s command. */
export function componentInteraction(userId: string, invokerId: string, customId: string, values?: string[]) {
  return {
    ...interactionBase(userId),
    type: 3,
    data: values ? { custom_id: customId, component_type: 3, values } : { custom_id: customId, component_type: 2 },
    message: botMessage({
      type: 20,
      application_id: APP_ID,
      interaction_metadata: { id: nextId(), type: 2, user: member(invokerId).user, authorizing_integration_owners: { '0': GUILD_ID } },
    }),
  };
}

/**
 * The answer of a generated guild's REST route (Discord: Get Channel, Get Guild, Get Guild Roles, Get
 * Guild Member), or undefined when `path` is not one of them.
 */
function generatedRoute(path: string, count: number): { status: number; body: unknown } | undefined {
  const channel = path.match(/^\/channels\/(\d+)$/);
  if (channel) {
    const at = generatedIndex('channel', channel[1]!, count, GENERATED_GUILD.channels);
    return at && { status: 200, body: { ...generatedChannel(at.guild, at.index), guild_id: generatedGuildId(at.guild) } };
  }
  const guildRoute = path.match(/^\/guilds\/(\d+)(\/roles|\/members\/(\d+))?$/);
  const guild = guildRoute ? generatedGuildIndex(guildRoute[1]!, count) : undefined;
  if (!guildRoute || guild === undefined) return undefined;
  if (guildRoute[2] === '/roles') return { status: 200, body: range(GENERATED_GUILD.roles, (r) => generatedRole(guild, r)) };
  if (guildRoute[3] !== undefined) {
    const userId = guildRoute[3];
    const m = userId === APP_ID ? 0 : generatedIndex('user', userId, count, GENERATED_GUILD.members);
    if (m === 0) return { status: 200, body: generatedMember(guild, 0) };
    return m && m.guild === guild && m.index > 0
      ? { status: 200, body: generatedMember(guild, m.index) }
      : { status: 404, body: { message: 'Unknown Member', code: 10007 } };
  }
  return { status: 200, body: { ...generatedGuild(guild, 'guilds-intent'), channels: undefined, members: undefined } };
}

/** GUILD_CREATE events sent before waiting for the socket to drain: bounds what sits in the fake's send buffer. */
const GUILD_CREATE_BATCH = 50;

/**
 * Sends one GUILD_CREATE per generated guild of `indexes` on `ws`, in order, waiting for the socket to
 * take each batch. Resolves true once the last was written, false if the connection closed first.
 */
async function sendGeneratedGuilds(ws: WebSocket, session: { sequence: number }, indexes: readonly number[], shape: GuildShape): Promise<boolean> {
  for (let i = 0; i < indexes.length; i++) {
    if (ws.readyState !== ws.OPEN) return false;
    const text = JSON.stringify({ op: 0, t: 'GUILD_CREATE', s: ++session.sequence, d: generatedGuild(indexes[i]!, shape) });
    if (i % GUILD_CREATE_BATCH === GUILD_CREATE_BATCH - 1 || i === indexes.length - 1) {
      const written = await new Promise<boolean>((resolve) => ws.send(text, (err) => resolve(!err)));
      if (!written) return false;
    } else {
      ws.send(text);
    }
  }
  return true;
}

/**
 * A request's body: JSON parsed (or the text when it is not JSON); for multipart/form-data, the
 * `payload_json` part parsed, and the file parts.
 */
function readBody(req: IncomingMessage): Promise<{ body: unknown; files?: UploadedFile[] }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const type = req.headers['content-type'] ?? '';
      if (type.startsWith('multipart/form-data')) {
        void new Response(raw, { headers: { 'content-type': type } })
          // eslint-disable-next-line @typescript-eslint/no-deprecated -- a test fake reading multipart bodies; no server load
          .formData()
          .then(async (form) => {
            const files: UploadedFile[] = [];
            let body: unknown;
            for (const [field, value] of form.entries()) {
              if (typeof value === 'string') {
                if (field === 'payload_json') body = JSON.parse(value);
              } else {
                files.push({ field, filename: value.name, contentType: value.type, data: Buffer.from(await value.arrayBuffer()) });
              }
            }
            resolve({ body, files });
          })
          .catch(() => resolve({ body: raw.toString('utf8') }));
        return;
      }
      const text = raw.toString('utf8');
      try {
        resolve({ body: text ? JSON.parse(text) : undefined });
      } catch {
        resolve({ body: text });
      }
    });
  });
}

/** The close codes after which Discord wants a new session ("Gateway Close Event Codes"): the invalid ones and those not reconnectable. */
const NEW_SESSION_CODES = [4007, 4009, 4004, 4010, 4011, 4012, 4013, 4014];

/**
 * Starts the fake on loopback; without `options`, with one shard, the one test guild and no rate limit.
 * Throws when an option is out of its range.
 */
export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const clock = options.now ?? (() => performance.now());
  const started = clock();
  const generated = options.guilds;
  if (generated && !(Number.isInteger(generated.count) && generated.count >= 1 && generated.count <= 1_000_000))
    throw new Error('fake Discord: guilds.count must be an integer from 1 to 1,000,000');
  const shards = options.shards ?? 1;
  const maxConcurrency = options.maxConcurrency ?? 1;
  if (!(Number.isInteger(shards) && shards >= 1)) throw new Error('fake Discord: shards must be a positive integer');
  if (!(Number.isInteger(maxConcurrency) && maxConcurrency >= 1)) throw new Error('fake Discord: maxConcurrency must be a positive integer');
  const testGuildCount = options.testGuilds ?? (generated ? 0 : shards);
  if (!(Number.isInteger(testGuildCount) && testGuildCount >= 0 && testGuildCount <= MAX_TEST_GUILDS))
    throw new Error(`fake Discord: testGuilds must be an integer from 0 to ${MAX_TEST_GUILDS}`);
  /** Test guilds REST answers for: test guild 0 always, as before there were several. */
  const restTestGuilds = Math.max(1, testGuildCount);
  /** Arrival times (on {@link FakeDiscordOptions.now}) of the bot-token requests let through in the last second, oldest first. */
  const window: number[] = [];
  const globalLimited: RestCall[] = [];
  let readySentAt: number | undefined;
  let guildsSentAt: number | undefined;
  const calls: RestCall[] = [];
  const waiters: { test: (c: RestCall) => boolean; resolve: (c: RestCall) => void }[] = [];
  /** The connection opened last (authenticated or not): {@link FakeDiscord.closeGateway} closes it. */
  let latest: WebSocket | undefined;
  const channelMessages = new Map<string, Record<string, unknown>[]>();
  const failures = new Map<string, { status: number; code: number; message: string }>();
  const routeLimited: (RestCall & { retryAfterMs: number })[] = [];
  /** Members whose role route fails, and how ({@link FakeDiscord.failMemberRoles}). */
  const memberFaults = new Map<string, MemberRoleFault>();
  /** Each role route bucket (one per server): requests let through in its current window, and when the window ends (on the clock). */
  const roleBuckets = new Map<string, { used: number; resetAt: number }>();
  /** The test guilds' roles and members, made from {@link testGuild} when first read or changed. */
  const oauth: FakeDiscord['oauth'] = { signInAs: null, clientSecret: FAKE_CLIENT_SECRET, revoked: [] };
  /** Codes not yet traded, and tokens given, each to whom signed in. */
  const oauthCodes = new Map<string, { who: NonNullable<FakeDiscord['oauth']['signInAs']>; redirectUri: string }>();
  const oauthTokens = new Map<string, NonNullable<FakeDiscord['oauth']['signInAs']>>();
  const channelNames = new Map<string, string>();
  const named = <C extends { id: string; name: string }>(c: C): C => ({ ...c, name: channelNames.get(c.id) ?? c.name });
  const guildStates = new Map<string, { roles: FakeRole[]; members: Map<string, string[]> }>();
  const guildState = (guildId: string) => {
    let state = guildStates.get(guildId);
    if (!state) {
      const k = testGuildIndex(guildId);
      if (k === undefined) throw new Error(`fake Discord: ${guildId} is not a test guild`);
      const g = testGuild(k);
      state = {
        roles: g.roles.map((r) => ({ id: r.id, name: r.name, position: r.position, permissions: r.permissions, managed: r.managed })),
        members: new Map(g.members.map((m) => [m.user.id, [...m.roles] as string[]])),
      };
      guildStates.set(guildId, state);
    }
    return state;
  };
  const guildRoles: FakeGuildRoles = {
    addRole(guildId, role) {
      const id = nextId();
      guildState(guildId).roles.push({
        id,
        name: role.name,
        position: role.position,
        permissions: String(role.permissions ?? 0n),
        managed: role.managed ?? false,
      });
      return id;
    },
    editRole(guildId, roleId, change) {
      const role = guildState(guildId).roles.find((r) => r.id === roleId);
      if (!role) throw new Error(`fake Discord: no role ${roleId}`);
      if (change.position !== undefined) role.position = change.position;
      if (change.permissions !== undefined) role.permissions = String(change.permissions);
    },
    deleteRole(guildId, roleId) {
      const state = guildState(guildId);
      state.roles = state.roles.filter((r) => r.id !== roleId);
      for (const [user, roles] of state.members)
        state.members.set(
          user,
          roles.filter((r) => r !== roleId),
        );
    },
    setMember(guildId, userId, roleIds = []) {
      guildState(guildId).members.set(userId, [...roleIds]);
    },
    removeMember(guildId, userId) {
      guildState(guildId).members.delete(userId);
    },
    memberRoles(guildId, userId) {
      const roles = guildState(guildId).members.get(userId);
      return roles ? [...roles] : undefined;
    },
  };
  /** A test guild's member object as Get Guild Member answers it. */
  const memberObject = (guildId: string, userId: string) => {
    const roles = guildState(guildId).members.get(userId);
    return roles && { ...member(userId), ...(userId === APP_ID ? { user: BOT_USER } : {}), roles };
  };
  /**
   * Add or Remove Guild Member Role on a test guild, checked as Discord does: the member (10007), the role (10011), then
   * the bot's Manage Roles and that the role is below the bot's highest (50013 Missing Permissions).
   */
  const changeMemberRole = (guildId: string, userId: string, roleId: string, add: boolean): { status: number; body?: unknown } => {
    const state = guildState(guildId);
    const roles = state.members.get(userId);
    if (!roles) return { status: 404, body: { message: 'Unknown Member', code: 10007 } };
    const role = state.roles.find((r) => r.id === roleId);
    if (!role) return { status: 404, body: { message: 'Unknown Role', code: 10011 } };
    const mine = new Set(state.members.get(APP_ID) ?? []);
    let bits = 0n;
    let top = 0;
    for (const r of state.roles)
      if (r.id === guildId || mine.has(r.id)) {
        bits |= BigInt(r.permissions);
        if (r.id !== guildId) top = Math.max(top, r.position);
      }
    const may = (bits & (0x8n | 0x10000000n)) !== 0n;
    if (!may || role.managed || role.position >= top) return { status: 403, body: { message: 'Missing Permissions', code: 50013 } };
    const next = roles.filter((r) => r !== roleId);
    state.members.set(userId, add ? [...next, roleId] : next);
    return { status: 204 };
  };
  let uploadFailure: { status: number; code: number; message: string } | undefined;
  let emojiFailure: { status: number; code: number; message: string } | undefined;
  const appEmojis: { id: string; name: string; image: Buffer }[] = [];
  const emojiJson = (e: { id: string; name: string }) => ({
    id: e.id,
    name: e.name,
    animated: false,
    available: true,
    require_colons: true,
    managed: false,
    roles: [],
  });
  const nonces = new Map<string, Record<string, unknown>>();
  /** Registered application commands by route (global, or one guild's), as "Bulk Overwrite" left them. */
  const registeredCommands = new Map<string, Record<string, unknown>[]>();
  let channelDelayMs = 0;
  let identify: unknown;
  let readyResolve: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (readyResolve = resolve));
  /** Per shard id, resolved when a session of that shard first sent its guilds ({@link FakeDiscord.ready}). */
  const shardReady = new Map<number, { promise: Promise<void>; resolve: () => void }>();
  const shardReadyOf = (shard: number) => {
    let entry = shardReady.get(shard);
    if (!entry) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((r) => (resolve = r));
      entry = { promise, resolve };
      shardReady.set(shard, entry);
    }
    return entry;
  };
  /**
   * A gateway session: its shard, the last sequence number sent, and the dispatches sent (the last
   * {@link REPLAY_LIMIT}) to replay on RESUME. `valid` false: a RESUME gets INVALID_SESSION. `socket`:
   * the open connection that identified or resumed it last, which its dispatches are written to.
   */
  interface Session {
    id: string;
    shard: number;
    total: number;
    sequence: number;
    sent: { s: number; text: string }[];
    valid: boolean;
    socket?: WebSocket;
  }
  /** Every session started, by id, oldest first. */
  const sessions = new Map<string, Session>();
  /** The session each connection identified or resumed. */
  const sessionOfSocket = new WeakMap<WebSocket, Session>();
  /** The session started last: what {@link FakeDiscord.closeGateway} ends when the connection opened last has none. */
  let lastSession: Session | undefined;
  let sessionCount = 0;
  const REPLAY_LIMIT = 1_000;
  const gatewayOps: { op: number; at: number }[] = [];
  const gatewayCloses: { code: number; by: 'fake' | 'client'; at: number }[] = [];
  const identifies: IdentifyRecord[] = [];
  const rejections: { code: number; on: readonly ('identify' | 'resume')[] }[] = [];
  const sessionWaiters: { shard?: number; resolve: (how: 'identified' | 'resumed') => void }[] = [];
  const sessionStarted = (how: 'identified' | 'resumed', shard: number) => {
    for (const w of [...sessionWaiters])
      if (w.shard === undefined || w.shard === shard) {
        sessionWaiters.splice(sessionWaiters.indexOf(w), 1);
        w.resolve(how);
      }
  };
  /** The shard count clients use: the last session's, else the recommended one (for error messages). */
  const totalInUse = () => lastSession?.total ?? shards;
  /** The guild a dispatch's data is about, if any. */
  const guildOf = (d: unknown) => {
    const id = (d as { guild_id?: unknown } | null | undefined)?.guild_id;
    return typeof id === 'string' && /^\d{1,20}$/.test(id) ? id : undefined;
  };
  /** The valid sessions a dispatch about `guildId` goes to: its shard at each session's count, or shard 0 without a guild. */
  const targetsOf = (guildId: string | undefined) =>
    [...sessions.values()].filter((s) => s.valid && s.shard === (guildId === undefined ? 0 : shardOf(guildId, s.total)));
  const shardLabel = (guildId: string | undefined) => `shard ${guildId === undefined ? 0 : shardOf(guildId, totalInUse())}`;
  /** Sends a dispatch on `targets` (kept for a replay), to each one's connection if it has one. */
  const sendDispatch = (targets: Session[], t: string, d: unknown) => {
    for (const session of targets) {
      const s = ++session.sequence;
      const text = JSON.stringify({ op: 0, t, s, d });
      session.sent.push({ s, text });
      if (session.sent.length > REPLAY_LIMIT) session.sent.shift();
      session.socket?.send(text);
    }
  };
  /** Detaches `ws` from its session, if it is that session's connection. */
  const detach = (ws: WebSocket) => {
    const session = sessionOfSocket.get(ws);
    if (session?.socket === ws) session.socket = undefined;
  };
  /** Closes `ws` with `code`, recording it. */
  const closedByFake = new WeakSet<WebSocket>();
  const closeWith = (ws: WebSocket, code: number, reason = '') => {
    closedByFake.add(ws);
    gatewayCloses.push({ code, by: 'fake', at: clock() - started });
    detach(ws);
    ws.close(code, reason);
  };
  /** The test guilds and generated guilds of shard `shard` of `total`. */
  const guildsOf = (shard: number, total: number) => ({
    test: range(testGuildCount, (k) => k).filter((k) => shardOf(testGuildIds(k).guildId, total) === shard),
    generated: generated ? generatedGuildsOfShard(generated.count, shard, total) : [],
  });
  /** Whether an IDENTIFY of `shard` now is too early in its bucket: the last one answered by READY there was less than the window ago. */
  const tooEarly = (shard: number, at: number) => {
    const bucket = shard % maxConcurrency;
    const last = identifies.findLast((i) => i.outcome === 'ready' && i.shard % maxConcurrency === bucket);
    return last !== undefined && at - last.at < IDENTIFY_WINDOW_MS;
  };

  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a test server: Node ignores the handler's promise
  const server: Server = createServer(async (req, res) => {
    const arrivedAt = clock() - started;
    const receivedAt = Date.now();
    const url = new URL(req.url ?? '/', 'http://fake');
    const { body, files } = await readBody(req);
    const call: RestCall = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(url.pathname).replace(/^\/api(\/v\d+)?(?=\/)/, ''),
      query: url.search,
      body,
      at: arrivedAt,
      receivedAt,
      authorization: req.headers.authorization,
      ...(files ? { files } : {}),
    };
    calls.push(call);
    for (const w of [...waiters])
      if (w.test(call)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(call);
      }
    const json = (status: number, data?: unknown) => {
      res.writeHead(status, data === undefined ? {} : { 'content-type': 'application/json' });
      res.end(data === undefined ? undefined : JSON.stringify(data));
    };
    const p = call.path;
    if (options.globalLimit && call.authorization?.startsWith('Bot ') && !INTERACTION_ROUTE.test(p)) {
      const now = clock();
      while (window.length > 0 && window[0]! <= now - 1_000) window.shift();
      if (window.length >= options.globalLimit.perSecond) {
        globalLimited.push(call);
        const retryAfter = Math.max(0.001, (window[0]! + 1_000 - now) / 1_000);
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(Math.ceil(retryAfter)),
          'x-ratelimit-global': 'true',
          'x-ratelimit-scope': 'global',
        });
        res.end(JSON.stringify({ message: 'You are being rate limited.', retry_after: Number(retryAfter.toFixed(3)), global: true }));
        return;
      }
      window.push(now);
    }
    const roleRoute = p.match(/^\/guilds\/(\d+)\/members\/(\d+)\/roles\/(\d+)$/);
    if (roleRoute && (req.method === 'PUT' || req.method === 'DELETE') && testGuildIndex(roleRoute[1]!) !== undefined) {
      const [, guildId, userId, roleId] = roleRoute as unknown as [string, string, string, string];
      const fault = memberFaults.get(userId);
      // No answer: the client's deadline, or the fake's close, ends the request.
      if (fault === 'hang') return;
      const headers: Record<string, string> = {};
      if (options.roleRouteLimit) {
        const { limit, resetMs } = options.roleRouteLimit;
        const now = clock();
        let bucket = roleBuckets.get(guildId);
        if (!bucket || now >= bucket.resetAt) roleBuckets.set(guildId, (bucket = { used: 0, resetAt: now + resetMs }));
        const resetAfter = Math.max(0.001, (bucket.resetAt - now) / 1000).toFixed(3);
        Object.assign(headers, {
          'x-ratelimit-bucket': `member-roles-${guildId}`,
          'x-ratelimit-limit': String(limit),
          'x-ratelimit-remaining': String(Math.max(0, limit - bucket.used)),
          'x-ratelimit-reset-after': resetAfter,
          'x-ratelimit-reset': ((Date.now() + (bucket.resetAt - now)) / 1000).toFixed(3),
        });
        if (bucket.used >= limit) {
          routeLimited.push({ ...call, retryAfterMs: bucket.resetAt - now });
          res.writeHead(429, {
            'content-type': 'application/json',
            ...headers,
            'x-ratelimit-remaining': '0',
            'x-ratelimit-scope': 'user',
            'retry-after': resetAfter,
          });
          res.end(JSON.stringify({ message: 'You are being rate limited.', retry_after: Number(resetAfter), global: false }));
          return;
        }
        if (!fault) {
          bucket.used++;
          headers['x-ratelimit-remaining'] = String(limit - bucket.used);
        }
      }
      if (fault?.status === 429) {
        const retryAfter = ((fault as { retryAfterMs: number }).retryAfterMs / 1000).toFixed(3);
        res.writeHead(429, { ...headers, 'content-type': 'application/json', 'x-ratelimit-scope': 'shared', 'retry-after': retryAfter });
        res.end(JSON.stringify({ message: 'The resource is being rate limited.', retry_after: Number(retryAfter), global: false }));
        return;
      }
      if (fault) {
        const { status, code = 0, message = 'Internal Server Error' } = fault as { status: number; code?: number; message?: string };
        res.writeHead(status, { ...headers, 'content-type': 'application/json' });
        res.end(JSON.stringify({ message, code }));
        return;
      }
      const answer = changeMemberRole(guildId, userId, roleId, req.method === 'PUT');
      res.writeHead(answer.status, { ...headers, ...(answer.body ? { 'content-type': 'application/json' } : {}) });
      res.end(answer.body ? JSON.stringify(answer.body) : undefined);
      return;
    }
    if (files) {
      if (uploadFailure) return json(uploadFailure.status, { message: uploadFailure.message, code: uploadFailure.code });
      // Discord: every attachment of the JSON names a part files[id] with that file name; anything else is an invalid form body.
      const b = body as { attachments?: unknown; data?: { attachments?: unknown } } | undefined;
      const attachments = (b?.data?.attachments ?? b?.attachments ?? []) as { id?: unknown; filename?: unknown }[];
      const matched =
        Array.isArray(attachments) && attachments.every((a) => files.some((f) => f.field === `files[${String(a.id)}]` && f.filename === a.filename));
      if (!matched || attachments.length !== files.length) return json(400, { message: 'Invalid Form Body', code: 50035 });
    }
    if (p === '/gateway/bot')
      return json(200, {
        url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
        shards,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: maxConcurrency },
      });
    if (p === '/gateway') return json(200, { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}` });
    if (/^\/interactions\/\d+\/[^/]+\/callback$/.test(p)) return json(204);
    if (/^\/webhooks\/\d+\/[^/]+\/messages\/@original$/.test(p))
      return req.method === 'DELETE' ? json(204) : json(200, botMessage(body as Record<string, unknown>));
    if (/^\/webhooks\/\d+\/[^/]+$/.test(p)) return json(200, botMessage(body as Record<string, unknown>));
    if (/^\/applications\/\d+(\/guilds\/\d+)?\/commands$/.test(p) && req.method === 'PUT') {
      // Discord: "Bulk Overwrite": a command keeps its id when one of the same name and type was registered.
      const before = registeredCommands.get(p) ?? [];
      const after = (body as Record<string, unknown>[]).map((c) => ({
        ...c,
        id: (before.find((b) => b.name === c.name && (b.type ?? 1) === (c.type ?? 1))?.id as string | undefined) ?? nextId(),
        application_id: APP_ID,
        version: nextId(),
      }));
      registeredCommands.set(p, after);
      return json(200, after);
    }
    if (/^\/applications\/\d+(\/guilds\/\d+)?\/commands$/.test(p) && req.method === 'GET') return json(200, registeredCommands.get(p) ?? []);
    if (/^\/applications\/\d+\/emojis$/.test(p) && req.method === 'GET') return json(200, { items: appEmojis.map(emojiJson) });
    if (/^\/applications\/\d+\/emojis$/.test(p) && req.method === 'POST') {
      if (emojiFailure) return json(emojiFailure.status, { message: emojiFailure.message, code: emojiFailure.code });
      const { name, image } = (body ?? {}) as { name?: unknown; image?: unknown };
      const data = typeof image === 'string' ? /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)$/.exec(image) : null;
      if (typeof name !== 'string' || !/^\w{2,32}$/.test(name) || !data) return json(400, { message: 'Invalid Form Body', code: 50035 });
      if (appEmojis.some((e) => e.name === name))
        return json(400, { message: 'Invalid Form Body', code: 50035, errors: { name: { _errors: [{ code: 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN' }] } } });
      const bytes = Buffer.from(data[2]!, 'base64');
      if (bytes.byteLength > 256 * 1024) return json(400, { message: 'File uploaded exceeds the maximum size', code: 50045 });
      const created = { id: nextId(), name, image: bytes };
      appEmojis.push(created);
      return json(201, emojiJson(created));
    }
    const appEmoji = p.match(/^\/applications\/\d+\/emojis\/(\d+)$/);
    if (appEmoji && req.method === 'DELETE') {
      const at = appEmojis.findIndex((e) => e.id === appEmoji[1]);
      if (at === -1) return json(404, { message: 'Unknown Emoji', code: 10014 });
      appEmojis.splice(at, 1);
      return json(204);
    }
    const channelMessage = p.match(/^\/channels\/(\d+)\/messages$/);
    if (channelMessage && req.method === 'POST') {
      const channelId = channelMessage[1]!;
      if (channelDelayMs > 0) await new Promise((r) => setTimeout(r, channelDelayMs));
      const failure = failures.get(channelId);
      if (failure) return json(failure.status, { message: failure.message, code: failure.code });
      const b = body as Record<string, unknown>;
      // Discord: with enforce_nonce, a nonce used in the last few minutes returns the message it created.
      const nonceKey = b.enforce_nonce && typeof b.nonce === 'string' ? `${channelId}:${b.nonce}` : undefined;
      if (nonceKey && nonces.has(nonceKey)) return json(200, nonces.get(nonceKey));
      const created = botMessage({ ...b, channel_id: channelId });
      if (nonceKey) nonces.set(nonceKey, created);
      channelMessages.set(channelId, [...(channelMessages.get(channelId) ?? []), created]);
      return json(200, created);
    }
    // Discord: "Get Channel Messages": `after` a snowflake (the `limit`, 1 to 100, default 50, first messages after it), else the
    // latest; newest first. A message read back has no `enforce_nonce` or `allowed_mentions`, and its `nonce` only while
    // Discord keeps it (a recent message).
    if (channelMessage && req.method === 'GET') {
      const channelId = channelMessage[1]!;
      const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 50) || 50));
      const after = url.searchParams.get('after');
      const all = channelMessages.get(channelId) ?? [];
      const picked = after ? all.filter((m) => BigInt(m.id as string) > BigInt(after)).slice(0, limit) : all.slice(-limit);
      return json(
        200,
        picked.toReversed().map(({ enforce_nonce: _enforce, allowed_mentions: _mentions, nonce, ...m }) => {
          const recent = typeof nonce === 'string' && nonces.get(`${channelId}:${nonce}`)?.id === m.id;
          return recent ? { ...m, nonce } : m;
        }),
      );
    }
    if (/^\/channels\/\d+\/messages\/\d+\/crosspost$/.test(p)) return json(200, botMessage());
    // Discord: "Edit Message". The fields given replace the message's; a deleted or unknown message is 10008.
    const messageEdit = p.match(/^\/channels\/(\d+)\/messages\/(\d+)$/);
    if (messageEdit && req.method === 'PATCH') {
      const [, channelId, messageId] = messageEdit as unknown as [string, string, string];
      if (channelDelayMs > 0) await new Promise((r) => setTimeout(r, channelDelayMs));
      const list = channelMessages.get(channelId) ?? [];
      const index = list.findIndex((m) => m.id === messageId);
      if (index < 0) return json(404, { message: 'Unknown Message', code: 10008 });
      const edited = { ...list[index]!, ...(body as Record<string, unknown>), edited_timestamp: new Date().toISOString() };
      list[index] = edited;
      return json(200, edited);
    }
    // Discord: "OAuth2". The authorize page answers at once for the person of `oauth.signInAs`, as if they pressed Authorize.
    if (p === '/oauth2/authorize' && req.method === 'GET') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri');
      const scopes = new Set((q.get('scope') ?? '').split(/[ +]/));
      if (q.get('client_id') !== APP_ID || q.get('response_type') !== 'code' || !redirectUri || !scopes.has('identify') || !scopes.has('guilds'))
        return json(400, { message: 'Invalid OAuth2 request', code: 50035 });
      const back = new URL(redirectUri);
      if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
      if (!oauth.signInAs) back.searchParams.set('error', 'access_denied');
      else {
        const code = `code-${nextId()}`;
        oauthCodes.set(code, { who: oauth.signInAs, redirectUri });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (p === '/oauth2/token' && req.method === 'POST') {
      const form = new URLSearchParams(typeof body === 'string' ? body : '');
      const basic = /^Basic (.+)$/.exec(call.authorization ?? '');
      const [clientId, secret] = basic
        ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').map(decodeURIComponent)
        : [form.get('client_id'), form.get('client_secret')];
      if (clientId !== APP_ID || secret !== oauth.clientSecret) return json(401, { error: 'invalid_client' });
      const code = form.get('code') ?? '';
      const given = oauthCodes.get(code);
      // A code is good once, for the redirect it was given to.
      oauthCodes.delete(code);
      if (form.get('grant_type') !== 'authorization_code' || !given || given.redirectUri !== form.get('redirect_uri'))
        return json(400, { error: 'invalid_grant' });
      const token = `token-${nextId()}`;
      oauthTokens.set(token, given.who);
      return json(200, { access_token: token, token_type: 'Bearer', expires_in: 604_800, refresh_token: `refresh-${nextId()}`, scope: 'identify guilds' });
    }
    if (p === '/oauth2/token/revoke' && req.method === 'POST') {
      const token = new URLSearchParams(typeof body === 'string' ? body : '').get('token') ?? '';
      if (oauthTokens.delete(token)) oauth.revoked.push(token);
      return json(200, {});
    }
    const bearer = /^Bearer (.+)$/.exec(call.authorization ?? '')?.[1];
    if (bearer !== undefined && (p === '/users/@me' || p === '/users/@me/guilds')) {
      const who = oauthTokens.get(bearer);
      if (!who) return json(401, { message: '401: Unauthorized', code: 0 });
      return p === '/users/@me'
        ? json(200, { discriminator: '0', global_name: null, avatar: null, ...who.user })
        : json(
            200,
            who.guilds.map((g) => ({ features: [], ...g })),
          );
    }
    if (p === '/users/@me') return json(200, BOT_USER);
    // Discord: "Create DM". The same DM channel for a user every time; here its id is the user's with a 9 in front.
    if (p === '/users/@me/channels' && req.method === 'POST') {
      const recipient = String((body as { recipient_id?: unknown } | undefined)?.recipient_id ?? '');
      if (!/^\d{1,20}$/.test(recipient)) return json(400, { message: 'Invalid Form Body', code: 50035 });
      return json(200, {
        id: dmChannelId(recipient),
        type: 1,
        recipients: [{ id: recipient, username: `user-${recipient}`, discriminator: '0', global_name: null, avatar: null }],
      });
    }
    if (generated && req.method === 'GET') {
      const answer = generatedRoute(p, generated.count);
      if (answer) return json(answer.status, answer.body);
    }
    // What a permission check fetches (Discord: Get Channel, Get Guild Roles, Get Guild Member), for the test guilds.
    const channelGet = p.match(/^\/channels\/(\d+)$/);
    if (channelGet && req.method === 'GET') {
      const at = testChannelIndex(channelGet[1]!);
      if (!at || at.guild >= restTestGuilds) return json(404, { message: 'Unknown Channel', code: 10003 });
      const guild = testGuild(at.guild);
      return json(200, { ...named(guild.channels[at.channel]!), guild_id: guild.id });
    }
    const guildChannels = p.match(/^\/guilds\/(\d+)\/channels$/);
    const c = guildChannels ? testGuildIndex(guildChannels[1]!) : undefined;
    if (guildChannels && c !== undefined && c < restTestGuilds && req.method === 'GET')
      return json(
        200,
        testGuild(c).channels.map((ch) => ({ ...named(ch), guild_id: guildChannels[1] })),
      );
    const guildGet = p.match(/^\/guilds\/(\d+)(\/roles|\/members\/(\d+))?$/);
    const k = guildGet ? testGuildIndex(guildGet[1]!) : undefined;
    if (guildGet && k !== undefined && k < restTestGuilds && req.method === 'GET') {
      const guild = { ...testGuild(k), roles: guildState(guildGet[1]!).roles };
      if (guildGet[2] === '/roles') return json(200, guild.roles);
      if (guildGet[3] === undefined) return json(200, { ...guild, channels: undefined, members: undefined });
      const found = memberObject(guild.id, guildGet[3]);
      return found ? json(200, found) : json(404, { message: 'Unknown Member', code: 10007 });
    }
    return json(404, { message: 'Unknown route in the fake Discord', code: 0 });
  });

  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => {
    latest = ws;
    const send = (payload: Record<string, unknown>) => ws.send(JSON.stringify(payload));
    ws.on('close', (code) => {
      const session = sessionOfSocket.get(ws);
      detach(ws);
      if (closedByFake.has(ws)) return;
      gatewayCloses.push({ code, by: 'client', at: clock() - started });
      // Discord: a client closing with 1000 or 1001 ends its session (the bot appears offline), unless it
      // was resumed on another connection meanwhile.
      if (session && session.socket === undefined && (code === 1000 || code === 1001)) session.valid = false;
    });
    /** Answers an IDENTIFY or RESUME with the close code a test asked for, if any, ending `session`. */
    const reject = (op: 'identify' | 'resume', session: Session | undefined) => {
      const i = rejections.findIndex((r) => r.on.includes(op));
      if (i < 0) return false;
      const { code } = rejections.splice(i, 1)[0]!;
      if (session) session.valid = false;
      closeWith(ws, code);
      return true;
    };
    /** Binds `ws` to `session`: its dispatches are written here from now on. */
    const attach = (session: Session) => {
      const before = sessionOfSocket.get(ws);
      if (before && before !== session) detach(ws);
      session.socket = ws;
      sessionOfSocket.set(ws, session);
    };
    send({ op: 10, d: { heartbeat_interval: 41_250 }, s: null, t: null });
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { op: number; d: unknown };
      const at = clock() - started;
      gatewayOps.push({ op: msg.op, at });
      if (msg.op === 1) send({ op: 11, d: null, s: null, t: null });
      if (msg.op === 6) {
        const { session_id, seq } = msg.d as { session_id: string; seq: number };
        const session = sessions.get(session_id);
        if (reject('resume', session)) return;
        const oldest = session?.sent[0]?.s ?? (session ? session.sequence + 1 : 0);
        // Discord: a RESUME for a session that ended, or past what it kept, gets INVALID_SESSION (d: false).
        if (!session || !session.valid || seq + 1 < oldest) return send({ op: 9, d: false, s: null, t: null });
        attach(session);
        for (const e of session.sent) if (e.s > seq) ws.send(e.text);
        send({ op: 0, t: 'RESUMED', s: ++session.sequence, d: {} });
        sessionStarted('resumed', session.shard);
        return;
      }
      if (msg.op === 2) {
        const d = msg.d as { shard?: unknown } | null;
        const [shard, total] = Array.isArray(d?.shard) ? (d.shard as unknown[]) : [0, 1];
        const valid =
          Number.isInteger(shard) && Number.isInteger(total) && (total as number) >= 1 && (shard as number) >= 0 && (shard as number) < (total as number);
        const record = (outcome: IdentifyRecord['outcome']) =>
          identifies.push({ shard: valid ? (shard as number) : Number(shard), total: valid ? (total as number) : Number(total), at, outcome });
        if (reject('identify', undefined)) return void record('rejected');
        // Discord: "You sent us an invalid shard when identifying" (4010).
        if (!valid) {
          record('invalid-shard');
          return closeWith(ws, 4010, 'Invalid shard.');
        }
        const id = shard as number;
        const count = total as number;
        // Discord: identifying past max_concurrency is answered by INVALID_SESSION ("Identifying").
        if (options.strictIdentify && tooEarly(id, at)) {
          record('rate-limited');
          return send({ op: 9, d: false, s: null, t: null });
        }
        record('ready');
        identify = msg.d;
        const session: Session = { id: `fake-session-${++sessionCount}`, shard: id, total: count, sequence: 0, sent: [], valid: true };
        sessions.set(session.id, session);
        lastSession = session;
        attach(session);
        const ofShard = guildsOf(id, count);
        const finished = () => {
          guildsSentAt = Date.now();
          readyResolve();
          shardReadyOf(id).resolve();
          sessionStarted('identified', id);
        };
        // READY and GUILD_CREATE start the session; they are not replayed on RESUME.
        const unavailable = [...ofShard.test.map((k) => testGuildIds(k).guildId), ...ofShard.generated.map((g) => generatedGuildId(g))].map((guildId) => ({
          id: guildId,
          unavailable: true,
        }));
        send({
          op: 0,
          t: 'READY',
          s: ++session.sequence,
          d: {
            v: 10,
            user: BOT_USER,
            guilds: unavailable,
            session_id: session.id,
            resume_gateway_url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
            shard: [id, count],
            application: { id: APP_ID, flags: 0 },
          },
        });
        readySentAt = Date.now();
        for (const k of ofShard.test) send({ op: 0, t: 'GUILD_CREATE', s: ++session.sequence, d: testGuild(k) });
        if (generated && ofShard.generated.length > 0) {
          void sendGeneratedGuilds(ws, session, ofShard.generated, generated.shape).then((sent) => {
            if (sent) finished();
          });
          return;
        }
        finished();
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const guildsOfShard = (shard: number, total = shards) => {
    const { test, generated: g } = guildsOf(shard, total);
    return [...test.map((k) => testGuildIds(k).guildId), ...g.map((i) => generatedGuildId(i))];
  };
  /** Ends `session` when `invalidateSession` says so, or by default for the codes that need a new one. */
  const endFor = (session: Session | undefined, code: number, invalidateSession: boolean | undefined) => {
    if (session && (invalidateSession ?? NEW_SESSION_CODES.includes(code))) session.valid = false;
  };

  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    shards,
    calls,
    channelMessages,
    setChannelDelay(ms) {
      channelDelayMs = ms;
    },
    expireNonces() {
      nonces.clear();
    },
    refuseUploads(failure) {
      uploadFailure = failure;
    },
    appEmojis,
    refuseEmojiUploads(failure) {
      emojiFailure = failure;
    },
    deleteMessage(channelId, messageId) {
      channelMessages.set(
        channelId,
        (channelMessages.get(channelId) ?? []).filter((m) => m.id !== messageId),
      );
    },
    failChannel(channelId, failure) {
      if (failure) failures.set(channelId, failure);
      else failures.delete(channelId);
    },
    ready: (shard) => (shard === undefined ? readyPromise : shardReadyOf(shard).promise),
    get identify() {
      return identify;
    },
    get readySentAt() {
      return readySentAt;
    },
    get guildsSentAt() {
      return guildsSentAt;
    },
    globalLimited,
    routeLimited,
    failMemberRoles(userId, fault) {
      if (fault === undefined) memberFaults.delete(userId);
      else memberFaults.set(userId, fault);
    },
    guildRoles,
    oauth,
    renameChannel(channelId, name) {
      channelNames.set(channelId, name);
    },
    dispatchInteraction(interaction) {
      const guildId = guildOf(interaction);
      const targets = targetsOf(guildId);
      if (!targets.some((s) => s.socket)) throw new Error(`no gateway connection for ${shardLabel(guildId)}`);
      sendDispatch(targets, 'INTERACTION_CREATE', interaction);
      return clock() - started;
    },
    dispatch(t, d) {
      const guildId = guildOf(d);
      const targets = targetsOf(guildId);
      if (targets.length === 0) throw new Error(`no gateway session for ${shardLabel(guildId)}`);
      sendDispatch(targets, t, d);
      return clock() - started;
    },
    closeGateway(code, options = {}) {
      if (!latest) throw new Error('no gateway connection');
      endFor(sessionOfSocket.get(latest) ?? lastSession, code, options.invalidateSession);
      closeWith(latest, code, options.reason);
    },
    closeShard(shard, code, options = {}) {
      const open = [...sessions.values()].filter((s) => s.shard === shard && s.socket);
      if (open.length === 0) throw new Error(`no gateway connection for shard ${shard}`);
      for (const session of open) {
        endFor(session, code, options.invalidateSession);
        closeWith(session.socket!, code, options.reason);
      }
    },
    connectedShards: () => [...new Set([...sessions.values()].filter((s) => s.socket).map((s) => s.shard))].sort((a, b) => a - b),
    gatewaySessions: () => [...sessions.values()].map((s) => ({ id: s.id, shard: s.shard, total: s.total, connected: s.socket !== undefined, valid: s.valid })),
    identifies,
    identifyViolations: (concurrency = maxConcurrency) => identifyViolations(identifies, concurrency),
    guildsOfShard,
    guildForShard(shard, total = shards) {
      const found = guildsOfShard(shard, total)[0];
      if (found === undefined)
        throw new Error(`fake Discord: no guild on shard ${shard} of ${total} (testGuilds: ${testGuildCount}, generated: ${generated?.count ?? 0})`);
      return found;
    },
    rejectNext(code, on = ['identify', 'resume']) {
      rejections.push({ code, on });
    },
    nextSession(options = {}) {
      const { timeoutMs = 10_000, shard } = typeof options === 'number' ? { timeoutMs: options } : options;
      return new Promise((resolve, reject) => {
        const waiter = {
          shard,
          resolve: (how: 'identified' | 'resumed') => (clearTimeout(timer), resolve(how)),
        };
        const timer = setTimeout(() => {
          sessionWaiters.splice(sessionWaiters.indexOf(waiter), 1);
          reject(new Error(`fake Discord: no session${shard === undefined ? '' : ` of shard ${shard}`} started in time`));
        }, timeoutMs);
        sessionWaiters.push(waiter);
      });
    },
    gatewayOps,
    gatewayCloses,
    waitFor(test, timeoutMs = 10_000) {
      const found = calls.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('fake Discord: no matching REST call in time')), timeoutMs);
        waiters.push({ test, resolve: (c) => (clearTimeout(timer), resolve(c)) });
      });
    },
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
