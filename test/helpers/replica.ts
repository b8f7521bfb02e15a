/** Test helpers: a replica on loopback and a client pointed at it. */
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
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

/** A loopback server that answers every request with `status` and the raw `body` (shapes the replica never sends). */
export async function cannedServer(status: number, body: string): Promise<{ url: string; close(): void }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
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
