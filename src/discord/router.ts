/** The one interaction router (commands, components, autocomplete), mapping every error to a View in one place (STYLE.md principle 4). */
import { drawCharts } from './chart-attachments.js';
import { randomBytes } from 'node:crypto';
import type { APIApplicationCommandOptionChoice } from 'discord-api-types/v10';
import { ApiArgumentError, ApiError } from '../core/api-errors.js';
import { runWithDeadline, settleWithin, type InteractionBudget } from '../core/deadline.js';
import { ExpiredComponentError, NotFoundError, NotLinkedError, PrivateProfileError, SeasonError, UnknownHeroError, UserFacingError } from '../core/errors.js';
import { MAX_LINKED_ACCOUNTS, TooManyLinksError } from '../store/account-links.js';
import { StoreUnavailableError } from '../store/database.js';
import { escapeText, LIMITS, truncate } from '../render/limits.js';
import { errorMessageView, type View } from '../render/view.js';
import { withoutCards } from '../render/view-charts.js';
import { isCard } from '../charts/specs.js';
import { t } from '../render/strings.js';
import { pickLocale, runInLocale, tr, type Locale } from '../i18n/index.js';
import type { MessageKey } from '../i18n/keys.js';
import type { AutocompleteInput, CommandContext, CommandInput, CommandModule, ComponentHandler, ComponentInput, InteractionOnce, Invoker } from './command.js';
import { settingsServer } from './command.js';
import { decodeCustomId } from '../render/custom-id.js';
import { AUTOCOMPLETE_DEADLINE_MS } from '../core/deadline.js';

/** Longest wait for a guild's settings before the acknowledgement, ms (a cache miss only). */
export const PREFERS_PRIVATE_DEADLINE_MS = 250;

/** Time kept from the budget after a handler's last API call, for rendering and sending (`SEND_RESERVE_MS` of it, src/core/deadline.ts), ms. */
export const FINAL_ANSWER_RESERVE_MS = 1_500;

function apiDeadlineOf(budget: InteractionBudget | undefined): number | undefined {
  return budget && budget.answerBy - FINAL_ANSWER_RESERVE_MS;
}

/** How to show a component's answer: edit the message it is on, or reply with a new ephemeral message. */
export interface ComponentResult {
  view: View;
  mode: 'update' | 'reply';
}

/** The command (or component) module an error came from: the one whose {@link CommandModule.apiOptions} names its options. */
type ErrorOwner = Pick<CommandModule, 'definition' | 'apiOptions'>;

/** The option a refused API argument came from, as `owner` declares it, in the member's language (`jugador`); else the API's argument name. */
function optionName(err: ApiArgumentError, owner: ErrorOwner | undefined): string {
  const option = owner?.apiOptions?.[err.argument] ?? owner?.apiOptions?.[err.endpoint];
  // Each module names options it declares (test/discord/argument-errors.test.ts checks every one).
  const key = option ? (`commands:${owner!.definition.name}.options.${option}.name` as MessageKey) : undefined;
  const name = key ? tr(key) : undefined;
  return name && name !== key ? name : err.argument;
}

/**
 * A short ephemeral View for an error: actionable text when expected, else a generic text with a reference ID logged with the error.
 * `owner` is the module whose command or component failed, naming the options of a refused argument.
 */
