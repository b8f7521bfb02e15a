/**
 * The tracker's match reads (src/jobs/tracker.ts with src/store/match-fetches.ts) over a real in-memory store and a scripted
 * API serving a real profile and the real match details recorded of its matches: each match is read once however many
 * members or processes saw it, at tracking priority, stored for good, retried a few times when the API has no detail,
 * and given its share of reads while profiles are due too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MatchDetail, PlayerProfile } from '../../src/api/schemas.js';
import type { Fetched } from '../../src/cache/response-cache.js';
import { ApiArgumentError, ApiError } from '../../src/core/api-errors.js';
import { Tracker } from '../../src/jobs/tracker.js';
import { MATCH_FETCH_ATTEMPTS, retryDelayMs } from '../../src/store/match-fetches.js';
import type { State } from '../../src/store/state.js';
import { matches as details, profiles } from '../game/samples.js';
import { capturingLogger } from '../helpers/replica.js';
import { memoryState } from '../helpers/state.js';

/** Card1gan's capture: 20 recent matches, four of them with a recorded detail. */
const PROFILE = profiles['autumnnippert-card1gan-1403392756-2025-03-06.json']!;
const UID = String(PROFILE.uid);
const MATCH_UIDS = PROFILE.recent_matches.map((m) => m.match_uid);
const WITH_DETAIL = MATCH_UIDS.filter((u) => u in details);
const MIN = 1_800_000;
const MAX = 86_400_000;
/** After the capture's newest match. */
const T0 = Math.max(...PROFILE.recent_matches.map((m) => m.time!)) * 1000 + 60_000;

const fetched = <T>(data: T): Fetched<T> => ({ data, fetchedAt: 0, ageMs: 0, stale: false, source: 'upstream' });

/** A scripted API: every profile query answers `profileOf(uid)`; a match answers its recorded detail, else `missing(uid)`. */
function scriptedApi(profileOf: (uid: string) => PlayerProfile, missing: (uid: string) => MatchDetail | Error) {
  const playerCalls: string[] = [];
  const matchCalls: { uid: string; options: unknown }[] = [];
  return {
    playerCalls,
    matchCalls,
    api: {
      player: async (query: string | number): Promise<Fetched<PlayerProfile>> => {
        playerCalls.push(String(query));
        return fetched(profileOf(String(query)));
      },
      match: async (uid: string, options?: unknown): Promise<Fetched<MatchDetail>> => {
        matchCalls.push({ uid, options });
        const d = details[uid] ?? missing(uid);
        if (d instanceof Error) throw d;
        return fetched(d);
      },
    },
  };
}

const notFound = () => new ApiError({ kind: 'not_found', endpoint: 'match', status: 404 });

let states: State[] = [];
afterEach(async () => {
  await Promise.all(states.map((s) => s.close()));
  states = [];
});

function tracker(state: State, api: ReturnType<typeof scriptedApi>['api'], at: { now: number }, share = 0.25) {
  const { logger, lines } = capturingLogger();
  const t = new Tracker({
    api,
    tracking: state.tracking,
    matches: { api, fetches: state.matchFetches, store: state.matches, share },
    spare: () => 0,
    logger,
    now: () => at.now,
    minMs: MIN,
    maxMs: MAX,
    idleMs: 20,
  });
  return { t, lines };
}

/** Steps `t` until it starts nothing at `at.now`; returns how many reads it started. */
async function drain(t: Tracker): Promise<number> {
  let n = 0;
  while ((await t.step()) === 1) {
    n++;
    await t.settled();
  }
  return n;
}

