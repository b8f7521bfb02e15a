import Keyv from 'keyv';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/core/api-errors.js';
import { createImageResolver } from '../../src/api/images.js';
import { UpstreamRateLimiter, type Priority } from '../../src/api/rate-limiter.js';
import { createSchemas } from '../../src/api/schemas.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { LruStore } from '../../src/cache/store.js';
import { runWithDeadline } from '../../src/core/deadline.js';
import {
  groupMetaRows,
  metaEtaMs,
  metaKda,
  metaRole,
  metaRows,
  metaWinRate,
  sortMetaRows,
  type MetaRow,
  type MetaSnapshot,
  type MetaStats,
} from '../../src/game/meta.js';
import { HeroMeta } from '../../src/jobs/hero-meta.js';
import { HeroDirectory } from '../../src/catalog/hero-directory.js';
import { loadDataset } from '../../src/replica/data/dataset.js';
import type { Replica } from '../../src/replica/server.js';
import { capturingLogger, clientFor, replica } from '../helpers/replica.js';
import { memoryState } from '../helpers/state.js';

const schemas = createSchemas(createImageResolver('https://img.test/rivals'));
/** Raw hero statistics through the real lenient schema, as the client parses them. */
const parsed = (raw: Record<string, unknown>): MetaStats => schemas.heroStats.parse(raw);
const hero = (id: string, name: string, role: string | null = 'Duelist') => ({ id, name, role });
const row = (name: string, values: Partial<MetaRow>): MetaRow => ({
  heroId: name,
  name,
  role: 'Duelist',
  matches: 1,
  winRate: null,
  pickShare: null,
  kda: null,
  ...values,
});

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
      .schedule(
        () => {
          entry.started = this.starts++;
          return task();
        },
        priority,
        deadline,
      )
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

/**
 * A member's request queued at `limiter` now, ahead of the gathering: `opened` resolves when the rate
 * limit's window lets it through (the event a stop must not wait for); `giveUp()` takes it out of the queue.
 */