export function errorView(err: unknown, ctx: Pick<CommandContext, 'logger'>, rawQuery?: string, fromComponent = false, owner?: ErrorOwner): View {
  const text = errorMessageView;
  // What a member typed is shown as text, never as markdown, links or mentions: every echo goes through escapeText.
  const query = rawQuery === undefined ? undefined : escapeText(rawQuery, 100);
  if (err instanceof NotFoundError) {
    const q = escapeText(err.query, 100);
    if (err.what === 'match') return text(err.fromMenu ? t.matchGone(q) : t.matchNotFound(q));
    if (err.fromMenu) return text(t.playerGone(q));
    return text(
      err.suggestions.length > 0
        ? t.playerNotFoundSuggest(
            q,
            err.suggestions.map((s) => escapeText(s, 60)),
          )
        : t.playerNotFound(q),
    );
  }
  if (err instanceof SeasonError)
    return text(err.latest === undefined ? t.badSeason(escapeText(err.value, 20)) : t.badSeasonListed(escapeText(err.value, 20), escapeText(err.latest, 20)));
  // The suggestions are hero names from the API, shown in bold: escaped like anything not written here.
  if (err instanceof UnknownHeroError)
    return text(
      t.unknownHero(
        escapeText(err.query, 100),
        err.suggestions.map((s) => escapeText(s, 60)),
      ),
    );
  if (err instanceof PrivateProfileError) return text(t.privateProfile(escapeText(err.playerName, 100)));
  if (err instanceof ExpiredComponentError) return text(t.expiredComponent());
  if (err instanceof NotLinkedError) {
    if (!err.self) return text(t.notLinkedOther(err.userId));
    const own = { compare: t.notLinkedSelfCompare, last: t.notLinkedSelfLast, scout: t.notLinkedSelfScout, session: t.notLinkedSelfSession };
    return text(err.command ? own[err.command]() : t.notLinkedSelf());
  }
  if (err instanceof TooManyLinksError) return text(t.tooManyLinks(MAX_LINKED_ACCOUNTS));
  if (err instanceof ApiArgumentError) return text(t.badArgument(optionName(err, owner), err.problem, err.values));
  if (err instanceof StoreUnavailableError) {
    ctx.logger.error({ err, operation: err.operation }, 'state store unavailable');
    return text(t.storeUnavailable());
  }
  if (err instanceof ApiError) {
    ctx.logger.warn({ kind: err.kind, endpoint: err.endpoint, status: err.status, upstream: err.upstreamMessage }, 'API error shown to member');
    switch (err.kind) {
      case 'not_found':
        if (fromComponent) return text(t.goneAfterPress());
        if (err.endpoint === 'player' || err.endpoint.startsWith('matchHistory') || err.endpoint === 'playerUpdate') return text(t.playerNotFound(query ?? ''));
        if (err.endpoint === 'match') return text(t.matchNotFound(query ?? ''));
        if (err.endpoint === 'item') return text(t.itemNotFound(query ?? ''));
        if (err.endpoint === 'achievement') return text(t.achievementNotFound(query ?? ''));
        if (err.endpoint === 'battlePass') return text(t.battlePassNotFound(query ?? ''));
        if (err.endpoint === 'devDiary') return text(t.postNotFound(query ?? ''));
        // Named when the member typed something; a command with no options never blames the typing.
        return text(query ? t.notFoundQuery(query) : t.nothingFromApi());
      case 'rate_limited':
        return text(t.rateLimited(Math.max(1, Math.ceil((err.retryAfterMs ?? 60_000) / 1000))));
      case 'timeout':
        return text(t.apiTimeout());
      case 'unauthorized':
        return text(err.privateProfile ? t.privateProfile(query ?? '') : t.apiUnauthorized());
      case 'bad_response':
        // JSON of a shape the bot does not know: said so, since retrying in a minute will not change it (the log has the shape).
        return text(err.wellFormed && err.upstreamMessage !== 'empty body' ? t.apiUnknownForm() : t.apiDown());
      case 'unavailable':
        return text(t.apiDown());
      case 'bad_request':
        return text(fromComponent ? t.goneAfterPress() : query ? t.notFoundQuery(query) : t.nothingFromApi());
    }
  }
  if (err instanceof UserFacingError) return text(err.message);
  const reference = randomBytes(4).toString('hex');
  ctx.logger.error({ err, reference }, 'unexpected error in a handler');
  return text(t.unexpected(reference));
}

export class Router {
  readonly #commands = new Map<string, CommandModule>();
  readonly #components = new Map<string, { handler: ComponentHandler; owner: CommandModule }>();

