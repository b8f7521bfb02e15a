/**
 * A local fake of Discord for end-to-end tests: the REST endpoints the bot uses and a gateway over
 * WebSocket (HELLO, IDENTIFY answered by READY and GUILD_CREATE, heartbeats, dispatching
 * INTERACTION_CREATE, RESUME answered by the missed dispatches and RESUMED or by INVALID_SESSION,
 * and closing the connection with a close code). It records every REST call so tests assert on the
 * exact JSON the bot sent.
 * Source of the shapes: Discord developer documentation, "Gateway" (Connection Lifecycle: Resuming;
 * Opcodes and Status Codes: Gateway Close Event Codes) and "Interactions".
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
  /** When the fake received it, ms since the Unix epoch (compare with {@link createdAtOf} an interaction's id). */
  receivedAt: number;
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
  /**
   * Sends the dispatch event `t` with data `d` (op 0) on the current session and returns the time it
   * was sent (ms since start). Between a close and a RESUME it is kept for the replay, as Discord does;
   * throws when no session was ever started.
   */
  dispatch(t: string, d: unknown): number;
  /**
   * Closes the current gateway connection with `code` (Discord: "Gateway Close Event Codes").
   * `invalidateSession` ends the session, so that a RESUME gets INVALID_SESSION (op 9, d false) and the
   * client must identify again; by default it does for the codes Discord documents as needing a new
   * session (4007 invalid seq, 4009 session timed out) and for the codes that are not reconnectable.
   */
  closeGateway(code: number, options?: { reason?: string; invalidateSession?: boolean }): void;
  /**
   * Answers the next IDENTIFY and/or RESUME (`on`, default both) by closing the connection with `code`
   * instead of READY / RESUMED, once: e.g. 4004 for a token reset while the bot was connected.
   */
  rejectNext(code: number, on?: readonly ('identify' | 'resume')[]): void;
  /** Resolves with how the next session started: READY after an IDENTIFY, or RESUMED after a RESUME. */
  nextSession(timeoutMs?: number): Promise<'identified' | 'resumed'>;
  /** Gateway opcodes received from clients, in order (1 heartbeat, 2 identify, 6 resume), with when (ms since start). */
  gatewayOps: { op: number; at: number }[];
  /** Connections closed by the fake or the client, in order, with their close code. */
  gatewayCloses: { code: number; by: 'fake' | 'client'; at: number }[];
  /** Waits for a REST call matching `test`, made after `since`. */
  waitFor(test: (c: RestCall) => boolean, timeoutMs?: number): Promise<RestCall>;
  identify: unknown;
  close(): Promise<void>;
}

/** Discord's epoch (2015-01-01T00:00:00Z), ms since the Unix epoch: snowflakes count from it. */
export const DISCORD_EPOCH = 1_420_070_400_000;
let snowflake = 0n;
/**
 * A fresh snowflake id as text, minted from the current time as Discord does (Discord: "Snowflakes":
 * ms since {@link DISCORD_EPOCH} in the top 42 bits), so an interaction's id tells when it was created.
 * Strictly increasing.
 */
