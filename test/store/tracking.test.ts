/** The tracking schedule and records over real databases, on both engines. */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackedTimelinePoints, type ProfileSnapshot, type RecordedMatch } from '../../src/game/tracking.js';
import type { State } from '../../src/store/state.js';
import { TRACKING_DETAIL_MS, TrackingRepository } from '../../src/store/tracking.js';
import { databaseAt, ENGINES, newStateLocation, openAt, openTestState, type TestStateLocation } from '../helpers/state.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 1);

const snapshot = (score: number, extra: Partial<ProfileSnapshot> = {}): ProfileSnapshot => ({
  season: 9,
  tier: 'Gold II',
  score,
  level: 40,
  matches: 10,
  wins: 5,
  rankedMatches: 8,
  rankedWins: 4,
  ...extra,
});
const match = (uid: string, time: number, newScore: number | null = 3000): RecordedMatch => ({
  matchUid: uid,
  time,
  season: 9,
  modeId: 2,
  ranked: newScore !== null,
  heroId: '1011',
  won: true,
  newScore,
  scoreChange: newScore === null ? null : 20,
  newLevel: null,
  kills: 10,
  deaths: 2,
  assists: 5,
});

describe.each(ENGINES)('on %s', (engine) => {
  let state: State & { where: TestStateLocation };
  let tracking: TrackingRepository;
  beforeAll(async () => {
    state = await openTestState(engine);
    tracking = state.tracking;
  });
  afterAll(async () => state.close());

  const reset = async () => {
    for (const table of ['tracked_players', 'rank_snapshots', 'tracked_matches', 'account_links', 'member_settings'] as const) {
      await state.database.db.deleteFrom(table).execute();
    }
  };

  it('tracks what the links say: one row for a player two members linked, none once the last link goes or its member turns tracking off', async () => {
    await reset();
    await state.links.link('m1', { uid: '100', name: 'A' }, true, T0);
    await state.links.link('m2', { uid: '100', name: 'A' }, true, T0);
    await state.links.link('m2', { uid: '200', name: 'B' }, false, T0);
    expect(await tracking.sync(T0)).toEqual({ added: 2, removed: 0 });
    expect(await tracking.sync(T0)).toEqual({ added: 0, removed: 0 });
    expect((await tracking.backlog(T0)).tracked).toBe(2);

    await state.database.db.insertInto('member_settings').values({ user_id: 'm2', locale: null, tracking_off: 1, updated_at: T0 }).execute();
    // 100 is still m1's; 200 was m2's alone.
    expect(await tracking.sync(T0)).toEqual({ added: 0, removed: 1 });
    await state.links.unlink('m1', '100');
    expect(await tracking.sync(T0)).toEqual({ added: 0, removed: 1 });
    expect((await tracking.backlog(T0)).tracked).toBe(0);
  });

  it('syncUids follows the links of the given accounts only: kept while a member who tracks links it, gone with its records after', async () => {
    await reset();
    await state.links.link('m1', { uid: '100', name: 'A' }, true, T0);
    await state.links.link('m2', { uid: '100', name: 'A' }, true, T0);
    await tracking.syncUids(['100', '999'], T0);
    const [claim] = await tracking.claim(T0, 5, HOUR);
    expect(claim!.uid).toBe('100');
    await tracking.recordRead(claim!, { snapshot: snapshot(3000), matches: [match('x', 1)], lastMatchAt: 1, changed: true }, { intervalMs: HOUR }, T0);
    await state.links.unlink('m1', '100');
    await tracking.syncUids(['100'], T0);
    expect((await tracking.timeline('100')).matches).toHaveLength(1);
    await tracking.setTracking('m2', false, T0);
    expect(await tracking.timeline('100')).toEqual({ tracked: false, snapshots: [], matches: [] });
    expect(await tracking.snapshots('100')).toEqual([]);
    // Fresh statistics for the claim's plan: runs on either engine.
    await tracking.optimize();
  });

  it('claims each due player once, the earliest deadline first; an expired claim is taken again and the late reader cannot record', async () => {
    await reset();
    for (const uid of ['a', 'b', 'c']) await tracking.follow(uid, T0);
    const [first] = await tracking.claim(T0, 1, HOUR);
    await tracking.recordRead(first!, { snapshot: snapshot(3000), matches: [], lastMatchAt: null, changed: true }, { intervalMs: HOUR }, T0);
    const later = T0 + 3 * HOUR;
    const claimed = await tracking.claim(later, 10, HOUR);
    expect(claimed.map((c) => c.uid).sort()).toEqual(['a', 'b', 'c'].sort());
    expect(await tracking.claim(later, 10, HOUR)).toEqual([]);

    // The lease ends: another process takes the player; the first one's read is refused.
    const again = await tracking.claim(later + HOUR, 10, HOUR);
    expect(again).toHaveLength(3);
    const stale = claimed[0]!;
    expect(await tracking.recordRead(stale, { snapshot: snapshot(1), matches: [], lastMatchAt: null, changed: true }, { intervalMs: HOUR }, later)).toBe(false);
    const fresh = again.find((c) => c.uid === stale.uid)!;
    expect(await tracking.recordRead(fresh, { snapshot: snapshot(3100), matches: [], lastMatchAt: null, changed: true }, { intervalMs: HOUR }, later)).toBe(
      true,
    );
    expect((await tracking.snapshots(stale.uid)).map((s) => s.score)).not.toContain(1);
  });

  it('claims early, with nobody due, the soonest due of the players not read for the floor; never one due, failing or claimed', async () => {
    await reset();
    for (const uid of ['soon', 'later', 'fresh', 'failing', 'due']) await tracking.follow(uid, T0);
    const first = await tracking.claim(T0, 5, HOUR);
    const read = { snapshot: snapshot(3000), matches: [], lastMatchAt: null, changed: true };
    const at = (uid: string) => first.find((c) => c.uid === uid)!;
    await tracking.recordRead(at('soon'), read, { intervalMs: 2 * HOUR }, T0);
    await tracking.recordRead(at('later'), read, { intervalMs: 6 * HOUR }, T0);
    await tracking.recordRead(at('fresh'), read, { intervalMs: HOUR }, T0 + 50 * 60_000);
    await tracking.recordRead(at('failing'), read, { intervalMs: 2 * HOUR }, T0);
    // Its next read failed (as release counts it), and its retry is not due yet.
    await state.database.db.updateTable('tracked_players').set({ failures: 1 }).where('uid', '=', 'failing').execute();
    await tracking.recordRead(at('due'), read, { intervalMs: HOUR / 2 }, T0);
    const now = T0 + HOUR;
    // 'due' is due: the regular claim takes it, and an early claim never does.
    expect((await tracking.claimEarly(now, 10, HOUR, now - 30 * 60_000)).map((c) => c.uid)).toEqual(['soon', 'later']);
    // Read 10 minutes ago, under the 30-minute floor: not read again; 'failing' waits for its retry.
    expect(await tracking.claimEarly(now, 10, HOUR, now - 30 * 60_000)).toEqual([]);
    expect((await tracking.claim(now, 10, HOUR)).map((c) => c.uid)).toEqual(['due']);
  });

  it('orders the claims by deadline: the most active first when reads cannot keep up', async () => {
    await reset();
    for (const uid of ['daily', 'weekly']) await tracking.follow(uid, T0);
    const both = await tracking.claim(T0, 2, HOUR);
    const read = { snapshot: snapshot(3000), matches: [], lastMatchAt: null, changed: true };
    await tracking.recordRead(
      both.find((c) => c.uid === 'weekly')!,
      read,
      { intervalMs: 7 * DAY },
      T0,
    );
    await tracking.recordRead(
      both.find((c) => c.uid === 'daily')!,
      read,
      { intervalMs: DAY },
      T0 + 5 * DAY,
    );
    // Both overdue at T0 + 8 days; the weekly one has waited longer, the daily one's deadline is earlier.
    const [next] = await tracking.claim(T0 + 8 * DAY, 1, HOUR);
    expect(next!.uid).toBe('daily');
  });

  it('a snapshot only when something changed, each match once by its UID, the claim carrying the latest snapshot', async () => {
    await reset();
    await tracking.follow('p', T0);
    // Each snapshot holds when its rank was reached (the match that left it), apart from when it was read.
    const reads = [
      { at: T0, score: 3000, reachedAt: T0 / 1000 - 100, matches: [match('m1', T0 / 1000 - 100)] },
      { at: T0 + HOUR, score: 3000, reachedAt: T0 / 1000 - 100, matches: [match('m1', T0 / 1000 - 100)], changed: false },
      {
        at: T0 + 2 * HOUR,
        score: 3020,
        reachedAt: T0 / 1000 + 5000,
        matches: [match('m1', T0 / 1000 - 100), match('m2', T0 / 1000 + 5000, 3020), match('q', T0 / 1000 + 5100, null)],
      },
    ];
    for (const r of reads) {
      const [claim] = await tracking.claim(r.at, 1, HOUR);
      expect(claim?.uid).toBe('p');
      const lastMatchAt = Math.max(...r.matches.map((m) => m.time));
      const changed = r.changed ?? true;
      await tracking.recordRead(
        claim!,
        { snapshot: snapshot(r.score, { reachedAt: r.reachedAt }), matches: r.matches, lastMatchAt, changed },
        { intervalMs: 1 },
        r.at,
      );
    }
    expect((await tracking.snapshots('p')).map((s) => [s.at, s.score, s.reachedAt])).toEqual([
      [T0, 3000, T0 / 1000 - 100],
      [T0 + 2 * HOUR, 3020, T0 / 1000 + 5000],
    ]);
    const matches = await tracking.matches('p');
    expect(matches.map((m) => [m.matchUid, m.newScore, m.ranked])).toEqual([
      ['m1', 3000, true],
      ['m2', 3020, true],
      ['q', null, false],
    ]);
    const [claim] = await tracking.claim(T0 + 3 * HOUR, 1, HOUR);
    expect(claim!.snapshot).toEqual(snapshot(3020, { reachedAt: T0 / 1000 + 5000 }));
    expect(claim!.lastMatchAt).toBe(T0 / 1000 + 5100);
  });

  it('keeps a draw apart from a loss and each match’s map, and finds a match’s records by its uid', async () => {
    await reset();
    for (const uid of ['p', 'q']) await tracking.follow(uid, T0);
    const played = T0 / 1000 - 100;
    const rows: Record<string, RecordedMatch[]> = {
      p: [
        { ...match('draw', played), won: null, drawn: true, mapId: '1267' },
        { ...match('loss', played - 900), won: false, mapId: null },
      ],
      q: [{ ...match('draw', played), won: null, drawn: true, mapId: '1267' }],
    };
    for (const claim of await tracking.claim(T0, 2, HOUR)) {
      await tracking.recordRead(claim, { snapshot: snapshot(3000), matches: rows[claim.uid]!, lastMatchAt: played, changed: true }, { intervalMs: HOUR }, T0);
    }
    expect((await tracking.matches('p')).map((m) => [m.matchUid, m.won, m.drawn, m.mapId])).toEqual([
      ['loss', false, false, null],
      ['draw', null, true, '1267'],
    ]);
    expect((await tracking.recordsOfMatch('draw')).map((m) => [m.uid, m.drawn, m.mapId]).sort()).toEqual([
      ['p', true, '1267'],
      ['q', true, '1267'],
    ]);
    expect(await tracking.recordsOfMatch('nothing')).toEqual([]);
  });

  it('a released claim keeps its place and is due again after the retry; the backlog counts what is due and how long it waited', async () => {
    await reset();
    await tracking.follow('x', T0);
    await tracking.follow('y', T0 + HOUR);
    expect(await tracking.backlog(T0 + 2 * HOUR)).toEqual({ tracked: 2, due: 2, oldestDueMs: 2 * HOUR, oldestReadMs: 2 * HOUR });
    const [x] = await tracking.claim(T0 + 2 * HOUR, 1, HOUR);
    expect(x!.uid).toBe('x');
    expect((await tracking.backlog(T0 + 2 * HOUR)).due).toBe(1);
    await tracking.release(x!, 10 * 60_000, T0 + 2 * HOUR);
    expect(await tracking.claim(T0 + 2 * HOUR + 60_000, 5, HOUR).then((c) => c.map((p) => p.uid))).toEqual(['y']);
    const [retried] = await tracking.claim(T0 + 2 * HOUR + 10 * 60_000, 5, HOUR);
    expect(retried).toMatchObject({ uid: 'x', failures: 1 });
  });

  it('keeps full detail for 90 days, then the last snapshot of each day', async () => {
    await reset();
    await tracking.follow('old', T0);
    const start = T0;
    for (let i = 0; i < 6; i++) {
      const at = start + Math.floor(i / 3) * DAY + (i % 3) * HOUR;
      const [claim] = await tracking.claim(at, 1, HOUR);
      await tracking.recordRead(claim!, { snapshot: snapshot(3000 + i), matches: [], lastMatchAt: null, changed: true }, { intervalMs: 1 }, at);
    }
    expect(await tracking.prune(start + TRACKING_DETAIL_MS - DAY)).toBe(0);
    expect(await tracking.prune(start + TRACKING_DETAIL_MS + 3 * DAY)).toBe(4);
    expect((await tracking.snapshots('old')).map((s) => s.score)).toEqual([3002, 3005]);
  });

  // SQLite serves one process (its busy wait would block the one thread here): concurrent claimers share it, as the
  // tracker's reads do. PostgreSQL: four pools, as four processes.
  it(
    engine === 'postgres' ? 'four processes claiming at once claim every due player exactly once' : 'claimers at once claim every due player exactly once',
    async () => {
      await reset();
      const uids = Array.from({ length: 300 }, (_, i) => `p${i}`);
      for (const uid of uids) await tracking.follow(uid, T0);
      const processes: State[] = [state];
      for (let i = 0; i < 3; i++) processes.push(engine === 'postgres' ? await openAt(state.where) : state);
      try {
        const seen: string[] = [];
        await Promise.all(
          processes.map(async (p) => {
            for (;;) {
              const claimed = await p.tracking.claim(T0 + 1, 7, HOUR);
              if (claimed.length === 0) return;
              seen.push(...claimed.map((c) => c.uid));
            }
          }),
        );
        expect(seen.length).toBe(uids.length);
        expect(new Set(seen).size).toBe(uids.length);
      } finally {
        if (engine === 'postgres') await Promise.all(processes.slice(1).map((p) => p.close()));
      }
    },
  );
});

