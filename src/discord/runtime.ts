/**
 * The discord.js runtime (STYLE.md, src/discord): the client, and the responder ports of the
 * acknowledgement policy (./respond.ts: reply within 1.5 s, else defer and edit) over Discord's
 * interaction endpoints. Interactions are answered from the raw INTERACTION_CREATE payload
 * (./interactions.ts), which discord.js's WebSocketManager forwards as `raw`; the bot uses none of
 * discord.js's Interaction classes, which it still builds (about 20 µs each: patching its private
 * action to skip them is not worth a dependence on discord.js internals).
 */
import { ChannelType, Client, GatewayIntentBits, PermissionFlagsBits, Options } from 'discord.js';
import { currentDeadline, DISCORD_ACK_LIMIT_MS, interactionBudget, type InteractionBudget } from '../core/deadline.js';
import { DefaultRestOptions, REST, type DiscordAPIError, type RequestData } from '@discordjs/rest';
import { DISCORD_REST_CONNECTIONS, discordAgent } from './agent.js';
import {
  GatewayDispatchEvents,
  InteractionResponseType,
  MessageFlags,
  Routes,
  type APIChannel,
  type APIGuild,
  type APIGuildMember,
  type APIOverwrite,
  type RESTPostAPIInteractionCallbackJSONBody,
} from 'discord-api-types/v10';
import { LRUCache } from 'lru-cache';
import { channelPermissions } from './permissions.js';
import { DiscordRestBudget, INTERACTIVE_PRIORITY, PRIORITY_HEADER, UNCOUNTED, type MakeRequest } from './rest-budget.js';
import type { Logger } from '../core/logger.js';
import { splitFiles, withoutFiles, type MessagePayload, type View, type ViewFile } from '../render/view.js';
import { t } from '../render/strings.js';
import { pickLocale, runInLocale } from '../i18n/index.js';
import type { ChannelAccess, ChannelCheck, CommandContext } from './command.js';
import { InteractionCallbacks, multipartBody } from './interaction-callback.js';
import { readInteraction, type AutocompleteCall, type CommandCall, type ComponentCall, type InteractionCall, type InteractionHead } from './interactions.js';
import { answerAutocomplete, answerCommand, answerComponent, lateView, type CommandResponder, type ComponentResponder } from './respond.js';
import type { ComponentResult, Router } from './router.js';
import { NO_METRICS, type InteractionKind, type InteractionOutcome, type Metrics } from '../core/metrics.js';

/** Where {@link createDiscordClient}'s REST requests go, and what holds them to Discord's global limit. */
export interface DiscordClientOptions {
  /** Discord's REST API without the version (DISCORD_API_URL, e.g. `https://discord.com/api`). */
  apiUrl: string;
  /**
   * The REST proxy every process of the bot shares (DISCORD_REST_PROXY: its base URL, e.g.
   * `http://rest-proxy:8080`; src/rest-proxy.ts). Absent: requests go straight to `apiUrl`.
   */
  proxyUrl?: string;
  /** The process's budget when there is no proxy (default: a new one, ./rest-budget.ts). Not allowed with `proxyUrl`. */
  budget?: DiscordRestBudget;
}

