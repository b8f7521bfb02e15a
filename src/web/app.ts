/**
 * The web dashboard (docs/operations.md, "The dashboard"): server admins sign in with Discord and change what `/config`
 * changes, on pages. Fastify with its official plugins: sessions in a signed cookie with their data in the cache store
 * (Redis when set, so every web process shares them), CSRF tokens on every change, rate limits, a content security policy.
 *
 * Every change runs `/config` itself (the `runConfig` given), with the admin's permissions as Discord has them now, so it
 * goes through the same validation and store, is logged in the same audit log, and reaches every bot process through the
 * settings' own sync.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import session, { type SessionStore } from '@fastify/session';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type Keyv from 'keyv';
import {
  ApplicationCommandOptionType,
  type APIApplicationCommandSubcommandOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import type { CommandInput } from '../discord/command.js';
import type { Logger } from '../core/logger.js';
import { DISCORD_LOCALES, LOCALE_NAMES, LOCALES, localeOf, localizedCommandPath, runInLocale, tr, type Locale } from '../i18n/index.js';
import type { View } from '../render/view.js';
import { localizeCommand } from '../i18n/commands.js';
import type { ConfigAuditRepository } from '../store/config-audit.js';
import type { PublicPagesRepository } from '../store/public-pages.js';
import { LRUCache } from 'lru-cache';
import { publicContent, type PublicSources } from './public-page.js';
import type { RankRolesPreviewer } from './rank-roles-preview.js';
import { managesServer, type WebChannel, type WebDirectory, type WebRole } from './directory.js';
import { NEXT_PAGE, type Identity, type SignIn } from './sign-in.js';
import { answerHtml, escapeHtml, pageEngine, STYLE_SHEET, type MentionNames, type PageName } from './views.js';

/** How long a sign-in lasts, ms: a day. */
export const SESSION_MAX_AGE_MS = 24 * 60 * 60_000;
/** Changes a minute one admin may make; past it, 429. */
export const CHANGES_PER_MINUTE = 30;
/** Sign-ins a minute from one address (each of `/login` and its callback); past it, 429. */
export const SIGN_IN_PER_MINUTE = 10;
/** The /config subcommands the dashboard offers as forms, in its order; `show` and `status` are panels, `reset` stays a command. */
export const FORM_SUBCOMMANDS = [
  'feed',
  'feed-off',
  'alerts',
  'language',
  'platform',
  'private-answers',
  'display',
  'ladder',
  'rank-roles',
  'test-post',
] as const;
/** The last page of a public ladder a visitor may ask for (50,000 members). */
const MAX_PUBLIC_PAGE = 1_000;
/** How long a public page, once drawn, is served as it is, ms. */
export const PUBLIC_CACHE_MS = 60_000;
/** The public page's texts the templates print. */
const PUBLIC_KEYS = ['section', 'off', 'on', 'publish', 'revoke', 'revokeHelp', 'unpublish', 'ladder', 'place', 'player', 'tier', 'score', 'week'].concat([
  'heroes',
  'hero',
  'matches',
  'winRate',
  'duos',
  'duo',
  'record',
  'ladderOff',
  'empty',
  'noHeroes',
  'previous',
  'next',
  'note',
]);
/** The cookie of the page language a visitor chose (`?lang=`), one of ours. */
export const LANG_COOKIE = 'rivals_lang';
/** The session cookie's name. */
export const SESSION_COOKIE = 'rivals_dashboard';

declare module 'fastify' {
  interface Session {
    identity?: Identity;
    /** Ms since the epoch, on the dashboard's clock. */
    signedInAt?: number;
    /** The answer of the last change, shown once on the server's page. */
    result?: { guildId: string; html: string; error: boolean; form: string };
  }
}