  /** @throws {Error} when two modules claim one command name or component route. */
  constructor(modules: CommandModule[]) {
    for (const m of modules) {
      if (this.#commands.has(m.definition.name)) throw new Error(`duplicate command ${m.definition.name}`);
      this.#commands.set(m.definition.name, m);
      for (const [route, handler] of Object.entries(m.components ?? {})) {
        if (this.#components.has(route)) throw new Error(`duplicate component route ${route}`);
        this.#components.set(route, { handler, owner: m });
      }
    }
  }

  /** The command modules, in registration order. */
  get commands(): CommandModule[] {
    return [...this.#commands.values()];
  }

  /** Runs a slash command in the member's language ({@link localeFor}); never throws (errors become ephemeral Views). */
  async command(name: string, input: CommandInput, ctx: CommandContext): Promise<View> {
    const module = this.#commands.get(name);
    // The drawing thread starts while the command loads its data, not after it (the thread exits when idle).
    if (module?.draws) ctx.charts?.warm?.();
    const once = ctx.once ?? this.once(input.user, ctx);
    const locale = await once.locale();
    return runInLocale(locale, async () => {
      if (!module) return errorView(new ExpiredComponentError(`/${name}`), ctx);
      try {
        const shown = this.#shown(input.user, ctx, locale, async (view) => ((await once.prefersPrivate()) ? { ...view, ephemeral: true } : view));
        return await runWithDeadline(apiDeadlineOf(ctx.budget), async () => shown(await module.execute(input, ctx)));
      } catch (err) {
        return errorView(err, ctx, queryOf(input.options), false, module);
      }
    });
  }

  /**
   * How a handler's View is shown to `user`: as they display answers, charts drawn, then `finish`ed. Each newer version
   * ({@link View.next}) is shown the same way, in the member's language.
   */
  #shown(user: Invoker, ctx: CommandContext, locale: Locale, finish: (view: View) => Promise<View> | View): (view: View) => Promise<View> {
    const shown = async (view: View): Promise<View> => {
      const { next, ...drawn } = await drawCharts(await this.#display(view, user, ctx), ctx.charts, ctx.logger);
      const out = await finish(drawn);
      return next ? { ...out, next: () => runInLocale(locale, () => this.#later(next, shown, ctx)) } : out;
    };
    return shown;
  }

  /** A view's next version, shown as `shown` does; null (and a warning) when it cannot be had: the answer shown stays. */
  async #later(next: () => Promise<View | null>, shown: (view: View) => Promise<View>, ctx: CommandContext): Promise<View | null> {
    try {
      const view = await next();
      return view && (await shown(view));
    } catch (err) {
      ctx.logger.warn({ err }, 'a newer version of an answer could not be shown');
      return null;
    }
  }

  /** Runs a component: the invoker's press updates the message; anyone else's, or a private answer, gets an ephemeral reply. Never throws. */
  async component(customId: string, values: string[], user: Invoker, invokerId: string | undefined, ctx: CommandContext): Promise<ComponentResult> {
    const locale = await (ctx.once ?? this.once(user, ctx)).locale();
    return runInLocale(locale, () => this.#component(customId, values, user, invokerId, ctx, locale));
  }

  async #component(
    customId: string,
    values: string[],
    user: Invoker,
    invokerId: string | undefined,
    ctx: CommandContext,
    locale: Locale,
  ): Promise<ComponentResult> {
    const decoded = decodeCustomId(customId);
    const route = decoded && this.#components.get(decoded.route);
    const own = invokerId === undefined || invokerId === user.userId;
    if (!decoded || !route) return { view: errorView(new ExpiredComponentError(customId), ctx), mode: 'reply' };
    const input: ComponentInput = { customId, route: decoded.route, args: decoded.args, values, user, invokerId };
    try {
      let update = false;
      const view = await runWithDeadline(apiDeadlineOf(ctx.budget), async () => {
        const first = await route.handler(input, ctx);
        // A private answer is always a new private reply: it must never replace a message others see (a feed post).
        update = own && !first.ephemeral;
        return this.#shown(user, ctx, locale, (v) => (update ? v : { ...v, ephemeral: true }))(first);
      });
      return { view, mode: update ? 'update' : 'reply' };
    } catch (err) {
      return { view: errorView(err, ctx, decoded.args[0], true, route.owner), mode: 'reply' };
    }
  }

  /**
   * `view` as the member sees answers: without its image cards for "embeds", their own `/settings display`, else their
   * server's `/config display`, else cards. A store past the deadline counts as no choice.
   */
  async #display(view: View, user: Invoker, ctx: CommandContext): Promise<View> {
    if (!view.charts?.some((c) => isCard(c.spec))) return view;
    try {
      const own = await settleWithin(ctx.links.display(user.userId), PREFERS_PRIVATE_DEADLINE_MS, () => null);
      const guildId = own === null ? settingsServer(user) : null;
      const cached = guildId ? ctx.settings.peek(guildId) : undefined;
      const server = !guildId
        ? null
        : cached
          ? (cached.display ?? null)
          : await settleWithin(
              ctx.settings.get(guildId).then((s) => s.display ?? null),
              PREFERS_PRIVATE_DEADLINE_MS,
              () => null,
            );
      return (own ?? server) === 'embeds' ? withoutCards(view) : view;
    } catch (err) {
      ctx.logger.warn({ err }, "could not read the member's display choice");
      return view;
    }
  }

  /** The member's language ({@link localeFor}) and their server's private default ({@link prefersPrivate}) for one interaction, each read at most once. */
  once(user: Invoker, ctx: CommandContext): InteractionOnce {
    let locale: Promise<Locale> | undefined;
    let prefers: Promise<boolean> | undefined;
    return {
      locale: () => (locale ??= this.localeFor(user, ctx)),
      prefersPrivate: () => (prefers ??= this.prefersPrivate(user, ctx)),
    };
  }

  /** Whether the server wants private answers; false outside a server that installed the bot, or when the store misses {@link PREFERS_PRIVATE_DEADLINE_MS}: the ack never waits on it. */
  async prefersPrivate(user: Invoker, ctx: CommandContext): Promise<boolean> {
    const guildId = settingsServer(user);
    if (!guildId) return false;
    const cached = ctx.settings.peek(guildId);
    if (cached) return cached.ephemeralByDefault;
    try {
      const read = ctx.settings.get(guildId).then((s) => s.ephemeralByDefault);
      return await settleWithin(read, PREFERS_PRIVATE_DEADLINE_MS, () => false);
    } catch (err) {
      ctx.logger.warn({ err }, 'could not read guild settings');
      return false;
    }
  }

  /** {@link prefersPrivate} from the in-process cache alone (false on a miss), for a deferral that must go at once (a burst). */
  async peekPrivate(user: Invoker, ctx: CommandContext): Promise<boolean> {
    const guildId = settingsServer(user);
    return guildId ? (ctx.settings.peek(guildId)?.ephemeralByDefault ?? false) : false;
  }

  /** The answers' language: the member's `/settings language`, else their client's, their server's, English. A store past the deadline counts as none. */
  async localeFor(user: Invoker, ctx: CommandContext): Promise<Locale> {
    let chosen = ctx.links.peekLocale(user.userId);
    if (chosen === undefined) {
      try {
        chosen = await settleWithin(ctx.links.locale(user.userId), PREFERS_PRIVATE_DEADLINE_MS, () => null);
      } catch (err) {
        ctx.logger.warn({ err }, "could not read the member's language");
        chosen = null;
      }
    }
    return pickLocale(chosen, user.locale, user.guildLocale);
  }

  /** Autocomplete choices in the member's language (at most 25, names within 100 characters); [] on any error. */
  async autocomplete(name: string, input: AutocompleteInput, ctx: CommandContext): Promise<APIApplicationCommandOptionChoice[]> {
    const locale = await (ctx.once ?? this.once(input.user, ctx)).locale();
    return runInLocale(locale, () => this.#autocomplete(name, input, ctx));
  }

  async #autocomplete(name: string, input: AutocompleteInput, ctx: CommandContext): Promise<APIApplicationCommandOptionChoice[]> {
    const module = this.#commands.get(name);
    if (!module?.autocomplete) return [];
    try {
      // Autocomplete has no deferral: its API calls stop when its answer must go.
      const deadline = ctx.budget && ctx.budget.createdAt + AUTOCOMPLETE_DEADLINE_MS;
      const choices = await runWithDeadline(deadline, () => module.autocomplete!(input, ctx));
      return choices.slice(0, LIMITS.autocompleteChoices).map((c) => ({ ...c, name: truncate(c.name, LIMITS.choiceName) }));
    } catch (err) {
      ctx.logger.warn({ err, command: name }, 'autocomplete failed');
      return [];
    }
  }
}

/** The text a member typed as the main query of a command, for error messages. */
function queryOf(options: CommandInput['options']): string | undefined {
  const v = options.query ?? options.name ?? options.match ?? options.hero ?? options.player ?? options.season;
  return v === undefined ? undefined : String(v);
}
