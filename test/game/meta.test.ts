import Keyv from 'keyv';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { createImageResolver } from '../../src/api/images.js';
import { UpstreamRateLimiter, type Priority } from '../../src/api/rate-limiter.js';
import { createSchemas } from '../../src/api/schemas.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { LruStore } from '../../src/cache/store.js';
import { runWithDeadline } from '../../src/deadline.js';
import { groupMetaRows, HeroMeta, metaKda, metaRole, metaRows, metaWinRate, sortMetaRows, type MetaRow, type MetaStats } from '../../src/game/meta.js';
import { HeroDirectory } from '../../src/hero-directory.js';
import { loadDataset } from '../../src/replica/data/dataset.js';
import type { Replica } from '../../src/replica/server.js';
import { capturingLogger, clientFor, replica } from '../helpers/replica.js';

const schemas = createSchemas(createImageResolver('https://img.test/rivals'));
/** Raw hero statistics through the real lenient schema, as the client parses them. */
const parsed = (raw: Record<string, unknown>): MetaStats => schemas.heroStats.parse(raw);
const hero = (id: string, name: string, role: string | null = 'Duelist') => ({ id, name, role });
const row = (name: string, values: Partial<MetaRow>): MetaRow => ({ heroId: name, name, role: 'Duelist', matches: 1, winRate: null, pickShare: null, kda: null, ...values });

describe('meta computations', () => {
  it('win rate is wins over matches, pick share matches over all heroes’ matches, KDA (k + a) / d from the averages', () => {
    const rows = metaRows([
      { hero: hero('1', 'Hulk', 'Vanguard'), stats: parsed({ matches: 300, wins: 150, k: 10, d: 4, a: 6 }) },
      { hero: hero('2', 'Storm'), stats: parsed({ matches: 100, wins: 60, k: 20, d: 8, a: 4 }) },
    ]);
    expect(rows).toEqual([
      { heroId: '1', name: 'Hulk', role: 'Vanguard', matches: 300, winRate: 0.5, pickShare: 0.75, kda: 4 },
      { heroId: '2', name: 'Storm', role: 'Duelist', matches: 100, winRate: 0.6, pickShare: 0.25, kda: 3 },
    ]);
  });

  it('survives the API’s drift: numbers as text (with thousands separators), nulls, missing keys', () => {
    const stats = parsed({ hero_id: '1016', matches: '1,200', wins: '612', k: '9.5', d: ' 5 ', a: '18.25', session_hit_rate: null });
    expect(stats).toMatchObject({ matches: 1200, wins: 612, k: 9.5, d: 5, a: 18.25 });
    expect(metaWinRate(stats)).toBeCloseTo(0.51, 10);
    expect(metaKda(stats)).toBeCloseTo(5.55, 10);
    // A missing average: no KDA (k / d alone would be a different ratio), the rest still known.
    const noDeaths = parsed({ matches: '1200', wins: '612', k: '9.5', d: null, a: '18.25' });
    expect(metaKda(noDeaths)).toBeNull();
    expect(metaKda(parsed({ matches: 10, wins: 5, k: 3, d: 2 }))).toBeNull();
    expect(metaWinRate(noDeaths)).toBeCloseTo(0.51, 10);
    // Nothing usable at all: every value unknown.
    const empty = parsed({ matches: null, wins: 'n/a' });
    expect(metaRows([{ hero: hero('3', 'X'), stats: empty }])[0]).toMatchObject({ matches: 0, winRate: null, pickShare: null, kda: null });
  });

  it('a hero with 0 matches is listed with nulls, never NaN, and takes no share', () => {
    const rows = metaRows([
      { hero: hero('1', 'Iron Fist'), stats: parsed({ matches: 0, wins: 0, k: 0, d: 0, a: 0 }) },
      { hero: hero('2', 'Storm'), stats: parsed({ matches: 50, wins: 20, k: 10, d: 5, a: 5 }) },
    ]);
    expect(rows[0]).toEqual({ heroId: '1', name: 'Iron Fist', role: 'Duelist', matches: 0, winRate: null, pickShare: null, kda: null });
    expect(rows[1]!.pickShare).toBe(1);
    // Nobody played anything: no shares at all.
    const none = metaRows([{ hero: hero('1', 'A'), stats: parsed({ matches: 0, wins: 0 }) }]);
    expect(none[0]!.pickShare).toBeNull();
  });

  it('deaths are floored at one death over all matches, and drifted counts are clamped', () => {
    // 200 matches, no deaths at all: (k + a) / (1 / 200) = total kills and assists over one death.
    expect(metaKda({ matches: 200, wins: 100, k: 10, d: 0, a: 5 })).toBe(3_000);
    expect(metaWinRate({ matches: 10, wins: 12 })).toBe(1);
    expect(metaWinRate({ matches: 10, wins: -3 })).toBe(0);
    expect(metaWinRate({ matches: -10, wins: 3 })).toBeNull();
    expect(metaKda({ matches: 10, wins: 3, k: -1, d: 2, a: 1 })).toBeNull();
    for (const r of metaRows([{ hero: hero('1', 'A'), stats: { matches: Number.NaN, wins: Number.POSITIVE_INFINITY, k: Number.NaN, d: 1, a: 1 } }])) {
      expect([r.winRate, r.pickShare, r.kda]).toEqual([null, null, null]);
    }
  });

  it('sorts highest first, unknown values last, ties by name; groups by role with other roles last', () => {
    const rows = [
      row('Storm', { winRate: 0.5, pickShare: 0.1, kda: 2 }),
      row('Hela', { winRate: 0.55, pickShare: 0.3, kda: null }),
      row('Iron Fist', {}),
      row('Blade', { winRate: 0.5, pickShare: 0.2, kda: 3 }),
      row('Hulk', { role: 'vanguard', winRate: 0.49, pickShare: 0.2, kda: 1 }),
      row('Mystery', { role: null, winRate: 0.9, pickShare: 0.1, kda: 1 }),
      row('Loki', { role: 'Strategist', winRate: 0.51, pickShare: 0.1, kda: 4 }),
    ];
    expect(sortMetaRows(rows, 'win-rate').map((r) => r.name)).toEqual(['Mystery', 'Hela', 'Loki', 'Blade', 'Storm', 'Hulk', 'Iron Fist']);
    expect(sortMetaRows(rows, 'pick-share').map((r) => r.name)).toEqual(['Hela', 'Blade', 'Hulk', 'Loki', 'Mystery', 'Storm', 'Iron Fist']);
    expect(sortMetaRows(rows, 'kda').map((r) => r.name)).toEqual(['Loki', 'Blade', 'Storm', 'Hulk', 'Mystery', 'Hela', 'Iron Fist']);
    expect(groupMetaRows(rows, 'win-rate').map((g) => [g.role, g.rows.map((r) => r.name)])).toEqual([
      ['Vanguard', ['Hulk']],
      ['Duelist', ['Hela', 'Blade', 'Storm', 'Iron Fist']],
      ['Strategist', ['Loki']],
      [null, ['Mystery']],
    ]);
    expect([metaRole(' STRATEGIST '), metaRole('Tank'), metaRole(null)]).toEqual(['Strategist', null, null]);
  });
});