export const nextId = (at = Date.now()) => {
  const minted = (BigInt(at - DISCORD_EPOCH) << 22n) | (1n << 17n);
  snowflake = minted > snowflake ? minted : snowflake + 1n;
  return String(snowflake);
};
/** When the snowflake `id` was minted, ms since the Unix epoch. */
export const createdAtOf = (id: string) => Number(BigInt(id) >> 22n) + DISCORD_EPOCH;

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
  /** The connection that identified or resumed last and is still open: dispatches go there. */
  let socket: WebSocket | undefined;
  /** The connection opened last (authenticated or not): {@link FakeDiscord.closeGateway} closes it. */
  let latest: WebSocket | undefined;
  const channelMessages = new Map<string, Record<string, unknown>[]>();
  const failures = new Map<string, { status: number; code: number; message: string }>();
  const nonces = new Map<string, Record<string, unknown>>();
  let channelDelayMs = 0;
  let identify: unknown;
  let readyResolve: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (readyResolve = resolve));
  /**
   * The gateway session: its id, the last sequence number sent, and the dispatches sent (the last
   * {@link REPLAY_LIMIT}) to replay on RESUME. `valid` false: a RESUME gets INVALID_SESSION.
   */
  let session: { id: string; sequence: number; sent: { s: number; text: string }[]; valid: boolean } | undefined;
  let sessionCount = 0;
  const REPLAY_LIMIT = 1_000;
  const gatewayOps: { op: number; at: number }[] = [];
  const gatewayCloses: { code: number; by: 'fake' | 'client'; at: number }[] = [];
  const rejections: { code: number; on: readonly ('identify' | 'resume')[] }[] = [];
  const sessionWaiters: ((how: 'identified' | 'resumed') => void)[] = [];
  const sessionStarted = (how: 'identified' | 'resumed') => {
    for (const w of sessionWaiters.splice(0)) w(how);
  };
  /** Sends a dispatch on the session (kept for a replay), to the authenticated connection if there is one. */
  const sendDispatch = (t: string, d: unknown) => {
    if (!session) throw new Error('no gateway connection');
    const s = ++session.sequence;
    const text = JSON.stringify({ op: 0, t, s, d });
    session.sent.push({ s, text });
    if (session.sent.length > REPLAY_LIMIT) session.sent.shift();
    socket?.send(text);
  };
  /** Closes `ws` with `code`, recording it. */
  const closedByFake = new WeakSet<WebSocket>();
  const closeWith = (ws: WebSocket, code: number, reason = '') => {
    closedByFake.add(ws);
    gatewayCloses.push({ code, by: 'fake', at: performance.now() - started });
    if (socket === ws) socket = undefined;
    ws.close(code, reason);
  };


  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    const call: RestCall = { method: req.method ?? 'GET', path: decodeURIComponent(url.pathname).replace(/^\/api\/v\d+/, ''), query: url.search, body, at: performance.now() - started, receivedAt: Date.now(), authorization: req.headers.authorization };
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
    latest = ws;
    const send = (payload: Record<string, unknown>) => ws.send(JSON.stringify(payload));
    ws.on('close', (code) => {
      if (socket === ws) socket = undefined;
      if (!closedByFake.has(ws)) gatewayCloses.push({ code, by: 'client', at: performance.now() - started });
    });
    /** Answers an IDENTIFY or RESUME with the close code a test asked for, if any. */
    const reject = (op: 'identify' | 'resume') => {
      const i = rejections.findIndex((r) => r.on.includes(op));
      if (i < 0) return false;
      const { code } = rejections.splice(i, 1)[0]!;
      if (session) session.valid = false;
      closeWith(ws, code);
      return true;
    };
    send({ op: 10, d: { heartbeat_interval: 41_250 }, s: null, t: null });
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { op: number; d: unknown };
      gatewayOps.push({ op: msg.op, at: performance.now() - started });
      if (msg.op === 1) send({ op: 11, d: null, s: null, t: null });
      if (msg.op === 6) {
        if (reject('resume')) return;
        const { session_id, seq } = msg.d as { session_id: string; seq: number };
        const oldest = session?.sent[0]?.s ?? (session ? session.sequence + 1 : 0);
        // Discord: a RESUME for a session that ended, or past what it kept, gets INVALID_SESSION (d: false).
        if (!session || !session.valid || session.id !== session_id || seq + 1 < oldest) return send({ op: 9, d: false, s: null, t: null });
        socket = ws;
        for (const e of session.sent) if (e.s > seq) ws.send(e.text);
        send({ op: 0, t: 'RESUMED', s: ++session.sequence, d: {} });
        sessionStarted('resumed');
        return;
      }
      if (msg.op === 2) {
        if (reject('identify')) return;
        identify = msg.d;
        session = { id: `fake-session-${++sessionCount}`, sequence: 0, sent: [], valid: true };
        socket = ws;
        // READY and GUILD_CREATE start the session; they are not replayed on RESUME.
        send({
          op: 0,
          t: 'READY',
          s: ++session.sequence,
          d: { v: 10, user: BOT_USER, guilds: [{ id: GUILD_ID, unavailable: true }], session_id: session.id, resume_gateway_url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, shard: [0, 1], application: { id: APP_ID, flags: 0 } },
        });
        send({
          op: 0,
          t: 'GUILD_CREATE',
          s: ++session.sequence,
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
        sessionStarted('identified');
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
      sendDispatch('INTERACTION_CREATE', interaction);
      return performance.now() - started;
    },
    dispatch(t, d) {
      sendDispatch(t, d);
      return performance.now() - started;
    },
    closeGateway(code, options = {}) {
      if (!latest) throw new Error('no gateway connection');
      const newSession = [4007, 4009, 4004, 4010, 4011, 4012, 4013, 4014].includes(code);
      if (session && (options.invalidateSession ?? newSession)) session.valid = false;
      closeWith(latest, code, options.reason);
    },
    rejectNext(code, on = ['identify', 'resume']) {
      rejections.push({ code, on });
    },
    nextSession(timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('fake Discord: no session started in time')), timeoutMs);
        sessionWaiters.push((how) => (clearTimeout(timer), resolve(how)));
      });
    },
    gatewayOps,
    gatewayCloses,
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
