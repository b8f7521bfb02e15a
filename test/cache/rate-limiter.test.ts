import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/core/api-errors.js';
import { RateLimitWaitError, UpstreamRateLimiter } from '../../src/api/rate-limiter.js';
import { runWithDeadline } from '../../src/core/deadline.js';
import type { Replica } from '../../src/replica/server.js';
import { clientFor, replica } from '../helpers/replica.js';
import { settledAt } from '../helpers/timing.js';

/**
 * The tests that measure time run the limiter on vitest's fake clock (its windows, back-off and
 * deadlines are timers and `Date.now()`): times are exact, and the clock moves only when the test
 * advances it.
 */
afterEach(() => {
  vi.useRealTimers();
});

describe('UpstreamRateLimiter', () => {
  it('never starts more than the rate in any rolling window', async () => {
    vi.useFakeTimers();
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 5, windowMs: 400 });
    const starts: number[] = [];
    const t0 = Date.now();
    const all = Promise.all(Array.from({ length: 12 }, () => limiter.schedule(async () => void starts.push(Date.now() - t0))));
    await vi.advanceTimersByTimeAsync(1_000);
    await all;
    starts.sort((a, b) => a - b);
    for (let i = 0; i + 5 < starts.length; i++) expect(starts[i + 5]! - starts[i]!).toBeGreaterThanOrEqual(400);
    expect(starts[11]!).toBeGreaterThanOrEqual(800);
    limiter.stop();
  });

  it('serves interactive requests before background ones', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 150 });
    const order: string[] = [];
    const first = limiter.schedule(async () => void order.push('first'));
    const background = [1, 2].map((i) => limiter.schedule(async () => void order.push(`background-${i}`), 'background'));
    const interactive = limiter.schedule(async () => void order.push('interactive'), 'interactive');
    await Promise.all([first, ...background, interactive]);
    expect(order).toEqual(['first', 'interactive', 'background-1', 'background-2']);
    limiter.stop();
  });

  it('serves background requests (feeds) before bulk ones (gathering jobs), and estimates the wait by it', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 150 });
    const order: string[] = [];
    const first = limiter.schedule(async () => void order.push('first'));
    const bulk = [1, 2, 3].map((i) => limiter.schedule(async () => void order.push(`bulk-${i}`), 'bulk'));
    const feed = limiter.schedule(async () => void order.push('feed'), 'background');
    // A feed request waits for nothing but members; a bulk one for everything queued.
    expect(limiter.estimateWait('background')).toBeLessThan(limiter.estimateWait('bulk'));
    const member = limiter.schedule(async () => void order.push('member'), 'interactive');
    await Promise.all([first, ...bulk, feed, member]);
    expect(order).toEqual(['first', 'member', 'feed', 'bulk-1', 'bulk-2', 'bulk-3']);
    limiter.stop();
  });

  it('a gathering members wait for goes after members and feeds but before bulk, and is not held to the bulk share', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 150 });
    const order: string[] = [];
    const first = limiter.schedule(async () => void order.push('first'));
    const bulk = limiter.schedule(async () => void order.push('bulk'), 'bulk');
    const gathering = [1, 2].map((i) => limiter.schedule(async () => void order.push(`gathering-${i}`), 'gathering'));
    const feed = limiter.schedule(async () => void order.push('feed'), 'background');
    expect(limiter.estimateWait('background')).toBeLessThan(limiter.estimateWait('gathering'));
    expect(limiter.estimateWait('gathering')).toBeLessThan(limiter.estimateWait('bulk'));
    await Promise.all([first, bulk, ...gathering, feed]);
    expect(order).toEqual(['first', 'feed', 'gathering-1', 'gathering-2', 'bulk']);
    limiter.stop();

    // The bulk share (a quarter of 9) would let 2 start in a window; the gathering's two thirds let 6,
    // and keep the last 3 for members: a member arriving after 8 gathering requests starts at once.
    const wide = new UpstreamRateLimiter({ requestsPerMinute: 9, windowMs: 10_000, bulkShare: 0.25 });
    const started: string[] = [];
    void Array.from({ length: 8 }, (_, i) => wide.schedule(async () => void started.push(`g${i}`), 'gathering'));
    await vi.waitFor(() => expect(started).toHaveLength(6), { timeout: 5_000, interval: 5 });
    await wide.schedule(async () => void started.push('member'), 'interactive');
    expect(started).toEqual(['g0', 'g1', 'g2', 'g3', 'g4', 'g5', 'member']);
    wide.stop();
  });

  it('holds bulk requests to their share of the rate, leaving the rest of the window to members and feeds', async () => {
    vi.useFakeTimers();
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 8, windowMs: 300, bulkShare: 0.25 });
    const starts: { kind: string; at: number }[] = [];
    const t0 = Date.now();
    const bulk = Array.from({ length: 6 }, () => limiter.schedule(async () => void starts.push({ kind: 'bulk', at: Date.now() - t0 }), 'bulk'));
    await vi.advanceTimersByTimeAsync(30);
    // The gathering has started (its share of the first window)...
    expect(starts).toEqual([
      { kind: 'bulk', at: 0 },
      { kind: 'bulk', at: 0 },
    ]);
    // ...when six members arrive: they all fit in the first window.
    const members = Array.from({ length: 6 }, () => limiter.schedule(async () => void starts.push({ kind: 'member', at: Date.now() - t0 }), 'interactive'));
    const all = Promise.all([...bulk, ...members]);
    await vi.advanceTimersByTimeAsync(1_000);
    await all;
    const firstWindow = starts.filter((s) => s.at < 300);
    expect(firstWindow.filter((s) => s.kind === 'bulk')).toHaveLength(2);
    expect(firstWindow.filter((s) => s.kind === 'member')).toHaveLength(6);
    // Two bulk requests a window: the sixth starts in the third window.
    const bulkStarts = starts.filter((s) => s.kind === 'bulk').map((s) => s.at);
    expect(bulkStarts[5]!).toBeGreaterThanOrEqual(600);
    limiter.stop();
  });

  it('backoff holds every waiting request, and a shorter one never cuts it short', async () => {
    vi.useFakeTimers();
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1000 });
    const now = Date.now();
    limiter.backoff(10 * 60_000, now);
    limiter.backoff(50, now);
    expect(limiter.backoffRemaining(now)).toBe(10 * 60_000);
    let ranAt: number | undefined;
    const held = limiter.schedule(async () => void (ranAt = Date.now()));
    // Every timer due before the back-off ends has fired (the 50 ms back-off's among them, had it replaced the long one)...
    await vi.advanceTimersByTimeAsync(10 * 60_000 - 1);
    expect(ranAt).toBeUndefined();
    expect(limiter.waiting).toBe(1);
    // ...and the request starts the moment the back-off ends: the timer that would start it is the back-off's.
    await vi.advanceTimersByTimeAsync(1);
    await held;
    expect(ranAt).toBe(now + 10 * 60_000);
    limiter.stop();
  });

  it('runs the held requests once the backoff is over', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1000 });
    limiter.backoff(50);
    await limiter.schedule(async () => undefined);
    expect(limiter.backoffRemaining()).toBe(0);
    limiter.stop();
  });

  it('tracking takes what members leave, one start per window ÷ cap: it stops while the window has only its reserve free, and members never wait for it', async () => {
    vi.useFakeTimers();
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 20, windowMs: 1_000 });
    // Quiet members: the reserve is the 5 % floor, one start.
    expect(limiter.reserve()).toBe(1);
    const tracked: number[] = [];
    const t0 = Date.now();
    const reads = Array.from({ length: 25 }, () => limiter.schedule(async () => void tracked.push(Date.now() - t0), 'tracking'));
    await vi.advanceTimersByTimeAsync(999);
    // 19 of 20 starts, 50 ms apart: one stays free for a member.
    expect(tracked).toEqual(Array.from({ length: 19 }, (_, i) => i * 50));
    expect(limiter.trackingWait()).toBeGreaterThan(0);
    let member = -1;
    await limiter.schedule(async () => void (member = Date.now() - t0), 'interactive');
    expect(member).toBe(999);
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all(reads);
    expect(tracked).toHaveLength(25);
    // Never more than cap − reserve tracking starts in any window, never two closer than window ÷ cap.
    for (let i = 0; i + 19 < tracked.length; i++) expect(tracked[i + 19]! - tracked[i]!).toBeGreaterThanOrEqual(1_000);
    for (let i = 1; i < tracked.length; i++) expect(tracked[i]! - tracked[i - 1]!).toBeGreaterThanOrEqual(50);
    limiter.stop();
  });

  it('the reserve follows members: twice their busiest recent window', async () => {
    vi.useFakeTimers();
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 20, windowMs: 1_000 });
    await Promise.all(Array.from({ length: 4 }, () => limiter.schedule(async () => undefined, 'interactive')));
    expect(limiter.reserve()).toBe(8);
    const tracked: number[] = [];
    void Promise.all(Array.from({ length: 20 }, () => limiter.schedule(async () => void tracked.push(Date.now()), 'tracking'))).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(999);
    // 4 members' starts + 8 for the reserve leave 8 for tracking.
    expect(tracked).toHaveLength(8);
    // Five quiet windows later members' demand is forgotten.
    await vi.advanceTimersByTimeAsync(6_000);
    expect(limiter.reserve()).toBe(1);
    limiter.stop();
  });

  it('stopping gives up the tracking reads still waiting for spare starts', async () => {
    vi.useFakeTimers();
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 20, windowMs: 1_000 });
    const reads = Array.from({ length: 25 }, () => limiter.schedule(async () => 'read', 'tracking'));
    const outcomes = Promise.allSettled(reads);
    await vi.advanceTimersByTimeAsync(120);
    limiter.stop();
    await vi.advanceTimersByTimeAsync(0);
    const settled = await outcomes;
    // Started at 0, 50 and 100 ms; the rest waited for their turn and were given up.
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(settled.filter((r) => r.status === 'rejected')).toHaveLength(22);
  });

  it('a tracking read waits behind every other priority', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 150 });
    const order: string[] = [];
    const first = limiter.schedule(async () => void order.push('first'));
    const tracking = limiter.schedule(async () => void order.push('tracking'), 'tracking');
    const bulk = limiter.schedule(async () => void order.push('bulk'), 'bulk');
    const feed = limiter.schedule(async () => void order.push('feed'), 'background');
    await Promise.all([first, tracking, bulk, feed]);
    expect(order).toEqual(['first', 'feed', 'bulk', 'tracking']);
    limiter.stop();
  });
});

