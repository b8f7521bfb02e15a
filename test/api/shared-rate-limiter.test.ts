/**
 * The deployment-wide rate budget on a real redis-server: several UpstreamRateLimiter
 * instances, each with its own connection, stand for several bot processes sharing one API key.
 */
import { randomUUID } from 'node:crypto';
import type Keyv from 'keyv';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateLimitWaitError, UpstreamRateLimiter, type Priority } from '../../src/api/rate-limiter.js';
import { SharedRateWindow, type Verdict } from '../../src/api/shared-window.js';
import { closeCacheStore, createCacheStore, redisClientOf } from '../../src/cache/store.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { pollUntil } from '../helpers/until.js';
import { beforeTimer, timer } from '../helpers/timing.js';

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

/**
 * A start, bracketed (`performance.now()`, ms): it was counted in its window (by Redis's clock for the shared
 * window, by the limiter's for its own) no earlier than `asked` and no later than `answered`.
 */
interface Start {
  asked: number;
  answered: number;
}

/**
 * No `cap + 1` of `starts` within less than `windowMs`. For any `cap + 1` starts, the last `answered` minus the
 * first `asked` is at least the span of the counted times themselves: a window that holds never fails this
 * however late the machine runs (delays only widen the brackets), and one that lets `cap + 1` through at once
 * does. 1 ms less per window for clocks that count whole ms.
 */
function expectRolling(starts: Start[], cap: number, windowMs: number): void {
  const byAsked = [...starts].sort((x, y) => x.asked - y.asked);
  for (let i = 0; i + cap < byAsked.length; i++) {
    // The cap + 1 earliest answers among the starts asked for from the i-th on.
    const answered = byAsked
      .slice(i)
      .map((s) => s.answered)
      .sort((x, y) => x - y);
    expect(answered[cap]! - byAsked[i]!.asked).toBeGreaterThanOrEqual(windowMs - 1);
  }
}

/** The span from the first start's `asked` to the last one's `answered`: at least the span of the starts themselves. */
const spanOf = (starts: Start[]) => Math.max(...starts.map((s) => s.answered)) - Math.min(...starts.map((s) => s.asked));

/**
 * Every start the deployment's window grants from now on (any limiter of the test), bracketed by the call
 * to Redis and its answer; and every verdict, with the share asked for.
 */
function recordWindow(): { grants: Start[]; verdicts: { share: 'bulk' | 'gathering' | undefined; verdict: Verdict }[] } {
  const grants: Start[] = [];
  const verdicts: { share: 'bulk' | 'gathering' | undefined; verdict: Verdict }[] = [];
  // Called below with each window as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const take = SharedRateWindow.prototype.take;
  vi.spyOn(SharedRateWindow.prototype, 'take').mockImplementation(async function (this: SharedRateWindow, share?: 'bulk' | 'gathering') {
    const asked = performance.now();
    const verdict = await take.call(this, share);
    if (verdict.kind === 'granted') grants.push({ asked, answered: performance.now() });
    verdicts.push({ share, verdict });
    return verdict;
  });
  return { grants, verdicts };
}

/** The raw node-redis client of the test's first store, for looking at the window's keys. */
async function rawClient() {
  return (await redisClientOf(stores[0]!)()) as { pTTL(key: string): Promise<number> };
}

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());
afterEach(async () => {
  vi.restoreAllMocks();
  for (const l of limiters) l.stop();
  for (const s of stores) await closeCacheStore(s);
  limiters = [];
  stores = [];
});