export interface WebAppOptions {
  /** The address admins open, without a trailing slash; https makes the cookies Secure. Absent (the playground): the request's own. */
  publicUrl?: string;
  /** Signs the session cookie; at least 32 characters. */
  sessionSecret: string;
  signIn: SignIn;
  directory: WebDirectory;
  /** Where sessions are kept (a namespace of the cache store). */
  sessions: Keyv;
  /** `/config`'s definition as registered (Discord's JSON), for the forms' options, labels and choices. */
  configDefinition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /** Runs `/config` as the router does (errors mapped to their answers). */
  runConfig: (input: CommandInput) => Promise<View>;
  audit: Pick<ConfigAuditRepository, 'list' | 'record'>;
  /** Servers' public pages: whether each is on, and at which address. */
  publicPages: Pick<PublicPagesRepository, 'get' | 'publish' | 'unpublish' | 'guildOf'>;
  /** What the public pages show. */
  publicSources: PublicSources;
  /** The language a member chose with `/settings language` (src/store/account-links.ts), which their pages follow. */
  memberLocale?: (userId: string) => Promise<Locale | null>;
  /** The rank roles' dry run of a mapping not saved yet; absent: the rank-roles form has no Preview. */
  previewRankRoles?: RankRolesPreviewer;
  logger: Logger;
  now?: () => number;
  /** Requests a minute: sign-ins from one address, changes by one admin; default {@link SIGN_IN_PER_MINUTE}, {@link CHANGES_PER_MINUTE}. */
  limits?: { signInPerMinute: number; changesPerMinute: number };
}

/** @fastify/session's store over keyv: the session as JSON, kept as long as it lasts. */
function keyvSessionStore(keyv: Keyv): SessionStore {
  return {
    set: (id, value, done) => void keyv.set(id, JSON.parse(JSON.stringify(value)) as unknown, SESSION_MAX_AGE_MS).then(() => done(), done),
    get: (id, done) => void keyv.get(id).then((value) => done(null, (value ?? null) as never), done),
    destroy: (id, done) => void keyv.delete(id).then(() => done(), done),
  };
}

/** The Discord locale code a page in `locale` sends to /config (its answers follow the member's client). */
const discordLocaleOf = (locale: Locale): string => DISCORD_LOCALES[locale][0]!;

