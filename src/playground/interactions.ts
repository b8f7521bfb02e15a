/**
 * The page's requests as the interaction inputs the discord.js runtime builds, run through the same Router and acknowledgement
 * policy (src/discord/respond.ts), with responders that write to the playground's channels.
 */
import { ApplicationCommandType, InteractionContextType, MessageFlags, type APIApplicationCommandOptionChoice } from 'discord-api-types/v10';
import type { CommandContext, CommandInput, Invoker } from '../discord/command.js';
import { answerAutocomplete, answerCommand, answerComponent, type CommandResponder, type ComponentResponder } from '../discord/respond.js';
import { interactionBudget } from '../core/deadline.js';
import { pickLocale, runInLocale } from '../i18n/index.js';
import type { Router } from '../discord/router.js';
import type { Logger } from '../core/logger.js';
import type { MessagePayload } from '../render/view.js';
import { t } from '../render/strings.js';
import { GUILD, channelById, dmChannelOf, permissionsOf, mayUse, PEOPLE, PlaygroundLocales, type GuildDirectory, type PlaygroundMember } from './guild.js';
import type { MessageInteraction, MessageStore } from './messages.js';
import { resolveCommand, type TypedCommand } from './options.js';

/** Accepted (the answer arrives as message events), or refused with the sentence to show. */
export type Accepted = { ok: true } | { ok: false; error: string };

export interface PlaygroundInteractionsOptions {
  router: Router;
  context: Omit<CommandContext, 'logger' | 'budget'>;
  /** Ms (`INTERACTION_BUDGET_MS`). */
  budgetMs?: number;
  messages: MessageStore;
  logger: Logger;
  /** As the Discord runtime's: a View ready sooner is sent directly, a later one deferred first. */
  ackDeadlineMs?: number;
  /** Default: all `en-US`. */
  locales?: PlaygroundLocales;
  /** The server's members and roles; default the three people alone. */
  guild?: GuildDirectory;
  /** Called once each interaction's answer is settled (the playground then brings rank roles in step). */
  afterInteraction?: () => void;
}

const isEphemeral = (p: MessagePayload) => (p.flags & MessageFlags.Ephemeral) !== 0;

export class PlaygroundInteractions {
  readonly #o: PlaygroundInteractionsOptions;
  readonly #locales: PlaygroundLocales;
  readonly #guild: GuildDirectory;
  readonly #inflight = new Set<Promise<void>>();
  #sequence = 0;

  constructor(options: PlaygroundInteractionsOptions) {
    this.#o = options;
    this.#locales = options.locales ?? new PlaygroundLocales();
    this.#guild = options.guild ?? PEOPLE;
  }