function windowOpens(limiter: UpstreamRateLimiter): { opened: Promise<'window opened'>; giveUp: () => void } {
  const controller = new AbortController();
  const opened = limiter.schedule(async () => 'window opened' as const, 'interactive', undefined, controller.signal);
  opened.catch(() => undefined);
  return { opened, giveUp: () => controller.abort() };
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

  it('gathers every hero two at a time, the first time at background priority and then at bulk; the hero whose request fails is left out and counted', async () => {
    const limiter = new RecordingLimiter({ requestsPerMinute: 1_000 });
    const { api, meta, lines } = make({ limiter });
    expect(meta.snapshot()).toBeUndefined();
    const s = await meta.refresh();
    expect(meta.snapshot()).toBe(s);
    expect([s.answered, s.total, s.missing]).toEqual([36, 37, ['Jeff the Land Shark']]);
    expect(s.rows).toHaveLength(36);
    expect(s.rows.map((x) => x.name)).not.toContain('Jeff the Land Shark');
    // One interactive request for the hero list (the directory's), then 37 at background priority:
    // with nothing to serve yet, the first gathering may use two thirds of the key's rate.
    expect(limiter.scheduled.map((x) => x.priority)).toEqual(['interactive', ...Array<Priority>(37).fill('gathering')]);
    expect(limiter.maxInFlight).toBe(2);
    // With a snapshot to serve meanwhile, the next gathering keeps to the bulk share.
    await meta.refresh();
    expect(limiter.scheduled.slice(38).map((x) => x.priority)).toEqual(['interactive', ...Array<Priority>(37).fill('bulk')]);
    expect(lines.some((l) => l.includes('"hero":"1047"') && l.includes('hero statistics failed'))).toBe(true);

    const byName = Object.fromEntries(s.rows.map((x) => [x.name, x]));
    // Drift: text numbers coerced, a null average gives no KDA but keeps the rest.
    expect(byName.Loki).toMatchObject({ role: 'Strategist', matches: 120_000, winRate: 0.51, kda: null });
    expect(byName['Iron Fist']).toMatchObject({ matches: 0, winRate: null, pickShare: null, kda: null });
    const total = s.rows.reduce((n, x) => n + x.matches, 0);
    const raw = r.dataset.heroStats.get('1011')!;
    expect(byName.Hulk).toMatchObject({
      role: 'Vanguard',
      matches: raw.matches,
      winRate: (raw.wins as number) / (raw.matches as number),
      pickShare: (raw.matches as number) / total,
    });
    expect(byName.Hulk!.kda).toBeCloseTo(((raw.k as number) + (raw.a as number)) / (raw.d as number), 10);
    expect(s.rows.reduce((n, x) => n + (x.pickShare ?? 0), 0)).toBeCloseTo(1, 10);
    for (const x of s.rows) for (const v of [x.winRate, x.pickShare, x.kda]) expect(v === null || Number.isFinite(v)).toBe(true);
    await api.close();
  });

  it.each(['gathering', 'bulk'] as const)('members’ requests go first: an interactive request jumps the %s refresh’s waiting ones', async (priority) => {
    // 4 requests a 150 ms window: the refresh's two requests wait for the window most of the time.
    const limiter = new RecordingLimiter({ requestsPerMinute: 4, windowMs: 150 });
    const { logger } = capturingLogger();
    const api = clientFor(r, { limiter });
    // The first gathering runs at gathering priority; with a snapshot to serve (here a saved one), at bulk.
    const state = memoryState();
    if (priority === 'bulk') await state.heroMeta.save({ rows: [], completedAt: 1, gatheredAt: 1, answered: 0, total: 0, missing: [], stale: false });
    const meta = new HeroMeta({ api, heroes: new HeroDirectory(api), logger, store: state.heroMeta });
    await api.heroes(); // the hero list is not what this test is about
    const refresh = meta.refresh();
    await vi.waitFor(() => expect(limiter.waitingOf(priority)).toHaveLength(2), { timeout: 5_000, interval: 2 });
    const queued = limiter.waitingOf(priority);
    const member = limiter.scheduled.length;
    await api.hero('1011');
    const interactive = limiter.scheduled[member]!;
    expect(interactive.priority).toBe('interactive');
    // The member's request is answered while the refresh's two requests are still waiting.
    expect(queued.map((q) => q.started)).toEqual([null, null]);
    expect((await refresh).answered).toBe(36);
    for (const q of queued) expect(q.started).toBeGreaterThan(interactive.started!);
    await meta.stop();
    limiter.stop();
    await api.close();
    await state.close();
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
    // Inside a member's budget that has already run out: the refresh's own requests must not give up with it
    // (with its deadline, every one of them would be refused or answered "out of time" at once).
    const s = await runWithDeadline(Date.now() - 1, () => meta.refresh());
    expect([s.answered, s.total, s.stale]).toEqual([36, 37, false]);
    await api.close();
  });

  it('start() refreshes at once and then every interval until stop()', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { api, meta } = make();
    const refresh = vi.spyOn(meta, 'refresh');
    meta.start(60 * 60_000);
    // Once the store has been asked (none here): nothing to serve, so at once.
    await vi.waitFor(() => expect(refresh).toHaveBeenCalledTimes(1), { timeout: 5_000 });
    await vi.waitFor(() => expect(meta.snapshot()).toBeDefined(), { timeout: 5_000 });
    vi.advanceTimersByTime(60 * 60_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    void meta.stop();
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
    // The key's 2 requests a minute: the hero list and one hero's statistics go out, the next waits.
    // That one request may still be on its way to the replica when the wait begins, so wait for it too.
    await vi.waitFor(() => expect([limiter.waiting > 0, statsRequests(r) - before]).toEqual([true, 1]), { timeout: 5_000 });
    // What stop() must not wait for: the window letting a request through again, a minute on.
    const probe = windowOpens(limiter);
    expect(await Promise.race([meta.stop().then(() => 'stopped' as const), probe.opened])).toBe('stopped');
    expect(meta.refreshing).toBe(false);
    expect(meta.snapshot()).toBeUndefined();
    // Nothing more was asked of the API: the refresh has ended, the requests it left waiting are out of the
    // queue (the probe alone waits), and the window has not let anything through since the one counted.
    expect(limiter.waiting).toBe(1);
    expect(statsRequests(r) - before).toBe(1);
    probe.giveUp();
    // And the stop is no failure.
    expect(lines.filter((l) => l.includes('failed'))).toEqual([]);
    limiter.stop();
    await api.close();
  }, 90_000);

  it('stop() does not wait for the hero list’s turn at the rate limit: the list request is given up too', async () => {
    // The key's two requests of the minute are spent before the refresh starts: the hero list waits.
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 2, windowMs: 60_000 });
    await Promise.all([limiter.schedule(async () => undefined), limiter.schedule(async () => undefined)]);
    const { api, meta, lines } = make({ limiter });
    const asked = r.requests.byPath.get('/api/v1/heroes') ?? 0;
    meta.start();
    await vi.waitFor(() => expect(limiter.waiting).toBe(1), { timeout: 5_000 });
    const probe = windowOpens(limiter);
    expect(await Promise.race([meta.stop().then(() => 'stopped' as const), probe.opened])).toBe('stopped');
    // The probe alone waits (the list left the queue), and the list was never asked for.
    expect([meta.refreshing, limiter.waiting, r.requests.byPath.get('/api/v1/heroes') ?? 0]).toEqual([false, 1, asked]);
    probe.giveUp();
    expect(lines.filter((l) => l.includes('failed'))).toEqual([]);
    limiter.stop();
    await api.close();
  }, 90_000);

  it('start() logs a failed refresh instead of throwing', async () => {
    r.setFaults({ forceStatus: 500 });
    const { api, meta, lines } = make();
    meta.start();
    await vi.waitFor(() => expect(lines.some((l) => l.includes('hero meta refresh failed'))).toBe(true), { timeout: 5_000 });
    void meta.stop();
    expect(meta.snapshot()).toBeUndefined();
    await api.close();
  });
});

