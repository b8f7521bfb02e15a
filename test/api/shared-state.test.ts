/**
 * The deployment-wide check, on the real parts: two bot "processes" (each its own API client, response cache,
 * single-flight, rate limiter and Redis connections, built as src/app/services.ts builds them) over one
 * redis-server, asking the replica over loopback HTTP.
 */
import type Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RivalsApi } from '../../src/api/client.js';
import { UpstreamRateLimiter } from '../../src/api/rate-limiter.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { SharedFlight } from '../../src/cache/shared-flight.js';
import { closeCacheStore, createCacheStore, redisClientOf } from '../../src/cache/store.js';
import { runWithDeadline } from '../../src/core/deadline.js';
import type { Replica } from '../../src/replica/server.js';
import { clientFor, replica } from '../helpers/replica.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

interface BotProcess {
  api: RivalsApi;
  store: Keyv;
  flight: SharedFlight;
  limiter: UpstreamRateLimiter;
  cache: ResponseCache;
}

let redis: RedisServer;
let r: Replica;
let procs: BotProcess[];

function botProcess(): BotProcess {
  const store = createCacheStore({ redisUrl: redis.url, maxEntries: 1000 });
  const client = redisClientOf(store);
  const flight = new SharedFlight({ client, maxHoldMs: 2_000 + 5_000 });
  const cache = new ResponseCache({ store, flight });
  const limiter = new UpstreamRateLimiter({ requestsPerMinute: 600, shared: { client } });
  return { api: clientFor(r, { cache, limiter }), store, flight, limiter, cache };
}

beforeAll(async () => {
  [redis, r] = await Promise.all([startRedis(), replica()]);
  procs = [botProcess(), botProcess()];
});
afterAll(async () => {
  for (const p of procs ?? []) {
    p.limiter.stop();
    await p.api.close();
    await p.flight.close();
    await closeCacheStore(p.store);
  }
  await r?.close();
  await redis?.stop();
});

describe('one shared state for every process', () => {
  it('100 concurrent identical /player lookups spread over both processes make one upstream request', async () => {
    const path = '/api/v1/player/1403392756';
    const before = r.requests.byPath.get(path) ?? 0;
    const deadline = Date.now() + 10_000;
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => runWithDeadline(deadline, () => procs[i % 2]!.api.player('1403392756'))));
    expect((r.requests.byPath.get(path) ?? 0) - before).toBe(1);
    for (const res of results) expect(res.data.uid).toBe('1403392756');
  });

  it('100 concurrent lookups of an unknown player make one upstream request, and both processes answer not found', async () => {
    const total = r.requests.total;
    const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => procs[i % 2]!.api.player('nobody-here-issue-15')));
    expect(r.requests.total - total).toBe(1);
    for (const res of results) expect(res).toMatchObject({ status: 'rejected', reason: { kind: 'not_found', status: 404 } });
  });
});
