/**
 * Single-flight across processes on a real redis-server: several ResponseCache instances,
 * each with its own memory level, its own store connection and its own SharedFlight (its own
 * subscriber), stand for several bot processes sharing one Redis.
 */
import { randomUUID } from 'node:crypto';
import type Keyv from 'keyv';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/core/api-errors.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { SharedFlight, type News, type SharedFlightOptions } from '../../src/cache/shared-flight.js';
import { closeCacheStore, createCacheStore, redisClientOf } from '../../src/cache/store.js';
import type { Resource } from '../../src/cache/ttl.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { pollUntil } from '../helpers/until.js';
import { beforeTimer, timer } from '../helpers/timing.js';

/** One "process": a store connection, a flight and a cache over it. */
interface Proc {
  store: Keyv;
  flight: SharedFlight;
  cache: ResponseCache;
}

let open: Proc[] = [];

/**
 * `now`: the cache's clock (TTLs and entry times), for a test that moves it; default the wall clock. `storeTimeoutMs`
 * defaults to far more than a Redis round trip takes on a busy machine: a command that timed out would load alone.
 */
function proc(
  url: string,
  flight: Partial<SharedFlightOptions> = {},
  storeTimeoutMs = 5_000,
  ttls: Partial<Record<Resource, number>> = {},
  now?: () => number,
): Proc {
  const store = createCacheStore({ redisUrl: url, maxEntries: 1000 });
  const shared = new SharedFlight({ client: redisClientOf(store), timeoutMs: storeTimeoutMs, ...flight });
  const p = { store, flight: shared, cache: new ResponseCache({ store, flight: shared, storeTimeoutMs, ttls, now }) };
  open.push(p);
  return p;
}

/** The raw node-redis client of a process's store, for what a test does behind the cache's back. */
async function raw(p: Proc) {
  return (await redisClientOf(p.store)()) as {
    set(key: string, value: string, options: { PX: number }): Promise<unknown>;
    get(key: string): Promise<string | null>;
    pTTL(key: string): Promise<number>;
    pExpire(key: string, ms: number): Promise<unknown>;
    sendCommand(args: string[]): Promise<unknown>;
  };
}