/**
 * A discord.js client with only the Guilds intent, mentions off by default, and its REST requests
 * sent to `apiUrl` (DISCORD_API_URL) or, with `proxyUrl`, to the REST proxy; the gateway URL then
 * comes from that REST API's `/gateway/bot`, as discord.js does.
 *
 * Discord's global limit (50 requests a second, Discord: Topics, Rate Limits) is per bot, not per
 * process. Without a proxy, every REST request but the interaction endpoints goes through
 * `budget`, one per process (./rest-budget.ts), which is right for a bot of one process. With a
 * proxy, the proxy holds the one budget of all processes (and the per-route buckets, whose
 * `X-RateLimit-*` headers it does not pass on) and this client counts nothing itself: a second budget
 * here would only add its own wait, and each process's share of the 50 cannot be fixed in advance (the
 * feed leader needs nearly all of it during a fan-out, the other processes a few a second). The
 * client's requests go to `${proxyUrl}/api/v10/...`, which @discordjs/proxy maps to the same route
 * on Discord; those made while answering an interaction carry {@link PRIORITY_HEADER} so that the
 * proxy starts them before feed posts. Interaction callbacks and the interaction token's webhook
 * routes never go through the proxy: {@link DiscordRuntime} sends them to Discord itself (give it
 * `apiUrl` in {@link RuntimeOptions.apiUrl}).
 *
 * It caches guilds and nothing else ("cache only what is used"): no channels, roles,
 * permission overwrites, members, emojis, stickers, presences, voice states, threads or messages.
 * Interactions carry what a handler needs (the member's permissions, the option values); the one
 * feature that reads channels and roles, the feed channel check, fetches them over REST
 * ({@link discordChannelAccess}). discord.js calls limiting the channel and role caches unsupported
 * because its cache-backed helpers (`channel.permissionsFor`, `guild.roles.everyone`) then return
 * nothing; the bot calls none of them, and the end-to-end tests run this exact client.
 * @throws Error when both `proxyUrl` and `budget` are given.
 */
