/**
 * The balance indexer (src/jobs/balance-indexer.ts) against the in-process replica over loopback, with
 * the real client, a real rate limiter and a real store (both engines for the full walk): every page of
 * both lists walked at background priority, idempotent on a second run, a failing page logged and read
 * by the next run, new posts and a new hero list read again, posts without text skipped, single flight,
 * and start/stop.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RivalsApi } from '../../src/api/client.js';
import { UpstreamRateLimiter, type Priority } from '../../src/api/rate-limiter.js';
import { BalanceIndexer } from '../../src/jobs/balance-indexer.js';
import { HeroDirectory } from '../../src/catalog/hero-directory.js';
import type { Replica } from '../../src/replica/server.js';
import type { State } from '../../src/store/state.js';
import { capturingLogger, clientFor, replica } from '../helpers/replica.js';
import { ENGINES, memoryState, openTestState } from '../helpers/state.js';

/** A real limiter that remembers the priority of every request it schedules. */
class RecordingLimiter extends UpstreamRateLimiter {
  readonly priorities: Priority[] = [];
  override schedule<T>(task: () => Promise<T>, priority: Priority = 'interactive', deadline?: number): Promise<T> {
    this.priorities.push(priority);
    return super.schedule(task, priority, deadline);
  }
}

let r: Replica;
let limiter: RecordingLimiter;
let api: RivalsApi;
beforeAll(async () => {
  r = await replica();
  limiter = new RecordingLimiter({ requestsPerMinute: 10_000 });
  api = clientFor(r, { limiter });
});
afterAll(async () => {
  limiter.stop();
  await api.close();
  await r.close();
});
afterEach(() => {
  r.setFaults({});
  vi.restoreAllMocks();
});

const PAGE = 3;
const BALANCES = 8;
const PATCH_NOTES = 12;
/** Pages of 3 for 8 balance posts and 12 patch notes: 3 + 4. */
const PAGES = Math.ceil(BALANCES / PAGE) + Math.ceil(PATCH_NOTES / PAGE);

function indexerOn(state: State, options: { heroes?: HeroDirectory | { list: () => ReturnType<HeroDirectory['list']> }; api?: RivalsApi } = {}) {
  const { logger, lines } = capturingLogger();
  const client = options.api ?? api;
  const indexer = new BalanceIndexer({
    api: client,
    heroes: options.heroes ?? new HeroDirectory(client),
    history: state.balanceHistory,
    logger,
    pageSize: PAGE,
  });
  return { indexer, lines };
}

const rowCount = async (state: State) =>
  Number(
    (await state.database.db
      .selectFrom('balance_history')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst())!.n,
  );
const requestsTo = (path: string) => r.requests.byPath.get(path) ?? 0;

