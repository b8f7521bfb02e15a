/**
 * The queue of match details to read (src/store/match-fetches.ts, migration `0023_match_fetches`), each test on both engines:
 * a match is queued once however many players recorded it, never when stored, claimed by one connection at a time, retried
 * a few times with a growing wait, ended by whoever stores it, and dropped with the last tracked player who played it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageResolver } from '../../src/api/images.js';
import { createSchemas, type MatchDetail } from '../../src/api/schemas.js';
import type { RecordedMatch } from '../../src/game/tracking.js';
import { MATCH_FETCH_ATTEMPTS, retryDelayMs } from '../../src/store/match-fetches.js';
import type { State } from '../../src/store/state.js';
import { ENGINES, openAt, openTestState, type TestStateLocation } from '../helpers/state.js';

const SAMPLES = join(import.meta.dirname, '..', '..', 'src', 'replica', 'data', 'samples', 'match');
const schemas = createSchemas(createImageResolver('https://images.example/rivals'));
const detail: MatchDetail = schemas.match.parse(
  JSON.parse(
    readFileSync(
      join(
        SAMPLES,
        readdirSync(SAMPLES).find((f) => f.endsWith('.json'))!,
      ),
      'utf8',
    ),
  ),
);
const LEASE = 60_000;

const recorded = (matchUid: string, time: number): RecordedMatch => ({
  matchUid,
  time,
  season: 2,
  modeId: 2,
  ranked: true,
  heroId: '1011',
  won: true,
  drawn: false,
  mapId: null,
  newScore: 3000,
  scoreChange: 20,
  newLevel: 50,
  kills: 10,
  deaths: 5,
  assists: 3,
  mvp: false,
});

describe.each(ENGINES)('on %s', (engine) => {
  let state: State & { where: TestStateLocation };
  let other: State;
  beforeAll(async () => {
    state = await openTestState(engine);
    other = await openAt(state.where);
  });
  afterAll(async () => {
    await other?.close();
    await state?.close();
  });

  /** Tracks `uid` for `userId` and records one read of it with `matchUids`. */
  async function recordRead(userId: string, uid: string, matchUids: string[], now: number): Promise<void> {
    await state.links.link(userId, { uid, name: uid }, true, now);
    await state.tracking.follow(uid, now);
    const [claim] = (await state.tracking.claim(now, 50, LEASE)).filter((c) => c.uid === uid);
    const own = await state.tracking.recordRead(
      claim!,
      { snapshot: null, matches: matchUids.map((m, i) => recorded(m, 1_750_000_000 + i)), lastMatchAt: null, changed: false },
      { intervalMs: 1_800_000 },
      now,
    );
    expect(own).toBe(true);
  }

  /** Claims every due fetch and gives back all but `matchUid`'s. */
  async function claimOne(matchUid: string, now: number) {
    const claimed = await state.matchFetches.claim(now, 100, LEASE);
    for (const c of claimed) if (c.matchUid !== matchUid) await state.matchFetches.release(c, 0);
    return claimed.find((c) => c.matchUid === matchUid);
  }

  it('queues each recorded match once, from any player, and never one the store holds', async () => {
    await state.matches.put(detail, 1);
    await recordRead('m1', 'p1', ['q_a', 'q_b', detail.match_uid], 10);
    await recordRead('m2', 'p2', ['q_b', 'q_c'], 20);
    expect(await state.matchFetches.backlog(20)).toEqual({ waiting: 3, due: 3, gaveUp: 0 });
    const claimed = await other.matchFetches.claim(20, 10, LEASE);
    expect(claimed.map((c) => c.matchUid).sort()).toEqual(['q_a', 'q_b', 'q_c']);
    expect(claimed.every((c) => c.attempts === 0)).toBe(true);
    // Claimed: another connection gets none until the lease ends, then all of them.
    expect(await state.matchFetches.claim(20 + LEASE - 1, 10, LEASE)).toEqual([]);
    expect(await state.matchFetches.backlog(20)).toEqual({ waiting: 3, due: 0, gaveUp: 0 });
    const again = await state.matchFetches.claim(20 + LEASE, 10, LEASE);
    expect(again).toHaveLength(3);
    for (const c of again) await state.matchFetches.release(c, 0);
  });

  it('is ended by whoever stores the match: a member reading it, or another process', async () => {
    const claim = await claimOne('q_a', 100);
    // A member's /match stores it while the tracker holds the claim.
    await other.matches.put({ ...detail, match_uid: 'q_a' }, 100);
    const left = await state.matchFetches.claim(100 + LEASE, 10, LEASE);
    expect(left.map((c) => c.matchUid).sort()).toEqual(['q_b', 'q_c']);
    // The holder's own end changes nothing more.
    await state.matchFetches.done(claim!);
    for (const c of left) await state.matchFetches.release(c, 0);
    expect((await state.matchFetches.backlog(200)).waiting).toBe(2);
  });

  it('retries a match with no detail after a growing wait, and gives up after the last attempt, keeping the row so it is not queued again', async () => {
    let now = 1_000;
    for (let attempt = 1; attempt <= MATCH_FETCH_ATTEMPTS; attempt++) {
      const claim = await claimOne('q_b', now);
      expect(claim?.attempts).toBe(attempt - 1);
      const gaveUp = await state.matchFetches.retry(claim!, now);
      expect(gaveUp).toBe(attempt === MATCH_FETCH_ATTEMPTS);
      if (gaveUp) break;
      // Not due a moment before its wait ends; due at its end.
      const wait = retryDelayMs(attempt);
      const early = await state.matchFetches.claim(now + wait - 1, 10, LEASE);
      expect(early.map((c) => c.matchUid)).not.toContain('q_b');
      for (const c of early) await state.matchFetches.release(c, 0);
      now += wait;
    }
    expect(retryDelayMs(1)).toBe(10 * 60_000);
    expect(retryDelayMs(2)).toBe(60 * 60_000);
    const later = await state.matchFetches.claim(now + 365 * 86_400_000, 10, LEASE);
    expect(later.map((c) => c.matchUid)).toEqual(['q_c']);
    await state.matchFetches.release(later[0]!, 0);
    expect(await state.matchFetches.backlog(now)).toMatchObject({ waiting: 1, gaveUp: 1 });
    // Another player's read of the same match does not queue it again.
    await recordRead('m3', 'p3', ['q_b'], now);
    expect(await state.matchFetches.backlog(now)).toMatchObject({ waiting: 1, gaveUp: 1 });
  });

  it('a uid the API can never answer is given up at the first attempt', async () => {
    await recordRead('m4', 'p4', ['bad uid'], 5_000);
    const claim = await claimOne('bad uid', 5_000);
    expect(await state.matchFetches.retry(claim!, 5_000, true)).toBe(true);
    expect((await state.matchFetches.backlog(5_000)).gaveUp).toBe(2);
  });

  it('drops the queued matches of a player nobody tracks any more, and keeps those another tracked player recorded', async () => {
    await recordRead('m5', 'p5', ['solo_1', 'shared_1'], 6_000);
    await recordRead('m6', 'p6', ['shared_1'], 6_000);
    const before = (await state.matchFetches.backlog(6_000)).waiting;
    await state.links.unlink('m5', 'p5');
    await state.tracking.syncUids(['p5'], 6_001);
    const waiting = await state.matchFetches.claim(7_000, 100, LEASE);
    const uids = waiting.map((c) => c.matchUid);
    expect(uids).toContain('shared_1');
    expect(uids).not.toContain('solo_1');
    expect(waiting).toHaveLength(before - 1);
    for (const c of waiting) await state.matchFetches.release(c, 0);
  });

  // PostgreSQL only: SQLite has one writer, and two of its connections in one thread would wait on each other's lock.
  it.runIf(engine === 'postgres')('two connections claiming at once share the due matches without overlap', async () => {
    await recordRead(
      'm7',
      'p7',
      Array.from({ length: 40 }, (_, i) => `race_${i}`),
      8_000,
    );
    const [a, b] = await Promise.all([state.matchFetches.claim(8_000, 25, LEASE), other.matchFetches.claim(8_000, 25, LEASE)]);
    const race = (cs: typeof a) => cs.map((c) => c.matchUid).filter((u) => u.startsWith('race_'));
    const all = [...race(a), ...race(b)];
    expect(new Set(all).size).toBe(all.length);
    expect(race(a).length + race(b).length).toBeGreaterThan(0);
  });
});