  #member(id: string): PlaygroundMember | undefined {
    return this.#guild.members.find((m) => m.id === id);
  }

  async settle(): Promise<void> {
    await Promise.allSettled([...this.#inflight]);
  }

  get inflight(): number {
    return this.#inflight.size;
  }

  /** A slash command; refused as Discord's client refuses it (permissions, options), in the member's Discord language. */
  command(memberId: string, channelId: string, typed: TypedCommand): Accepted {
    return this.#speaking(memberId, () => this.#command(memberId, channelId, typed));
  }

  #command(memberId: string, channelId: string, typed: TypedCommand): Accepted {
    const where = this.#where(memberId, channelId);
    if (!where.ok) return where;
    // In a DM, Discord's client offers only the commands declared for that context (not /config, /ladder).
    if (where.dm && !this.#inDms(typed.command)) return { ok: false, error: t.playgroundUnknownCommand(typed.command) };
    const resolved = resolveCommand(this.#o.router.commands, typed, where.member, this.#locales.member(memberId), this.#guild);
    if (!resolved.ok) return resolved;
    const input: CommandInput = { subcommand: resolved.subcommand, options: resolved.options, user: this.#invokerOf(where.member, where.dm) };
    return this.#answer(typed.command, input, where.member, channelId, { userId: memberId, command: resolved.display, kind: 'slash' });
  }

  /** A user context-menu command (Apps › name) on `targetId`. */
  userCommand(memberId: string, channelId: string, name: string, targetId: string): Accepted {
    return this.#speaking(memberId, () => this.#userCommand(memberId, channelId, name, targetId));
  }

  #userCommand(memberId: string, channelId: string, name: string, targetId: string): Accepted {
    const where = this.#where(memberId, channelId);
    if (!where.ok) return where;
    // The playground's DM has no member list to right-click.
    if (where.dm) return { ok: false, error: t.playgroundUnknownCommand(name) };
    const module = this.#o.router.commands.find((m) => m.definition.name === name && m.definition.type === ApplicationCommandType.User);
    const target = this.#member(targetId);
    if (!module) return { ok: false, error: t.playgroundUnknownCommand(name) };
    if (!mayUse(where.member, module.definition.default_member_permissions)) return { ok: false, error: t.playgroundNoPermission(name) };
    if (!target) return { ok: false, error: t.playgroundUnknownMember('user', targetId) };
    const input: CommandInput = { options: {}, targetUserId: target.id, targetName: target.name, user: this.#invokerOf(where.member) };
    return this.#answer(name, input, where.member, channelId, { userId: memberId, command: name, kind: 'user' });
  }

  #answer(name: string, input: CommandInput, member: PlaygroundMember, channelId: string, interaction: MessageInteraction): Accepted {
    this.#run(interaction.kind, member, (ctx) => {
      // Read once for the whole interaction, as on Discord: the responder's deferral and the router's answer share them.
      ctx.once = this.#o.router.once(input.user, ctx);
      return answerCommand(this.#o.router.command(name, input, ctx), this.#commandResponder(channelId, interaction), {
        prefersPrivate: () => ctx.once!.prefersPrivate(),
        deadlineMs: this.#o.ackDeadlineMs,
        budget: ctx.budget,
      });
    });
    return { ok: true };
  }

  /** A button press or select-menu choice: the message updates, or a private reply appears, as the router and policy decide. */
  component(memberId: string, messageId: string, customId: string, values: string[]): Accepted {
    return this.#speaking(memberId, () => this.#component(memberId, messageId, customId, values));
  }

  #component(memberId: string, messageId: string, customId: string, values: string[]): Accepted {
    const message = this.#o.messages.get(messageId);
    if (!message) return { ok: false, error: t.playgroundUnknownMessage() };
    const where = this.#where(memberId, message.channelId);
    if (!where.ok) return where;
    if (message.ephemeral && message.visibleTo !== memberId) return { ok: false, error: t.playgroundEphemeralOwner() };
    const invokerId = message.interaction?.userId;
    const own = invokerId === undefined || invokerId === memberId;
    this.#run('component', where.member, async (ctx) => {
      const work = this.#o.router.component(customId, values, this.#invokerOf(where.member, where.dm), invokerId, ctx);
      const interaction: MessageInteraction = { userId: memberId, command: message.interaction?.command ?? '', kind: 'component' };
      await answerComponent(work, own, this.#componentResponder(message.id, message.channelId, interaction), {
        deadlineMs: this.#o.ackDeadlineMs,
        budget: ctx.budget,
      });
    });
    return { ok: true };
  }

  /** [] when nothing fits in time. */
  async autocomplete(memberId: string, typed: TypedCommand, focused: string): Promise<APIApplicationCommandOptionChoice[]> {
    const member = this.#member(memberId);
    if (!member) return [];
    const logger = this.#o.logger.child({ interaction: `autocomplete-${++this.#sequence}`, user: memberId });
    const work = this.#o.router.autocomplete(
      typed.command,
      { subcommand: typed.subcommand, focused: { name: focused, value: typed.options[focused] ?? '' }, options: typed.options, user: this.#invokerOf(member) },
      { ...this.#o.context, logger },
    );
    return answerAutocomplete(work);
  }

  /** Runs `work` (refusals Discord's client would write) in the member's Discord language; the router picks its answers' language itself. */
  #speaking<T>(memberId: string, work: () => T): T {
    return runInLocale(pickLocale(this.#locales.member(memberId)), work);
  }

  /**
   * The interaction's invoker, as the Discord runtime builds it from `interaction.member`, `locale` and `guild_locale`;
   * in the member's DM with the bot (`dm`), from `interaction.user` and `locale` alone: no server, no permissions.
   */
  #invokerOf(member: PlaygroundMember, dm = false): Invoker {
    if (dm) return { userId: member.id, guildId: null, locale: this.#locales.member(member.id) };
    return {
      userId: member.id,
      guildId: GUILD.id,
      locale: this.#locales.member(member.id),
      guildLocale: this.#locales.guild,
      permissions: permissionsOf(member),
    };
  }

  /** Whether command `name` is declared for the bot's DMs (Discord: `contexts` holds BotDM). */
  #inDms(name: string): boolean {
    const definition = this.#o.router.commands.find((m) => m.definition.name === name)?.definition;
    return definition?.contexts?.includes(InteractionContextType.BotDM) ?? false;
  }

  /** A server channel, or the member's own DM with the bot (`dm`); another member's DM is as unknown as a made-up channel. */
  #where(memberId: string, channelId: string): { ok: true; member: PlaygroundMember; dm: boolean } | { ok: false; error: string } {
    const member = this.#member(memberId);
    if (!member) return { ok: false, error: t.playgroundUnknownMember('member', memberId) };
    if (channelById(channelId)) return { ok: true, member, dm: false };
    if (channelId === dmChannelOf(memberId)) return { ok: true, member, dm: true };
    return { ok: false, error: t.playgroundUnknownChannel('channel', channelId) };
  }

  #run(kind: string, member: PlaygroundMember, work: (ctx: CommandContext) => Promise<void>): void {
    const id = `playground-${++this.#sequence}`;
    const logger = this.#o.logger.child({ interaction: id, user: member.id, guild: GUILD.id });
    // The playground's interactions are created when the page asks: the budget starts now.
    const budget = interactionBudget('', Date.now(), this.#o.budgetMs);
    const job = work({ ...this.#o.context, logger, budget }).catch((err: unknown) => logger.error({ err, kind }, 'interaction failed'));
    this.#inflight.add(job);
    void job.finally(() => {
      this.#inflight.delete(job);
      this.#o.afterInteraction?.();
    });
  }

  /** Posts a finished answer of `interaction` in `channelId`, private to its member when the answer is ephemeral. */
  #poster(channelId: string, interaction: MessageInteraction) {
    return (payload: MessagePayload) =>
      this.#o.messages.create({
        channelId,
        interaction,
        state: 'done',
        payload,
        ephemeral: isEphemeral(payload),
        visibleTo: isEphemeral(payload) ? interaction.userId : undefined,
      });
  }

  /** The original response of a command, created by reply or defer and changed by edit and delete. */
  #commandResponder(channelId: string, interaction: MessageInteraction): CommandResponder {
    const messages = this.#o.messages;
    let original: string | undefined;
    const post = this.#poster(channelId, interaction);
    return {
      reply: async (payload) => void (original = post(payload).id),
      defer: async (ephemeral) => {
        original = messages.create({ channelId, interaction, state: 'thinking', ephemeral, visibleTo: ephemeral ? interaction.userId : undefined }).id;
      },
      edit: async (payload) => void messages.update(originalOf(original), { state: 'done', payload }),
      deleteReply: async () => messages.delete(originalOf(original)),
      followUp: async (payload) => void post(payload),
    };
  }

  /** Responses to a component on `messageId`: its updates, or a private placeholder and replies. */
  #componentResponder(messageId: string, channelId: string, interaction: MessageInteraction): ComponentResponder {
    const messages = this.#o.messages;
    // The original response, as Discord's: the component's message after an update, else the reply or placeholder.
    let original = messageId;
    let deferredUpdate = false;
    const post = this.#poster(channelId, interaction);
    return {
      update: async (payload) => void messages.update(messageId, { state: 'done', payload }),
      reply: async (payload) => void (original = post(payload).id),
      deferUpdate: async () => {
        deferredUpdate = true;
        messages.update(messageId, { state: 'updating' });
      },
      deferEphemeralReply: async () => {
        original = messages.create({ channelId, interaction, state: 'thinking', ephemeral: true, visibleTo: interaction.userId }).id;
      },
      edit: async (payload) => void messages.update(original, { state: 'done', payload }),
      followUp: async (payload) => {
        // The deferred update ends with this follow-up: the message keeps its content.
        if (deferredUpdate) messages.update(messageId, { state: 'done' });
        post(payload);
      },
    };
  }
}

function originalOf(id: string | undefined): string {
  if (id === undefined) throw new Error('no original response to change: reply or defer first');
  return id;
}