/** Builds the dashboard; the caller listens (`app.listen`) and closes it. */
export async function createWebApp(o: WebAppOptions): Promise<FastifyInstance> {
  const now = o.now ?? Date.now;
  const https = o.publicUrl?.startsWith('https:') ?? false;
  /** Where this dashboard is reached: the configured address, else the request's (the playground's free port). */
  const origin = (request: FastifyRequest) => o.publicUrl ?? `${request.protocol}://${request.host}`;
  /** Public pages already drawn, by server, page and language: one read of the store a minute each, however many visitors. */
  const publicDrawn = new LRUCache<string, string>({ max: 2_000, ttl: PUBLIC_CACHE_MS, perf: { now } });
  const eta = pageEngine();
  // Typed as Fastify's logger, so that the instance is the default FastifyInstance its plugins expect.
  const loggerInstance: FastifyBaseLogger = o.logger;
  const app = Fastify({
    loggerInstance,
    logController: new LogController({ disableRequestLogging: true }),
    // Behind a reverse proxy on the same machine or network (compose), its forwarded address and scheme count.
    trustProxy: 'loopback, linklocal, uniquelocal',
    bodyLimit: 64 * 1024,
  });
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'https://cdn.discordapp.com', 'data:'],
        styleSrc: ["'self'"],
        scriptSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https,
  });
  await app.register(cookie);
  await app.register(session, {
    secret: o.sessionSecret,
    cookieName: SESSION_COOKIE,
    cookie: { httpOnly: true, sameSite: 'lax', secure: https, maxAge: SESSION_MAX_AGE_MS, path: '/' },
    store: keyvSessionStore(o.sessions),
    saveUninitialized: false,
    // The cookie is sent when the session is made or changed, never with a page that did not change it (a public page).
    rolling: false,
  });
  await app.register(formbody);
  await app.register(csrf, { sessionPlugin: '@fastify/session' });
  await app.register(rateLimit, { global: false });

  /** The page's language: asked (`?lang=`, then kept), else the one they chose with `/settings language`, else their Discord account's, else the browser's, else English. */
  const languageOf = (request: FastifyRequest, reply?: FastifyReply): Locale => {
    // One of ours exactly (a repeated `lang` is an array: its first), kept in a cookie of its own: never a session, so
    // that a visitor who is not signed in costs the session store nothing.
    const raw = (request.query as { lang?: unknown } | undefined)?.lang;
    const asked = (Array.isArray(raw) ? raw[0] : raw) as unknown;
    const chosen = typeof asked === 'string' ? LOCALES.find((l) => l === asked) : undefined;
    if (chosen && reply) void reply.setCookie(LANG_COOKIE, chosen, { httpOnly: true, sameSite: 'lax', secure: https, maxAge: 365 * 24 * 3600, path: '/' });
    const kept = LOCALES.find((l) => l === request.cookies[LANG_COOKIE]);
    const browser = request.headers['accept-language']?.split(',').map((part) => part.split(';')[0]!.trim());
    return chosen ?? kept ?? localeOf(request.session.get('identity')?.locale) ?? browser?.map(localeOf).find((l) => l !== null) ?? 'en';
  };

  /** A page as HTML in the visitor's language; `anonymous` draws it with nobody signed in (a public page, served to all alike). */
  const draw = (request: FastifyRequest, reply: FastifyReply, page: PageName, data: Record<string, unknown>, anonymous = false): string => {
    const lang = languageOf(request, reply);
    const identity = anonymous ? undefined : request.session.get('identity');
    return runInLocale(lang, () => {
      const t = Object.fromEntries(
        ['title', 'skip', 'signIn', 'signOut', 'landing', 'servers', 'serversIntro', 'noServers', 'language', 'settings', 'status', 'forms', 'audit']
          .concat(['auditEmpty', 'auditWhen', 'auditWho', 'auditWhat', 'auditWhere', 'save', 'keep', 'result', 'required', 'back', 'preview'])
          .map((k) => [k, tr(`web:${k}` as never)]),
      );
      return eta.render(`@${page}`, {
        ...data,
        lang,
        t: { ...t, error: { title: tr('web:error.title') }, public: Object.fromEntries(PUBLIC_KEYS.map((k) => [k, tr(`web:public.${k}` as never)])) },
        title: typeof data.title === 'string' ? `${data.title} · ${tr('web:title')}` : tr('web:title'),
        languages: LOCALES.map((l) => ({ code: l, name: LOCALE_NAMES[l], current: l === lang })),
        user: identity ? tr('web:signedInAs', { name: identity.name }) : null,
        csrf: identity ? reply.generateCsrf() : '',
      });
    });
  };
  const render = async (request: FastifyRequest, reply: FastifyReply, page: PageName, data: Record<string, unknown>, status = 200) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(draw(request, reply, page, data));

  /** An error page in the visitor's language: what happened and where to go; `again` (a server's page) is where signing in again leads back to. */
  const refuse = (request: FastifyRequest, reply: FastifyReply, status: number, message: string, again?: string) => {
    const signedIn = request.session.get('identity') !== undefined;
    const href = signedIn ? '/' : again && NEXT_PAGE.test(again) ? `/login?next=${encodeURIComponent(again)}` : '/login';
    return render(
      request,
      reply,
      'error',
      { message, next: { href, label: runInLocale(languageOf(request), () => tr(signedIn ? 'web:back' : 'web:signIn')) } },
      status,
    );
  };
  const say = (request: FastifyRequest, key: Parameters<typeof tr>[0], values?: Parameters<typeof tr>[1]) =>
    runInLocale(languageOf(request), () => tr(key, values));

  const signedIn = (request: FastifyRequest): Identity | null => {
    const identity = request.session.get('identity');
    const at = request.session.get('signedInAt');
    if (!identity || at === undefined) return null;
    return now() - at < SESSION_MAX_AGE_MS ? identity : null;
  };

  await o.signIn(
    app,
    async (request, reply, identity, next) => {
      // A new session id at sign-in, so an id planted before it is worth nothing.
      await request.session.regenerate();
      // The bot's language for them, when they chose one, before their Discord account's.
      const chosen = await o.memberLocale?.(identity.userId).catch(() => null);
      request.session.set('identity', chosen ? { ...identity, locale: chosen } : identity);
      request.session.set('signedInAt', now());
      o.logger.info({ user: identity.userId, guilds: identity.guilds.length }, 'an admin signed in to the dashboard');
      return reply.redirect(next && NEXT_PAGE.test(next) ? next : '/', 303);
    },
    (reply, status) => {
      const request = reply.request;
      return refuse(request, reply, status, say(request, status === 403 ? 'web:error.signIn' : 'web:error.discord'));
    },
    { max: o.limits?.signInPerMinute ?? SIGN_IN_PER_MINUTE, timeWindow: 60_000 },
  );

  app.get('/assets/web.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLE_SHEET),
  );

  app.get('/', async (request, reply) => {
    const identity = signedIn(request);
    if (!identity) {
      // An ended session: a fresh one, with nobody in it.
      if (request.session.get('identity')) await request.session.regenerate();
      return render(request, reply, 'landing', { loginUrl: '/login' });
    }
    // Discord's list at sign-in, less the servers the bot is not in.
    const present = await Promise.all(identity.guilds.map(async (g) => ((await o.directory.guild(g.id).catch(() => null)) ? g : null)));
    const guilds = present
      .filter((g) => g !== null)
      .map((g) => ({
        id: g.id,
        name: g.name,
        initial: Array.from(new Intl.Segmenter().segment(g.name.trim()), (x) => x.segment)[0] ?? '?',
        iconUrl: g.icon && /^(a_)?[0-9a-f]{32}$/.test(g.icon) ? `https://cdn.discordapp.com/icons/${g.id}/${g.icon}.png?size=64` : null,
      }));
    return render(request, reply, 'servers', { title: say(request, 'web:servers'), guilds });
  });

  /** Changes a minute by one admin (by address before sign-in). */
  const changeLimit = {
    max: o.limits?.changesPerMinute ?? CHANGES_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => request.session.get('identity')?.userId ?? request.ip,
  };
  // A decorated function of the plugin's (it reads no `this`).
  const csrfChecked = app.csrfProtection.bind(app);
  app.post('/logout', { preValidation: csrfChecked }, async (request, reply) => {
    await request.session.destroy();
    return reply.redirect('/', 303);
  });

  /**
   * The member, when they may change `guildId`'s settings now: signed in, Manage Server there as Discord says now (read
   * again at most a minute later), and the bot in it. Otherwise the answer is sent: a sign-in for a session that ended,
   * 403 for the rest, whatever the browser claims.
   */
  const admit = async (request: FastifyRequest, reply: FastifyReply, guildId: string): Promise<{ identity: Identity; bits: bigint } | null> => {
    const identity = signedIn(request);
    if (!identity) {
      // An ended session: a fresh one, with nobody in it; a visitor who never signed in makes none.
      if (request.session.get('identity')) await request.session.regenerate();
      await refuse(request, reply, 401, say(request, 'web:error.expired'), `/guilds/${guildId}`);
      return null;
    }
    let bits: bigint | null;
    try {
      bits = /^\d{1,20}$/.test(guildId) ? await o.directory.memberPermissions(guildId, identity.userId) : null;
    } catch (err) {
      // Discord failing: nothing is shown or changed until it answers again.
      o.logger.warn({ err, guildId }, 'could not read the member’s permissions from Discord');
      await refuse(request, reply, 502, say(request, 'web:error.discord'));
      return null;
    }
    if (!managesServer(bits)) {
      o.logger.info({ user: identity.userId, guildId }, 'the dashboard refused a server the member does not manage');
      await refuse(request, reply, 403, say(request, 'web:error.forbidden'));
      return null;
    }
    return { identity, bits: bits! };
  };

  const invoker = (request: FastifyRequest, identity: Identity, guildId: string, bits: bigint): CommandInput['user'] => ({
    userId: identity.userId,
    guildId,
    permissions: bits.toString(),
    locale: discordLocaleOf(languageOf(request)),
  });

  // With every language's names and descriptions, as `npm run deploy` registers it.
  const definition = localizeCommand(o.configDefinition);
  const subcommand = (name: string) =>
    (definition.options ?? []).find((s): s is APIApplicationCommandSubcommandOption => s.type === ApplicationCommandOptionType.Subcommand && s.name === name);

  /**
   * The server as its pages show it: its name, channels and roles, and the names its mentions take; null when Discord
   * fails (logged), for the page to say so.
   */
  const readServer = async (guildId: string) => {
    const read = await Promise.all([o.directory.guild(guildId), o.directory.channels(guildId), o.directory.roles(guildId)]).catch((err: unknown) => {
      o.logger.warn({ err, guildId }, 'could not read the server’s channels and roles from Discord');
      return null;
    });
    if (!read) return null;
    const [guild, channels, roles] = read;
    const names: MentionNames = { channels: new Map(channels.map((c) => [c.id, c.name])), roles: new Map(roles.map((r) => [r.id, r.name])) };
    return { guild, channels, roles, names };
  };

  app.get<{ Params: { id: string } }>('/guilds/:id', async (request, reply) => {
    const guildId = request.params.id;
    const admitted = await admit(request, reply, guildId);
    if (!admitted) return reply;
    const server = await readServer(guildId);
    if (!server) return refuse(request, reply, 502, say(request, 'web:error.discord'));
    const { guild, channels, roles, names } = server;
    const user = invoker(request, admitted.identity, guildId, admitted.bits);
    const lang = languageOf(request);
    const [show, status, audit, published] = await Promise.all([
      runInLocale(lang, () => o.runConfig({ subcommand: 'show', options: {}, user, via: 'dashboard' })),
      runInLocale(lang, () => o.runConfig({ subcommand: 'status', options: {}, user, via: 'dashboard' })),
      o.audit.list(guildId, now()),
      o.publicPages.get(guildId),
    ]);
    const result = request.session.get('result');
    if (result) request.session.set('result', undefined);
    const when = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    const forms = runInLocale(lang, () => FORM_SUBCOMMANDS.map((name) => formOf(subcommand(name), lang, channels, roles)).filter((f) => f !== null));
    return render(request, reply, 'guild', {
      title: guild?.name ?? guildId,
      guild: { id: guildId, name: guild?.name ?? guildId },
      show: answerHtml(show, names),
      status: answerHtml(status, names),
      result: result?.guildId === guildId ? result : null,
      publicPage: published ? { url: `${origin(request)}/s/${published.token}` } : null,
      zones: TIME_ZONES,
      forms: forms.map((f) => ({
        ...f,
        open: result?.guildId === guildId && result.form === f.name,
        preview: f.name === 'rank-roles' && o.previewRankRoles !== undefined,
      })),
      audit: audit.map((a) => ({
        iso: new Date(a.at).toISOString(),
        when: `${when.format(a.at)} UTC`,
        who: a.userId === null ? say(request, 'web:nobody') : a.userId === admitted.identity.userId ? admitted.identity.name : a.userId,
        what: `${a.action === 'public-page' ? say(request, 'web:public.section') : `/${localizedCommandPath(`config ${a.action}`, lang)}`} ${Object.entries(
          a.detail,
        )
          // A channel or role by its name, as the pickers show it.
          .map(
            ([k, v]) =>
              `${k}:${names.channels.has(String(v)) ? `#${names.channels.get(String(v))!}` : names.roles.has(String(v)) ? `@${names.roles.get(String(v))!}` : String(v)}`,
          )
          .join(' ')}`.trim(),
        where: say(request, a.source === 'dashboard' ? 'web:sourceDashboard' : 'web:sourceCommand'),
      })),
    });
  });

  app.post<{ Params: { id: string; sub: string }; Body: Record<string, unknown> }>(
    '/guilds/:id/config/:sub',
    {
      preValidation: csrfChecked,
      config: { rateLimit: changeLimit },
    },
    async (request, reply) => {
      const guildId = request.params.id;
      const admitted = await admit(request, reply, guildId);
      if (!admitted) return reply;
      const name = request.params.sub;
      const sub = (FORM_SUBCOMMANDS as readonly string[]).includes(name) ? subcommand(name) : undefined;
      if (!sub) return refuse(request, reply, 404, say(request, 'web:error.notFound'));
      const server = await readServer(guildId);
      if (!server) return refuse(request, reply, 502, say(request, 'web:error.discord'));
      const { channels, roles, names } = server;
      const parsed = optionsOf(sub, request.body ?? {}, channels, roles);
      const lang = languageOf(request);
      let result: { html: string; error: boolean };
      const preview = name === 'rank-roles' && request.body?.preview === '1' ? o.previewRankRoles : undefined;
      if ('bad' in parsed) {
        // The option as the admin's language names it on the form.
        const option =
          runInLocale(lang, () => formOf(sub, lang, channels, roles)?.fields.find((f) => f.name === parsed.bad.option)?.label) ?? parsed.bad.option;
        const said = parsed.bad.missing
          ? say(request, 'web:error.required', { option })
          : say(request, 'web:error.badValue', { value: parsed.bad.value, option });
        result = { html: `<p>${escapeHtml(said)}</p>`, error: true };
      } else if (preview) {
        const shown = await runInLocale(lang, () => preview(guildId, parsed.options));
        result = shown?.refused
          ? { html: answerHtml({ embeds: [shown.embed] }, names), error: true }
          : {
              html: `<p><strong>${escapeHtml(say(request, 'web:notSaved'))}</strong></p>${shown ? answerHtml({ embeds: [shown.embed] }, names) : ''}`,
              error: false,
            };
      } else {
        const view = await runInLocale(lang, () =>
          o.runConfig({ subcommand: name, options: parsed.options, user: invoker(request, admitted.identity, guildId, admitted.bits), via: 'dashboard' }),
        );
        result = { html: answerHtml(view, names), error: view.isError === true };
      }
      request.session.set('result', { guildId, ...result, form: name });
      return reply.redirect(`/guilds/${guildId}#result`, 303);
    },
  );

  app.post<{ Params: { id: string }; Body: { action?: unknown } }>(
    '/guilds/:id/public',
    { preValidation: csrfChecked, config: { rateLimit: changeLimit } },
    async (request, reply) => {
      const guildId = request.params.id;
      const admitted = await admit(request, reply, guildId);
      if (!admitted) return reply;
      const action = request.body?.action;
      if (action !== 'publish' && action !== 'revoke' && action !== 'off') return refuse(request, reply, 400, say(request, 'web:error.form'));
      if (action === 'off') await o.publicPages.unpublish(guildId);
      else await o.publicPages.publish(guildId, now());
      await o.audit
        .record({ guildId, userId: admitted.identity.userId, source: 'dashboard', action: 'public-page', detail: { action }, at: now() })
        .catch((err: unknown) => o.logger.warn({ err, guildId }, 'could not write the public page change to the audit log'));
      const said = say(request, action === 'off' ? 'web:public.unpublished' : action === 'revoke' ? 'web:public.revoked' : 'web:public.published');
      request.session.set('result', { guildId, html: `<p>${escapeHtml(said)}</p>`, error: false, form: 'public' });
      return reply.redirect(`/guilds/${guildId}#result`, 303);
    },
  );

  /** A server's public page: anyone with its address, no sign-in; game names only. */
  app.get<{ Params: { token: string }; Querystring: { page?: string } }>('/s/:token', async (request, reply) => {
    const guildId = await o.publicPages.guildOf(request.params.token);
    if (!guildId) return refuse(request, reply, 404, say(request, 'web:error.notFound'));
    const lang = languageOf(request);
    // Past the last page shows the last: the key is bounded so that made-up pages cannot fill the cache.
    const page = Math.min(MAX_PUBLIC_PAGE, Math.max(1, Math.trunc(Number(request.query.page ?? 1)) || 1));
    const key = `${guildId}:${page}:${lang}`;
    let html = publicDrawn.get(key);
    if (html === undefined) {
      const [content, guild] = await Promise.all([
        runInLocale(lang, () => publicContent(guildId, page, o.publicSources, now())),
        o.directory.guild(guildId).catch(() => null),
      ]);
      const heading = runInLocale(lang, () => tr('web:public.title', { server: guild?.name ?? '' }));
      html = draw(
        request,
        reply,
        'public',
        {
          title: heading,
          heading,
          noindex: true,
          content,
          listed: runInLocale(lang, () => tr('web:public.listed', { n: content.listed })),
          pageOf: runInLocale(lang, () => tr('web:public.pageOf', { page: content.page, pages: content.pages })),
        },
        true,
      );
      publicDrawn.set(key, html);
    }
    // Private: the language follows the visitor's cookie and browser, and a shared cache has no reason to keep it.
    return reply.code(200).header('cache-control', 'private, max-age=60').header('vary', 'Cookie, Accept-Language').type('text/html; charset=utf-8').send(html);
  });

  app.setNotFoundHandler(async (request, reply) => refuse(request, reply, 404, say(request, 'web:error.notFound')));
  app.setErrorHandler(async (err: { statusCode?: number; code?: string }, request, reply) => {
    if (err.statusCode === 429) return refuse(request, reply, 429, say(request, 'web:error.tooMany'));
    if (err.code?.startsWith('FST_CSRF')) return refuse(request, reply, 403, say(request, 'web:error.form'));
    const ref = randomUUID().slice(0, 8);
    // A public page's address is its secret: logged without its token.
    o.logger.error({ err, ref, url: request.url.split('?')[0]!.replace(/^\/s\/[^/]+/, '/s/…') }, 'a dashboard page failed');
    return refuse(request, reply, 500, say(request, 'web:error.unknown', { ref }));
  });
  return app;
}

