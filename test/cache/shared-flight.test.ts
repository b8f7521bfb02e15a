/**
 * Single-flight across processes on a real redis-server: several ResponseCache instances,
 * each with its own memory level, its own store connection and its own SharedFlight (its own
 * subscriber), stand for several bot processes sharing one Redis.
 */
import { randomUUID } from 'node:crypto';
import type Keyv from 'keyv';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/api-errors.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { SharedFlight, type SharedFlightOptions } from '../../src/cache/shared-flight.js';
import { closeCacheStore, createCacheStore } from '../../src/cache/store.js';
import type { Resource } from '../../src/cache/ttl.js';
import { redisClientOf } from '../../src/feeds/leadership.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

/** One "process": a store connection, a flight and a cache over it. */
interface Proc {
  store: Keyv;
  flight: SharedFlight;
  cache: ResponseCache;
}

let open: Proc[] = [];

function proc(url: string, flight: Partial<SharedFlightOptions> = {}, storeTimeoutMs = 500, ttls: Partial<Record<Resource, number>> = {}): Proc {
  const store = createCacheStore({ redisUrl: url, maxEntries: 1000 });
  const shared = new SharedFlight({ client: redisClientOf(store), timeoutMs: storeTimeoutMs, ...flight });
  const p = { store, flight: shared, cache: new ResponseCache({ store, flight: shared, storeTimeoutMs, ttls }) };
  open.push(p);
  return p;
}

