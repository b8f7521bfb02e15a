/**
 * The deployment-wide rate budget on a real redis-server: several UpstreamRateLimiter
 * instances, each with its own connection, stand for several bot processes sharing one API key.
 */
import { randomUUID } from 'node:crypto';
import type Keyv from 'keyv';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitWaitError, UpstreamRateLimiter, type Priority } from '../../src/api/rate-limiter.js';
import { SharedRateWindow } from '../../src/api/shared-window.js';
import { closeCacheStore, createCacheStore } from '../../src/cache/store.js';
import { redisClientOf } from '../../src/feeds/leadership.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let stores: Keyv[] = [];
let limiters: UpstreamRateLimiter[] = [];

/** One "process": its own Redis connection and limiter, over the deployment's window `prefix`. */
function limiter(
  url: string,
  prefix: string,
  requestsPerMinute: number,
  windowMs: number,
  extra: { bulkShare?: number; timeoutMs?: number } = {},
): UpstreamRateLimiter {
  const store = createCacheStore({ redisUrl: url, maxEntries: 10 });
  stores.push(store);
  const l = new UpstreamRateLimiter({
    requestsPerMinute,
    windowMs,
    bulkShare: extra.bulkShare,
    shared: { client: redisClientOf(store), prefix, timeoutMs: extra.timeoutMs },
  });
  limiters.push(l);
  return l;
}

/** Every `cap + 1` consecutive starts (sorted, ms) span at least the window, less `slackMs` of measuring noise. */
function expectRolling(starts: number[], cap: number, windowMs: number, slackMs = 15): void {
  const sorted = [...starts].sort((a, b) => a - b);
  for (let i = 0; i + cap < sorted.length; i++) expect(sorted[i + cap]! - sorted[i]!).toBeGreaterThanOrEqual(windowMs - slackMs);
}

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());
afterEach(async () => {
  for (const l of limiters) l.stop();
  for (const s of stores) await closeCacheStore(s);
  limiters = [];
  stores = [];
});

describe('one rate for the whole deployment', () => {
  it('two processes with rpm 5 start at most 5 tasks in total in any window', async () => {
    const prefix = randomUUID();
    const [a, b] = [limiter(redis.url, prefix, 5, 500), limiter(redis.url, prefix, 5, 500)];
    const starts: { by: string; at: number }[] = [];
    const t0 = performance.now();
    await Promise.all([
      ...Array.from({ length: 12 }, () => a.schedule(async () => void starts.push({ by: 'a', at: performance.now() - t0 }))),
      ...Array.from({ length: 12 }, () => b.schedule(async () => void starts.push({ by: 'b', at: performance.now() - t0 }))),
    ]);
    expect(starts).toHaveLength(24);
    expectRolling(
      starts.map((s) => s.at),
      5,
      500,
    );
    // 24 starts at 5 a window: the last one in the fifth window.
    expect(Math.max(...starts.map((s) => s.at))).toBeGreaterThanOrEqual(4 * 500 - 15);
    // Both processes got turns (neither starved).
    expect(starts.filter((s) => s.by === 'a').length).toBe(12);
  });

  it('at scale: 4 processes, 400 tasks, rpm 50 over 300 ms windows: never more than 50 in a window', async () => {
    const prefix = randomUUID();
    const procs = [0, 1, 2, 3].map(() => limiter(redis.url, prefix, 50, 300));
    const starts: number[] = [];
    const t0 = performance.now();
    await Promise.all(procs.flatMap((l) => Array.from({ length: 100 }, () => l.schedule(async () => void starts.push(performance.now() - t0)))));
    expect(starts).toHaveLength(400);
    // A start is stamped when its task runs, after its grant by the event-loop delay of its process; on
    // a loaded machine that delay reached 15 ms (a measured gap of 284.7 ms). A limiter that overran
    // its window would start the 51st task at once, well under this.
    expectRolling(starts, 50, 300, 40);
    expect(Math.max(...starts)).toBeGreaterThanOrEqual(7 * 300 - 15);
  }, 30_000);

  it('priorities still hold within a process while the shared window is full', async () => {
    const prefix = randomUUID();
    const [a, b] = [limiter(redis.url, prefix, 1, 300), limiter(redis.url, prefix, 1, 300)];
    // B takes the window's only slot; A's requests then wait for the shared window, in A's order.
    await b.schedule(async () => undefined);
    const order: string[] = [];
    const run = (name: string, priority: Priority) => a.schedule(async () => void order.push(name), priority);
    const first = run('first', 'background');
    const rest = [run('bulk', 'bulk'), run('background', 'background'), run('interactive', 'interactive')];
    await Promise.all([first, ...rest]);
    expect(order).toEqual(['first', 'interactive', 'background', 'bulk']);
  });

  it('the bulk share holds for the deployment, not per process', async () => {
    const prefix = randomUUID();
    // rpm 8, share 0.25: two bulk starts a window in all.
    const [a, b] = [limiter(redis.url, prefix, 8, 400, { bulkShare: 0.25 }), limiter(redis.url, prefix, 8, 400, { bulkShare: 0.25 })];
    const starts: number[] = [];
    const t0 = performance.now();
    await Promise.all([a, b].flatMap((l) => Array.from({ length: 3 }, () => l.schedule(async () => void starts.push(performance.now() - t0), 'bulk'))));
    expectRolling(starts, 2, 400);
  });

  it('a first gathering’s share (two thirds) holds for the deployment too, so two processes never take the whole window', async () => {
    const prefix = randomUUID();
    // rpm 9: six gathering starts a window in all, whichever process asks.
    const [a, b] = [limiter(redis.url, prefix, 9, 400), limiter(redis.url, prefix, 9, 400)];
    const starts: number[] = [];
    const t0 = performance.now();
    await Promise.all([a, b].flatMap((l) => Array.from({ length: 5 }, () => l.schedule(async () => void starts.push(performance.now() - t0), 'gathering'))));
    expect(starts).toHaveLength(10);
    expectRolling(starts, 6, 400);
  });

  it('a bulk task held by the deployment-wide bulk share never holds back a member’s request behind it', async () => {
    const prefix = randomUUID();
    // rpm 8, share 0.25: two bulk starts a window in all, taken by the other process.
    const [a, b] = [limiter(redis.url, prefix, 8, 2_000, { bulkShare: 0.25 }), limiter(redis.url, prefix, 8, 2_000, { bulkShare: 0.25 })];
    await Promise.all([b.schedule(async () => undefined, 'bulk'), b.schedule(async () => undefined, 'bulk')]);
    const t0 = performance.now();
    let bulkAt = 0;
    const bulk = a.schedule(async () => void (bulkAt = performance.now() - t0), 'bulk');
    await sleep(50); // the bulk task is at the head of A's queue, refused by the share
    const interactiveAt = await a.schedule(async () => performance.now() - t0, 'interactive', Date.now() + 1_000);
    expect(interactiveAt).toBeLessThan(500);
    expect(a.estimateWait('interactive')).toBeLessThan(100);
    await bulk;
    // The bulk task itself still waited for the share to free.
    expect(bulkAt).toBeGreaterThan(1_500);
  });

  it('a full window refuses at once a request whose deadline it would pass, and estimateWait knows the shared wait', async () => {
    const prefix = randomUUID();
    const [a, b] = [limiter(redis.url, prefix, 2, 1_000), limiter(redis.url, prefix, 2, 1_000)];
    await Promise.all([b.schedule(async () => undefined), b.schedule(async () => undefined)]);
    let ran = false;
    const started = Date.now();
    const refused = await a.schedule(async () => void (ran = true), 'interactive', Date.now() + 300).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RateLimitWaitError);
    expect(Date.now() - started).toBeLessThan(200);
    expect(ran).toBe(false);
    // A's own window is empty, yet it now knows the deployment's next slot is most of a second away.
    expect(a.estimateWait('interactive')).toBeGreaterThan(500);
    // A later request that can wait for it starts once the window frees.
    await a.schedule(async () => undefined, 'interactive', Date.now() + 2_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
  });

  it("a 429's back-off in one process pauses the others", async () => {
    const prefix = randomUUID();
    const [a, b] = [limiter(redis.url, prefix, 100, 60_000), limiter(redis.url, prefix, 100, 60_000)];
    await a.schedule(async () => undefined);
    a.backoff(500);
    await sleep(50); // the pause reaches Redis
    const started = performance.now();
    await b.schedule(async () => undefined);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  });
});