describe('deadlines: no request waits past its interaction budget', () => {
  let r: Replica;
  beforeAll(async () => {
    r = await replica();
  });
  afterAll(() => r.close());

  it('refuses at once, with the wait, a request the back-off would hold past its deadline', async () => {
    vi.useFakeTimers();
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1000 });
    limiter.backoff(30_000);
    let ran = false;
    const asked = Date.now();
    const refusal = limiter.schedule(async () => void (ran = true), 'interactive', asked + 5_000).catch((err: unknown) => err);
    const settled = settledAt(refusal);
    // The clock runs to the deadline: a refusal at once came before it moved at all, not at the deadline.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(settled.at).toBe(asked);
    const refused = await refusal;
    expect(refused).toBeInstanceOf(RateLimitWaitError);
    expect((refused as RateLimitWaitError).waitMs).toBeGreaterThan(29_000);
    expect(ran).toBe(false);
    expect(limiter.waiting).toBe(0);
    // Without a deadline (a feed poll) it waits its turn.
    void limiter.schedule(async () => undefined, 'background');
    expect(limiter.waiting).toBe(1);
    limiter.stop();
  });

  it('estimates the rolling window: refuses the request that would start in the next window, takes the ones that fit', async () => {
    vi.useFakeTimers();
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 3, windowMs: 2_000 });
    const asked = Date.now();
    const deadline = asked + 1_000;
    const scheduled = Array.from({ length: 5 }, () => limiter.schedule(async () => 'sent', 'interactive', deadline));
    const settled = scheduled.map(settledAt);
    await vi.advanceTimersByTimeAsync(1_000);
    // The two that do not fit were refused at once, not at their deadline.
    expect(settled.map((s) => s.at)).toEqual([asked, asked, asked, asked, asked]);
    const results = await Promise.allSettled(scheduled);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    // The three starts were at this very instant of the fake clock: the next slot frees a whole window later.
    const wait = ((results[3] as PromiseRejectedResult).reason as RateLimitWaitError).waitMs;
    expect(wait).toBe(2_000);
    limiter.stop();
  });

  it('takes a request out of the queue when its deadline passes before its turn', async () => {
    vi.useFakeTimers();
    const short = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 300 });
    await short.schedule(async () => undefined);
    short.backoff(50);
    // Estimated to start in 300 ms, within 400 ms; a longer back-off arriving meanwhile holds it past that.
    const deadline = Date.now() + 400;
    const held = short.schedule(async () => 'sent', 'interactive', deadline).catch((err: unknown) => err);
    short.backoff(5_000);
    const settled = settledAt(held);
    await vi.advanceTimersByTimeAsync(5_000);
    // It left the queue at its deadline, not when the back-off ended.
    expect(settled.at).toBe(deadline);
    expect(await held).toBeInstanceOf(RateLimitWaitError);
    expect(short.waiting).toBe(0);
    short.stop();
  });

  it('gives up a waiting request whose signal is aborted (a shutdown), at any priority, and never runs it', async () => {
    vi.useFakeTimers();
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 60_000 });
    await limiter.schedule(async () => undefined);
    const stopping = new AbortController();
    const ran: string[] = [];
    const feed = limiter.schedule(async () => void ran.push('feed'), 'background', undefined, stopping.signal).catch((err: unknown) => err);
    const bulk = limiter.schedule(async () => void ran.push('bulk'), 'bulk', undefined, stopping.signal).catch((err: unknown) => err);
    // With a deadline too: whichever ends the wait first.
    const member = limiter.schedule(async () => void ran.push('member'), 'interactive', Date.now() + 120_000, stopping.signal).catch((err: unknown) => err);
    const other = limiter.schedule(async () => void ran.push('other'), 'background');
    await vi.waitFor(() => expect(limiter.waiting).toBe(4));
    const abortedAt = Date.now();
    stopping.abort(new Error('stopping'));
    const given = [feed, bulk, member].map(settledAt);
    // A second of the clock, far from the window's next slot (a minute after the first start) and the member's deadline:
    // each wait ended when the signal was aborted, before the clock moved.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(given.map((g) => g.at)).toEqual([abortedAt, abortedAt, abortedAt]);
    expect(await feed).toMatchObject({ message: 'stopping' });
    expect(await bulk).toMatchObject({ message: 'stopping' });
    expect(await member).toMatchObject({ message: 'stopping' });
    expect(ran).toEqual([]);
    // The request without the signal still waits its turn.
    expect(limiter.waiting).toBe(1);
    await expect(limiter.schedule(async () => 'x', 'interactive', undefined, stopping.signal)).rejects.toThrow('stopping');
    limiter.stop();
    void other.catch(() => undefined);
  });

  it('inside a budget the client answers rate_limited with the wait, without sending', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1000 });
    const api = clientFor(r, { limiter });
    limiter.backoff(30_000);
    const sent = r.requests.total;
    const error = await runWithDeadline(Date.now() + 2_000, () => api.maps()).catch((err: unknown) => err);
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterFromHeader: false });
    expect((error as ApiError).retryAfterMs).toBeGreaterThan(29_000);
    expect(r.requests.total).toBe(sent);
    limiter.stop();
    await api.close();
  });
});

