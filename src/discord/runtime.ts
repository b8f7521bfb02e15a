/**
 * The discord.js runtime (STYLE.md, src/discord): the client, and discord.js implementations of the
 * responder ports of the acknowledgement policy (./respond.ts: reply within 1.5 s, else defer and edit).
 */
import {
  ChannelType,
  Client,
  GatewayIntentBits,
  PermissionFlagsBits,
  MessageFlags,
  Options,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
  type MessageComponentInteraction,
  type UserContextMenuCommandInteraction,
} from 'discord.js';
import { DISCORD_ACK_LIMIT_MS, interactionBudget, type InteractionBudget } from '../deadline.js';
import { DefaultRestOptions, REST, type DiscordAPIError, type RESTOptions } from '@discordjs/rest';
import { Agent } from 'undici';
import { Routes, type APIChannel, type APIGuild, type APIGuildMember, type APIOverwrite } from 'discord-api-types/v10';
import { LRUCache } from 'lru-cache';
import { channelPermissions } from './permissions.js';
import { DiscordRestBudget } from './rest-budget.js';
import type { Logger } from '../logger.js';
import type { MessagePayload } from '../render/view.js';
import { t } from '../strings.js';
import type { ChannelAccess, ChannelCheck, CommandContext, CommandInput, Invoker } from './command.js';
import { answerAutocomplete, answerCommand, answerComponent, type CommandResponder, type ComponentResponder } from './respond.js';
import type { Router } from './router.js';

/**
 * A discord.js client with only the Guilds intent, mentions off by default, and `restApiUrl`
 * (DISCORD_API_URL) as the REST base; the gateway URL then comes from that REST API's `/gateway/bot`,
 * as discord.js does.
 *
 * It caches guilds and nothing else (issue 12, "cache only what is used"): no channels, roles,
 * permission overwrites, members, emojis, stickers, presences, voice states, threads or messages.
 * Interactions carry what a handler needs (the member's permissions, the option values); the one
 * feature that reads channels and roles, the feed channel check, fetches them over REST
 * ({@link discordChannelAccess}). Every REST request but the interaction endpoints goes through
 * `budget` (one per process: ./rest-budget.ts). discord.js calls limiting the channel and role caches unsupported
 * because its cache-backed helpers (`channel.permissionsFor`, `guild.roles.everyone`) then return
 * nothing; the bot calls none of them, and the end-to-end tests run this exact client.
 */
export function createDiscordClient(restApiUrl: string, budget: DiscordRestBudget = new DiscordRestBudget()): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    allowedMentions: { parse: [] },
    // The global limit is the budget's, in sliding seconds (./rest-budget.ts); @discordjs/rest's own
    // fixed-window count would only hold requests back a second time.
    rest: { api: restApiUrl, agent: discordAgent(), globalRequestsPerSecond: UNCOUNTED, makeRequest: budget.wrap() },
    makeCache: Options.cacheWithLimits(Object.fromEntries(UNCACHED_MANAGERS.map((name) => [name, 0]))),
  });
}

/** @discordjs/rest's `globalRequestsPerSecond` when something else counts the global limit. */
const UNCOUNTED = Number.MAX_SAFE_INTEGER;

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
 * Most connections the bot keeps to Discord's REST API. discord.js's default agent has no bound: a
 * burst of 10,000 acknowledgements opened over 12,000 connections (npm run bench:burst), and undici's
 * pool, which scans its connections for a free one on every request, then spent more CPU than the
 * requests did (13 % of the profile, in the bare discord.js bot too). 512 keep-alive connections
 * still carry thousands of requests a second at Discord's round-trip times.
 */
export const DISCORD_REST_CONNECTIONS = 512;

/**
 * An undici agent for Discord's REST API with at most {@link DISCORD_REST_CONNECTIONS} connections.
 * Built with this project's undici 7; @discordjs/rest calls it through its own undici 6, whose
 * handler interface undici 7 still accepts, so only the types differ.
 */
function discordAgent(): NonNullable<RESTOptions['agent']> {
  return new Agent({ connections: DISCORD_REST_CONNECTIONS, connect: { timeout: 30_000 } }) as unknown as NonNullable<RESTOptions['agent']>;
}

/** discord.js reply options from a message payload (discord.js names `allowed_mentions` `allowedMentions`). */
function replyOptions(payload: MessagePayload) {
  const { allowed_mentions, ...rest } = payload;
  return { ...rest, allowedMentions: { parse: [], roles: allowed_mentions.roles ?? [] } };
}

/** Flattens slash-command options (with a subcommand or not) into name -> value. */
function optionsOf(data: readonly CommandInteractionOption[]): { subcommand?: string; options: CommandInput['options'] } {
  const first = data[0];
  if (first && first.options !== undefined && first.value === undefined) {
    return { subcommand: first.name, options: Object.fromEntries(first.options.map((o) => [o.name, o.value])) };
  }
  return { options: Object.fromEntries(data.map((o) => [o.name, o.value])) };
}