/** The raw node-redis client of a process's store, for what a test does behind the cache's back. */
async function raw(p: Proc) {
  return (await redisClientOf(p.store)()) as unknown as {
    set(key: string, value: string, options: { PX: number }): Promise<unknown>;
    pTTL(key: string): Promise<number>;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A loader that counts its calls and answers after `ms`. */
function counted<T>(answer: () => T, ms = 50) {
  const counter = {
    calls: 0,
    load: async () => {
      counter.calls++;
      await sleep(ms);
      return answer();
    },
  };
  return counter;
}

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());
afterEach(async () => {
  const closing = open;
  open = [];
  for (const p of closing) {
    await p.flight.close();
    await closeCacheStore(p.store);
  }
});

describe('one upstream request for concurrent misses across processes', () => {
  it('100 concurrent gets spread over two processes run the loader once; all get the value', async () => {
    const procs = [proc(redis.url), proc(redis.url)];
    const key = `player:/api/v1/player/${randomUUID()}`;
    const profile = { uid: '42', name: 'Sir Final' };
    const loader = counted(() => profile);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => procs[i % 2]!.cache.get(key, 'player', loader.load)));
    expect(loader.calls).toBe(1);
    for (const r of results) expect(r.data).toEqual(profile);
    // One process asked the API; the other read the answer from Redis once it was told.
    expect(results.filter((r) => r.source === 'upstream')).toHaveLength(50);
    expect(procs.map((p) => p.cache.levelStats.flightJoins).sort()).toEqual([0, 1]);
  });

  it("waiters are woken by the holder's message (pub/sub), not by their poll", async () => {
    const [a, b] = [proc(redis.url, { pollMs: 10_000 }), proc(redis.url, { pollMs: 10_000 })];
    const key = `player:/api/v1/player/${randomUUID()}`;
    const loader = counted(() => 'value', 150);
    const first = a.cache.get(key, 'player', loader.load);
    await waitForLock(a, key);
    const started = performance.now();
    const joined = await b.cache.get(key, 'player', loader.load);
    expect(joined).toMatchObject({ data: 'value', source: 'cache' });
    expect(loader.calls).toBe(1);
    // The holder answered ~150 ms in; the next poll would have been 10 s after the first.
    expect(performance.now() - started).toBeLessThan(1_000);
    await first;
  });

  it('a not-found is answered once and shared: no process asks again', async () => {
    const procs = [proc(redis.url), proc(redis.url)];
    const key = `player:/api/v1/player/${randomUUID()}`;
    let calls = 0;
    const load = async () => {
      calls++;
      await sleep(50);
      throw new ApiError({ kind: 'not_found', endpoint: 'player', status: 404, upstreamMessage: 'Player not found' });
    };
    const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => procs[i % 2]!.cache.get(key, 'player', load)));
    expect(calls).toBe(1);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toMatchObject({ kind: 'not_found', status: 404 });
    }
    // And afterwards, from the negative cache in either process.
    await expect(procs[1]!.cache.get(key, 'player', load)).rejects.toMatchObject({ kind: 'not_found' });
    expect(calls).toBe(1);
  });

  it('an upstream failure is passed to the waiters, so no process asks a failing API again; each serves its stale value if it has one', async () => {
    const failing = (counter: { calls: number }) => async () => {
      counter.calls++;
      await sleep(80);
      throw new ApiError({ kind: 'unavailable', endpoint: 'heroes', status: 503 });
    };
    const procs = [0, 1, 2].map(() => proc(redis.url, {}, 500, { heroes: 50 }));

    // Nothing older to serve: every process gets the one failure.
    const key = `heroes:${randomUUID()}`;
    const none = { calls: 0 };
    const first = procs[0]!.cache.get(key, 'heroes', failing(none));
    await waitForLock(procs[0]!, key);
    const results = await Promise.allSettled([first, ...procs.flatMap((p) => Array.from({ length: 10 }, () => p.cache.get(key, 'heroes', failing(none))))]);
    expect(none.calls).toBe(1);
    for (const r of results) expect(r).toMatchObject({ status: 'rejected', reason: { kind: 'unavailable', status: 503 } });
    expect(procs[1]!.cache.levelStats.flightFailures).toBe(1);

    // An expired value in the store: the one failure, and every process serves it stale.
    const staleKey = `heroes:${randomUUID()}`;
    await procs[0]!.cache.get(staleKey, 'heroes', async () => 'older value');
    await sleep(60);
    const once = { calls: 0 };
    const served = await Promise.all(procs.flatMap((p) => Array.from({ length: 10 }, () => p.cache.get(staleKey, 'heroes', failing(once)))));
    expect(once.calls).toBe(1);
    for (const r of served) expect(r).toMatchObject({ data: 'older value', stale: true, source: 'stale' });
  });

  it('a holder that could not ask (its own rate limiter refused) hands over: exactly one waiter asks', async () => {
    const [a, b, c] = [proc(redis.url), proc(redis.url), proc(redis.url)];
    const key = `maps:${randomUUID()}`;
    const refused = async () => {
      await sleep(60);
      throw new ApiError({
        kind: 'rate_limited',
        endpoint: 'maps',
        retryAfterMs: 30_000,
        upstreamMessage: 'the rate limit would hold this request past its deadline',
      });
    };
    const loader = counted(() => ['map'], 30);
    const first = a.cache.get(key, 'maps', refused).catch((err: unknown) => err);
    await waitForLock(a, key);
    const others = await Promise.all([b, c].flatMap((p) => Array.from({ length: 20 }, () => p.cache.get(key, 'maps', loader.load))));
    expect(await first).toMatchObject({ kind: 'rate_limited' });
    expect(loader.calls).toBe(1);
    for (const r of others) expect(r.data).toEqual(['map']);
  });

  it('a fresh read (Refresh button) joins a fetch under way in another process', async () => {
    const [a, b] = [proc(redis.url), proc(redis.url)];
    const key = `player:/api/v1/player/${randomUUID()}`;
    await a.cache.get(key, 'player', async () => 'v1');
    const slow = counted(() => 'v2', 150);
    const other = counted(() => 'v3');
    const first = a.cache.get(key, 'player', slow.load, { fresh: true });
    await waitForLock(a, key);
    const joined = await b.cache.get(key, 'player', other.load, { fresh: true });
    expect((await first).data).toBe('v2');
    expect(joined.data).toBe('v2');
    expect(other.calls).toBe(0);
    // With nothing in flight, a fresh read asks the API.
    expect((await b.cache.get(key, 'player', other.load, { fresh: true })).data).toBe('v3');
    expect(other.calls).toBe(1);
  });

  it('at scale: 1,000 concurrent gets of 100 keys over 4 processes load each key once', async () => {
    const procs = [0, 1, 2, 3].map(() => proc(redis.url));
    const run = randomUUID();
    const calls = new Map<string, number>();
    const load = (key: string) => async () => {
      calls.set(key, (calls.get(key) ?? 0) + 1);
      await sleep(20 + Math.random() * 40);
      return { key };
    };
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => {
        const key = `player:${run}:${i % 100}`;
        return procs[Math.floor(i / 100) % 4]!.cache.get(key, 'player', load(key));
      }),
    );
    const elapsed = performance.now() - started;
    expect(calls.size).toBe(100);
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    results.forEach((r, i) => expect(r.data).toEqual({ key: `player:${run}:${i % 100}` }));
    // Waiters are woken by pub/sub, not by their 250 ms poll.
    expect(elapsed).toBeLessThan(2_000);
  });
});