describe('the client honours Retry-After', () => {
  let r: Replica;
  beforeAll(async () => {
    r = await replica();
  });
  afterAll(() => r.close());

  it('pauses the key for the header delay after a 429', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1000 });
    const api = clientFor(r, { limiter });
    r.setFaults({ forceStatus: 429, retryAfterSeconds: 1 });
    const before = Date.now();
    await expect(api.heroes()).rejects.toBeInstanceOf(ApiError);
    const after = Date.now();
    // The pause is the header's 1 s, counted from when the 429 arrived (between before and after).
    expect(limiter.backoffRemaining(before)).toBeGreaterThanOrEqual(1_000);
    expect(limiter.backoffRemaining(after)).toBeLessThanOrEqual(1_000);
    r.setFaults({});
    const served = r.requests.total;
    await api.maps(); // held until the pause is over, then sent
    expect(r.requests.total).toBe(served + 1);
    expect(limiter.backoffRemaining()).toBe(0);
    limiter.stop();
    await api.close();
  });

  it('does not pause the key for a 429 without the header (a per-player cooldown)', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1000 });
    const api = clientFor(r, { limiter });
    r.setFaults({ forceStatus: 429 });
    await expect(api.player('1403392756')).rejects.toMatchObject({ kind: 'rate_limited', retryAfterFromHeader: false });
    expect(limiter.backoffRemaining()).toBe(0);
    r.setFaults({});
    limiter.stop();
    await api.close();
  });
});