/** A pause inside a stub (an upstream that takes its time), never a wait for an event. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise the test settles. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A loader that counts its calls and answers after `ms` (a stub upstream's latency). */
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
    const prefix = `test:${randomUUID()}`;
    // A's lock lasts a minute and B polls once a minute: after its first look, only A's message can end B's wait.
    const [a, b] = [proc(redis.url, { prefix, lockMs: 60_000 }), proc(redis.url, { prefix, pollMs: 60_000 })];
    const key = `player:/api/v1/player/${randomUUID()}`;
    const answer = deferred<string>();
    let calls = 0;
    const load = async () => (calls++, await answer.promise);
    const first = a.cache.get(key, 'player', load);
    await waitForLock(a, key);
    const waits = vi.spyOn(b.flight, 'wait');
    const joining = b.cache.get(key, 'player', load);
    // B waits for A, and listens on the channel; then A's upstream answers.
    await vi.waitFor(() => expect(waits).toHaveBeenCalledOnce(), { timeout: 5_000 });
    await listening(b, prefix, 1);
    answer.resolve('value');
    expect(await joining).toMatchObject({ data: 'value', source: 'cache' });
    expect(calls).toBe(1);
    // What ended B's wait: the outcome A published, not its poll (which sees the lock gone: `free`).
    expect(await (waits.mock.results[0]!.value as Promise<News>)).toEqual({ o: 'done' });
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
    /** Fails once `fail` resolves: the test lets it fail when the other processes wait for it. */
    const failing = (counter: { calls: number }, fail: Promise<void>) => async () => {
      counter.calls++;
      await fail;
      throw new ApiError({ kind: 'unavailable', endpoint: 'heroes', status: 503 });
    };
    const clock = { now: Date.now() };
    const procs = [0, 1, 2].map(() => proc(redis.url, {}, undefined, { heroes: 50 }, () => clock.now));
    const waits = procs.map((p) => vi.spyOn(p.flight, 'wait'));
    /** Resolves once `n` processes have begun waiting for another one's load since `waits` were last cleared. */
    const waiting = (n: number) => vi.waitFor(() => expect(waits.filter((w) => w.mock.calls.length > 0)).toHaveLength(n), { timeout: 5_000 });

    // Nothing older to serve: every process gets the one failure.
    const key = `heroes:${randomUUID()}`;
    const none = { calls: 0 };
    const fail = deferred();
    const first = procs[0]!.cache.get(key, 'heroes', failing(none, fail.promise));
    await waitForLock(procs[0]!, key);
    const all = Promise.allSettled([first, ...procs.flatMap((p) => Array.from({ length: 10 }, () => p.cache.get(key, 'heroes', failing(none, fail.promise))))]);
    await waiting(2);
    fail.resolve();
    const results = await all;
    expect(none.calls).toBe(1);
    for (const r of results) expect(r).toMatchObject({ status: 'rejected', reason: { kind: 'unavailable', status: 503 } });
    expect(procs[1]!.cache.levelStats.flightFailures).toBe(1);

    // An expired value in the store: the one failure, and every process serves it stale.
    const staleKey = `heroes:${randomUUID()}`;
    await procs[0]!.cache.get(staleKey, 'heroes', async () => 'older value');
    clock.now += 60;
    for (const w of waits) w.mockClear();
    const once = { calls: 0 };
    const failOnce = deferred();
    const serving = Promise.all(procs.flatMap((p) => Array.from({ length: 10 }, () => p.cache.get(staleKey, 'heroes', failing(once, failOnce.promise)))));
    await waiting(2);
    failOnce.resolve();
    const served = await serving;
    expect(once.calls).toBe(1);
    for (const r of served) expect(r).toMatchObject({ data: 'older value', stale: true, source: 'stale' });
  });

  it('a waiter whose poll finds the lock gone before the failure’s message arrives still gets the failure, not a free lock to ask again', async () => {
    const [a, b] = [proc(redis.url), proc(redis.url)];
    // Both connected, as a running process's are.
    await Promise.all([raw(a), raw(b)]);
    const key = `heroes:${randomUUID()}`;
    const claim = await a.flight.claim(key);
    expect(claim.kind).toBe('acquired');
    // Released before B subscribed: B never gets the message, only what its poll finds.
    await (claim as { lock: { release(o: unknown): Promise<void> } }).lock.release({ o: 'failed', kind: 'unavailable', status: 503 });
    expect(await b.flight.wait(key, 5_000)).toEqual({ o: 'failed', kind: 'unavailable', status: 503 });
    // The next holder starts clean: its waiters are not told of the last flight's failure.
    const next = await a.flight.claim(key);
    expect(next.kind).toBe('acquired');
    await (next as { lock: { release(o: unknown): Promise<void> } }).lock.release({ o: 'done' });
    // Its own message may reach B after B began to wait; either way, not the old failure.
    expect(['free', 'done']).toContain((await b.flight.wait(key, 5_000)).o);
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
    // The caches' clock moves only when told: A's answer is written a millisecond after B's read began.
    const clock = { now: Date.now() };
    const [a, b] = [proc(redis.url, {}, undefined, {}, () => clock.now), proc(redis.url, {}, undefined, {}, () => clock.now)];
    const key = `player:/api/v1/player/${randomUUID()}`;
    await a.cache.get(key, 'player', async () => 'v1');
    const v2 = deferred<string>();
    const other = counted(() => 'v3');
    const first = a.cache.get(key, 'player', async () => await v2.promise, { fresh: true });
    await waitForLock(a, key);
    const waits = vi.spyOn(b.flight, 'wait');
    const joining = b.cache.get(key, 'player', other.load, { fresh: true });
    // B waits for A's fetch; then A's upstream answers.
    await vi.waitFor(() => expect(waits).toHaveBeenCalled(), { timeout: 5_000 });
    clock.now += 1;
    v2.resolve('v2');
    expect((await first).data).toBe('v2');
    expect((await joining).data).toBe('v2');
    expect(other.calls).toBe(0);
    // With nothing in flight, a fresh read asks the API.
    expect((await b.cache.get(key, 'player', other.load, { fresh: true })).data).toBe('v3');
    expect(other.calls).toBe(1);
  });

  it('at scale: 1,000 concurrent gets of 100 keys over 4 processes load each key once', async () => {
    const prefix = `test:${randomUUID()}`;
    // Locks of a minute, polled once a minute: after a waiter's first look at the lock, only the holder's message can end its wait.
    const procs = [0, 1, 2, 3].map(() => proc(redis.url, { prefix, lockMs: 60_000, pollMs: 60_000 }));
    // Every process is connected (a first miss each), and listens on the channel before the gets (a process subscribes at its first wait).
    await Promise.all(procs.map((p) => p.cache.get(`warm:${randomUUID()}`, 'player', async () => 'warm')));
    for (const p of procs) void p.flight.wait(`warm:${randomUUID()}`, 0);
    await listening(procs[0]!, prefix, procs.length);
    const waits = procs.map((p) => vi.spyOn(p.flight, 'wait'));
    const run = randomUUID();
    const calls = new Map<string, number>();
    const load = (key: string) => async () => {
      calls.set(key, (calls.get(key) ?? 0) + 1);
      await sleep(20 + Math.random() * 40);
      return { key };
    };
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => {
        const key = `player:${run}:${i % 100}`;
        return procs[Math.floor(i / 100) % 4]!.cache.get(key, 'player', load(key));
      }),
    );
    expect(calls.size).toBe(100);
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    results.forEach((r, i) => expect(r.data).toEqual({ key: `player:${run}:${i % 100}` }));
    // Waiters were woken by pub/sub (`done`), or found the lock already gone at their first look (`free`): none by a poll or its bound.
    const news = await Promise.all(waits.flatMap((w) => w.mock.results.map((r) => r.value as Promise<News>)));
    expect(news.length).toBeGreaterThan(0);
    expect(news.filter((n) => n.o !== 'done' && n.o !== 'free')).toEqual([]);
    expect(news.some((n) => n.o === 'done')).toBe(true);
  });
});