describe('a lock holder that dies or hangs', () => {
  it("a dead process's lock: the waiters fetch once it expires, within their deadline", async () => {
    const procs = [proc(redis.url), proc(redis.url)];
    const key = `player:/api/v1/player/${randomUUID()}`;
    // A process took the lock and died: nobody renews or releases it.
    await (await raw(procs[0]!)).set(procs[0]!.flight.lockKey(key), 'a dead process', { PX: 800 });
    const loader = counted(() => 'answer', 30);
    const started = Date.now();
    const deadline = started + 4_000;
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => procs[i % 2]!.cache.get(key, 'player', loader.load, { deadline })));
    const elapsed = Date.now() - started;
    expect(loader.calls).toBe(1);
    for (const r of results) expect(r).toMatchObject({ data: 'answer', stale: false });
    expect(elapsed).toBeGreaterThanOrEqual(750);
    expect(elapsed).toBeLessThan(deadline - started);
  });

  it('a live holder whose load never ends keeps the lock for its longest hold, then one waiter takes over', async () => {
    const hung = proc(redis.url, { lockMs: 300, maxHoldMs: 600 });
    const waiters = [proc(redis.url), proc(redis.url)];
    const key = `player:/api/v1/player/${randomUUID()}`;
    void hung.cache.get(key, 'player', () => new Promise<never>(() => undefined));
    await waitForLock(hung, key);
    const loader = counted(() => 'answer', 30);
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => waiters[i % 2]!.cache.get(key, 'player', loader.load, { deadline: started + 4_000 })),
    );
    const elapsed = Date.now() - started;
    expect(loader.calls).toBe(1);
    for (const r of results) expect(r.data).toBe('answer');
    // Renewed past its 300 ms lifetime while the load ran, then left to lapse (600 ms hold + 300 ms).
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('a waiter whose deadline comes first gets a timeout at its deadline, never a hang; the load goes on and fills the cache', async () => {
    const [a, b] = [proc(redis.url), proc(redis.url)];
    const key = `player:/api/v1/player/${randomUUID()}`;
    await (await raw(a)).set(a.flight.lockKey(key), 'a dead process', { PX: 1_000 });
    const loader = counted(() => 'late', 10);
    const started = Date.now();
    const error = await b.cache.get(key, 'player', loader.load, { deadline: started + 300 }).catch((err: unknown) => err);
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(800);
    await waitFor(async () => loader.calls === 1, 3_000, 20);
    await waitFor(async () => (await a.cache.get(key, 'player', async () => 'never')).data === 'late', 2_000, 50);
  });
});

describe('Redis down', () => {
  let own: RedisServer;
  beforeAll(async () => {
    own = await startRedis();
  });
  afterAll(() => own?.stop());

  it('killed mid-run: each process loads alone, with no wait beyond the store timeout; coordination resumes when it is back', async () => {
    const procs = [proc(own.url, { cooldownMs: 1_000 }, 300), proc(own.url, { cooldownMs: 1_000 }, 300)];
    // Connected and subscribed (a first coordinated miss each).
    const warm = `warm:${randomUUID()}`;
    await Promise.all(procs.map((p) => p.cache.get(warm, 'player', async () => 'warm')));
    await own.kill();

    const key = `player:/api/v1/player/${randomUUID()}`;
    const started = performance.now();
    const calledAfter: number[] = [];
    const loader = async () => {
      calledAfter.push(performance.now() - started);
      return 'from upstream';
    };
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => procs[i % 2]!.cache.get(key, 'player', loader)));
    for (const r of results) expect(r).toMatchObject({ data: 'from upstream', source: 'upstream' });
    // One load per process (in-process single-flight still holds), each after at most one store timeout.
    expect(calledAfter).toHaveLength(2);
    for (const ms of calledAfter) expect(ms).toBeLessThan(300 + 250);
    expect(procs.every((p) => p.cache.levelStats.flightAlone >= 1)).toBe(true);

    // A second key during the outage: the flight does not wait on Redis again (the loader starts within the read's timeout).
    const t = performance.now();
    let secondAfter = Number.NaN;
    await procs[0]!.cache.get(`other:${randomUUID()}`, 'player', async () => ((secondAfter = performance.now() - t), 'x'));
    expect(secondAfter).toBeLessThan(300 + 250);

    await own.restart();
    // Back after the cool-down (1 s here, 5 s by default) and the client's reconnect: one request again.
    const again = `player:/api/v1/player/${randomUUID()}`;
    await waitFor(async () => {
      const loader2 = counted(() => 'x', 30);
      const key2 = `${again}:${Date.now()}`;
      await Promise.all(Array.from({ length: 10 }, (_, i) => procs[i % 2]!.cache.get(key2, 'player', loader2.load)));
      return loader2.calls === 1;
    }, 15_000);
  }, 30_000);

  it('a Redis that never answered: gets answer from their own loader at once', async () => {
    const p = proc('redis://127.0.0.1:1', {}, 300);
    const started = performance.now();
    const got = await p.cache.get('k', 'player', async () => 'from upstream');
    expect(got).toMatchObject({ data: 'from upstream', source: 'upstream' });
    expect(performance.now() - started).toBeLessThan(300 + 300 + 250);
  });
});

/** Resolves once `p`'s flight lock of `key` exists in Redis. */
async function waitForLock(p: Proc, key: string): Promise<void> {
  const client = await raw(p);
  await waitFor(async () => (await client.pTTL(p.flight.lockKey(key))) > 0, 2_000, 5);
}

/** Polls `check` every `everyMs` until it is true, for at most `ms`. */
async function waitFor(check: () => Promise<boolean>, ms = 15_000, everyMs = 100): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(everyMs);
  }
}
