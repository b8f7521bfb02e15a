/**
 * What the bot does when its gateway closes (Discord: "Gateway Close Event Codes"): a non-reconnectable code (4004, 4010-4014) stops the
 * process with one fatal line saying what to change, as discord.js gives up on it without destroying the client, leaving the process up
 * and deaf. Other closes are left to discord.js, and logged.
 */
import type { Client } from 'discord.js';
import type { Logger } from '../core/logger.js';
import { EXIT_GATEWAY_REFUSED, type ProcessPolicy } from '../core/process-policy.js';

/** `fatal`: the process stops; `resume`: reconnect and resume; `new-session`: reconnect with a new IDENTIFY. */
export type CloseKind = 'fatal' | 'resume' | 'new-session';

export interface CloseCodeInfo {
  code: number;
  /** Discord's description, in lower case for log lines. */
  name: string;
  kind: CloseKind;
  /** For a fatal code: what is wrong and what the operator changes, one clause. */
  remedy?: string;
}

const PORTAL = 'on the Bot page of the Discord Developer Portal';

/** Discord's "Gateway Close Event Codes", the WebSocket codes 1000/1001 (RFC 6455) and discord.js's own 4200. */
const CLOSE_CODES: readonly CloseCodeInfo[] = [
  { code: 1000, name: 'normal closure', kind: 'new-session' },
  { code: 1001, name: 'going away', kind: 'resume' },
  { code: 4000, name: 'unknown error', kind: 'resume' },
  { code: 4001, name: 'unknown opcode', kind: 'resume' },
  { code: 4002, name: 'decode error', kind: 'resume' },
  { code: 4003, name: 'not authenticated', kind: 'resume' },
  {
    code: 4004,
    name: 'authentication failed',
    kind: 'fatal',
    remedy: `the DISCORD_TOKEN was rejected (reset or revoked); reset the token ${PORTAL} and set the new one in DISCORD_TOKEN`,
  },
  { code: 4005, name: 'already authenticated', kind: 'resume' },
  { code: 4007, name: 'invalid seq', kind: 'new-session' },
  { code: 4008, name: 'rate limited', kind: 'resume' },
  { code: 4009, name: 'session timed out', kind: 'new-session' },
  {
    code: 4010,
    name: 'invalid shard',
    kind: 'fatal',
    remedy: 'Discord does not accept the shard id the bot identified with; this bot runs one shard, so check that nothing sets shards in the client options',
  },
  { code: 4011, name: 'sharding required', kind: 'fatal', remedy: 'the bot is in too many guilds for one gateway connection; it must run with several shards' },
  { code: 4012, name: 'invalid API version', kind: 'fatal', remedy: 'Discord retired the gateway version discord.js asked for; update discord.js' },
  {
    code: 4013,
    name: 'invalid intents',
    kind: 'fatal',
    remedy: "Discord does not accept the intents bitfield the bot sent; fix the client's intents in src/discord/client.ts (this is a bug, not a setting)",
  },
  {
    code: 4014,
    name: 'disallowed intents',
    kind: 'fatal',
    remedy: `the bot asked for a privileged intent it is not allowed; enable it under Privileged Gateway Intents ${PORTAL} (verified bots: request it from Discord), or remove it from the client's intents in src/discord/client.ts`,
  },
  { code: 4200, name: 'closed by discord.js to resume', kind: 'resume' },
];

/** Discord's entry for close `code`; an unknown code counts as resumable, as Discord's table and discord.js treat it. */
export function classifyCloseCode(code: number): CloseCodeInfo {
  return CLOSE_CODES.find((c) => c.code === code) ?? { code, name: 'unknown close code', kind: 'resume' };
}

/** The one fatal log line: the code, its name, what to change, and the exit code. */
export function fatalCloseMessage(code: number, exitCode = EXIT_GATEWAY_REFUSED): string {
  const info = classifyCloseCode(code);
  const remedy = info.remedy ?? 'Discord says this connection cannot be resumed or restarted as it is';
  return `Discord closed the gateway with ${code} (${info.name}): ${remedy}. Exiting with code ${exitCode}.`;
}

/** The last gateway dispatch received, for the context of an error's log line (no payload: it may hold an interaction token). */
export interface LastDispatch {
  /** The dispatch event, e.g. `INTERACTION_CREATE`. */
  t: string;
  s: number | null;
  /** The payload's `id` when it is a snowflake (an interaction's id, a guild's id). */
  id?: string;
  shard: number;
  ageMs: number;
}

export interface GatewayWatch {
  /** The last dispatch received, or undefined before the first. */
  lastDispatch(): LastDispatch | undefined;
  dispose(): void;
}

export interface GatewayWatchOptions {
  logger: Logger;
  /** Stops the process on a fatal close; while it is stopping, closes and errors are the stop's own and logged at debug. */
  policy: Pick<ProcessPolicy, 'terminate' | 'terminating' | 'addContext'>;
  /** Milliseconds clock (default `Date.now`). */
  now?: () => number;
}