describe('a lock holder that dies or hangs', () => {
  it("a dead process's lock: the waiters fetch once it expires, within their deadline", async () => {
    const procs = [proc(redis.url), proc(redis.url)];
    const key = `player:/api/v1/player/${randomUUID()}`;
    const client = await raw(procs[0]!);
    const lockKey = procs[0]!.flight.lockKey(key);
    // A process took the lock and died: nobody renews or releases it.
    await client.set(lockKey, 'a dead process', { PX: 800 });
    let lockWhenLoading: string | null | undefined;
    const loader = counted(() => 'answer', 30);
    const load = async () => ((lockWhenLoading = await client.get(lockKey)), await loader.load());
    const deadline = Date.now() + 4_000;
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => procs[i % 2]!.cache.get(key, 'player', load, { deadline })));
    expect(loader.calls).toBe(1);
    // Answered by the load, before the deadline (past it a caller gets a timeout)...
    for (const r of results) expect(r).toMatchObject({ data: 'answer', stale: false });
    // ...which ran under a lock of its own, taken once the dead one had expired: no waiter asked beside it.
    expect(lockWhenLoading).toMatch(/^[0-9a-f-]{36}:[0-9a-f-]{36}$/);
    expect(procs.map((p) => p.cache.levelStats.flightAlone)).toEqual([0, 0]);
  });

  it('a live holder whose load never ends keeps the lock for its longest hold, then one waiter takes over', async () => {
    const hung = proc(redis.url, { lockMs: 300, maxHoldMs: 600 });
    const waiters = [proc(redis.url), proc(redis.url)];
    const key = `player:/api/v1/player/${randomUUID()}`;
    void hung.cache.get(key, 'player', () => new Promise<never>(() => undefined));
    await waitForLock(hung, key);
    const client = await raw(hung);
    const lockKey = hung.flight.lockKey(key);
    const hungLock = await client.get(lockKey);
    let lockWhenLoading: string | null | undefined;
    const loader = counted(() => 'answer', 30);
    const load = async () => ((lockWhenLoading = await client.get(lockKey)), await loader.load());
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => waiters[i % 2]!.cache.get(key, 'player', load, { deadline: started + 4_000 })));
    const elapsed = Date.now() - started;
    expect(loader.calls).toBe(1);
    // Answered by the load, before the deadline (past it a caller gets a timeout), long before the waiters' own bound (18 s)...
    for (const r of results) expect(r).toMatchObject({ data: 'answer', stale: false });
    // ...by one waiter that took over the lock once the holder's had lapsed, not by one giving up on it.
    expect(hungLock).toMatch(/^[0-9a-f-]{36}:[0-9a-f-]{36}$/);
    expect(lockWhenLoading).toMatch(/^[0-9a-f-]{36}:[0-9a-f-]{36}$/);
    expect(lockWhenLoading).not.toBe(hungLock);
    expect(waiters.map((w) => w.cache.levelStats.flightAlone)).toEqual([0, 0]);
    // Renewed past its 300 ms lifetime while the load ran, then left to lapse (600 ms hold + 300 ms): a lower
    // bound on real time, kept because the lock's lifetime is Redis's (PX) and the hold is the holder's timer,
    // neither on a clock a test can move; a slow machine only makes it longer.
    expect(elapsed).toBeGreaterThanOrEqual(450);
  });

  it('a waiter whose deadline comes first gets a timeout at its deadline, never a hang; the load goes on and fills the cache', async () => {
    const [a, b] = [proc(redis.url), proc(redis.url)];
    const key = `player:/api/v1/player/${randomUUID()}`;
    const client = await raw(a);
    const lockKey = a.flight.lockKey(key);
    // A dead process's lock that outlasts the test unless the test lets it lapse.
    await client.set(lockKey, 'a dead process', { PX: 60_000 });
    const loader = counted(() => 'late', 10);
    const error = await b.cache.get(key, 'player', loader.load, { deadline: Date.now() + 300 }).catch((err: unknown) => err);
    expect(error).toMatchObject({ kind: 'timeout' });
    // The answer came while the lock was still held: the caller did not wait for it.
    expect(await client.get(lockKey)).toBe('a dead process');
    expect(loader.calls).toBe(0);
    // The lock lapses: the wait that went on behind the caller's back loads, and fills the cache.
    await client.pExpire(lockKey, 1);
    await pollUntil(() => loader.calls === 1, 'the load behind the lapsed lock', { everyMs: 20 });
    await pollUntil(async () => (await a.cache.get(key, 'player', async () => 'never')).data === 'late', 'the late load in the cache');
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
    // Each load must start before a timer of one store timeout plus 250 ms, set with the gets: after at most one store timeout.
    let late = timer(300 + 250);
    const calledBeforeLate: boolean[] = [];
    const loader = async () => {
      calledBeforeLate.push(!late.fired);
      return 'from upstream';
    };
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => procs[i % 2]!.cache.get(key, 'player', loader)));
    late.clear();
    for (const r of results) expect(r).toMatchObject({ data: 'from upstream', source: 'upstream' });
    // One load per process (in-process single-flight still holds), each after at most one store timeout.
    expect(calledBeforeLate).toEqual([true, true]);
    expect(procs.every((p) => p.cache.levelStats.flightAlone >= 1)).toBe(true);

    // A second key during the outage: the flight does not wait on Redis again (the loader starts within the read's timeout).
    late = timer(300 + 250);
    let secondBeforeLate: boolean | undefined;
    await procs[0]!.cache.get(`other:${randomUUID()}`, 'player', async () => ((secondBeforeLate = !late.fired), 'x'));
    late.clear();
    expect(secondBeforeLate).toBe(true);

    await own.restart();
    // Back after the cool-down (1 s here, 5 s by default) and the client's reconnect: one request again.
    const again = `player:/api/v1/player/${randomUUID()}`;
    let calls = 0;
    await pollUntil(
      async () => {
        const loader2 = counted(() => 'x', 30);
        const key2 = `${again}:${Date.now()}`;
        await Promise.all(Array.from({ length: 10 }, (_, i) => procs[i % 2]!.cache.get(key2, 'player', loader2.load)));
        calls = loader2.calls;
        return calls === 1;
      },
      'one load for 10 gets again once Redis is back',
      { timeoutMs: 15_000, everyMs: 100, context: () => `last try: ${calls} loads` },
    );
  }, 30_000);

  it('a Redis that never answered: gets answer from their own loader at once', async () => {
    const p = proc('redis://127.0.0.1:1', {}, 300);
    // At most two store timeouts (the read, the write), not a third wait.
    const got = await beforeTimer(
      300 + 300 + 250,
      p.cache.get('k', 'player', async () => 'from upstream'),
    );
    expect(got).toMatchObject({ data: 'from upstream', source: 'upstream' });
  });
});

/** Resolves once `p`'s flight lock of `key` exists in Redis. */
async function waitForLock(p: Proc, key: string): Promise<void> {
  const client = await raw(p);
  await pollUntil(async () => (await client.pTTL(p.flight.lockKey(key))) > 0, `the flight lock of ${key}`, { everyMs: 5 });
}

/** Resolves once `n` connections listen on the news channel of the flights with `prefix` (PUBSUB NUMSUB). */
async function listening(p: Proc, prefix: string, n: number): Promise<void> {
  const client = await raw(p);
  const channel = `${prefix}:news`;
  let count = 0;
  await pollUntil(
    async () => {
      const reply = (await client.sendCommand(['PUBSUB', 'NUMSUB', channel])) as [string, number];
      count = Number(reply[1]);
      return count >= n;
    },
    `${n} subscribers on ${channel}`,
    { timeoutMs: 10_000, context: () => `${count} subscribed` },
  );
}
