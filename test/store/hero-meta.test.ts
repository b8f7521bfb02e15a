/**
 * The hero meta's stored snapshot (src/store/hero-meta.ts) and its migration
 * (`0010_hero_meta_snapshots`), each test on both engines (embedded SQLite and PostgreSQL): a snapshot
 * read back exactly by another connection and after a reopen (a restart), an older snapshot never
 * replacing a newer one, an unreadable row read as none, and an upgrade from a database at
 * `0009_locales`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetaSnapshot } from '../../src/game/meta.js';
import { LATEST_SNAPSHOT } from '../../src/store/hero-meta.js';
import type { State } from '../../src/store/state.js';
import { databaseAt, ENGINES, newStateLocation, openAt, openTestState, type TestStateLocation } from '../helpers/state.js';

/** A snapshot with the values that are easy to lose on the way: fractions, nulls, a role of none, text in quotes. */
const snapshot = (completedAt: number, name = 'Hulk'): MetaSnapshot => ({
  rows: [
    { heroId: '1011', name, role: 'Vanguard', matches: 1_234_567, winRate: 0.512_345_678_9, pickShare: 1 / 3, kda: 2.718_281_828 },
    { heroId: '1052', name: 'Iron "Fist"', role: null, matches: 0, winRate: null, pickShare: null, kda: null },
  ],
  completedAt,
  gatheredAt: completedAt - 40 * 60_000,
  answered: 2,
  total: 3,
  missing: ['Jeff the Land Shark'],
  stale: true,
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

  it('has no snapshot at first; a saved one reads back exactly, from another connection and after a restart', async () => {
    expect(await state.heroMeta.latest()).toBeUndefined();
    const saved = snapshot(1_750_000_000_000);
    await state.heroMeta.save(saved);
    expect(await other.heroMeta.latest()).toEqual(saved);
    const reopened = await openAt(state.where);
    try {
      expect(await reopened.heroMeta.latest()).toEqual(saved);
    } finally {
      await reopened.close();
    }
  });

  it('keeps one row, the newest: a later snapshot replaces it, an older one (another process finishing late) does not', async () => {
    await state.heroMeta.save(snapshot(2_000_000_000_000, 'Newer'));
    await other.heroMeta.save(snapshot(1_900_000_000_000, 'Older'));
    const latest = await state.heroMeta.latest();
    expect([latest?.completedAt, latest?.rows[0]?.name]).toEqual([2_000_000_000_000, 'Newer']);
    await other.heroMeta.save(snapshot(2_100_000_000_000, 'Newest'));
    expect((await state.heroMeta.latest())?.rows[0]?.name).toBe('Newest');
    const count = await state.database.db
      .selectFrom('hero_meta_snapshots')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(count!.n)).toBe(1);
  });

  it('an unreadable row reads as no snapshot', async () => {
    await state.heroMeta.save(snapshot(2_200_000_000_000));
    expect(await state.heroMeta.latest()).toBeDefined();
    await state.database.db.updateTable('hero_meta_snapshots').set({ rows: '[{"heroId":1}]' }).where('id', '=', LATEST_SNAPSHOT).execute();
    expect(await state.heroMeta.latest()).toBeUndefined();
    await state.database.db.updateTable('hero_meta_snapshots').set({ rows: '[]', missing: '{not json' }).where('id', '=', LATEST_SNAPSHOT).execute();
    expect(await state.heroMeta.latest()).toBeUndefined();
  });
});

describe.each(ENGINES)('upgrade from 0009_locales on %s', (engine) => {
  it('adds the snapshot table to a database made before it and keeps its rows', async () => {
    const where = await newStateLocation(engine);
    try {
      await databaseAt(where, '0009_locales');

      const state = await openAt(where);
      try {
        expect((await state.settings.get('g-old')).leaderboardPlatform).toBe('ps');
        await state.heroMeta.save(snapshot(5));
        expect((await state.heroMeta.latest())?.completedAt).toBe(5);
      } finally {
        await state.close();
      }
    } finally {
      where.cleanup();
    }
  });
});