describe.each(ENGINES)('on %s', (engine) => {
  let state: State;
  beforeAll(async () => {
    state = await openTestState(engine);
  });
  afterAll(async () => {
    await state?.close();
  });

  it('walks every page of both lists at background priority and stores what each post did to each hero', async () => {
    const { indexer } = indexerOn(state);
    const balancesSpy = vi.spyOn(api, 'balances');
    const patchSpy = vi.spyOn(api, 'patchNotes');
    const before = {
      balances: requestsTo('/api/v1/balances'),
      patchNotes: requestsTo('/api/v1/patch-notes'),
      bulk: limiter.priorities.filter((p) => p === 'bulk').length,
    };
    expect(await state.balanceHistory.completedAt()).toBeNull();

    const run = await indexer.run();
    expect(run).toMatchObject({
      pages: PAGES,
      failedPages: 0,
      postsSeen: BALANCES + PATCH_NOTES,
      postsIndexed: BALANCES + PATCH_NOTES,
      postsSkipped: 0,
      complete: true,
    });
    expect(requestsTo('/api/v1/balances') - before.balances).toBe(3);
    expect(requestsTo('/api/v1/patch-notes') - before.patchNotes).toBe(4);
    expect(balancesSpy.mock.calls.map(([params, options]) => [params, options?.priority])).toEqual([1, 2, 3].map((page) => [{ page, limit: PAGE }, 'bulk']));
    expect(patchSpy.mock.calls.map(([params]) => params?.page)).toEqual([1, 2, 3, 4]);
    expect(patchSpy.mock.calls.every(([, options]) => options?.priority === 'bulk')).toBe(true);
    expect(limiter.priorities.filter((p) => p === 'bulk').length - before.bulk).toBe(PAGES);
    expect(await state.balanceHistory.completedAt()).toBe(run.finishedAt);
    expect(run.entries).toBe(await rowCount(state));

    // Hulk: the Season 5 patch note's one-line buff, then the balance post's paragraph (forms, a fix).
    const hulk = await state.balanceHistory.forHero('1011', { limit: 10 });
    expect(hulk.entries.map((e) => [e.kind, e.postId, e.date, e.verdict])).toEqual([
      ['patch-note', '20251113', '2025-11-13', 'buff'],
      ['balance', 'balance-20251112', '2025-11-12', 'buff'],
    ]);
    expect(hulk.entries[0]!.title).toBe('Version 20251113 Patch Notes: Season 5 begins');
    expect(hulk.entries[1]!.lines.map((l) => l.verdict)).toEqual(['buff', 'buff', 'buff', 'buff', 'fixed']);
    expect(hulk.entries[1]!.lines[0]!.text).toBe('Bruce Banner · Gamma Ray Gun: Increase damage per round from 5 to 6');
    // Mixed changes, nerfs and fixes-only, with aliases.
    const verdictsOf = async (heroId: string) => (await state.balanceHistory.forHero(heroId, { limit: 10 })).entries.map((e) => `${e.postId}:${e.verdict}`);
    expect(await verdictsOf('1024')).toEqual(['balance-20250912:fixed', 'balance-20250512:adjusted']); // Hela
    expect(await verdictsOf('1025')).toEqual(['20251016:nerf', 'balance-20251012:buff']); // Cloak & Dagger
    expect(await verdictsOf('1047')).toEqual(['20251113:fixed', 'balance-20250912:buff', '20250710:buff']); // Jeff the Land Shark
    expect(await verdictsOf('1051')).toEqual(['balance-20251012:nerf', '20250911:buff', '20250227:fixed']); // The Thing
    expect(await verdictsOf('1015')).toEqual(['20251113:nerf', 'balance-20250712:buff']); // Storm, not in "Dagger Storm" or Thor's "Storm Surge"
  });

  it('a second run reads only the list pages and writes nothing', async () => {
    const { indexer } = indexerOn(state);
    const rows = await rowCount(state);
    const record = vi.spyOn(state.balanceHistory, 'record');
    const run = await indexer.run();
    expect(run).toMatchObject({ pages: PAGES, postsSeen: BALANCES + PATCH_NOTES, postsIndexed: 0, entries: 0, complete: true });
    expect(record).not.toHaveBeenCalled();
    expect(await rowCount(state)).toBe(rows);
  });
});