describe('one rate for the whole deployment', () => {
  it('two processes with rpm 5 start at most 5 tasks in total in any window', async () => {
    const prefix = randomUUID();
    const [a, b] = [limiter(redis.url, prefix, 5, 500), limiter(redis.url, prefix, 5, 500)];
    const { grants } = recordWindow();
    const starts: string[] = [];
    await Promise.all([
      ...Array.from({ length: 12 }, () => a.schedule(async () => void starts.push('a'))),
      ...Array.from({ length: 12 }, () => b.schedule(async () => void starts.push('b'))),
    ]);
    expect(starts).toHaveLength(24);
    // Each start was granted by the deployment's window (none went by a process's own window alone).
    expect(grants).toHaveLength(24);
    expectRolling(grants, 5, 500);
    // 24 starts at 5 a window: the last one in the fifth window.
    expect(spanOf(grants)).toBeGreaterThanOrEqual(4 * (500 - 1));
    // Both processes got turns (neither starved).
    expect(starts.filter((by) => by === 'a').length).toBe(12);
  });

  it('at scale: 4 processes, 400 tasks, rpm 50 over 300 ms windows: never more than 50 in a window', async () => {
    const prefix = randomUUID();
    const procs = [0, 1, 2, 3].map(() => limiter(redis.url, prefix, 50, 300));
    const { grants } = recordWindow();
    let started = 0;
    await Promise.all(procs.flatMap((l) => Array.from({ length: 100 }, () => l.schedule(async () => void started++))));
    expect(started).toBe(400);
    expect(grants).toHaveLength(400);
    // Each grant is bracketed by its request to Redis and the answer, so the event-loop delays of a loaded
    // machine only widen the brackets. A limiter that overran its window would start the 51st task at once.
    expectRolling(grants, 50, 300);
    expect(spanOf(grants)).toBeGreaterThanOrEqual(7 * (300 - 1));
  }, 30_000);

  it("tracking leaves the deployment's reserve free: the shared window refuses a start that would eat into it, and a member still starts", async () => {
    const prefix = randomUUID();
    const store = createCacheStore({ redisUrl: redis.url, maxEntries: 10 });
    stores.push(store);
    // Two processes' windows over one key; a long window, so nothing frees during the test.
    const [a, b] = [0, 1].map(() => new SharedRateWindow(20, 60_000, 5, 13, { client: redisClientOf(store), prefix }));
    for (let i = 0; i < 18; i++) expect(await (i % 2 ? a : b)!.take()).toEqual({ kind: 'granted' });
    // The 19th start leaves the one start of a reserve of 1; a 20th tracking start would not.
    expect(await a!.take(undefined, 1)).toEqual({ kind: 'granted' });
    const refused = await b!.take(undefined, 1);
    expect(refused).toMatchObject({ kind: 'denied', bulkShare: true });
    expect((refused as { retryMs: number }).retryMs).toBeGreaterThan(50_000);
    // A member's request takes the reserved start.
    expect(await b!.take()).toEqual({ kind: 'granted' });
    expect(await a!.take()).toMatchObject({ kind: 'denied', bulkShare: false });
  });

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
    const { grants } = recordWindow();
    await Promise.all([a, b].flatMap((l) => Array.from({ length: 3 }, () => l.schedule(async () => undefined, 'bulk'))));
    expect(grants).toHaveLength(6);
    expectRolling(grants, 2, 400);
  });

  it('a first gathering’s share (two thirds) holds for the deployment too, so two processes never take the whole window', async () => {
    const prefix = randomUUID();
    // rpm 9: six gathering starts a window in all, whichever process asks.
    const [a, b] = [limiter(redis.url, prefix, 9, 400), limiter(redis.url, prefix, 9, 400)];
    const { grants } = recordWindow();
    let started = 0;
    await Promise.all([a, b].flatMap((l) => Array.from({ length: 5 }, () => l.schedule(async () => void started++, 'gathering'))));
    expect(started).toBe(10);
    expect(grants).toHaveLength(10);
    expectRolling(grants, 6, 400);
  });

  it('a bulk task held by the deployment-wide bulk share never holds back a member’s request behind it', async () => {
    const prefix = randomUUID();
    // rpm 8, share 0.25: two bulk starts a window in all, taken by the other process.
    const [a, b] = [limiter(redis.url, prefix, 8, 2_000, { bulkShare: 0.25 }), limiter(redis.url, prefix, 8, 2_000, { bulkShare: 0.25 })];
    await Promise.all([b.schedule(async () => undefined, 'bulk'), b.schedule(async () => undefined, 'bulk')]);
    const { verdicts } = recordWindow();
    const order: string[] = [];
    const bulk = a.schedule(async () => void order.push('bulk'), 'bulk');
    // The bulk task reached the head of A's queue, and the share refused it.
    await vi.waitFor(() => expect(verdicts).toHaveLength(1), { timeout: 5_000 });
    expect(verdicts[0]).toMatchObject({ share: 'bulk', verdict: { kind: 'denied', bulkShare: true } });
    // A member's request behind it starts while the bulk task still waits, and its wait says nothing of the bulk task's.
    await a.schedule(async () => void order.push('interactive'), 'interactive', Date.now() + 1_000);
    expect(order).toEqual(['interactive']);
    expect(a.estimateWait('interactive')).toBe(0);
    await bulk;
    expect(order).toEqual(['interactive', 'bulk']);
    // The bulk task itself still waited for the share to free: refused until a later ask was granted.
    const forBulk = verdicts.filter((v) => v.share === 'bulk').map((v) => v.verdict);
    expect(forBulk.at(-1)).toEqual({ kind: 'granted' });
    expect(forBulk.slice(0, -1).every((v) => v.kind === 'denied' && v.bulkShare)).toBe(true);
  });

  it('a full window refuses at once a request whose deadline it would pass, and estimateWait knows the shared wait', async () => {
    // A window of ten minutes, and a deadline two minutes on: past the test's own timeout, so a refusal the test
    // sees came before the deadline, however slow the machine, and was decided from the shared wait.
    const prefix = randomUUID();
    const [a, b] = [limiter(redis.url, prefix, 2, 600_000), limiter(redis.url, prefix, 2, 600_000)];
    await Promise.all([b.schedule(async () => undefined), b.schedule(async () => undefined)]);
    let ran = false;
    const deadline = Date.now() + 120_000;
    const refused = await a.schedule(async () => void (ran = true), 'interactive', deadline).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RateLimitWaitError);
    // The wait it foresaw goes past the deadline.
    expect((refused as RateLimitWaitError).waitMs).toBeGreaterThan(deadline - Date.now());
    expect(ran).toBe(false);
    // A's own window is empty, yet it now knows the deployment's next slot is most of ten minutes away.
    expect(a.estimateWait('interactive')).toBeGreaterThan(300_000);
  });

  it('a request whose deadline allows the shared wait waits for the window and starts once it frees', async () => {
    const prefix = randomUUID();
    const [a, b] = [limiter(redis.url, prefix, 2, 1_000), limiter(redis.url, prefix, 2, 1_000)];
    await Promise.all([b.schedule(async () => undefined), b.schedule(async () => undefined)]);
    const { verdicts } = recordWindow();
    let ran = false;
    await a.schedule(async () => void (ran = true), 'interactive', Date.now() + 5_000);
    expect(ran).toBe(true);
    // Refused by the full window first, then granted: it waited for the window rather than starting beside it.
    expect(verdicts.map((v) => v.verdict.kind)).toEqual(['denied', 'granted']);
    expect(verdicts[0]!.verdict).toMatchObject({ kind: 'denied', bulkShare: false });
  });

  it("a 429's back-off in one process pauses the others", async () => {
    const prefix = randomUUID();
    const [a, b] = [limiter(redis.url, prefix, 100, 60_000), limiter(redis.url, prefix, 100, 60_000)];
    await a.schedule(async () => undefined);
    const client = await rawClient();
    const paused = `{${prefix}}:paused`;
    const { verdicts } = recordWindow();
    a.backoff(1_000);
    // The pause reaches Redis.
    await pollUntil(async () => (await client.pTTL(paused)) > 0, 'the pause in Redis');
    let pauseLeftAtStart: number | undefined;
    await b.schedule(async () => void (pauseLeftAtStart = await client.pTTL(paused)));
    // B asked while the deployment was paused, was refused, and started only once the pause was over.
    expect(verdicts[0]!.verdict).toMatchObject({ kind: 'denied', bulkShare: false });
    expect(verdicts.at(-1)!.verdict).toEqual({ kind: 'granted' });
    // Gone (-2), or with no whole millisecond left (0): Redis removes an expired key lazily.
    expect([-2, 0]).toContain(pauseLeftAtStart);
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
    const { grants } = recordWindow();
    const early: number[] = [];
    await Promise.all([a, b].flatMap((l) => Array.from({ length: 3 }, () => l.schedule(async () => void early.push(Date.now())))));
    expect(grants).toHaveLength(6);
    expectRolling(grants, 3, 400);
    // Each process's own window has emptied (its starts are counted on the wall clock, before their tasks run).
    const emptyAfter = Math.max(...early) + 400;
    await pollUntil(() => Date.now() > emptyAfter, "the processes' windows to empty");

    await own.kill();
    const starts: { by: string; start: Start; beforeLate: boolean }[] = [];
    const asked = performance.now();
    // Asked for with the starts below: one Redis timeout (100 ms) and then none fit before it, two do not.
    const late = timer(150);
    await Promise.all(
      (['a', 'b'] as const).flatMap((by) =>
        Array.from({ length: 6 }, () =>
          (by === 'a' ? a : b).schedule(async () => void starts.push({ by, start: { asked, answered: performance.now() }, beforeLate: !late.fired })),
        ),
      ),
    );
    late.clear();
    for (const by of ['a', 'b']) {
      const mine = starts.filter((s) => s.by === by);
      // Each within its own window...
      expectRolling(
        mine.map((s) => s.start),
        3,
        400,
      );
      // ...and its first window's starts at once, not after a Redis timeout each.
      expect(mine.slice(0, 3).map((s) => s.beforeLate)).toEqual([true, true, true]);
    }
  });

  it('a window that cannot reach Redis answers unavailable within its timeout', async () => {
    const store = createCacheStore({ redisUrl: 'redis://127.0.0.1:1', maxEntries: 10 });
    stores.push(store);
    const window = new SharedRateWindow(5, 1_000, 1, 3, { client: redisClientOf(store), timeoutMs: 100 });
    // Within one timeout: before a timer of twice it, set with the call.
    expect(await beforeTimer(100 + 100, window.take())).toEqual({ kind: 'unavailable' });
    // Within the cool-down: at once, before a timer of half the timeout set with the call, not after another timeout.
    expect(await beforeTimer(50, window.take())).toEqual({ kind: 'unavailable' });
  });
});
