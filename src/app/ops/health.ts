/**
 * The health check behind `GET /healthz`: healthy when every shard of this process is READY
 * and the store answers a `select 1` within a deadline. Read by a container's liveness or readiness
 * probe and by a load balancer, so its reasons are short, say which part is down, and hold no secret.
 */
import { Status, type Client } from 'discord.js';
import { settleWithin } from '../../core/deadline.js';
import { ping, type Db } from '../../store/database.js';

/** One shard as discord.js sees it: `status` is discord.js's `Status` (0 Ready … 8 Resuming), `ping` the last heartbeat's round trip in ms (-1 before the first). */
export interface ShardState {
  id: number;
  status: number;
  ping: number;
}

/**
 * The gateway of one process: `logging-in` until the client's first READY of every shard, `ready`
 * after (each shard may still be reconnecting: see `shards`), `closed` once the client is destroyed.
 */
export interface GatewayState {
  phase: 'logging-in' | 'ready' | 'closed';
  shards: ShardState[];
}

/**
 * Reads the gateway of a discord.js 14 client, at the time of each call: its shards (`client.ws.shards`,
 * each with `status` and `ping`) and whether the client has been ready and is not destroyed
 * (`client.isReady()`, `client.readyTimestamp`).
 */
export function gatewayOf(client: Client): () => GatewayState {
  return () => {
    const shards = [...client.ws.shards.values()].map((s) => ({ id: s.id, status: s.status, ping: s.ping }));
    const phase = client.isReady() ? 'ready' : client.readyTimestamp === null ? 'logging-in' : 'closed';
    return { phase, shards };
  };
}

/** A shard in the health report: its status by name (`Ready`, `Reconnecting`…) and its heartbeat round trip, ms (null before the first). */
export interface ShardHealth {
  id: number;
  status: string;
  pingMs: number | null;
}

/** The body of `GET /healthz`: 200 with `status: 'ok'`, 503 with `status: 'unavailable'` and one reason. */
export type Health = { status: 'ok'; shards: ShardHealth[]; store: 'ok' } | { status: 'unavailable'; reason: string; shards: ShardHealth[] };

/** Default time the store gets to answer the health check's `select 1`, ms. */
export const STORE_DEADLINE_MS = 1_000;

export interface HealthOptions {
  /** The gateway now ({@link gatewayOf}). */
  gateway: () => GatewayState;
  /** Resolves when the store answers ({@link storePing}); its rejection's message becomes the reason. */
  store: () => Promise<unknown>;
  /** How long the store gets, ms (default {@link STORE_DEADLINE_MS}). */
  storeDeadlineMs?: number;
  /** Literal values never shown in a reason (the bot token, DATABASE_URL and its password…), should a driver's message echo one. */
  secrets?: (string | undefined)[];
}

/** `select 1` on the state store's database (SQLite or PostgreSQL). */
export function storePing(db: Db): () => Promise<void> {
  return () => ping(db);
}

const TIMED_OUT = Symbol('timed out');

/**
 * The health check: the gateway first (a process logging in, a shard not READY, a destroyed client:
 * unavailable, without asking the store), then the store, which must answer within
 * `storeDeadlineMs`. Concurrent checks share one store ping, so a store that hangs is asked once, not
 * once per probe. Never rejects. Reasons, one line each: `logging in`, `shard 2 is not ready
 * (Reconnecting)`, `the gateway connection is closed`, `the store did not answer within 1000 ms`,
 * `the store did not answer: <driver message, secrets masked>`.
 */
export function healthCheck(options: HealthOptions): () => Promise<Health> {
  const deadlineMs = options.storeDeadlineMs ?? STORE_DEADLINE_MS;
  // Longest first, so a URL is masked whole before the password inside it.
  const secrets = options.secrets?.filter((s): s is string => typeof s === 'string' && s.length >= 4).sort((a, b) => b.length - a.length) ?? [];
  let pinging: Promise<unknown> | undefined;
  // One ping at a time: it is cleared when it settles, so the next check asks again.
  const pingOnce = () =>
    (pinging ??= Promise.resolve()
      .then(options.store)
      .finally(() => (pinging = undefined)));
  return async () => {
    const gateway = options.gateway();
    const shards = gateway.shards.map((s) => ({ id: s.id, status: statusName(s.status), pingMs: s.ping >= 0 ? s.ping : null }));
    const unavailable = (reason: string): Health => ({ status: 'unavailable', reason, shards });
    if (gateway.phase === 'logging-in') return unavailable('logging in');
    if (gateway.phase === 'closed') return unavailable('the gateway connection is closed');
    const down = gateway.shards.find((s) => s.status !== Status.Ready);
    if (down) return unavailable(`shard ${down.id} is not ready (${statusName(down.status)})`);
    try {
      const answer = await settleWithin(pingOnce(), deadlineMs, () => TIMED_OUT);
      if (answer === TIMED_OUT) return unavailable(`the store did not answer within ${deadlineMs} ms`);
    } catch (err) {
      return unavailable(`the store did not answer: ${masked(describe(err), secrets)}`);
    }
    return { status: 'ok', shards, store: 'ok' };
  };
}

/** discord.js's name of a `Status` value. */
function statusName(status: number): string {
  return (Status as unknown as Record<number, string | undefined>)[status] ?? `status ${status}`;
}

/** An error as one short line: its message (a Node AggregateError has none: its code then), and its code. */
function describe(err: unknown): string {
  const e = (err ?? {}) as { message?: unknown; code?: unknown };
  const message = typeof e.message === 'string' ? e.message : '';
  const code = typeof e.code === 'string' || typeof e.code === 'number' ? String(e.code) : '';
  const text = message && code && !message.includes(code) ? `${message} (${code})` : message || code || String(err);
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

function masked(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}
