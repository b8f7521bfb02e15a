/**
 * `GET /healthz`: healthy when every shard of this process is READY and the store answers `select 1` in time.
 * Read by probes and load balancers, so reasons are short, name the part that is down, and hold no secret.
 */
import { Status, type Client } from 'discord.js';
import { settleWithin } from '../../core/deadline.js';
import { ping, type Db } from '../../store/database.js';

/** `status` is discord.js's `Status`; `ping` the last heartbeat's round trip, ms (-1 before the first). */
export interface ShardState {
  id: number;
  status: number;
  ping: number;
}

/** `logging-in` until every shard's first READY, then `ready` (a shard may still reconnect), `closed` once destroyed. */
export interface GatewayState {
  phase: 'logging-in' | 'ready' | 'closed';
  shards: ShardState[];
}

/** Reads a discord.js 14 client's gateway at each call. */
export function gatewayOf(client: Client): () => GatewayState {
  return () => {
    const shards = [...client.ws.shards.values()].map((s) => ({ id: s.id, status: s.status, ping: s.ping }));
    const phase = client.isReady() ? 'ready' : client.readyTimestamp === null ? 'logging-in' : 'closed';
    return { phase, shards };
  };
}

/** A shard's status by name and its heartbeat round trip, ms (null before the first). */
export interface ShardHealth {
  id: number;
  status: string;
  pingMs: number | null;
}

/** 200 with `status: 'ok'`, or 503 with one reason. */
export type Health = { status: 'ok'; shards: ShardHealth[]; store: 'ok' } | { status: 'unavailable'; reason: string; shards: ShardHealth[] };

/** Default time the store gets to answer `select 1`, ms. */
export const STORE_DEADLINE_MS = 1_000;

export interface HealthOptions {
  gateway: () => GatewayState;
  /** Its rejection's message becomes the reason. */
  store: () => Promise<unknown>;
  /** Ms; default {@link STORE_DEADLINE_MS}. */
  storeDeadlineMs?: number;
  /** Values masked in a reason, should a driver's message echo one. */
  secrets?: (string | undefined)[];
}

export function storePing(db: Db): () => Promise<void> {
  return () => ping(db);
}

const TIMED_OUT = Symbol('timed out');

/**
 * The gateway first (unavailable without asking the store), then the store within `storeDeadlineMs`.
 * Concurrent checks share one store ping, so a hanging store is asked once, not once per probe. Never rejects.
 */
export function healthCheck(options: HealthOptions): () => Promise<Health> {
  const deadlineMs = options.storeDeadlineMs ?? STORE_DEADLINE_MS;
  // Longest first, so a URL is masked whole before the password inside it.
  const secrets = options.secrets?.filter((s): s is string => typeof s === 'string' && s.length >= 4).sort((a, b) => b.length - a.length) ?? [];
  let pinging: Promise<unknown> | undefined;
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