const invokerOf = (i: Pick<Interaction, 'user' | 'guildId' | 'locale' | 'memberPermissions'>): Invoker => ({
  userId: i.user.id,
  guildId: i.guildId,
  locale: i.locale,
  permissions: i.memberPermissions?.bitfield.toString(),
});

/** Permissions the bot needs to post a feed embed in a channel, with the names members see in Discord. */
const POST_PERMISSIONS = [
  [PermissionFlagsBits.ViewChannel, 'View Channel'],
  [PermissionFlagsBits.SendMessages, 'Send Messages'],
  [PermissionFlagsBits.EmbedLinks, 'Embed Links'],
] as const;

/** How long a channel check that found nothing missing is reused, ms: a fixed permission is seen at once, a removed one within this. */
export const CHANNEL_CHECK_TTL_MS = 60_000;

/** The Discord error codes of a channel the bot cannot see: Unknown Channel, Missing Access. */
const UNKNOWN_CHANNEL = 10003;
const MISSING_ACCESS = 50001;

/**
 * {@link ChannelAccess} over Discord's REST API, with no channel, role or member cache (issue 12):
 * `GET /channels/{id}`, `GET /guilds/{id}` (owner and roles) and `GET /guilds/{id}/members/{bot}`,
 * in parallel, and the permissions computed from them (./permissions.ts). A check that found nothing
 * missing is kept {@link CHANNEL_CHECK_TTL_MS} per channel; one that found a problem is not kept, so
 * an admin who fixes the channel and runs /config again sees the fix at once. Concurrent checks of one
 * channel share their requests.
 * @throws the REST error when Discord fails otherwise (5xx, network): the router shows its generic message.
 */
