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
import { DefaultRestOptions, REST, type RESTOptions } from '@discordjs/rest';
import { Agent } from 'undici';
import { Routes } from 'discord-api-types/v10';
import type { Logger } from '../logger.js';
import type { MessagePayload } from '../render/view.js';
import { t } from '../strings.js';
import type { ChannelAccess, CommandContext, CommandInput, Invoker } from './command.js';
import { answerAutocomplete, answerCommand, answerComponent, type CommandResponder, type ComponentResponder } from './respond.js';
import type { Router } from './router.js';

/**
 * A discord.js client with only the Guilds intent, caches cut to what the bot uses, mentions off by
 * default, and `restApiUrl` (DISCORD_API_URL) as the REST base; the gateway URL then comes from that
 * REST API's `/gateway/bot`, as discord.js does.
 */
export function createDiscordClient(restApiUrl: string): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    allowedMentions: { parse: [] },
    rest: { api: restApiUrl, agent: discordAgent() },
    makeCache: Options.cacheWithLimits({
      MessageManager: 0,
      UserManager: 0,
      PresenceManager: 0,
      ReactionManager: 0,
      ReactionUserManager: 0,
      VoiceStateManager: 0,
      GuildEmojiManager: 0,
      GuildStickerManager: 0,
      GuildScheduledEventManager: 0,
      StageInstanceManager: 0,
      ThreadManager: 0,
      ThreadMemberManager: 0,
      GuildBanManager: 0,
      GuildInviteManager: 0,
      AutoModerationRuleManager: 0,
      ApplicationCommandManager: 0,
      BaseGuildEmojiManager: 0,
      // The bot's own member is kept: permission checks need it.
      GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
    }),
  });
}

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

/**
 * {@link ChannelAccess} from discord.js's cache (the Guilds intent keeps channels, roles and the
 * bot's own member), fetching a channel the cache does not hold.
 */
export function discordChannelAccess(client: Client): ChannelAccess {
  return {
    async check(guildId, channelId) {
      const guild = client.guilds.cache.get(guildId);
      const channel = guild?.channels.cache.get(channelId) ?? (await guild?.channels.fetch(channelId).catch(() => null));
      const me = guild?.members.me ?? (await guild?.members.fetchMe().catch(() => null));
      if (!guild || !channel || !me) return { exists: false, announcement: false, missing: [] };
      const permissions = channel.permissionsFor(me);
      return {
        exists: true,
        announcement: channel.type === ChannelType.GuildAnnouncement,
        missing: POST_PERMISSIONS.filter(([bit]) => !permissions?.has(bit)).map(([, name]) => name),
      };
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
      const job = this.#handle(interaction).catch((err: unknown) => options.logger.error({ err, interaction: interaction.id }, 'interaction failed'));
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
    await this.#acknowledging((acked, burst) =>
      answerCommand(() => this.#afterAcks(burst, ctx.budget).then(() => router.command(interaction.commandName, input, ctx)), acked(commandResponder(interaction, this.#webhooks), ['reply', 'defer']), {
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
      const work = () => this.#afterAcks(burst, ctx.budget).then(() => this.#options.router.component(interaction.customId, values, invokerOf(interaction), invokerId, ctx));
      const responder = acked(componentResponder(interaction, this.#webhooks), ['update', 'reply', 'deferUpdate', 'deferEphemeralReply']);
      return answerComponent(work, own, responder, { deadlineMs: this.#options.ackDeadlineMs, budget: ctx.budget, deferFirst: burst });
    });
  }

  /**
   * In a burst, when a handler acknowledged first may start: once no interaction is waiting for its
   * acknowledgement, or 3 s after its own creation (when the acknowledgements of its burst are due
   * anyway), whichever comes first. The CPU goes to acknowledgements first; answers follow. At once
   * outside a burst.
   */
  #afterAcks(burst: boolean, budget: InteractionBudget | undefined): Promise<void> {
    if (!burst || this.#awaitingAck === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const go = () => {
        clearTimeout(timer);
        this.#drained.delete(go);
        resolve();
      };
      const timer = setTimeout(go, (budget?.createdAt ?? Date.now()) + DISCORD_ACK_LIMIT_MS - Date.now());
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
  return new REST({ api: apiUrl, version: '10', globalRequestsPerSecond: Number.MAX_SAFE_INTEGER, agent: discordAgent() });
}

/** The webhook routes of one interaction's token over `rest` (no bot token: `auth: false`). */
function webhookOf(rest: REST, interaction: { applicationId: string; token: string }) {
  const original = Routes.webhookMessage(interaction.applicationId, interaction.token, '@original');
  return {
    edit: async (payload: MessagePayload) => void (await rest.patch(original, { body: withoutFlags(payload), auth: false })),
    deleteReply: async () => void (await rest.delete(original, { auth: false })),
    followUp: async (payload: MessagePayload) => void (await rest.post(Routes.webhook(interaction.applicationId, interaction.token), { body: payload, auth: false })),
  };
}

/** {@link CommandResponder} over a discord.js command interaction; the webhook routes go through `rest`. */
function commandResponder(interaction: ChatInputCommandInteraction | UserContextMenuCommandInteraction, rest: REST): CommandResponder {
  return {
    reply: async (payload) => void (await interaction.reply(replyOptions(payload))),
    defer: async (ephemeral) => void (await interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {})),
    ...webhookOf(rest, interaction),
  };
}

/** {@link ComponentResponder} over a discord.js button or select-menu interaction; the webhook routes go through `rest`. */
function componentResponder(interaction: MessageComponentInteraction, rest: REST): ComponentResponder {
  const { edit, followUp } = webhookOf(rest, interaction);
  return {
    update: async (payload) => void (await interaction.update(withoutFlags(replyOptions(payload)))),
    reply: async (payload) => void (await interaction.reply(replyOptions(payload))),
    deferUpdate: async () => void (await interaction.deferUpdate()),
    deferEphemeralReply: async () => void (await interaction.deferReply({ flags: MessageFlags.Ephemeral })),
    edit,
    followUp,
  };
}

function withoutFlags<T extends { flags?: unknown }>(options: T): Omit<T, 'flags'> {
  const { flags: _flags, ...rest } = options;
  return rest;
}
