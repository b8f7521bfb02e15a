/**
 * A local fake of Discord for end-to-end tests: the REST endpoints the bot uses and a gateway over
 * WebSocket (HELLO, IDENTIFY answered by READY and GUILD_CREATE, heartbeats, dispatching
 * INTERACTION_CREATE). It records every REST call so tests assert on the exact JSON the bot sent.
 * Source of the shapes: Discord developer documentation, "Gateway" and "Interactions".
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
  /** ms since the fake started. */
  at: number;
  authorization?: string;
}

export interface FakeDiscord {
  /** REST base for DISCORD_API_URL (discord.js appends /v10). */
  apiUrl: string;
  calls: RestCall[];
  /** Resolves when a client has identified and received READY. */
  ready(): Promise<void>;
  /** Messages created in each channel (a send repeated with the same enforced nonce creates none). */
  channelMessages: Map<string, Record<string, unknown>[]>;
  /** Makes sends to a channel fail with this status and Discord JSON error code (undefined: stop failing). */
  failChannel(channelId: string, failure?: { status: number; code: number; message: string }): void;
  /** Delays every channel-message answer by `ms` (to catch a process in the middle of a fan-out). */
  setChannelDelay(ms: number): void;
  /** Sends INTERACTION_CREATE with `interaction` and returns the time it was sent (ms since start). */
  dispatchInteraction(interaction: Record<string, unknown>): number;
  /** Waits for a REST call matching `test`, made after `since`. */
  waitFor(test: (c: RestCall) => boolean, timeoutMs?: number): Promise<RestCall>;
  identify: unknown;
  close(): Promise<void>;
}

let snowflake = 930000000000000000n;
/** A fresh snowflake id as text. */
export const nextId = () => String(++snowflake);

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
  for (const v of Object.values(options)) if (typeof v === 'object' && 'channel' in v) channels[v.channel] = { id: v.channel, type: 0, name: 'feed', permissions: '2248473465835073' };
  return Object.keys(channels).length > 0 ? { resolved: { channels } } : {};
}

/** An APPLICATION_COMMAND interaction (type 2) for `/name [subcommand] option:value...`. */
export function commandInteraction(userId: string, name: string, options: Record<string, OptionValue> = {}, extra: { subcommand?: string; permissions?: string } = {}) {
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
    data: { id: nextId(), name, type: 2, target_id: targetId, resolved: { users: { [targetId]: target.user }, members: { [targetId]: { ...target, user: undefined } } } },
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

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : undefined);
      } catch {
        resolve(text);
      }
    });
  });
}

/** Starts the fake on loopback. */
export async function startFakeDiscord(): Promise<FakeDiscord> {
  const started = performance.now();
  const calls: RestCall[] = [];
  const waiters: { test: (c: RestCall) => boolean; resolve: (c: RestCall) => void }[] = [];
  let socket: WebSocket | undefined;
  const channelMessages = new Map<string, Record<string, unknown>[]>();
  const failures = new Map<string, { status: number; code: number; message: string }>();
  const nonces = new Map<string, Record<string, unknown>>();
  let channelDelayMs = 0;
  let sequence = 0;
  let identify: unknown;
  let readyResolve: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (readyResolve = resolve));


  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    const call: RestCall = { method: req.method ?? 'GET', path: decodeURIComponent(url.pathname).replace(/^\/api\/v\d+/, ''), query: url.search, body, at: performance.now() - started, authorization: req.headers.authorization };
    calls.push(call);
    for (const w of [...waiters]) if (w.test(call)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(call);
    }
    const json = (status: number, data?: unknown) => {
      res.writeHead(status, data === undefined ? {} : { 'content-type': 'application/json' });
      res.end(data === undefined ? undefined : JSON.stringify(data));
    };
    const p = call.path;
    if (p === '/gateway/bot') return json(200, { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 } });
    if (p === '/gateway') return json(200, { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}` });
    if (/^\/interactions\/\d+\/[^/]+\/callback$/.test(p)) return json(204);
    if (/^\/webhooks\/\d+\/[^/]+\/messages\/@original$/.test(p)) return req.method === 'DELETE' ? json(204) : json(200, botMessage(body as Record<string, unknown>));
    if (/^\/webhooks\/\d+\/[^/]+$/.test(p)) return json(200, botMessage(body as Record<string, unknown>));
    if (/^\/applications\/\d+(\/guilds\/\d+)?\/commands$/.test(p) && req.method === 'PUT') {
      return json(200, (body as Record<string, unknown>[]).map((c) => ({ ...c, id: nextId(), application_id: APP_ID, version: nextId() })));
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
    if (/^\/channels\/\d+\/messages\/\d+\/crosspost$/.test(p)) return json(200, botMessage());
    if (p === '/users/@me') return json(200, BOT_USER);
    return json(404, { message: 'Unknown route in the fake Discord', code: 0 });
  });

  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => {
    socket = ws;
    const send = (payload: Record<string, unknown>) => ws.send(JSON.stringify(payload));
    send({ op: 10, d: { heartbeat_interval: 41_250 }, s: null, t: null });
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { op: number; d: unknown };
      if (msg.op === 1) send({ op: 11, d: null, s: null, t: null });
      if (msg.op === 2) {
        identify = msg.d;
        send({
          op: 0,
          t: 'READY',
          s: ++sequence,
          d: { v: 10, user: BOT_USER, guilds: [{ id: GUILD_ID, unavailable: true }], session_id: 'fake-session', resume_gateway_url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, shard: [0, 1], application: { id: APP_ID, flags: 0 } },
        });
        send({
          op: 0,
          t: 'GUILD_CREATE',
          s: ++sequence,
          d: {
            id: GUILD_ID,
            name: 'Rivals Test Server',
            icon: null,
            owner_id: '200000000000000001',
            unavailable: false,
            member_count: 3,
            large: false,
            joined_at: '2025-01-01T00:00:00.000Z',
            roles: [{ id: GUILD_ID, name: '@everyone', permissions: '2248473465835073', position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 }],
            channels: [
              { id: CHANNEL_ID, type: 0, name: 'general', position: 0, permission_overwrites: [] },
              { id: LOCKED_CHANNEL_ID, type: 0, name: 'locked', position: 1, permission_overwrites: [{ id: GUILD_ID, type: 0, allow: '0', deny: String(0x800) }] },
              ...FEED_CHANNEL_IDS.map((id, i) => ({ id, type: 0, name: `feed-${i + 1}`, position: 2 + i, permission_overwrites: [] })),
            ],
            members: [{ ...member(APP_ID), user: BOT_USER }],
            threads: [],
            emojis: [],
            stickers: [],
            features: [],
            presences: [],
            voice_states: [],
            stage_instances: [],
            guild_scheduled_events: [],
            soundboard_sounds: [],
          },
        });
        readyResolve();
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    calls,
    channelMessages,
    setChannelDelay(ms) {
      channelDelayMs = ms;
    },
    failChannel(channelId, failure) {
      if (failure) failures.set(channelId, failure);
      else failures.delete(channelId);
    },
    ready: () => readyPromise,
    get identify() {
      return identify;
    },
    dispatchInteraction(interaction) {
      if (!socket) throw new Error('no gateway connection');
      socket.send(JSON.stringify({ op: 0, t: 'INTERACTION_CREATE', s: ++sequence, d: interaction }));
      return performance.now() - started;
    },
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