describe('failures and changes', () => {
  it('a failing page is logged, the pages after it are still read, and the next run reads it', async () => {
    const state = memoryState();
    const { indexer, lines } = indexerOn(state);
    // The client sorts query keys: /api/v1/balances?limit=3&page=2.
    r.setFaults({ forceStatus: 500, pathPrefix: '/api/v1/balances?limit=3&page=2' });
    const first = await indexer.run();
    expect(first).toMatchObject({ failedPages: 1, pages: PAGES - 1, postsIndexed: BALANCES + PATCH_NOTES - PAGE, complete: false });
    expect(lines.some((l) => l.includes('a list page failed') && l.includes('"page":2') && l.includes('"kind":"balance"'))).toBe(true);
    expect(await state.balanceHistory.completedAt()).toBeNull();
    // Page 2 holds the 4th to 6th balance posts: Black Panther's is among them.
    expect(await state.balanceHistory.isIndexed('balance', 'balance-20250812')).toBe(false);
    expect(await state.balanceHistory.isIndexed('balance', 'balance-20250712')).toBe(false);
    expect(await state.balanceHistory.isIndexed('balance', 'balance-20250512')).toBe(true);

    r.setFaults({});
    const second = await indexer.run();
    expect(second).toMatchObject({ failedPages: 0, postsIndexed: PAGE, complete: true });
    expect((await state.balanceHistory.forHero('1026', { limit: 5 })).entries.map((e) => e.verdict)).toEqual(['adjusted']); // Black Panther
    expect(await state.balanceHistory.completedAt()).not.toBeNull();
    await state.close();
  });

  it('a failing first page ends that list for this run; the other list is still read', async () => {
    const state = memoryState();
    const { indexer } = indexerOn(state);
    r.setFaults({ forceStatus: 503, pathPrefix: '/api/v1/patch-notes' });
    const run = await indexer.run();
    expect(run).toMatchObject({ failedPages: 1, postsIndexed: BALANCES, complete: false });
    r.setFaults({});
    expect(await indexer.run()).toMatchObject({ postsIndexed: PATCH_NOTES, complete: true });
    await state.close();
  });

  it('reads a new post once it is listed; a post without text is logged and skipped, and read once it has text', async () => {
    const state = memoryState();
    const { indexer, lines } = indexerOn(state);
    await indexer.run();
    const fresh = {
      id: 'balance-20251201',
      title: 'Balance Post: Thor and friends',
      date: '2025/12/01',
      overview: 'Thor changes.',
      fullContent: 'Vanguard\n\nThor\n- Hammer Throw: Cooldown increased from 6s to 8s\n\nDev Comment: We will watch this closely.',
      imagePath: '/b.jpg',
    };
    const empty = { id: 'balance-20251202', title: 'Balance Post: empty', date: '2025/12/02', overview: null, fullContent: '', imagePath: null };
    r.dataset.posts.balances.unshift(fresh, empty);
    try {
      const run = await indexer.run();
      expect(run).toMatchObject({ postsSeen: BALANCES + PATCH_NOTES + 2, postsIndexed: 1, postsSkipped: 1, entries: 1, complete: true });
      expect(lines.some((l) => l.includes('"post":"balance-20251202"') && l.includes('no text'))).toBe(true);
      expect((await state.balanceHistory.forHero('1039', { limit: 1 })).entries[0]).toMatchObject({
        postId: 'balance-20251201',
        date: '2025-12-01',
        verdict: 'nerf',
      });
      expect(await state.balanceHistory.isIndexed('balance', 'balance-20251202')).toBe(false);
      empty.fullContent = 'Hela\n- Soul Drainer: Cooldown reduced from 15s to 12s';
      expect(await indexer.run()).toMatchObject({ postsIndexed: 1, postsSkipped: 0 });
      expect((await state.balanceHistory.forHero('1024', { limit: 1 })).entries[0]).toMatchObject({ postId: 'balance-20251202', verdict: 'buff' });
    } finally {
      r.dataset.posts.balances.splice(0, 2);
      await state.close();
    }
  });

  it('reads every post again when the hero list changes (a hero the old list lacked gets its history)', async () => {
    const state = memoryState();
    const directory = new HeroDirectory(api);
    const withoutHulk = { list: async () => (await directory.list()).filter((h) => h.id !== '1011') };
    const first = await indexerOn(state, { heroes: withoutHulk }).indexer.run();
    expect(first.postsIndexed).toBe(BALANCES + PATCH_NOTES);
    expect((await state.balanceHistory.forHero('1011', { limit: 5 })).total).toBe(0);
    const second = await indexerOn(state, { heroes: directory }).indexer.run();
    expect(second.postsIndexed).toBe(BALANCES + PATCH_NOTES);
    expect((await state.balanceHistory.forHero('1011', { limit: 5 })).total).toBe(2);
    expect((await indexerOn(state, { heroes: directory }).indexer.run()).postsIndexed).toBe(0);
    await state.close();
  });

  it('a hero list that cannot be had, or a store that fails, leaves the run incomplete and logged, never thrown', async () => {
    const state = memoryState();
    const { indexer, lines } = indexerOn(state, { heroes: { list: async () => Promise.reject(new Error('no hero list')) } });
    expect(await indexer.run()).toMatchObject({ complete: false, postsIndexed: 0, pages: 0 });
    expect(lines.some((l) => l.includes('the run stopped early'))).toBe(true);
    const broken = indexerOn(state);
    vi.spyOn(state.balanceHistory, 'record').mockRejectedValue(new Error('disk full'));
    expect(await broken.indexer.run()).toMatchObject({ complete: false, postsIndexed: 0 });
    expect(broken.lines.some((l) => l.includes('disk full'))).toBe(true);
    expect(await state.balanceHistory.completedAt()).toBeNull();
    await state.close();
  });

  it('runs once at a time, starts at once, and stops', async () => {
    const state = memoryState();
    const { indexer } = indexerOn(state);
    const a = indexer.run();
    const b = indexer.run();
    expect(a).toBe(b);
    expect(indexer.running).toBe(true);
    await a;
    expect(indexer.running).toBe(false);
    expect(indexer.lastRun?.complete).toBe(true);

    const spy = vi.spyOn(indexer, 'run');
    // Every turn runs, but the third is held at its start (its leadership check) until the test answers it.
    let turns = 0;
    let answerThird: ((run: boolean) => void) | undefined;
    indexer.start(20, () => (++turns < 3 ? Promise.resolve(true) : new Promise<boolean>((resolve) => (answerThird = resolve))));
    await vi.waitFor(() => expect(answerThird).toBeDefined(), { timeout: 5_000 });
    expect(spy).toHaveBeenCalledTimes(2);
    await indexer.stop();
    expect(indexer.running).toBe(false);
    // The turn under way when stop() was called goes on, told to run: it must not. Its rest runs in
    // microtasks, which have all run once a macrotask (setImmediate) comes.
    answerThird!(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(spy).toHaveBeenCalledTimes(2);
    expect([indexer.running, turns]).toEqual([false, 3]);
    await state.close();
  });

  it('with a leadership check, runs only the turns of the leading process; a failed check skips its turn with a warning', async () => {
    const state = memoryState();
    const { indexer, lines } = indexerOn(state);
    const spy = vi.spyOn(indexer, 'run');
    let leading = false;
    let asked = 0;
    indexer.start(10, async () => {
      asked++;
      if (asked === 3) throw new Error('Redis did not answer');
      return leading;
    });
    await vi.waitFor(() => expect(asked).toBeGreaterThanOrEqual(4), { timeout: 5_000 });
    // Not the leader: asked at every turn, never run.
    expect(spy).not.toHaveBeenCalled();
    expect(lines.filter((l) => l.includes('balance index turn skipped') && l.includes('Redis did not answer'))).toHaveLength(1);
    leading = true;
    await vi.waitFor(() => expect(indexer.lastRun?.complete).toBe(true), { timeout: 5_000 });
    await indexer.stop();
    expect(spy).toHaveBeenCalled();
    expect(await state.balanceHistory.completedAt()).not.toBeNull();
    await state.close();
  });

  it('stop() gives up the hero list while it waits (for the rate limit), at once and without a failure logged', async () => {
    const state = memoryState();
    let given: AbortSignal | undefined;
    const heroes = {
      list: (options?: { signal?: AbortSignal }) =>
        new Promise<never>((_, reject) => {
          given = options?.signal;
          given?.addEventListener('abort', () => reject(given!.reason as unknown));
        }),
    };
    const { indexer, lines } = indexerOn(state, { heroes: heroes as unknown as HeroDirectory });
    const run = indexer.run();
    await vi.waitFor(() => expect(given).toBeDefined(), { timeout: 5_000 });
    // The list never answers unless given up: stop() returns because the run ended, not at its 5 s bound.
    const order: string[] = [];
    void run.then(() => order.push('run ended'));
    await indexer.stop();
    order.push('stop returned');
    expect(order).toEqual(['run ended', 'stop returned']);
    expect(await run).toMatchObject({ complete: false, pages: 0 });
    expect(lines.filter((l) => l.includes('"level":40') || l.includes('"level":50'))).toEqual([]);
    await state.close();
  });

  it('stop() cancels a request that hangs, and the run ends incomplete without a failure logged', async () => {
    const state = memoryState();
    // A client that would wait ten minutes for the held request rather than the usual 2 s: only the abort can end it.
    const patient = clientFor(r, { limiter, timeoutMs: 10 * 60_000 });
    const { indexer, lines } = indexerOn(state, { api: patient });
    r.setFaults({ hang: true, pathPrefix: '/api/v1/balances' });
    const before = requestsTo('/api/v1/balances');
    const run = indexer.run();
    // The request is held at the replica, which never answers it.
    await vi.waitFor(() => expect(requestsTo('/api/v1/balances')).toBeGreaterThan(before), { timeout: 5_000 });
    const order: string[] = [];
    void run.then(() => order.push('run ended'));
    await indexer.stop();
    order.push('stop returned');
    // stop() returned because the run ended, which only the request's abort could do, not at its 5 s bound.
    expect(order).toEqual(['run ended', 'stop returned']);
    expect(await run).toMatchObject({ complete: false, postsIndexed: 0, failedPages: 0 });
    expect(lines.some((l) => l.includes('a list page failed'))).toBe(false);
    expect(await state.balanceHistory.completedAt()).toBeNull();
    await patient.close();
    await state.close();
  });
});