export function createDiscordClient({ apiUrl, proxyUrl, budget }: DiscordClientOptions): Client {
  if (proxyUrl !== undefined && budget !== undefined) throw new Error('createDiscordClient: with a REST proxy the proxy holds the budget; pass no budget');
  const api = proxyUrl === undefined ? apiUrl : `${proxyUrl.replace(/\/+$/, '')}/api`;
  const makeRequest = proxyUrl === undefined ? (budget ?? new DiscordRestBudget()).wrap() : markingPriority(DefaultRestOptions.makeRequest);
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    allowedMentions: { parse: [] },
    // The global limit is the budget's or the proxy's, in sliding seconds (./rest-budget.ts);
    // @discordjs/rest's own fixed-window count would only hold requests back a second time.
    rest: { api, agent: discordAgent(), globalRequestsPerSecond: UNCOUNTED, makeRequest },
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
 * {@link ChannelAccess} over Discord's REST API, with no channel, role or member cache:
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

export interface RuntimeOptions {
  router: Router;
  /** The shared context; each interaction gets a child logger and its budget. */
  context: Omit<CommandContext, 'logger' | 'budget'>;
  logger: Logger;
  /** A View ready within this many ms of an interaction's creation is the reply (default 1 500). */
  ackDeadlineMs?: number;
  /** Total budget of an interaction from its creation, ms (`INTERACTION_BUDGET_MS`, default 10 000). */
  budgetMs?: number;
  /**
   * Hears each interaction's outcome and the times of its acknowledgement and final answer from its
   * creation (src/core/metrics.ts, {@link InteractionMeter}); default none.
   */
  metrics?: Metrics;
  /**
   * Discord's REST API (DISCORD_API_URL, without the version) for the interaction callbacks and the
   * interaction token's webhook routes, which Discord exempts from the global limit and so never go
   * through the REST proxy. Default: the client's REST API, right when it has no proxy.
   */
  apiUrl?: string;
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

/**
 * Serves the interactions a discord.js client receives through the router: each INTERACTION_CREATE
 * payload is read (./interactions.ts), acknowledged by `POST /interactions/{id}/{token}/callback`
 * (./interaction-callback.ts) and answered by the webhook routes of its token (@discordjs/rest).
 */
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
  /** Initial responses, straight over undici (./interaction-callback.ts). */
  readonly #callbacks: InteractionCallbacks;
  readonly #metrics: Metrics;
  /** The command names and component routes the router knows: the only values of the metrics' `command` label besides `unknown`. */
  readonly #labels: { commands: Set<string>; routes: Set<string> };

  constructor(client: Client, options: RuntimeOptions) {
    this.#client = client;
    this.#options = options;
    this.#metrics = options.metrics ?? NO_METRICS;
    const modules = this.#metrics.enabled ? options.router.commands : [];
    this.#labels = { commands: new Set(modules.map((m) => m.definition.name)), routes: new Set(modules.flatMap((m) => Object.keys(m.components ?? {}))) };
    const apiUrl = options.apiUrl ?? client.options.rest?.api ?? DefaultRestOptions.api;
    this.#webhooks = interactionWebhookRest(apiUrl);
    this.#callbacks = new InteractionCallbacks(apiUrl, DISCORD_REST_CONNECTIONS);
    // The raw dispatch, which discord.js's WebSocketManager forwards before it builds its own
    // Interaction: the answer starts from the payload itself (./interactions.ts).
    client.ws.on(GatewayDispatchEvents.InteractionCreate, (payload: unknown) => this.#receive(payload));
  }

  /** Interactions being answered now. */
  get inflight(): number {
    return this.#inflight.size;
  }

  /** Stops taking new work: from now on a new interaction gets a short "restarting" answer. The first step of a shutdown. */
  stopTaking(): void {
    this.#closing = true;
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
    await this.#callbacks.close();
  }

  /** One INTERACTION_CREATE payload: read (a payload not understood is logged, never thrown) and answered. */
  #receive(payload: unknown): void {
    let call: InteractionCall | undefined;
    try {
      call = readInteraction(payload);
    } catch (err) {
      this.#options.logger.warn({ err }, 'interaction payload not understood');
      return;
    }
    const id = (payload as { id?: unknown } | null)?.id;
    if (!call) {
      this.#options.logger.warn({ interaction: typeof id === 'string' ? id : undefined }, 'interaction payload not understood');
      return;
    }
    // The member's own choice (/settings language) when it is in memory, else their client's language,
    // else the server's: no store read in front of the acknowledgement. The router reads the choice
    // from the store when it is not in memory, around the handler; the texts the runtime sends itself
    // (restarting, too slow) use this one.
    const read = call;
    const chosen = this.#options.context.links?.peekLocale(read.user.userId);
    const job = runInLocale(pickLocale(chosen, read.user.locale, read.user.guildLocale), () => this.#handle(read)).catch((err: unknown) =>
      this.#options.logger.error({ err, interaction: id }, 'interaction failed'),
    );
    this.#inflight.add(job);
    void job.finally(() => this.#inflight.delete(job));
  }

  async #handle(call: InteractionCall): Promise<void> {
    // Timed from the interaction's creation (its snowflake), not from now: time spent queued counts.
    const budget = interactionBudget(call.id, Date.now(), this.#options.budgetMs);
    const parent = this.#options.logger;
    let logger: Logger | undefined;
    // The child logger is made when something logs: most answers log nothing, and in a burst its
    // bindings (serialised and redacted by pino) would cost every acknowledgement.
    const ctx: CommandContext = {
      ...this.#options.context,
      budget,
      get logger() {
        return (logger ??= parent.child({ interaction: call.id, user: call.user.userId, guild: call.user.guildId }));
      },
    };
    // Read once for the whole interaction: the responder's deferral and the router's answer share them.
    ctx.once = this.#options.router.once(call.user, ctx);
    if (call.kind === 'autocomplete') return this.#autocomplete(call, ctx, this.#meter(call, budget));
    if (call.kind === 'other') {
      ctx.logger.debug({ type: call.type }, 'interaction type not handled');
      return;
    }
    const meter = this.#meter(call, budget);
    const respond = meter.callback(callbackOf(this.#callbacks, call));
    let outcome: InteractionOutcome | undefined;
    try {
      if (this.#closing) {
        await respond({ type: InteractionResponseType.ChannelMessageWithSource, data: { content: t.restarting(), flags: MessageFlags.Ephemeral } });
        outcome = 'restarting';
      } else if (call.kind === 'command') {
        await this.#command(call, respond, ctx, meter);
      } else {
        await this.#component(call, respond, ctx, meter);
      }
    } catch (err) {
      meter.end('failed');
      throw err;
    }
    meter.end(outcome);
  }

  /** The meter of one interaction: {@link NO_METER} without metrics, so that nothing is wrapped or allocated for them. */
  #meter(call: CommandCall | ComponentCall | AutocompleteCall, budget: InteractionBudget): Meter {
    if (!this.#metrics.enabled) return NO_METER;
    const name = call.kind === 'component' ? call.customId.split(':', 1)[0]! : call.commandName;
    const known = call.kind === 'component' ? this.#labels.routes : this.#labels.commands;
    return new InteractionMeter(this.#metrics, call.kind, known.has(name) ? name : 'unknown', budget.createdAt);
  }

  async #command(call: CommandCall, respond: Callback, ctx: CommandContext, meter: Meter): Promise<void> {
    const router = this.#options.router;
    const { commandName, input } = call;
    const log = () => ctx.logger;
    await this.#acknowledging((acked, burst) =>
      answerCommand(
        () => this.#afterAcks(burst, ctx.budget).then(() => meter.result(router.command(commandName, input, ctx), itself)),
        acked(commandResponder(respond, meter.webhook(webhookOf(this.#webhooks, call, log)), log), ['reply', 'defer']),
        {
          prefersPrivate: () => (burst ? router.peekPrivate(input.user, ctx) : ctx.once!.prefersPrivate()),
          deferFirst: burst,
          deadlineMs: this.#options.ackDeadlineMs,
          budget: ctx.budget,
          late: meter.late,
        },
      ),
    );
  }

  async #component(call: ComponentCall, respond: Callback, ctx: CommandContext, meter: Meter): Promise<void> {
    const { customId, values, user, invokerId } = call;
    const own = invokerId === undefined || invokerId === user.userId;
    const log = () => ctx.logger;
    await this.#acknowledging((acked, burst) => {
      const work = () =>
        this.#afterAcks(burst, ctx.budget).then(() => meter.result(this.#options.router.component(customId, values, user, invokerId, ctx), viewOfResult));
      const responder = acked(componentResponder(respond, meter.webhook(webhookOf(this.#webhooks, call, log)), log), [
        'update',
        'reply',
        'deferUpdate',
        'deferEphemeralReply',
      ]);
      return answerComponent(work, own, responder, { deadlineMs: this.#options.ackDeadlineMs, budget: ctx.budget, deferFirst: burst, late: meter.late });
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

  async #autocomplete(call: AutocompleteCall, ctx: CommandContext, meter: Meter): Promise<void> {
    let ready: boolean;
    try {
      const choices = await answerAutocomplete(meter.result(this.#options.router.autocomplete(call.commandName, call.input, ctx)), undefined, ctx.budget);
      ready = meter.settled;
      await meter.callback(callbackOf(this.#callbacks, call))({ type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices } });
    } catch (err) {
      meter.end('failed');
      throw err;
    }
    // Choices not ready at the deadline: the empty list went instead.
    meter.end(ready ? undefined : 'late');
  }
}

/**
 * What the metrics hear of one interaction: its initial response and final answer, each timed from the
 * interaction's creation, and its {@link InteractionOutcome}. The runtime wraps the interaction's
 * callback and webhook routes with it, and taps the handler's result.
 */
interface Meter {
  /** `respond`, which on success also records the acknowledgement, and the final answer unless it was a deferral (types 5 and 6). */
  callback(respond: Callback): Callback;
  /** The webhook routes, whose edit and follow-up record the final answer after a deferral. */
  webhook<W extends { edit(payload: MessagePayload): Promise<void>; followUp(payload: MessagePayload): Promise<void> }>(webhook: W): W;
  /** `work`, noting when it settles and whether its View (`viewOf`) is an error message. */
  result<T>(work: Promise<T>, viewOf?: (value: T) => View): Promise<T>;
  /** Whether the work given to {@link result} has settled (always true for {@link NO_METER}). */
  readonly settled: boolean;
  /** The answer policy's `late` (./respond.ts): notes that the final answer is the "took too long" message, and returns it. */
  late: () => View;
  /** Counts the interaction with `outcome`; default: `late`, `error` or `answered` from what was noted. */
  end(outcome?: InteractionOutcome): void;
}

const itself = (view: View): View => view;
const viewOfResult = (result: ComponentResult): View => result.view;

/** The meter when metrics are off: passes everything through, records nothing. */
const NO_METER: Meter = {
  callback: (respond) => respond,
  webhook: (webhook) => webhook,
  result: (work) => work,
  settled: true,
  late: lateView,
  end: () => undefined,
};

/** The {@link Meter} of one interaction created at `createdAt` (ms since the epoch: its budget's, from the snowflake, src/core/deadline.ts). */
class InteractionMeter implements Meter {
  settled = false;
  #late = false;
  #error = false;

  constructor(
    private readonly metrics: Metrics,
    private readonly kind: InteractionKind,
    private readonly name: string,
    private readonly createdAt: number,
  ) {}

  callback(respond: Callback): Callback {
    return async (body, files) => {
      await respond(body, files);
      const seconds = this.#seconds();
      this.metrics.ack(this.kind, seconds);
      if (body.type !== InteractionResponseType.DeferredChannelMessageWithSource && body.type !== InteractionResponseType.DeferredMessageUpdate)
        this.metrics.answer(this.kind, seconds);
    };
  }

  webhook<W extends { edit(payload: MessagePayload): Promise<void>; followUp(payload: MessagePayload): Promise<void> }>(webhook: W): W {
    return {
      ...webhook,
      edit: async (payload: MessagePayload) => {
        await webhook.edit(payload);
        this.metrics.answer(this.kind, this.#seconds());
      },
      followUp: async (payload: MessagePayload) => {
        await webhook.followUp(payload);
        this.metrics.answer(this.kind, this.#seconds());
      },
    };
  }

  result<T>(work: Promise<T>, viewOf?: (value: T) => View): Promise<T> {
    return work.then((value) => {
      this.settled = true;
      if (viewOf?.(value).isError) this.#error = true;
      return value;
    });
  }

  late = (): View => {
    this.#late = true;
    return lateView();
  };

  end(outcome?: InteractionOutcome): void {
    this.metrics.interaction(this.kind, this.name, outcome ?? (this.#late ? 'late' : this.#error ? 'error' : 'answered'));
  }

  #seconds(): number {
    return (Date.now() - this.createdAt) / 1000;
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

/**
 * The initial response of one interaction: `POST /interactions/{id}/{token}/callback` (Discord:
 * "Create Interaction Response"), with `files` as multipart parts when there are any.
 */
type Callback = (body: RESTPostAPIInteractionCallbackJSONBody, files?: ViewFile[]) => Promise<void>;

/**
 * {@link Callback} of one interaction. It can be called once: Discord answers a second initial
 * response with 40060 (Interaction has already been acknowledged).
 * @throws InteractionCallbackError: 10062 (Unknown interaction) past Discord's 3 s, or any other refusal.
 */
function callbackOf(callbacks: InteractionCallbacks, { id, token }: InteractionHead): Callback {
  return (body, files) => callbacks.send(id, token, body, files);
}

/** Discord's codes for an interaction that can no longer be answered this way: Unknown interaction, already acknowledged. */
const SPENT_INTERACTION_CODES = new Set([10062, 40060]);

/**
 * Sends `payload` with `send`, its files as multipart parts. When Discord refuses a message with
 * files (400 or 413: a file too large, a type it will not take), the same message goes again without
 * them (src/render/view.ts, withoutFiles), so the member still gets the answer, without its chart.
 * @throws what `send` throws otherwise.
 */
async function sendWithFiles(
  payload: MessagePayload,
  send: (json: Omit<MessagePayload, 'files'>, files: ViewFile[]) => Promise<void>,
  logger: () => Logger,
): Promise<void> {
  const { json, files } = splitFiles(payload);
  if (files.length === 0) return send(json, files);
  try {
    await send(json, files);
  } catch (err) {
    const { status, code } = (err ?? {}) as { status?: unknown; code?: unknown };
    if ((status !== 400 && status !== 413) || SPENT_INTERACTION_CODES.has(code as number)) throw err;
    logger().warn({ err, files: files.map((f) => ({ name: f.name, bytes: f.data.byteLength })) }, 'Discord refused the attachments: answering without them');
    await send(splitFiles(withoutFiles(payload)).json, []);
  }
}

/**
 * The request options of a message for @discordjs/rest: `{ body: json }`, or with files a multipart
 * body built here (./interaction-callback.ts, multipartBody) and passed through as it is. (The REST
 * client's own multipart path would hand its undici's FormData to this project's undici agent, which
 * cannot read it.)
 */
async function messageRequest(json: object, files: ViewFile[]): Promise<Pick<RequestData, 'body' | 'passThroughBody' | 'headers'>> {
  if (files.length === 0) return { body: json };
  const { body, contentType } = await multipartBody(json, files);
  return { body, passThroughBody: true, headers: { 'Content-Type': contentType } };
}

/** The webhook routes of one interaction's token over `rest` (no bot token: `auth: false`); `logger()` hears of refused attachments. */
function webhookOf(rest: REST, { applicationId, token }: InteractionHead, logger: () => Logger) {
  const original = Routes.webhookMessage(applicationId, token, '@original');
  return {
    edit: (payload: MessagePayload) =>
      sendWithFiles(
        payload,
        async (json, files) => void (await rest.patch(original, { ...(await messageRequest(replacingFiles(withoutFlags(json)), files)), auth: false })),
        logger,
      ),
    deleteReply: async () => void (await rest.delete(original, { auth: false })),
    followUp: (payload: MessagePayload) =>
      sendWithFiles(
        payload,
        async (json, files) => void (await rest.post(Routes.webhook(applicationId, token), { ...(await messageRequest(json, files)), auth: false })),
        logger,
      ),
  };
}

/** A message's flags when none is set (what discord.js sends in a public deferral). */
const NO_FLAGS = 0 as MessageFlags;

/** {@link CommandResponder} over an interaction's callback (types 4 and 5) and its webhook routes. */
function commandResponder(respond: Callback, webhook: ReturnType<typeof webhookOf>, logger: () => Logger): CommandResponder {
  return {
    reply: (payload) => sendWithFiles(payload, (data, files) => respond({ type: InteractionResponseType.ChannelMessageWithSource, data }, files), logger),
    defer: (ephemeral) =>
      respond({ type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: ephemeral ? MessageFlags.Ephemeral : NO_FLAGS } }),
    ...webhook,
  };
}

/** {@link ComponentResponder} over a component interaction's callback (types 4, 5, 6 and 7) and its webhook routes. */
function componentResponder(respond: Callback, { edit, followUp }: ReturnType<typeof webhookOf>, logger: () => Logger): ComponentResponder {
  return {
    update: (payload) =>
      sendWithFiles(
        payload,
        (data, files) => respond({ type: InteractionResponseType.UpdateMessage, data: replacingFiles(withoutFlags(data)) }, files),
        logger,
      ),
    reply: (payload) => sendWithFiles(payload, (data, files) => respond({ type: InteractionResponseType.ChannelMessageWithSource, data }, files), logger),
    deferUpdate: () => respond({ type: InteractionResponseType.DeferredMessageUpdate }),
    deferEphemeralReply: () => respond({ type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: MessageFlags.Ephemeral } }),
    edit,
    followUp,
  };
}

/**
 * An edit that replaces the message's files: Discord keeps a message's attachments through an edit
 * that does not list them, and shows one no embed refers to below the message. So an edit without
 * files says `attachments: []` (a section without a chart after one with a chart shows none).
 */
function replacingFiles<T extends { attachments?: unknown[] }>(json: T): T {
  return json.attachments ? json : { ...json, attachments: [] };
}

function withoutFlags<T extends { flags?: unknown }>(options: T): Omit<T, 'flags'> {
  const { flags: _flags, ...rest } = options;
  return rest;
}