describe.each(ENGINES)('upgrade from 0019_rank_role_backoff on %s', (engine) => {
  it('a snapshot recorded before its reach time was kept reads back without one, dated by the recorded match that left its score', async () => {
    const where = await newStateLocation(engine);
    const played = T0 / 1000 - (3 * DAY) / 1000;
    try {
      await databaseAt(where, '0019_rank_role_backoff', async (db) => {
        await sql`INSERT INTO tracked_players (uid, added_at, next_read_at, deadline_at, interval_ms, failures) VALUES ('old', 0, 0, 0, 0, 0)`.execute(db);
        // Read three days after the match that left its score.
        await sql`INSERT INTO rank_snapshots (uid, at, season, tier, score, level, matches, wins, ranked_matches, ranked_wins)
          VALUES ('old', ${T0}, 9, 'Gold II', 3752.5, 40, 10, 5, 8, 4)`.execute(db);
        await sql`INSERT INTO tracked_matches (uid, match_uid, played_at, season, mode_id, ranked, hero_id, won, new_score, score_change, new_level, kills, deaths, assists, recorded_at)
          VALUES ('old', 'm-old', ${played}, 9, 2, 1, NULL, 1, 3752.5, 20, 8, 1, 1, 1, ${T0})`.execute(db);
      });
      const state = await openAt(where);
      try {
        const records = await state.tracking.timeline('old');
        expect(records.snapshots.map((s) => [s.at, s.reachedAt])).toEqual([[T0, null]]);
        const points = trackedTimelinePoints(records.snapshots, records.matches);
        expect(points.map((x) => [x.source, x.time, x.score])).toEqual([
          ['match', played, 3752.5],
          ['snapshot', played, 3752.5],
        ]);
        // Recorded before maps and draws were kept: no map, and its result as it was.
        expect(records.matches.map((m) => [m.won, m.drawn, m.mapId])).toEqual([[true, false, null]]);
        expect((await state.tracking.recordsOfMatch('m-old')).map((m) => m.uid)).toEqual(['old']);
      } finally {
        await state.close();
      }
    } finally {
      where.cleanup();
    }
  });
});