describe('Redis down', () => {
  let own: RedisServer;
  beforeAll(async () => {
    own = await startRedis();
  });
  afterAll(() => own?.stop());

  it('killed mid-run: each process goes on alone on its local window, without waiting on Redis', async () => {
    const prefix = randomUUID();
    const [a, b] = [limiter(own.url, prefix, 3, 400, { timeoutMs: 100 }), limiter(own.url, prefix, 3, 400, { timeoutMs: 100 })];
    // Shared while Redis runs: 3 starts in all within the first window.
    const early: number[] = [];
    const t0 = performance.now();
    await Promise.all([a, b].flatMap((l) => Array.from({ length: 3 }, () => l.schedule(async () => void early.push(performance.now() - t0)))));
    expectRolling(early, 3, 400);
    await sleep(450);

    await own.kill();
    const starts: { by: string; at: number }[] = [];
    const t1 = performance.now();
    await Promise.all(
      (['a', 'b'] as const).flatMap((by) =>
        Array.from({ length: 6 }, () => (by === 'a' ? a : b).schedule(async () => void starts.push({ by, at: performance.now() - t1 }))),
      ),
    );
    for (const by of ['a', 'b']) {
      const own = starts.filter((s) => s.by === by).map((s) => s.at);
      // Each within its own window...
      expectRolling(own, 3, 400);
      // ...and its first window's starts at once, not after a Redis timeout each.
      expect(own.sort((x, y) => x - y)[2]!).toBeLessThan(150);
    }
  });

  it('a window that cannot reach Redis answers unavailable within its timeout', async () => {
    const store = createCacheStore({ redisUrl: 'redis://127.0.0.1:1', maxEntries: 10 });
    stores.push(store);
    const window = new SharedRateWindow(5, 1_000, 1, 3, { client: redisClientOf(store), timeoutMs: 100 });
    const started = performance.now();
    expect(await window.take()).toEqual({ kind: 'unavailable' });
    expect(performance.now() - started).toBeLessThan(100 + 100);
    // Within the cool-down: at once, not after another 100 ms timeout (50 ms of slack for a loaded machine).
    const again = performance.now();
    expect(await window.take()).toEqual({ kind: 'unavailable' });
    expect(performance.now() - again).toBeLessThan(50);
  });
});