/** A form control: a select of choices, or an input of a type. */
interface Field {
  name: string;
  /** What the empty choice of an optional select means: the option left out, which most subcommands read as "keep". */
  empty: string;
  /** A text input's suggestions (the page's `datalist` of that id), for an option Discord autocompletes. */
  list?: 'zones';
  label: string;
  help: string;
  required: boolean;
  kind: 'select' | 'text' | 'number';
  choices: { value: string; name: string }[];
  min?: number;
  max?: number;
  maxLength?: number;
}

/** The IANA time zones this Node.js knows, for the time-zone fields' suggestions. */
const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

/** Options that, left out, do something else than keep what the server has (commands/config/): say it on the form. */
const EMPTY_MEANS: Readonly<Record<string, 'web:off' | 'web:unmap'>> = { 'alerts.channel': 'web:off', 'rank-roles.role': 'web:unmap' };

/** A subcommand as a form: each option a control, labelled and explained in `lang` (the definition's localizations). */
function formOf(sub: APIApplicationCommandSubcommandOption | undefined, lang: Locale, channels: WebChannel[], roles: WebRole[]) {
  if (!sub) return null;
  const discord = DISCORD_LOCALES[lang];
  const local = (base: string, localized: Partial<Record<string, string | null>> | null | undefined) =>
    discord.map((code) => localized?.[code]).find((v) => typeof v === 'string') ?? base;
  const fields: Field[] = (sub.options ?? []).map((opt) => {
    const base = {
      name: opt.name,
      empty: tr(EMPTY_MEANS[`${sub.name}.${opt.name}`] ?? 'web:keep'),
      label: local(opt.name, opt.name_localizations),
      help: local(opt.description, opt.description_localizations),
      required: opt.required === true,
    };
    switch (opt.type) {
      case ApplicationCommandOptionType.Channel:
        return { ...base, kind: 'select', choices: channels.map((c) => ({ value: c.id, name: `#${c.name}` })) };
      case ApplicationCommandOptionType.Role:
        return { ...base, kind: 'select', choices: roles.map((r) => ({ value: r.id, name: `@${r.name}` })) };
      case ApplicationCommandOptionType.Boolean:
        return {
          ...base,
          kind: 'select',
          choices: [
            { value: 'true', name: tr('web:on') },
            { value: 'false', name: tr('web:off') },
          ],
        };
      case ApplicationCommandOptionType.Integer:
      case ApplicationCommandOptionType.Number:
        if (opt.choices?.length)
          return { ...base, kind: 'select', choices: opt.choices.map((c) => ({ value: String(c.value), name: local(c.name, c.name_localizations) })) };
        return { ...base, kind: 'number', choices: [], min: opt.min_value, max: opt.max_value };
      case ApplicationCommandOptionType.String:
        if (opt.choices?.length)
          return { ...base, kind: 'select', choices: opt.choices.map((c) => ({ value: c.value, name: local(c.name, c.name_localizations) })) };
        // The one option /config autocompletes is a time zone: the browser's own list of suggestions stands in.
        return { ...base, kind: 'text', choices: [], maxLength: opt.max_length, ...(opt.autocomplete ? { list: 'zones' as const } : {}) };
      default:
        return { ...base, kind: 'text', choices: [] };
    }
  });
  return {
    name: sub.name,
    title: local(sub.description, sub.description_localizations),
    fields,
    button: tr(sub.name === 'test-post' ? 'web:send' : 'web:save'),
  };
}