describe('Tracker: match details', () => {
  it('reads the matches a profile read recorded, once each, at tracking priority, and stores those the API has', async () => {
    const state = memoryState();
    states.push(state);
    const at = { now: T0 };
    const s = scriptedApi(() => PROFILE, notFound);
    const { t } = tracker(state, s.api, at);
    // A member already opened one of them: stored, so never queued.
    const seen = WITH_DETAIL[0]!;
    await state.matches.put(details[seen]!, T0 - 1);
    await state.links.link('m1', { uid: UID, name: 'card1gan' }, true, T0);

    expect(await drain(t)).toBe(MATCH_UIDS.length);
    expect(s.playerCalls).toEqual([UID]);
    expect(s.matchCalls.map((c) => c.uid).sort()).toEqual(MATCH_UIDS.filter((u) => u !== seen).sort());
    for (const c of s.matchCalls) expect(c.options).toMatchObject({ priority: 'tracking' });
    expect(t.counts).toEqual({ profiles: 1, matches: MATCH_UIDS.length - 1 });
    expect(await state.matches.stored(MATCH_UIDS)).toEqual(new Set(WITH_DETAIL));
    for (const u of WITH_DETAIL) expect((await state.matches.get(u))?.detail).toEqual(details[u]);
    const missing = MATCH_UIDS.length - WITH_DETAIL.length;
    expect(await state.matchFetches.backlog(at.now)).toEqual({ waiting: missing, due: 0, gaveUp: 0 });

    // The rest are tried again after a growing wait, and given up after the last attempt.
    // (The profile falls due again in between: only match reads are counted.)
    const matchReads = async () => {
      const before = t.counts.matches;
      await drain(t);
      return t.counts.matches - before;
    };
    for (let attempt = 1; attempt < MATCH_FETCH_ATTEMPTS; attempt++) {
      at.now += retryDelayMs(attempt) - 1;
      expect(await matchReads()).toBe(0);
      at.now += 1;
      expect(await matchReads()).toBe(missing);
    }
    expect(await state.matchFetches.backlog(at.now)).toEqual({ waiting: 0, due: 0, gaveUp: missing });
    const calls = s.matchCalls.length;
    at.now += 365 * 86_400_000;
    // Only the profile, due again: no match is read after it was given up.
    await drain(t);
    expect(s.matchCalls).toHaveLength(calls);
    expect(s.matchCalls).toHaveLength(MATCH_UIDS.length - 1 + missing * (MATCH_FETCH_ATTEMPTS - 1));
  });

  it('a duo costs one read a match: two members, two servers, two processes, one store', async () => {
    const state = memoryState();
    states.push(state);
    const at = { now: T0 };
    // A teammate of the recorded matches: the same history, their own uid.
    const mate = details[WITH_DETAIL[0]!]!.players.find((p) => p.player_uid !== UID)!.player_uid;
    const s = scriptedApi((uid) => ({ ...PROFILE, uid }), notFound);
    const a = tracker(state, s.api, at).t;
    const b = tracker(state, s.api, at).t;
    await state.links.link('m1', { uid: UID, name: 'card1gan' }, true, T0);
    await state.links.link('m2', { uid: mate, name: 'mate' }, true, T0);

    // Both processes step at once until neither finds anything due.
    let started: number[];
    do {
      started = await Promise.all([a.step(), b.step()]);
      await Promise.all([a.settled(), b.settled()]);
    } while (started.some((n) => n > 0));

    expect(s.playerCalls.sort()).toEqual([UID, mate].sort());
    const reads = s.matchCalls.map((c) => c.uid);
    expect(reads.sort()).toEqual([...MATCH_UIDS].sort());
    expect(a.counts.matches + b.counts.matches).toBe(MATCH_UIDS.length);
    expect(await state.matches.count()).toBe(WITH_DETAIL.length);
  });

  it('gives match reads their share while profiles are due, and the whole budget the other kind leaves', async () => {
    const run = async (share: number) => {
      const state = memoryState();
      states.push(state);
      const at = { now: T0 };
      const s = scriptedApi((uid) => ({ ...PROFILE, uid }), notFound);
      const { t } = tracker(state, s.api, at, share);
      for (let i = 0; i < 30; i++) await state.links.link(`m${i}`, { uid: String(1_000 + i), name: `p${i}` }, true, T0);
      const kinds: ('p' | 'm')[] = [];
      for (;;) {
        const before = t.counts;
        if ((await t.step()) === 0) break;
        await t.settled();
        kinds.push(t.counts.matches > before.matches ? 'm' : 'p');
      }
      return kinds;
    };
    const quarter = await run(0.25);
    // 30 profiles and 20 matches: every one read once.
    expect(quarter.filter((k) => k === 'p')).toHaveLength(30);
    expect(quarter.filter((k) => k === 'm')).toHaveLength(20);
    // While both kinds are due, a quarter of the last reads are match reads.
    const whileBoth = quarter.slice(0, 30);
    const share = whileBoth.filter((k) => k === 'm').length / whileBoth.length;
    expect(share).toBeGreaterThanOrEqual(0.2);
    expect(share).toBeLessThanOrEqual(0.3);

    // None: match reads wait until no profile is due, then take it all.
    const none = await run(0);
    expect(none.join('')).toBe('p'.repeat(30) + 'm'.repeat(20));
    // All: the first profile's matches go before the other profiles.
    const all = await run(1);
    expect(all.join('')).toBe('p' + 'm'.repeat(20) + 'p'.repeat(29));
  });

  it('an API that cannot answer now costs no attempt; a uid it can never take is given up at once', async () => {
    const state = memoryState();
    states.push(state);
    const at = { now: T0 };
    const broken = MATCH_UIDS.find((u) => !(u in details))!;
    const unavailable = new ApiError({ kind: 'unavailable', endpoint: 'match', status: 503 });
    let answer: (uid: string) => MatchDetail | Error = (uid) => (uid === broken ? new ApiArgumentError('match', 'match_uid', 'badCharacters') : unavailable);
    const s = scriptedApi(
      () => PROFILE,
      (uid) => answer(uid),
    );
    const { t, lines } = tracker(state, s.api, at);
    await state.links.link('m1', { uid: UID, name: 'card1gan' }, true, T0);
    await drain(t);
    const transient = MATCH_UIDS.length - WITH_DETAIL.length - 1;
    expect(await state.matchFetches.backlog(at.now)).toEqual({ waiting: transient, due: 0, gaveUp: 1 });
    expect(
      lines
        .map((l) => JSON.parse(l) as { msg: string; kind?: string })
        .some((l) => l.msg === 'a match read failed; tried again later' && l.kind === 'unavailable'),
    ).toBe(true);
    // Five minutes on, the API answers: each is read with no attempt spent, and given up later only after all of them.
    answer = () => notFound();
    at.now += 5 * 60_000;
    expect(await drain(t)).toBe(transient);
    const [claim] = await state.matchFetches.claim(at.now + retryDelayMs(1), 1, 60_000);
    expect(claim?.attempts).toBe(1);
  });
});
