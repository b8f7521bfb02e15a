/**
 * Signing an admin in: with Discord (OAuth2 authorization code grant, scopes `identify guilds`, through @fastify/oauth2,
 * which sets the `state` in a cookie and checks it on the way back), or, offline, as a member of the playground.
 * Discord's access token is used for two reads and revoked: nothing keeps it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import oauthPlugin, { type OAuth2Namespace } from '@fastify/oauth2';
import { request as httpRequest } from 'undici';
import type { Logger } from '../core/logger.js';
import { managesServer } from './directory.js';

/** Who signed in, as the session keeps it. `guilds`: the servers where Discord said, at sign-in, that they manage the server. */
export interface Identity {
  userId: string;
  name: string;
  /** Discord's avatar hash, or null. */
  avatar: string | null;
  /** Discord's locale of their account (`users/@me`), e.g. `fr`; absent when not said. */
  locale?: string;
  guilds: { id: string; name: string; icon: string | null }[];
}

/** Starts a session for `identity` and answers the browser: a redirect to `next` (a server's page), else to the server list. */
export type SignInHandler = (request: FastifyRequest, reply: FastifyReply, identity: Identity, next?: string) => Promise<FastifyReply>;

/** The rate limit of the sign-in routes (@fastify/rate-limit's route options): `max` a minute from one address. */
export interface SignInLimit {
  max: number;
  timeWindow: number;
}

/** How an admin signs in: registers `/login` and what it needs on `app`, each route limited by `limit`. */
export type SignIn = (
  app: FastifyInstance,
  signIn: SignInHandler,
  refuse: (reply: FastifyReply, status: number) => Promise<FastifyReply>,
  limit: SignInLimit,
) => Promise<void>;

/** Where a sign-in may lead back to: a server's page, never another site. */
export const NEXT_PAGE = /^\/guilds\/\d{1,20}$/;
/** The cookie that keeps it during the round trip to Discord. */
const NEXT_COOKIE = 'rivals_next';

declare module 'fastify' {
  interface FastifyInstance {
    discordOAuth2: OAuth2Namespace;
  }
}

/** Discord's partial guild of `GET /users/@me/guilds`: `permissions` the member's, as Discord's bit field text. */
interface PartialGuild {
  id: string;
  name: string;
  icon: string | null;
  permissions?: string;
}

/**
 * Signing in with Discord (Discord: "OAuth2", authorization code grant). `apiUrl` is Discord's API base
 * (`https://discord.com/api`, or a fake's in tests): the authorize page, the token and the reads are under it.
 * `/login` redirects to Discord; `/login/callback` checks the `state`, trades the code for a token, reads
 * `users/@me` and `users/@me/guilds`, revokes the token and signs in. A forged or missing `state`, or a code
 * Discord refuses, answers 403 and signs nobody in.
 */