/**
 * A form's fields as /config's options, checked as Discord checks a command's: a choice among the choices, a channel or
 * role of this server, a number within its bounds; an empty field is an option not given, refused when it is required.
 * Fields that name no option are ignored.
 * @returns the options, or the first value refused (`missing` for a required one left empty) and the option's name.
 */
export function optionsOf(
  sub: APIApplicationCommandSubcommandOption,
  body: Record<string, unknown>,
  channels: readonly WebChannel[],
  roles: readonly WebRole[],
): { options: CommandInput['options'] } | { bad: { option: string; value: string; missing?: boolean } } {
  const options: CommandInput['options'] = {};
  for (const opt of sub.options ?? []) {
    const raw = body[opt.name];
    const text = typeof raw === 'string' ? raw.trim() : '';
    // A required option left out is refused here, as Discord's client never sends the command without it.
    if (text === '' && opt.required) return { bad: { option: opt.name, value: '', missing: true } };
    if (text === '') continue;
    const bad = { bad: { option: opt.name, value: text.slice(0, 100) } };
    switch (opt.type) {
      case ApplicationCommandOptionType.Boolean:
        if (text !== 'true' && text !== 'false') return bad;
        options[opt.name] = text === 'true';
        break;
      case ApplicationCommandOptionType.Channel:
        if (!channels.some((c) => c.id === text)) return bad;
        options[opt.name] = text;
        break;
      case ApplicationCommandOptionType.Role:
        if (!roles.some((r) => r.id === text)) return bad;
        options[opt.name] = text;
        break;
      case ApplicationCommandOptionType.Integer:
      case ApplicationCommandOptionType.Number: {
        const n = Number(text);
        const whole = opt.type === ApplicationCommandOptionType.Integer;
        if (!Number.isFinite(n) || (whole && !Number.isInteger(n))) return bad;
        if ((opt.min_value !== undefined && n < opt.min_value) || (opt.max_value !== undefined && n > opt.max_value)) return bad;
        if (opt.choices?.length && !opt.choices.some((c) => c.value === n)) return bad;
        options[opt.name] = n;
        break;
      }
      case ApplicationCommandOptionType.String:
        if (opt.choices?.length && !opt.choices.some((c) => c.value === text)) return bad;
        if (opt.max_length !== undefined && text.length > opt.max_length) return bad;
        options[opt.name] = text;
        break;
      default:
        return bad;
    }
  }
  return { options };
}

/** A random session secret, for a start without WEB_SESSION_SECRET: sessions then end when the process does. */
export const randomSessionSecret = (): string => randomBytes(32).toString('hex');