/** A rate limiter that records what is scheduled: priority, order of scheduling and of starting, and how many run at once. */
class RecordingLimiter extends UpstreamRateLimiter {
  readonly scheduled: { id: number; priority: Priority; started: number | null }[] = [];
  starts = 0;
  inFlight = 0;
  maxInFlight = 0;
  override schedule<T>(task: () => Promise<T>, priority: Priority = 'interactive', deadline?: number): Promise<T> {
    const entry = { id: this.scheduled.length, priority, started: null as number | null };
    this.scheduled.push(entry);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    return super
      .schedule(() => {
        entry.started = this.starts++;
        return task();
      }, priority, deadline)
      .finally(() => this.inFlight--);
  }
  waitingOf(priority: Priority) {
    return this.scheduled.filter((s) => s.priority === priority && s.started === null);
  }
}

/** The replica's data with drift: Loki's statistics as text with a null, Iron Fist with no matches, Jeff's missing (a 404). */
function driftedDataset() {
  const dataset = loadDataset();
  const loki = dataset.heroStats.get('1016')!;
  dataset.heroStats.set('1016', { ...loki, matches: '120,000', wins: '61200', k: '9.50', d: null, a: '18.25', session_hit_rate: null });
  dataset.heroStats.set('1052', { ...dataset.heroStats.get('1052')!, matches: 0, wins: 0, k: 0, d: 0, a: 0 });
  dataset.heroStats.delete('1047');
  return dataset;
}

const statsRequests = (r: Replica) => [...r.requests.byPath].filter(([path]) => path.endsWith('/stats')).reduce((n, [, c]) => n + c, 0);

