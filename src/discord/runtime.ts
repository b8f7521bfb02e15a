/** Serves a discord.js client's interactions through the router, answering from the raw INTERACTION_CREATE payload (./interactions.ts). */
import type { Client } from 'discord.js';
import { DefaultRestOptions, type REST } from '@discordjs/rest';
import { GatewayDispatchEvents, InteractionResponseType, MessageFlags } from 'discord-api-types/v10';
import { DISCORD_ACK_LIMIT_MS, interactionBudget, type InteractionBudget } from '../core/deadline.js';
import type { Logger } from '../core/logger.js';
import { NO_METRICS, type InteractionOutcome, type Metrics } from '../core/metrics.js';
import { pickLocale, runInLocale } from '../i18n/index.js';
import { t } from '../render/strings.js';
import type { View } from '../render/view.js';
import { DISCORD_REST_CONNECTIONS } from './agent.js';
import type { CommandContext } from './command.js';
import { InteractionCallbacks } from './interaction-callback.js';
import { readInteraction, type AutocompleteCall, type CommandCall, type ComponentCall, type InteractionCall } from './interactions.js';
import { InteractionMeter, NO_METER, type Meter } from './meter.js';
import { answerAutocomplete, answerCommand, answerComponent } from './respond.js';
import { callbackOf, commandResponder, componentResponder, interactionWebhookRest, webhookOf, type Callback } from './responders.js';
import type { ComponentResult, Router } from './router.js';

export interface RuntimeOptions {
  router: Router;
  /** The shared context; each interaction gets a child logger and its budget. */
  context: Omit<CommandContext, 'logger' | 'budget'>;
  logger: Logger;
  /** A View ready within this many ms of an interaction's creation is the reply (default 1 500). */
  ackDeadlineMs?: number;
  /** Total budget of an interaction from its creation, ms (`INTERACTION_BUDGET_MS`, default 10 000). */
  budgetMs?: number;
  /** Hears each interaction's outcome and its ack and answer times (src/core/metrics.ts, {@link InteractionMeter}); default none. */
  metrics?: Metrics;
  /** Discord's REST API for interaction callbacks and token routes, which are exempt from the global limit and skip the proxy; default: the client's. */
  apiUrl?: string;
}

/** Interactions already awaiting their ack that make a burst: a new one is then deferred before its handler starts (./respond.ts `deferFirst`). */
export const BURST_PENDING_ACKS = 8;

/** In a burst, least time a handler gets before its final answer's deadline, ms: enough for cached answers and one API call. */
export const BURST_HANDLER_TIME_MS = 4_000;

/** Reads, acknowledges (./interaction-callback.ts) and answers (the token's webhook routes) each interaction a discord.js client receives. */
export class DiscordRuntime {
  readonly #client: Client;
  readonly #options: RuntimeOptions;
  readonly #inflight = new Set<Promise<void>>();
  #closing = false;
  /** Interactions received and not yet acknowledged (replied to, deferred or updated). */
  #awaitingAck = 0;
  /** Handlers of a burst waiting for the acknowledgements to drain ({@link #afterAcks}). */
  readonly #drained = new Set<() => void>();
  readonly #webhooks: REST;
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
    // The raw dispatch, forwarded before discord.js builds its Interaction: the answer starts from the payload.
    client.ws.on(GatewayDispatchEvents.InteractionCreate, (payload: unknown) => this.#receive(payload));
  }

  get inflight(): number {
    return this.#inflight.size;
  }

  /** Stops taking new work: from now on a new interaction gets a short "restarting" answer. The first step of a shutdown. */
  stopTaking(): void {
    this.#closing = true;
  }

  /** Stops taking work (new interactions get "restarting"), waits up to `timeoutMs` for answers in flight, then destroys the client. */
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
    // The member's language from memory, else their client's, else the server's: no store read before the ack (the router reads it later).
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
    // Made on first use: most answers log nothing, and in a burst pino's child bindings would cost every acknowledgement.
    const ctx: CommandContext = {
      ...this.#options.context,
      budget,
      get logger() {
        return (logger ??= parent.child({ interaction: call.id, user: call.user.userId, guild: call.user.guildId }));
      },
    };
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
          onUpdateError: (err) => log().info({ err }, 'a newer version of the answer was not edited in (the answer was deleted?)'),
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
      return answerComponent(work, own, responder, {
        deadlineMs: this.#options.ackDeadlineMs,
        budget: ctx.budget,
        deferFirst: burst,
        late: meter.late,
        onUpdateError: (err) => log().info({ err }, 'a newer version of the answer was not edited in (the message was deleted?)'),
      });
    });
  }

  /** In a burst, holds a handler until no ack is pending or {@link BURST_HANDLER_TIME_MS} before its answer is due: an unacked interaction fails at 3 s. */
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

  /** Runs `answer` counted as awaiting ack: `burst` if {@link BURST_PENDING_ACKS} were already waiting; `acked` ends the wait at a first response. */
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

const itself = (view: View): View => view;
const viewOfResult = (result: ComponentResult): View => result.view;