export function discordChannelAccess(client: Client, now: () => number = Date.now): ChannelAccess {
  const passed = new LRUCache<string, ChannelCheck>({ max: 1_000, ttl: CHANNEL_CHECK_TTL_MS, ttlAutopurge: false, perf: { now } });
  const running = new Map<string, Promise<ChannelCheck>>();
  const fetchCheck = async (guildId: string, channelId: string): Promise<ChannelCheck> => {
    const rest = client.rest;
    const botId = client.user?.id ?? client.application?.id;
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
    const bits = channelPermissions({ guildId, ownerId: guild.owner_id, roles: guild.roles, userId: botId, memberRoleIds: me.roles, overwrites: channel.permission_overwrites ?? [] });
    return {
      exists: true,
      announcement: channel.type === ChannelType.GuildAnnouncement,
      missing: POST_PERMISSIONS.filter(([bit]) => (bits & bit) !== bit).map(([, name]) => name),
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

export interface RuntimeOptions {
  router: Router;
  /** The shared context; each interaction gets a child logger and its budget. */
  context: Omit<CommandContext, 'logger' | 'budget'>;
  logger: Logger;
  /** A View ready within this many ms of an interaction's creation is the reply (default 1 500). */
  ackDeadlineMs?: number;
  /** Total budget of an interaction from its creation, ms (`INTERACTION_BUDGET_MS`, default 10 000). */
  budgetMs?: number;
}

/**
 * More interactions than this waiting for their acknowledgement at once is a burst: each new one is
 * then deferred before its handler starts (src/discord/respond.ts, `deferFirst`), so that the
 * acknowledgements go out as fast as a bot that only acknowledges, and no handler work stands in front
 * of them. Below it, an answer ready within 1.5 s of creation is the reply itself.
 */
export const BURST_PENDING_ACKS = 8;

/**
 * In a burst, the time a handler gets at least between its start and its final answer's deadline, ms:
 * enough for cached answers and one API call (API calls stop 1.5 s before the end).
 */
export const BURST_HANDLER_TIME_MS = 4_000;

/** Serves interactions from a discord.js client through the router. */
export class DiscordRuntime {
  readonly #client: Client;
  readonly #options: RuntimeOptions;
  readonly #inflight = new Set<Promise<void>>();
  #closing = false;
  /** Interactions received and not yet acknowledged (replied to, deferred or updated). */
  #awaitingAck = 0;
  /** Handlers of a burst waiting for the acknowledgements to drain ({@link #afterAcks}). */
  readonly #drained = new Set<() => void>();
  /** The interaction-token routes, outside the bot's client-side global limit ({@link interactionWebhookRest}). */
  readonly #webhooks: REST;

  constructor(client: Client, options: RuntimeOptions) {
    this.#client = client;
    this.#options = options;
    this.#webhooks = interactionWebhookRest(client.options.rest?.api ?? DefaultRestOptions.api);
    client.on('interactionCreate', (interaction) => {
      // The id only: the catch must not keep the whole interaction alive while it is answered.
      const { id } = interaction;
      const job = this.#handle(interaction).catch((err: unknown) => options.logger.error({ err, interaction: id }, 'interaction failed'));
      this.#inflight.add(job);
      void job.finally(() => this.#inflight.delete(job));
    });
  }

  /** Interactions being answered now. */
  get inflight(): number {
    return this.#inflight.size;
  }

  /**
   * Stops taking new work (new interactions get a short "restarting" answer), waits up to
   * `timeoutMs` for the answers in flight, then destroys the client (closes the gateway).
   */
  async shutdown(timeoutMs = 10_000): Promise<void> {
    this.#closing = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.#inflight]), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
    this.#webhooks.clearHandlerSweeper();
    this.#webhooks.clearHashSweeper();
    await this.#client.destroy();
  }

  async #handle(interaction: Interaction): Promise<void> {
    // Timed from the interaction's creation (its snowflake), not from now: time spent queued counts.
    const budget = interactionBudget(interaction.id, Date.now(), this.#options.budgetMs);
    const logger = this.#options.logger.child({ interaction: interaction.id, user: interaction.user.id, guild: interaction.guildId });
    const ctx: CommandContext = { ...this.#options.context, logger, budget };
    if (interaction.isAutocomplete()) return this.#autocomplete(interaction, ctx);
    if (this.#closing && interaction.isRepliable()) {
      await interaction.reply({ content: t.restarting(), flags: MessageFlags.Ephemeral });
      return;
    }
    if (interaction.isChatInputCommand()) {
      const { subcommand, options } = optionsOf(interaction.options.data);
      return this.#command(interaction, { subcommand, options, user: invokerOf(interaction) }, ctx);
    }
    if (interaction.isUserContextMenuCommand()) {
      return this.#command(interaction, { options: {}, targetUserId: interaction.targetId, targetName: interaction.targetUser.username, user: invokerOf(interaction) }, ctx);
    }
    if (interaction.isButton() || interaction.isStringSelectMenu()) return this.#component(interaction, ctx);
    logger.debug({ type: interaction.type }, 'interaction type not handled');
  }

  async #command(interaction: ChatInputCommandInteraction | UserContextMenuCommandInteraction, input: CommandInput, ctx: CommandContext): Promise<void> {
    const router = this.#options.router;
    const { commandName } = interaction;
    await this.#acknowledging((acked, burst) =>
      answerCommand(() => this.#afterAcks(burst, ctx.budget).then(() => router.command(commandName, input, ctx)), acked(commandResponder(interaction, this.#webhooks), ['reply', 'defer']), {
        prefersPrivate: () => (burst ? router.peekPrivate(input.user, ctx) : router.prefersPrivate(input.user, ctx)),
        deferFirst: burst,
        deadlineMs: this.#options.ackDeadlineMs,
        budget: ctx.budget,
      }),
    );
  }

  async #component(interaction: MessageComponentInteraction, ctx: CommandContext): Promise<void> {
    const invokerId = interaction.message.interactionMetadata?.user.id;
    const values = interaction.isStringSelectMenu() ? interaction.values : [];
    const own = invokerId === undefined || invokerId === interaction.user.id;
    await this.#acknowledging((acked, burst) => {
      const { customId } = interaction;
      const invoker = invokerOf(interaction);
      const work = () => this.#afterAcks(burst, ctx.budget).then(() => this.#options.router.component(customId, values, invoker, invokerId, ctx));
      const responder = acked(componentResponder(interaction, this.#webhooks), ['update', 'reply', 'deferUpdate', 'deferEphemeralReply']);
      return answerComponent(work, own, responder, { deadlineMs: this.#options.ackDeadlineMs, budget: ctx.budget, deferFirst: burst });
    });
  }

  /**
   * In a burst, when a handler acknowledged first may start: once no interaction is waiting for its
   * acknowledgement, or {@link BURST_HANDLER_TIME_MS} before its final answer is due, whichever comes
   * first. Until then the CPU goes to acknowledgements alone: an unacknowledged interaction fails in
   * Discord after 3 s, a late final answer only says so (src/discord/respond.ts). At once outside a burst.
   */
  #afterAcks(burst: boolean, budget: InteractionBudget | undefined): Promise<void> {
    if (!burst || this.#awaitingAck === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const go = () => {
        clearTimeout(timer);
        this.#drained.delete(go);
        resolve();
      };
      const latest = budget ? Math.max(budget.ackBy, budget.answerBy - BURST_HANDLER_TIME_MS) : Date.now() + DISCORD_ACK_LIMIT_MS;
      const timer = setTimeout(go, latest - Date.now());
      this.#drained.add(go);
    });
  }

  /**
   * Runs `answer` counted among the interactions awaiting acknowledgement: `burst` says whether more
   * than {@link BURST_PENDING_ACKS} were already waiting, and `acked` wraps a responder so that its
   * first response (any of `first`) ends the wait, sent or failed.
   */
  async #acknowledging(answer: (acked: <R extends object>(responder: R, first: (keyof R)[]) => R, burst: boolean) => Promise<void>): Promise<void> {
    const burst = this.#awaitingAck >= BURST_PENDING_ACKS;
    this.#awaitingAck++;
    let waiting = true;
    const done = () => {
      if (waiting && --this.#awaitingAck === 0) for (const go of [...this.#drained]) go();
      waiting = false;
    };
    const acked = <R extends object>(responder: R, first: (keyof R)[]): R => {
      const wrapped = { ...responder };
      for (const name of first) {
        const send = responder[name] as unknown as (...args: unknown[]) => Promise<void>;
        (wrapped as Record<keyof R, unknown>)[name] = (...args: unknown[]) => send(...args).finally(done);
      }
      return wrapped;
    };
    try {
      await answer(acked, burst);
    } finally {
      done();
    }
  }

  async #autocomplete(interaction: AutocompleteInteraction, ctx: CommandContext): Promise<void> {
    const focused = interaction.options.getFocused(true);
    const { subcommand, options } = optionsOf(interaction.options.data);
    const work = this.#options.router.autocomplete(interaction.commandName, { subcommand, focused: { name: focused.name, value: String(focused.value) }, options, user: invokerOf(interaction) }, ctx);
    await interaction.respond(await answerAutocomplete(work, undefined, ctx.budget));
  }
}