describe('HeroMeta against the replica', () => {
  let r: Replica;
  beforeAll(async () => {
    r = await replica({ dataset: driftedDataset() });
  });
  afterAll(async () => {
    await r.close();
  });
  afterEach(() => {
    r.setFaults({});
    vi.useRealTimers();
  });

  const make = (options: { limiter?: UpstreamRateLimiter; cache?: ResponseCache; now?: () => number } = {}) => {
    const { logger, lines } = capturingLogger();
    const api = clientFor(r, { limiter: options.limiter, cache: options.cache, now: options.now });
    const meta = new HeroMeta({ api, heroes: new HeroDirectory(api), logger, now: options.now });
    return { api, meta, lines };
  };

  it('gathers every hero at background priority, two at a time; the hero whose request fails is left out and counted', async () => {
    const limiter = new RecordingLimiter({ requestsPerMinute: 1_000 });
    const { api, meta, lines } = make({ limiter });
    expect(meta.snapshot()).toBeUndefined();
    const s = await meta.refresh();
    expect(meta.snapshot()).toBe(s);
    expect([s.answered, s.total, s.missing]).toEqual([36, 37, ['Jeff the Land Shark']]);
    expect(s.rows).toHaveLength(36);
    expect(s.rows.map((x) => x.name)).not.toContain('Jeff the Land Shark');
    // One interactive request for the hero list (the directory's), then 37 at background priority.
    expect(limiter.scheduled.map((x) => x.priority)).toEqual(['interactive', ...Array<Priority>(37).fill('bulk')]);
    expect(limiter.maxInFlight).toBe(2);
    expect(lines.some((l) => l.includes('"hero":"1047"') && l.includes('hero statistics failed'))).toBe(true);

    const byName = Object.fromEntries(s.rows.map((x) => [x.name, x]));
    // Drift: text numbers coerced, a null average gives no KDA but keeps the rest.
    expect(byName.Loki).toMatchObject({ role: 'Strategist', matches: 120_000, winRate: 0.51, kda: null });
    expect(byName['Iron Fist']).toMatchObject({ matches: 0, winRate: null, pickShare: null, kda: null });
    const total = s.rows.reduce((n, x) => n + x.matches, 0);
    const raw = r.dataset.heroStats.get('1011')!;
    expect(byName.Hulk).toMatchObject({ role: 'Vanguard', matches: raw.matches, winRate: (raw.wins as number) / (raw.matches as number), pickShare: (raw.matches as number) / total });
    expect(byName.Hulk!.kda).toBeCloseTo(((raw.k as number) + (raw.a as number)) / (raw.d as number), 10);
    expect(s.rows.reduce((n, x) => n + (x.pickShare ?? 0), 0)).toBeCloseTo(1, 10);
    for (const x of s.rows) for (const v of [x.winRate, x.pickShare, x.kda]) expect(v === null || Number.isFinite(v)).toBe(true);
    await api.close();
  });

  it('members’ requests go first: an interactive request jumps the refresh’s waiting ones', async () => {
    // 4 requests a 150 ms window: the refresh's two requests wait for the window most of the time.
    const limiter = new RecordingLimiter({ requestsPerMinute: 4, windowMs: 150 });
    const { api, meta } = make({ limiter });
    await api.heroes(); // the hero list is not what this test is about
    const refresh = meta.refresh();
    await vi.waitFor(() => expect(limiter.waitingOf('bulk')).toHaveLength(2), { timeout: 5_000, interval: 2 });
    const queued = limiter.waitingOf('bulk');
    const member = limiter.scheduled.length;
    await api.hero('1011');
    const interactive = limiter.scheduled[member]!;
    expect(interactive.priority).toBe('interactive');
    // The member's request is answered while the refresh's two requests are still waiting.
    expect(queued.map((q) => q.started)).toEqual([null, null]);
    expect((await refresh).answered).toBe(36);
    for (const q of queued) expect(q.started).toBeGreaterThan(interactive.started!);
    limiter.stop();
    await api.close();
  });

  it('is single-flight: a refresh under way is shared, and asks for each hero once', async () => {
    const { api, meta } = make();
    const before = statsRequests(r);
    const a = meta.refresh();
    const b = meta.refresh();
    expect(b).toBe(a);
    expect(meta.refreshing).toBe(true);
    expect(await b).toBe(await a);
    expect(meta.refreshing).toBe(false);
    expect(statsRequests(r) - before).toBe(37);
    // Once it ended, the next call is a new refresh.
    const c = meta.refresh();
    expect(c).not.toBe(a);
    await c;
    expect(statsRequests(r) - before).toBe(74);
    await api.close();
  });

  it('through the response cache, a refresh within the hour costs no request; its snapshot says when the data was gathered', async () => {
    const clock = { now: 1_750_000_000_000 };
    const now = () => clock.now;
    const cache = new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }), now });
    const { api, meta } = make({ cache, now });
    const before = r.requests.total;
    const first = await meta.refresh();
    // The hero list and 37 statistics (Jeff's a 404).
    expect(r.requests.total - before).toBe(38);
    expect([first.gatheredAt, first.completedAt, first.stale]).toEqual([clock.now, clock.now, false]);
    clock.now += 40 * 60_000;
    const second = await meta.refresh();
    // Only Jeff's statistics again: a 404 is remembered two minutes (src/cache/ttl.ts `notFound`).
    expect(r.requests.total - before).toBe(39);
    expect(second.rows).toEqual(first.rows);
    expect(second.gatheredAt).toBe(first.gatheredAt);
    expect(second.completedAt).toBe(clock.now);
    // Past the hour the statistics have expired: all 37 asked again (the hero list keeps 6 hours).
    clock.now += 30 * 60_000;
    const third = await meta.refresh();
    expect(r.requests.total - before).toBe(39 + 37);
    expect(third.gatheredAt).toBe(clock.now);
    await api.close();
  });

  it('a refresh where no hero answers fails with the API’s error and keeps the previous snapshot', async () => {
    const { api, meta } = make();
    const good = await meta.refresh();
    r.setFaults({ forceStatus: 503, pathPrefix: '/api/v1/heroes/hero/' });
    const err = await meta.refresh().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('unavailable');
    expect(meta.snapshot()).toBe(good);
    // The hero list failing is the same.
    r.setFaults({ forceStatus: 500, pathPrefix: '/api/v1/heroes' });
    await expect(meta.refresh()).rejects.toBeInstanceOf(ApiError);
    expect(meta.snapshot()).toBe(good);
    await api.close();
  });

  it('runs outside the deadline of the interaction that started it', async () => {
    const cache = new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }) });
    const { api, meta } = make({ cache });
    r.setFaults({ latencyMs: 5 });
    // Inside a member's budget that ends in 20 ms: the refresh's own requests must not give up with it.
    const s = await runWithDeadline(Date.now() + 20, () => meta.refresh());
    expect([s.answered, s.total, s.stale]).toEqual([36, 37, false]);
    await api.close();
  });

  it('start() refreshes at once and then every interval until stop()', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { api, meta } = make();
    const refresh = vi.spyOn(meta, 'refresh');
    meta.start(60 * 60_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(meta.snapshot()).toBeDefined(), { timeout: 5_000 });
    vi.advanceTimersByTime(60 * 60_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    meta.stop();
    vi.advanceTimersByTime(3 * 60 * 60_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => expect(meta.refreshing).toBe(false), { timeout: 5_000 });
    await api.close();
  });

  it('stop() ends a refresh under way at once: requests waiting for the rate limit are given up, nothing is logged as failed, the snapshot stays', async () => {
    // One request a minute: after the hero list, every hero waits for the limiter.
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 2, windowMs: 60_000 });
    const { api, meta, lines } = make({ limiter });
    const before = statsRequests(r);
    meta.start();
    // The bulk share of 2 a minute is 1: one hero's statistics go out, the next waits. That one
    // request may still be on its way to the replica when the wait begins, so wait for it too.
    await vi.waitFor(() => expect([limiter.waiting > 0, statsRequests(r) - before]).toEqual([true, 1]), { timeout: 5_000 });
    const started = Date.now();
    await meta.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(meta.refreshing).toBe(false);
    expect(meta.snapshot()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Nothing more was asked of the API, and the stop is no failure.
    expect(statsRequests(r) - before).toBe(1);
    expect(limiter.waiting).toBe(0);
    expect(lines.filter((l) => l.includes('failed'))).toEqual([]);
    limiter.stop();
    await api.close();
  });

  it('stop() does not wait for the hero list’s turn at the rate limit: the list request is given up too', async () => {
    // The key's two requests of the minute are spent before the refresh starts: the hero list waits.
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 2, windowMs: 60_000 });
    await Promise.all([limiter.schedule(async () => undefined), limiter.schedule(async () => undefined)]);
    const { api, meta, lines } = make({ limiter });
    const asked = r.requests.byPath.get('/api/v1/heroes') ?? 0;
    meta.start();
    await vi.waitFor(() => expect(limiter.waiting).toBe(1), { timeout: 5_000 });
    const started = Date.now();
    await meta.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect([meta.refreshing, limiter.waiting, r.requests.byPath.get('/api/v1/heroes') ?? 0]).toEqual([false, 0, asked]);
    expect(lines.filter((l) => l.includes('failed'))).toEqual([]);
    limiter.stop();
    await api.close();
  });

  it('start() logs a failed refresh instead of throwing', async () => {
    r.setFaults({ forceStatus: 500 });
    const { api, meta, lines } = make();
    meta.start();
    await vi.waitFor(() => expect(lines.some((l) => l.includes('hero meta refresh failed'))).toBe(true), { timeout: 5_000 });
    meta.stop();
    expect(meta.snapshot()).toBeUndefined();
    await api.close();
  });
});
