/**
 * The playground's HTTP server (loopback only): the page, its events and the interaction, locale, image and replica-post routes.
 * Requests are refused unless their Host is the loopback address served (against DNS rebinding) and, for POSTs and PATCHes,
 * their body is JSON (a cross-site form cannot post here).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as z from 'zod';
import type { Logger } from '../core/logger.js';
import type { ImageProxy } from './images.js';
import { isLanguageCode, LANGUAGES, type PlaygroundGuild, type PlaygroundLocales } from './guild.js';
import type { PlaygroundInteractions } from './interactions.js';
import type { MessageStore } from './messages.js';
import type { Bootstrap, EditablePost, NewPost, PageEvent, PostEdit, PostFeed } from './protocol.js';
import type { PlaygroundGame } from './game.js';
import { avatarSvg } from './avatars.js';
import type { PageAssets } from './bundle.js';

/** Bytes. */
const MAX_BODY_BYTES = 64 * 1024;
/** Ms between keep-alive comments on an event stream. */
const HEARTBEAT_MS = 15_000;

export interface PlaygroundServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  assets: PageAssets;
  interactions: PlaygroundInteractions;
  messages: MessageStore;
  /** Its members and the roles they hold, whose changes the page follows. */
  guild: PlaygroundGuild;
  locales: PlaygroundLocales;
  images: ImageProxy;
  bootstrap: () => Bootstrap;
  /** Adds a post at the replica and polls; absent over the real API. */
  addPost?: (post: NewPost) => Promise<{ id: string }>;
  /** Newest first; absent over the real API. */
  listPosts?: (feed: PostFeed) => Promise<EditablePost[]>;
  /** Changes a post at the replica and polls; undefined for no such post. Absent over the real API. */
  editPost?: (feed: PostFeed, id: string, edit: PostEdit) => Promise<EditablePost | undefined>;
  /** The replica's game ("In game"); absent over the real API. */
  game?: PlaygroundGame;
  logger: Logger;
}

const feed = z.enum(['patchNotes', 'balances', 'devDiaries']);
/** Characters; the body limit is {@link MAX_BODY_BYTES}. */
const MAX_FULL_CONTENT = 50_000;
const REPLICA_ONLY = 'posts can only be listed, added or changed on the in-process replica (run without RIVALS_API_KEY)';
const GAME_ONLY = 'the game can only be played on the in-process replica (run without RIVALS_API_KEY)';
const uid = z.string().trim().min(1).max(100);

const languageCode = z.string().refine(isLanguageCode, { error: `pick one of ${LANGUAGES.map((l) => l.code).join(', ')}` });

const typedCommand = z.object({
  command: z.string().min(1).max(32),
  subcommand: z.string().min(1).max(32).optional(),
  options: z.record(z.string().max(32), z.string().max(6000)).default({}),
});
const bodies = {
  command: typedCommand.extend({ memberId: z.string(), channelId: z.string() }),
  userCommand: z.object({ memberId: z.string(), channelId: z.string(), name: z.string().max(32), targetId: z.string() }),
  component: z.object({ memberId: z.string(), messageId: z.string(), customId: z.string().max(100), values: z.array(z.string().max(100)).max(25).default([]) }),
  autocomplete: typedCommand.extend({ memberId: z.string(), focused: z.string().max(32) }),
  memberLocale: z.object({ memberId: z.string(), locale: languageCode }),
  guildLocale: z.object({ locale: languageCode }),
  equipIcon: z.object({ uid, iconId: z.string().regex(/^\d{1,20}$/, 'an icon id is digits') }),
  setRank: z.object({ uid, level: z.number().int().min(1).max(23) }),
  skipCooldown: z.object({ uid }),
  post: z.object({ feed, title: z.string().trim().min(1).max(200), overview: z.string().trim().max(2000).default('') }),
  // The feed poller ignores a change that leaves a post without a title, or without both an overview
  // and a full text (a half-written post at the API, src/feeds/corrections.ts), so neither is accepted.
  postEdit: z
    .strictObject({
      title: z.string().trim().min(1, 'the title cannot be empty').max(200).optional(),
      overview: z.string().trim().max(2000).optional(),
      fullContent: z.string().trim().max(MAX_FULL_CONTENT).optional(),
    })
    .refine((e) => e.title !== undefined || e.overview !== undefined || e.fullContent !== undefined, 'change at least one of title, overview, fullContent')
    .refine((e) => e.overview !== '' || e.fullContent !== '', 'a post needs an overview or a full text'),
};