export function discordSignIn(o: { apiUrl: string; clientId: string; clientSecret: string; publicUrl: string; logger: Logger }): SignIn {
  const api = new URL(o.apiUrl);
  const base = api.pathname.replace(/\/+$/, '');
  const https = o.publicUrl.startsWith('https:');
  return async (app, signIn, refuse, rateLimit) => {
    await app.register(oauthPlugin, {
      name: 'discordOAuth2',
      scope: ['identify', 'guilds'],
      credentials: {
        client: { id: o.clientId, secret: o.clientSecret },
        auth: { authorizeHost: api.origin, authorizePath: `${base}/oauth2/authorize`, tokenHost: api.origin, tokenPath: `${base}/oauth2/token` },
      },
      callbackUri: `${o.publicUrl}/login/callback`,
      // The `__Host-` prefix needs a secure cookie; behind plain http (a local run) the state cookie has none.
      hostPrefixedCookies: https,
      cookie: { secure: https, sameSite: 'lax', httpOnly: true, path: '/' },
    });
    const limit = { rateLimit };
    app.get('/login', { config: limit }, async (request, reply) => {
      // Where to go back to after Discord (a server's page the session ended on), kept beside the state for the round trip.
      const next = (request.query as { next?: unknown }).next;
      if (typeof next === 'string' && NEXT_PAGE.test(next))
        void reply.setCookie(NEXT_COOKIE, next, { httpOnly: true, sameSite: 'lax', secure: https, path: '/login', maxAge: 600 });
      return reply.redirect(await app.discordOAuth2.generateAuthorizationUri(request, reply));
    });
    app.get('/login/callback', { config: limit }, async (request, reply) => {
      let accessToken: string;
      try {
        accessToken = (await app.discordOAuth2.getAccessTokenFromAuthorizationCodeFlow(request, reply)).token.access_token;
      } catch (err) {
        // A forged state, a replayed or refused code: never the token or the code in the log.
        o.logger.warn({ reason: (err as Error).message }, 'a sign-in was refused');
        return refuse(reply, 403);
      }
      const next = request.cookies[NEXT_COOKIE];
      void reply.clearCookie(NEXT_COOKIE, { path: '/login' });
      const read = async <T>(path: string): Promise<T> => {
        const res = await httpRequest(`${o.apiUrl}/v10${path}`, {
          headers: { authorization: `Bearer ${accessToken}` },
          headersTimeout: 10_000,
          bodyTimeout: 10_000,
        });
        if (res.statusCode !== 200) {
          await res.body.dump();
          throw new Error(`Discord answered ${res.statusCode} to GET ${path}`);
        }
        return (await res.body.json()) as T;
      };
      try {
        const [user, guilds] = await Promise.all([
          read<{ id: string; username: string; global_name?: string | null; avatar?: string | null; locale?: string }>('/users/@me'),
          read<PartialGuild[]>('/users/@me/guilds'),
        ]);
        const identity: Identity = {
          userId: user.id,
          name: user.global_name ?? user.username,
          avatar: user.avatar ?? null,
          ...(user.locale ? { locale: user.locale } : {}),
          guilds: guilds.filter((g) => managesServer(permissionBits(g.permissions))).map((g) => ({ id: g.id, name: g.name, icon: g.icon })),
        };
        return await signIn(request, reply, identity, next && NEXT_PAGE.test(next) ? next : undefined);
      } catch (err) {
        o.logger.warn({ err }, 'could not read who signed in from Discord');
        return await refuse(reply, 502);
      } finally {
        // Best effort: the token is of no more use, and an unrevoked one expires by itself.
        void revoke(o, accessToken).catch((err: unknown) => o.logger.debug({ err }, 'could not revoke the sign-in token'));
      }
    });
  };
}

/** Discord's bit field text as bits; null for a missing or malformed one. */
function permissionBits(text: string | undefined): bigint | null {
  try {
    return text === undefined ? null : BigInt(text);
  } catch {
    return null;
  }
}

/** Discord: "Token Revocation" (RFC 7009), with the client's credentials. */
async function revoke(o: { apiUrl: string; clientId: string; clientSecret: string }, token: string): Promise<void> {
  const res = await httpRequest(`${o.apiUrl}/oauth2/token/revoke`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${o.clientId}:${o.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  await res.body.dump();
}

/**
 * Signing in offline, as a member of a pretend server: `/login?member=<id>` signs in as that member (the playground's
 * Dashboard link names the acting one) and opens `next`, with no Discord and no secret. Only the playground registers it.
 */
export function pretendSignIn(members: (id: string) => Identity | undefined, next?: string): SignIn {
  return async (app, signIn, refuse, rateLimit) => {
    app.get('/login', { config: { rateLimit } }, async (request, reply) => {
      const id = (request.query as { member?: unknown }).member;
      const identity = typeof id === 'string' ? members(id) : undefined;
      return identity ? signIn(request, reply, identity, next) : refuse(reply, 403);
    });
  };
}