describe('the first gathering and the stored snapshot', () => {
  let r: Replica;
  beforeAll(async () => {
    // Twelve heroes: a first gathering (the list and 12 statistics) fits in one window of 20 requests.
    const dataset = loadDataset();
    dataset.heroes = dataset.heroes.slice(0, 12);
    r = await replica({ dataset });
  });
  afterAll(async () => {
    await r.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const make = (options: { limiter?: UpstreamRateLimiter; state?: ReturnType<typeof memoryState>; now?: () => number; requestsPerMinute?: number } = {}) => {
    const { logger, lines } = capturingLogger();
    const api = clientFor(r, { limiter: options.limiter, now: options.now });
    const meta = new HeroMeta({
      api,
      heroes: new HeroDirectory(api),
      logger,
      now: options.now,
      store: options.state?.heroMeta,
      requestsPerMinute: options.requestsPerMinute,
    });
    return { api, meta, lines };
  };

  it('estimates heroes / rate minutes: 37 requests at 60 a minute take 37 s', () => {
    expect(metaEtaMs(37, 60)).toBe(37_000);
    expect(metaEtaMs(37, 15)).toBe(148_000);
    expect(metaEtaMs(37, 7)).toBe(Math.ceil((37 * 60_000) / 7));
    expect([metaEtaMs(0, 60), metaEtaMs(5, 0), metaEtaMs(Number.NaN, 60)]).toEqual([0, 0, 0]);
  });

  it('the first gathering uses two thirds of the key’s rate; with a snapshot to serve, a gathering keeps to the bulk share, and members still get through', async () => {
    // 20 requests a minute: the bulk share is 5.
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 20, windowMs: 60_000 });
    const { api, meta } = make({ limiter, requestsPerMinute: 20 });
    const before = statsRequests(r);
    const first = meta.refresh();
    // Under way at the gathering share: its estimate is the heroes left at 13 a minute.
    await vi.waitFor(() => expect(meta.progress()?.total).toBe(12), { timeout: 5_000, interval: 1 });
    expect(meta.progress()!.fullRate).toBe(true);
    // At the bulk share this would stop after 5 heroes for a minute.
    expect((await first).answered).toBe(12);
    expect(statsRequests(r) - before).toBe(12);

    const second = meta.refresh();
    second.catch(() => undefined);
    await vi.waitFor(() => expect(meta.progress()?.done).toBe(5), { timeout: 5_000, interval: 1 });
    // The sixth request is waiting for its turn, yet the window (13 of 20 used) still lets a member's request through at once.
    await vi.waitFor(() => expect(limiter.waiting).toBeGreaterThan(0), { timeout: 5_000, interval: 1 });
    await api.hero('1011');
    expect(statsRequests(r) - before).toBe(12 + 5);
    expect(meta.progress()).toEqual({ done: 5, total: 12, fullRate: false, etaMs: metaEtaMs(7, 5) });
    await meta.stop();
    await expect(second).rejects.toThrow('stopped');
    limiter.stop();
    await api.close();
  });

  it('saves each snapshot to the store; after a restart the saved one is served at once, with no request, and the next gathering keeps to the bulk share', async () => {
    const state = memoryState();
    const clock = { now: 1_750_000_000_000 };
    const now = () => clock.now;
    const before = make({ state, now });
    const gathered = await before.meta.refresh();
    // stop() lets the save finish.
    await before.meta.stop();
    await before.api.close();
    expect(await state.heroMeta.latest()).toEqual(gathered);

    // The restart: a new process over the same store, 20 minutes later.
    clock.now += 20 * 60_000;
    const limiter = new RecordingLimiter({ requestsPerMinute: 1_000 });
    const after = make({ state, now, limiter });
    const asked = r.requests.total;
    expect(after.meta.snapshot()).toBeUndefined();
    const restored = await after.meta.restore();
    expect(restored).toEqual(gathered);
    expect(after.meta.snapshot()).toEqual(gathered);
    expect(r.requests.total).toBe(asked);
    expect(after.lines.some((l) => l.includes('hero meta restored from the store') && l.includes(`"ageMs":${20 * 60_000}`))).toBe(true);
    // Its refresh has something to serve meanwhile: bulk priority, and the new snapshot replaces the stored one.
    const fresh = await after.meta.refresh();
    expect(limiter.scheduled.filter((x) => x.priority !== 'interactive').map((x) => x.priority)).toEqual(Array<Priority>(12).fill('bulk'));
    await after.meta.stop();
    expect((await state.heroMeta.latest())!.completedAt).toBe(fresh.completedAt);
    expect(fresh.completedAt).toBe(gathered.completedAt + 20 * 60_000);
    await after.api.close();
    await state.close();
  });

  it('a store that fails is logged and the meta goes on from memory', async () => {
    const failing = { latest: () => Promise.reject(new Error('disk gone')), save: () => Promise.reject(new Error('disk gone')) };
    const { logger, lines } = capturingLogger();
    const api = clientFor(r);
    const meta = new HeroMeta({ api, heroes: new HeroDirectory(api), logger, store: failing });
    expect(await meta.restore()).toBeUndefined();
    const s = await meta.refresh();
    await meta.stop();
    expect(meta.snapshot()).toBe(s);
    expect(lines.some((l) => l.includes('could not read the stored hero meta'))).toBe(true);
    expect(lines.some((l) => l.includes('could not save the hero meta'))).toBe(true);
    await api.close();
  });

  it('start() with a saved snapshot younger than the interval refreshes it when it is an interval old, then every interval', async () => {
    const state = memoryState();
    const clock = { now: 1_750_000_000_000 };
    const saved: MetaSnapshot = {
      rows: [],
      completedAt: clock.now - 20 * 60_000,
      gatheredAt: clock.now - 25 * 60_000,
      answered: 12,
      total: 12,
      missing: [],
      stale: false,
    };
    await state.heroMeta.save(saved);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { api, meta } = make({ state, now: () => clock.now });
    const refresh = vi.spyOn(meta, 'refresh').mockResolvedValue(saved);
    meta.start(60 * 60_000);
    // start() schedules its first refresh once the store has answered.
    await meta.restore();
    expect(meta.snapshot()).toEqual(saved);
    vi.advanceTimersByTime(40 * 60_000 - 1);
    expect(refresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60 * 60_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    await meta.stop();
    vi.advanceTimersByTime(3 * 60 * 60_000);
    expect(refresh).toHaveBeenCalledTimes(2);

    // A saved snapshot already an interval old is refreshed at once.
    const stale = make({ state, now: () => clock.now + 60 * 60_000 });
    const staleRefresh = vi.spyOn(stale.meta, 'refresh').mockResolvedValue(saved);
    stale.meta.start(60 * 60_000);
    await stale.meta.restore();
    await vi.waitFor(() => expect(staleRefresh).toHaveBeenCalledTimes(1), { timeout: 5_000 });
    await stale.meta.stop();
    await stale.api.close();
    await api.close();
    await state.close();
  });
});
