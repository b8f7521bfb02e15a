/** Test helpers: a replica on loopback and a client pointed at it. */
import { createServer, type RequestListener } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect } from 'vitest';
import { RivalsApi, type RivalsApiOptions } from '../../src/api/client.js';
import { ApiError } from '../../src/core/api-errors.js';
import { createLogger, type Logger } from '../../src/core/logger.js';
import { startReplica, type Replica, type ReplicaOptions } from '../../src/replica/server.js';

export const TEST_KEY = 'test-key-5f1c9a7e-do-not-log';

/** Starts a replica that accepts {@link TEST_KEY}. */
export function replica(options: ReplicaOptions = {}): Promise<Replica> {
  return startReplica({ apiKey: TEST_KEY, ...options });
}

/** A client for `r` with no cache and no limiter unless given. */
export function clientFor(r: Replica, options: Partial<RivalsApiOptions> = {}): RivalsApi {
  return new RivalsApi({ baseUrl: r.url, apiKey: TEST_KEY, imageBaseUrl: 'https://img.test/rivals', timeoutMs: 2_000, ...options });
}

/** A logger whose lines are collected in `lines` (as written, after redaction). */
export function capturingLogger(secrets: string[] = []): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: createLogger({ level: 'trace', destination, secrets }), lines };
}

/** A loopback server answering with `handler`; `close` ends its open connections too. */
export async function loopbackServer(handler: RequestListener): Promise<{ url: string; close(): void }> {
  const server = createServer(handler);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A loopback server that answers every request with `status` and the raw `body` (shapes the replica never sends). */
export function cannedServer(status: number, body: string): Promise<{ url: string; close(): void }> {
  return loopbackServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
}

/**
 * Registers hooks that start a loopback API answering with `handler`, and a client of it, before the file's tests and
 * stop them after; read `env.api` inside tests.
 */
export function useLoopbackApi(handler: RequestListener): { api: RivalsApi } {
  const env = {} as { api: RivalsApi };
  let server: Awaited<ReturnType<typeof loopbackServer>> | undefined;
  beforeAll(async () => {
    server = await loopbackServer(handler);
    env.api = new RivalsApi({ baseUrl: server.url, apiKey: 'k' });
  });
  afterAll(async () => {
    await env.api?.close();
    server?.close();
  });
  return env;
}

/** Runs `fn` and returns the ApiError it throws; fails the test if it throws anything else or nothing. */
export async function apiError(fn: () => Promise<unknown>): Promise<ApiError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected an ApiError');
}