/**
 * A REST client for the routes authorised by an interaction's token (edit and delete the original
 * response, follow-ups). Discord does not count them against the bot's global rate limit (Discord:
 * "Receiving and Responding", Endpoints), but @discordjs/rest holds every route it queues to 50
 * requests a second: after a burst of deferrals, 10,000 final answers would take over 3 minutes on
 * the bot's client. This one lifts that client-side cap; Discord's own per-token limits still come
 * back in the headers and are honoured per route.
 */
export function interactionWebhookRest(apiUrl: string): REST {
  return new REST({ api: apiUrl, version: '10', globalRequestsPerSecond: UNCOUNTED, agent: discordAgent() });
}

/** The webhook routes of one interaction's token over `rest` (no bot token: `auth: false`). */
function webhookOf(rest: REST, { applicationId, token }: { applicationId: string; token: string }) {
  const original = Routes.webhookMessage(applicationId, token, '@original');
  return {
    edit: async (payload: MessagePayload) => void (await rest.patch(original, { body: withoutFlags(payload), auth: false })),
    deleteReply: async () => void (await rest.delete(original, { auth: false })),
    followUp: async (payload: MessagePayload) => void (await rest.post(Routes.webhook(applicationId, token), { body: payload, auth: false })),
  };
}

/**
 * Holds a discord.js interaction for its first response only. The responses after it (edit, delete,
 * follow-up) need the interaction's id, token and application id alone, so the interaction object (a few
 * KB, with its member and options) is not kept alive while the answer is prepared: in a burst of 10,000,
 * keeping them all made the garbage collector trace them over and over while acknowledgements waited.
 */
function firstResponseOf<I>(interaction: I): () => I {
  let held: I | undefined = interaction;
  return () => {
    if (!held) throw new Error('an interaction has one initial response');
    const it = held;
    held = undefined;
    return it;
  };
}

/** {@link CommandResponder} over a discord.js command interaction; the webhook routes go through `rest`. */
function commandResponder(interaction: ChatInputCommandInteraction | UserContextMenuCommandInteraction, rest: REST): CommandResponder {
  const first = firstResponseOf(interaction);
  return {
    reply: async (payload) => void (await first().reply(replyOptions(payload))),
    defer: async (ephemeral) => void (await first().deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {})),
    ...webhookOf(rest, interaction),
  };
}

/** {@link ComponentResponder} over a discord.js button or select-menu interaction; the webhook routes go through `rest`. */
function componentResponder(interaction: MessageComponentInteraction, rest: REST): ComponentResponder {
  const { edit, followUp } = webhookOf(rest, interaction);
  const first = firstResponseOf(interaction);
  return {
    update: async (payload) => void (await first().update(withoutFlags(replyOptions(payload)))),
    reply: async (payload) => void (await first().reply(replyOptions(payload))),
    deferUpdate: async () => void (await first().deferUpdate()),
    deferEphemeralReply: async () => void (await first().deferReply({ flags: MessageFlags.Ephemeral })),
    edit,
    followUp,
  };
}

function withoutFlags<T extends { flags?: unknown }>(options: T): Omit<T, 'flags'> {
  const { flags: _flags, ...rest } = options;
  return rest;
}