/**
 * Logs `client`'s gateway events so none is silent: a fatal close once at fatal, then `policy.terminate(EXIT_GATEWAY_REFUSED)`; other closes
 * at warn; resumes and new sessions at info; errors at error (debug while stopping). Keeps the last dispatch as error context. Call before login.
 */
export function watchGateway(client: Client, options: GatewayWatchOptions): GatewayWatch {
  const { logger, policy } = options;
  const now = options.now ?? Date.now;
  let last: { t: string; s: number | null; id?: string; shard: number; at: number } | undefined;
  const lastCloseAt = new Map<number, number>();
  const readyShards = new Set<number>();
  const watchedShards = new Map<object, () => void>();
  type Listener = (...args: unknown[]) => void;
  const listeners: [string, Listener][] = [];
  const on = (event: string, listener: (...args: never[]) => void) => {
    client.on(event, listener as unknown as Listener);
    listeners.push([event, listener as unknown as Listener]);
  };

  on('shardDisconnect', (event: { code: number }, shardId: number) => {
    const info = classifyCloseCode(event.code);
    if (policy.terminating) return logger.debug({ closeCode: event.code, shard: shardId }, 'gateway closed while stopping');
    if (info.kind !== 'fatal') {
      // discord.js emits shardDisconnect only for the codes it will not reconnect after; one we deem resumable is still the end of this connection.
      logger.error({ closeCode: event.code, shard: shardId }, `Discord closed the gateway with ${event.code} (${info.name}) and discord.js will not reconnect`);
    } else {
      logger.fatal({ closeCode: event.code, shard: shardId, exitCode: EXIT_GATEWAY_REFUSED }, fatalCloseMessage(event.code));
    }
    void policy.terminate(EXIT_GATEWAY_REFUSED, `gateway closed with ${event.code}`);
  });

  on('shardError', (err: Error, shardId: number) => {
    if (policy.terminating) return logger.debug({ err, shard: shardId }, 'gateway error while stopping');
    logger.error({ err, shard: shardId }, 'Discord gateway error (discord.js reconnects when the close code allows it)');
  });
  on('error', (err: Error) => logger.error({ err }, 'Discord client error'));
  on('warn', (message: string) => logger.warn({ discord: message }, 'discord.js warning'));

  on('shardReady', (shardId: number) => {
    const shard = client.ws.shards.get(shardId);
    if (shard && !watchedShards.has(shard)) {
      const onClose = (event: { code: number }) => {
        const info = classifyCloseCode(event.code);
        if (info.kind === 'fatal') return; // shardDisconnect has the line
        lastCloseAt.set(shardId, now());
        if (policy.terminating) return logger.debug({ closeCode: event.code, shard: shardId }, 'gateway closed while stopping');
        logger.warn(
          { closeCode: event.code, closeKind: info.kind, shard: shardId },
          `the Discord gateway connection closed with ${event.code} (${info.name}): reconnecting`,
        );
      };
      shard.on('close', onClose);
      watchedShards.set(shard, () => shard.off('close', onClose));
    }
    if (readyShards.has(shardId))
      logger.info({ shard: shardId }, 'started a new Discord gateway session (dispatches sent while disconnected are not replayed)');
    readyShards.add(shardId);
  });
  on('shardReconnecting', (shardId: number) => {
    const closedJustNow = now() - (lastCloseAt.get(shardId) ?? -Infinity) < 2_000;
    if (closedJustNow || policy.terminating) return logger.debug({ shard: shardId }, 'reconnecting to the Discord gateway');
    logger.warn({ shard: shardId }, 'the Discord gateway connection closed: reconnecting');
  });
  on('shardResume', (shardId: number, replayedEvents: number) => logger.info({ shard: shardId, replayedEvents }, 'resumed the Discord gateway session'));

  on('raw', (packet: { op?: number; t?: string | null; s?: number | null; d?: unknown }, shardId: number) => {
    if (packet.op !== 0 || !packet.t) return;
    const id = (packet.d as { id?: unknown } | null | undefined)?.id;
    last = { t: packet.t, s: packet.s ?? null, ...(typeof id === 'string' && /^\d{1,20}$/.test(id) ? { id } : {}), shard: shardId, at: now() };
  });

  const lastDispatch = (): LastDispatch | undefined => {
    if (!last) return undefined;
    const { at, ...rest } = last;
    return { ...rest, ageMs: now() - at };
  };
  policy.addContext('lastDispatch', lastDispatch);

  return {
    lastDispatch,
    dispose: () => {
      for (const [event, listener] of listeners.splice(0)) client.off(event, listener);
      for (const off of watchedShards.values()) off();
      watchedShards.clear();
    },
  };
}
