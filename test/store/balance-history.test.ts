/**
 * The balance history's repository (src/store/balance-history.ts) and its migration
 * (`0002_balance_history`), each test on both engines (embedded SQLite and PostgreSQL): recording a
 * post in one transaction, replacing it, reading a hero's history newest first with paging and a
 * count, the indexed-post markers and the completion marker, and an upgrade from a database at
 * `0001_initial`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeroChange } from '../../src/game/balance.js';
import { BalanceHistoryRepository, MAX_PAGE, type IndexedPost } from '../../src/store/balance-history.js';
import type { State } from '../../src/store/state.js';
import { databaseAt, ENGINES, newStateLocation, openAt, openTestState, type TestStateLocation } from '../helpers/state.js';

const post = (id: string, date: string | null, kind: IndexedPost['kind'] = 'balance'): IndexedPost => ({ kind, id, date, title: `Post ${id}` });
const change = (heroId: string, verdict: HeroChange['verdict'], ...texts: string[]): HeroChange => ({
  heroId,
  verdict,
  lines: texts.map((text) => ({ text, verdict })),
});

describe.each(ENGINES)('on %s', (engine) => {
  let state: State & { where: TestStateLocation };
  /** A second connection to the same database: another process's view. */
  let other: State;
  beforeAll(async () => {
    state = await openTestState(engine);
    other = await openAt(state.where);
  });
  afterAll(async () => {
    await other?.close();
    await state?.close();
  });

  it('records a post and its heroes in one go, and reads a hero back with its lines', async () => {
    const h = state.balanceHistory;
    await h.record(
      post('b-1', '2025-11-12'),
      [change('1011', 'buff', 'Gamma Burst: Damage increased from 70 to 75'), change('1015', 'nerf', 'Storm: cost up')],
      'sig-1',
      1_000,
    );
    const hulk = await other.balanceHistory.forHero('1011', { limit: 10 });
    expect(hulk).toEqual({
      total: 1,
      entries: [
        {
          heroId: '1011',
          kind: 'balance',
          postId: 'b-1',
          date: '2025-11-12',
          title: 'Post b-1',
          verdict: 'buff',
          lines: [{ text: 'Gamma Burst: Damage increased from 70 to 75', verdict: 'buff' }],
          indexedAt: 1_000,
        },
      ],
    });
    expect(await other.balanceHistory.isIndexed('balance', 'b-1')).toBe(true);
    expect(await other.balanceHistory.isIndexed('balance', 'b-1', 'sig-1')).toBe(true);
    expect(await other.balanceHistory.isIndexed('balance', 'b-1', 'sig-2')).toBe(false);
    expect(await other.balanceHistory.isIndexed('patch-note', 'b-1')).toBe(false);
  });

  it('marks a post without heroes as indexed, with no rows', async () => {
    await state.balanceHistory.record(post('empty', '2025-01-01', 'patch-note'), [], 'sig-1', 5);
    expect(await state.balanceHistory.isIndexed('patch-note', 'empty')).toBe(true);
    expect((await state.balanceHistory.indexed('patch-note')).get('empty')).toBe('sig-1');
    const rows = await state.database.db.selectFrom('balance_history').select('hero_id').where('post_id', '=', 'empty').execute();
    expect(rows).toEqual([]);
  });

  it('recording a post again replaces its rows (a hero no longer found loses its row); the same record twice changes nothing', async () => {
    const h = state.balanceHistory;
    await h.record(post('b-2', '2025-10-12'), [change('1020', 'buff', 'a'), change('1021', 'nerf', 'b')], 'sig-1', 10);
    await h.record(post('b-2', '2025-10-12'), [change('1020', 'adjusted', 'a', 'c')], 'sig-2', 20);
    expect((await h.forHero('1021', { limit: 5 })).total).toBe(0);
    const mantis = await h.forHero('1020', { limit: 5 });
    expect(mantis.entries.map((e) => [e.verdict, e.lines.length, e.indexedAt])).toEqual([['adjusted', 2, 20]]);
    expect((await h.indexed('balance')).get('b-2')).toBe('sig-2');
    const count = async () =>
      Number(
        (await state.database.db
          .selectFrom('balance_history')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst())!.n,
      );
    const before = await count();
    await h.record(post('b-2', '2025-10-12'), [change('1020', 'adjusted', 'a', 'c')], 'sig-2', 20);
    expect(await count()).toBe(before);
    // One row per hero and post even if the changes repeat a hero: the first is kept.
    await h.record(post('b-3', '2025-10-01'), [change('1022', 'buff', 'x'), change('1022', 'nerf', 'y')], 'sig-2', 30);
    expect((await h.forHero('1022', { limit: 5 })).entries.map((e) => e.verdict)).toEqual(['buff']);
  });

  it('two processes recording the same post at once both succeed, with one row per hero', async () => {
    const changes = [change('1027', 'buff', 'g'), change('1029', 'nerf', 'm')];
    // On PostgreSQL the second pool is another process's view. One process has one SQLite connection (two
    // in one thread would wait for each other's lock synchronously), so there the records share it.
    const peer = engine === 'sqlite' ? state : other;
    await Promise.all([
      state.balanceHistory.record(post('race', '2025-08-08'), changes, 'sig-1', 50),
      peer.balanceHistory.record(post('race', '2025-08-08'), changes, 'sig-1', 51),
    ]);
    const rows = await state.database.db
      .selectFrom('balance_history')
      .select(['hero_id', 'verdict'])
      .where('post_id', '=', 'race')
      .orderBy('hero_id')
      .execute();
    expect(rows).toEqual([
      { hero_id: '1027', verdict: 'buff' },
      { hero_id: '1029', verdict: 'nerf' },
    ]);
    expect(await state.balanceHistory.isIndexed('balance', 'race', 'sig-1')).toBe(true);
  });

  it('a failed record leaves nothing behind: no rows and no marker', async () => {
    const bad = [change('1023', 'buff', 'ok'), { heroId: null as unknown as string, verdict: 'nerf' as const, lines: [] }];
    await expect(state.balanceHistory.record(post('broken', '2025-09-09'), bad, 'sig-1', 40)).rejects.toThrow();
    expect(await state.balanceHistory.isIndexed('balance', 'broken')).toBe(false);
    expect((await state.balanceHistory.forHero('1023', { limit: 5 })).total).toBe(0);
  });

  it("reads a hero's history newest first, patch notes before balance posts of the same day, undated last, paged with a count", async () => {
    const h = state.balanceHistory;
    const hero = '1039';
    const dates = ['2025-03-01', '2025-07-15', null, '2025-05-20', '2025-07-15', '2024-12-31', '2025-01-02'];
    for (const [i, date] of dates.entries()) {
      await h.record(post(`t-${i}`, date, i === 4 ? 'patch-note' : 'balance'), [change(hero, i % 2 ? 'nerf' : 'buff', `line ${i}`)], 'sig-1', 100 + i);
    }
    const all = await h.forHero(hero, { limit: 50 });
    expect(all.total).toBe(7);
    expect(all.entries.map((e) => [e.postId, e.date])).toEqual([
      ['t-4', '2025-07-15'],
      ['t-1', '2025-07-15'],
      ['t-3', '2025-05-20'],
      ['t-0', '2025-03-01'],
      ['t-6', '2025-01-02'],
      ['t-5', '2024-12-31'],
      ['t-2', null],
    ]);
    const pages = [await h.forHero(hero, { limit: 3 }), await h.forHero(hero, { limit: 3, offset: 3 }), await h.forHero(hero, { limit: 3, offset: 6 })];
    expect(pages.map((p) => p.total)).toEqual([7, 7, 7]);
    expect(pages.flatMap((p) => p.entries.map((e) => e.postId))).toEqual(all.entries.map((e) => e.postId));
    expect((await h.forHero(hero, { limit: 3, offset: 30 })).entries).toEqual([]);
    // Limits are clamped, not trusted.
    expect((await h.forHero(hero, { limit: 0 })).entries).toHaveLength(1);
    expect((await h.forHero(hero, { limit: -5, offset: -2 })).entries.map((e) => e.postId)).toEqual(['t-4']);
    expect(MAX_PAGE).toBe(100);
  });

  it('keeps the completion marker, and an unreadable lines column reads as no lines', async () => {
    const h = new BalanceHistoryRepository(state.database.db);
    expect(await h.completedAt()).toBeNull();
    await h.markComplete(1_234);
    await h.markComplete(5_678);
    expect(await other.balanceHistory.completedAt()).toBe(5_678);
    await h.record(post('odd', '2025-02-02'), [change('1024', 'fixed', 'f')], 'sig-1', 1);
    await state.database.db.updateTable('balance_history').set({ lines: '{not json', verdict: 'weird' }).where('post_id', '=', 'odd').execute();
    expect((await h.forHero('1024', { limit: 5 })).entries.map((e) => [e.verdict, e.lines])).toEqual([['adjusted', []]]);
  });
});

describe.each(ENGINES)('upgrade from 0001_initial on %s', (engine) => {
  it('adds the balance tables to a database made before them and keeps its rows', async () => {
    const where = await newStateLocation(engine);
    try {
      await databaseAt(where, '0001_initial');

      const state = await openAt(where);
      try {
        expect((await state.settings.get('g-old')).leaderboardPlatform).toBe('ps');
        await state.balanceHistory.record(post('up-1', '2025-06-06'), [change('1011', 'nerf', 'n')], 'sig', 1);
        expect((await state.balanceHistory.forHero('1011', { limit: 1 })).total).toBe(1);
      } finally {
        await state.close();
      }
    } finally {
      where.cleanup();
    }
  });
});