/** A running playground server. */
export interface PlaygroundServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Starts the server; resolves once it listens. Rejects when the port is taken (EADDRINUSE). */
export async function startPlaygroundServer(o: PlaygroundServerOptions): Promise<PlaygroundServer> {
  const streams = new Set<ServerResponse>();
  let port = o.port;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
    res.end(text);
  };

  async function readBody<T extends z.ZodType>(req: IncomingMessage, schema: T): Promise<z.output<T>> {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) throw new HttpError(415, 'send JSON (content-type: application/json)');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new HttpError(413, 'request body too large');
      chunks.push(chunk as Buffer);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new HttpError(400, 'the body is not valid JSON');
    }
    const result = schema.safeParse(parsed);
    if (!result.success) throw new HttpError(400, result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
    return result.data;
  }

  function events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    streams.add(res);
    const write = (event: PageEvent) => res.write(`data: ${JSON.stringify(event)}\n\n`);
    const stops = [o.messages.subscribe(write), o.guild.subscribe(write)];
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    req.on('close', () => {
      clearInterval(heartbeat);
      for (const stop of stops) stop();
      streams.delete(res);
    });
  }

  const accepted = (res: ServerResponse, outcome: { ok: boolean }) => json(res, outcome.ok ? 202 : 400, outcome);

  const game = (): PlaygroundGame => {
    if (!o.game) throw new HttpError(409, GAME_ONLY);
    return o.game;
  };
  /** What the replica refuses (an unknown player, icon or level) as a 400 naming it. */
  const played = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof RangeError) throw new HttpError(400, err.message);
      throw err;
    }
  };

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const { pathname } = url;
    if (req.method === 'GET') {
      if (pathname === '/') return send(res, 200, 'text/html; charset=utf-8', o.assets.html);
      if (pathname === '/app.js') return send(res, 200, 'text/javascript; charset=utf-8', o.assets.js);
      if (pathname === '/app.css') return send(res, 200, 'text/css; charset=utf-8', o.assets.css);
      if (pathname === '/api/bootstrap') return json(res, 200, o.bootstrap());
      if (pathname === '/api/events') return events(req, res);
      if (pathname === '/img') {
        const kind = (['thumbnail', 'image', 'icon'] as const).find((k) => k === url.searchParams.get('kind')) ?? 'image';
        const image = await o.images.get(url.searchParams.get('src') ?? '', kind);
        return send(res, 200, image.contentType, image.body, image.placeholder ? 'no-store' : 'max-age=3600');
      }
      if (pathname === '/api/replica/posts') {
        if (!o.listPosts) throw new HttpError(409, REPLICA_ONLY);
        const parsed = feed.safeParse(url.searchParams.get('feed'));
        if (!parsed.success) throw new HttpError(400, `feed: pick one of ${feed.options.join(', ')}`);
        return json(res, 200, { posts: await o.listPosts(parsed.data) });
      }
      const avatar = pathname.match(/^\/avatar\/(\d{1,20})\.svg$/);
      if (avatar) return send(res, 200, 'image/svg+xml', avatarSvg(avatar[1]!, o.guild), 'max-age=3600');
      if (pathname === '/api/replica/game') {
        const memberId = url.searchParams.get('memberId') ?? '';
        if (!o.guild.member(memberId)) throw new HttpError(400, `memberId: no member ${memberId}`);
        return json(res, 200, await game().state(memberId));
      }
    }
    if (req.method === 'POST') {
      if (pathname === '/api/interactions/command') {
        const b = await readBody(req, bodies.command);
        return accepted(res, o.interactions.command(b.memberId, b.channelId, { command: b.command, subcommand: b.subcommand, options: b.options }));
      }
      if (pathname === '/api/interactions/user-command') {
        const b = await readBody(req, bodies.userCommand);
        return accepted(res, o.interactions.userCommand(b.memberId, b.channelId, b.name, b.targetId));
      }
      if (pathname === '/api/interactions/component') {
        const b = await readBody(req, bodies.component);
        return accepted(res, o.interactions.component(b.memberId, b.messageId, b.customId, b.values));
      }
      if (pathname === '/api/interactions/autocomplete') {
        const b = await readBody(req, bodies.autocomplete);
        return json(res, 200, {
          choices: await o.interactions.autocomplete(b.memberId, { command: b.command, subcommand: b.subcommand, options: b.options }, b.focused),
        });
      }
      if (pathname === '/api/locales/member') {
        const b = await readBody(req, bodies.memberLocale);
        if (!o.guild.member(b.memberId)) throw new HttpError(400, `memberId: no member ${b.memberId}`);
        o.locales.setMember(b.memberId, b.locale);
        o.logger.info({ member: b.memberId, locale: b.locale }, 'member language switched');
        return json(res, 200, { ok: true, locale: b.locale });
      }
      if (pathname === '/api/locales/guild') {
        const b = await readBody(req, bodies.guildLocale);
        o.locales.setGuild(b.locale);
        o.logger.info({ locale: b.locale }, 'server language switched');
        return json(res, 200, { ok: true, locale: b.locale });
      }
      if (pathname === '/api/replica/posts') {
        if (!o.addPost) throw new HttpError(409, REPLICA_ONLY);
        const b = await readBody(req, bodies.post);
        return json(res, 201, await o.addPost(b));
      }
      if (pathname === '/api/replica/game/icon') {
        const b = await readBody(req, bodies.equipIcon);
        return json(res, 200, await played(() => game().equipIcon(b.uid, b.iconId)));
      }
      if (pathname === '/api/replica/game/rank') {
        const b = await readBody(req, bodies.setRank);
        return json(res, 200, await played(() => game().setRank(b.uid, b.level)));
      }
      if (pathname === '/api/replica/game/update-cooldown') {
        const b = await readBody(req, bodies.skipCooldown);
        return json(res, 200, await played(() => game().skipUpdateCooldown(b.uid)));
      }
    }
    if (req.method === 'PATCH') {
      // The path is still percent-encoded here, so an encoded "/" in an id never splits a segment.
      const edit = pathname.match(/^\/api\/replica\/posts\/([^/]+)\/([^/]+)$/);
      if (edit) {
        if (!o.editPost) throw new HttpError(409, REPLICA_ONLY);
        const kind = feed.safeParse(edit[1]);
        if (!kind.success) throw new HttpError(400, `feed: pick one of ${feed.options.join(', ')}`);
        const id = decodeSegment(edit[2]!);
        const b = await readBody(req, bodies.postEdit);
        const post = await o.editPost(kind.data, id, b);
        if (!post) throw new HttpError(404, `the ${kind.data} feed has no post ${id}`);
        return json(res, 200, post);
      }
    }
    throw new HttpError(404, `no route ${req.method} ${pathname}`);
  }

  const server: Server = createServer((req, res) => {
    const host = req.headers.host ?? '';
    const allowed = [`${o.host}:${port}`, `localhost:${port}`];
    if (!allowed.includes(host)) {
      json(res, 421, { ok: false, error: `this playground answers only on ${allowed[0]}` });
      return;
    }
    const url = new URL(req.url ?? '/', `http://${host}`);
    route(req, res, url).catch((err: unknown) => {
      if (err instanceof HttpError) return json(res, err.status, { ok: false, error: err.message });
      o.logger.error({ err, path: url.pathname }, 'playground request failed');
      if (!res.headersSent) json(res, 500, { ok: false, error: 'The playground hit an unexpected error; the log has the details.' });
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${o.host}:${port}`,
    port,
    close: async () => {
      for (const stream of streams) stream.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A path segment decoded, or a 400 when it is not valid percent-encoding. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `bad path segment ${segment}`);
  }
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, cache = 'no-store'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': cache, 'x-content-type-options': 'nosniff' });
  res.end(body);
}
