/** The tracker over a real (in-memory SQLite) store and a scripted API serving real captures in date order. */
import { afterEach, describe, expect, it } from 'vitest';
import type { PlayerProfile } from '../../src/api/schemas.js';
import { ApiError } from '../../src/core/api-errors.js';
import type { Fetched } from '../../src/cache/response-cache.js';
import { Tracker } from '../../src/jobs/tracker.js';
import { rankSummary } from '../../src/game/profile.js';
import { rankTimeline } from '../../src/game/rank-timeline.js';
import { trackedTimelinePoints } from '../../src/game/tracking.js';
import type { State } from '../../src/store/state.js';
import { profiles } from '../game/samples.js';
import { capturingLogger } from '../helpers/replica.js';
import { memoryState } from '../helpers/state.js';
import { pollUntil } from '../helpers/until.js';

const UID = '1786151874';
const CAPTURES = [
  'doublec8-double-c-1786151874-2025-05-26.json',
  'doublec8-double-c-1786151874-2025-06-05.json',
  'doublec8-double-c-1786151874-2025-08-05.json',
].map((f) => profiles[f]!);
const MIN = 1_800_000;
const MAX = 86_400_000;

type Answer = PlayerProfile | Error | { stale: PlayerProfile };

/** A scripted `api.player`: each call takes the next answer; records what it was asked. */
function scriptedApi(answers: Answer[]) {
  const calls: { query: string; options: unknown }[] = [];
  return {
    calls,
    api: {
      player: async (query: string | number, _params: unknown, options: unknown): Promise<Fetched<PlayerProfile>> => {
        calls.push({ query: String(query), options });
        const next = answers.shift();
        if (!next) throw new Error('no answer scripted');
        if (next instanceof Error) throw next;
        const stale = 'stale' in next;
        return { data: stale ? next.stale : next, fetchedAt: 0, ageMs: 0, stale, source: stale ? 'stale' : 'upstream' };
      },
    },
  };
}

let state: State;
afterEach(async () => state.close());

function setUp(answers: Answer[], at: { now: number }) {
  state = memoryState();
  const { api, calls } = scriptedApi(answers);
  const { logger, lines } = capturingLogger();
  const tracker = new Tracker({ api: api, tracking: state.tracking, spare: () => 0, logger, now: () => at.now, minMs: MIN, maxMs: MAX, idleMs: 20 });
  /** Claims and reads whoever is due at `t`; returns how many reads started. */
  const readAt = async (t: number) => {
    at.now = t;
    const started = await tracker.step();
    await tracker.settled();
    return started;
  };
  return { tracker, calls, lines, readAt };
}

const seconds = (ms: number) => ms / 1000;

describe('Tracker', () => {
  it('with nobody due, reads ahead of time a player not read for the shortest interval, never one read within it', async () => {
    const at = { now: 0 };
    const { calls, readAt } = setUp([CAPTURES[2]!, CAPTURES[2]!], at);
    await state.links.link('m1', { uid: UID, name: 'Double C' }, true, 0);
    // Read 10 hours after its newest match: the next read is due a quarter of that later, 2.5 hours.
    const t = Math.max(...CAPTURES[2]!.recent_matches.map((m) => m.time!)) * 1000 + 10 * 3_600_000;
    expect(await readAt(t)).toBe(1);
    const { next_read_at: due } = await state.database.db.selectFrom('tracked_players').select('next_read_at').executeTakeFirstOrThrow();
    expect(Number(due)).toBe(t + 2.5 * 3_600_000);
    expect(await readAt(t + MIN - 1)).toBe(0);
    expect(await readAt(t + MIN)).toBe(1);
    expect(calls.map((c) => c.query)).toEqual([UID, UID]);
  });

  it('reads a player two members linked once per due time, fresh at tracking priority, and records each capture as it changes', async () => {
    const at = { now: 0 };
    const { calls, readAt } = setUp([...CAPTURES], at);
    await state.links.link('m1', { uid: UID, name: 'Double C' }, true, 0);
    await state.links.link('m2', { uid: UID, name: 'Double C' }, true, 0);
    // Each capture read a little after its newest match.
    const times = CAPTURES.map((p) => Math.max(...p.recent_matches.map((m) => m.time!)) * 1000 + 60_000);
    expect(await readAt(times[0]!)).toBe(1);
    // Not due again yet: nothing is read.
    expect(await readAt(times[0]! + 1_000)).toBe(0);
    expect(await readAt(times[1]!)).toBe(1);
    expect(await readAt(times[2]!)).toBe(1);
    expect(calls).toHaveLength(3);
    expect(calls[0]).toEqual({ query: UID, options: expect.objectContaining({ fresh: true, priority: 'tracking' }) as unknown });

    const snapshots = await state.tracking.snapshots(UID);
    expect(snapshots.map((s) => s.at)).toEqual(times);
    const matches = await state.tracking.matches(UID);
    const uids = new Set(CAPTURES.flatMap((p) => p.recent_matches.map((m) => m.match_uid)));
    expect(matches.map((m) => m.matchUid).sort()).toEqual([...uids].sort());
    // Each capture's newest competitive match is a rank point.
    for (const p of CAPTURES) {
      const newest = p.recent_matches.filter((m) => m.game_mode_id === 2).sort((x, y) => y.time! - x.time!)[0]!;
      expect(matches.find((m) => m.matchUid === newest.match_uid)!.newScore).toBe(newest.player.new_score);
    }
  });

  it('reads a profile days after its last match: the point it records is dated by that match, not by the read', async () => {
    const at = { now: 0 };
    // The May capture: Season 2's score was left by its newest competitive match, the season's last change.
    const p = CAPTURES[0]!;
    const newest = p.recent_matches.filter((m) => m.game_mode_id === 2).sort((x, y) => y.time! - x.time!)[0]!;
    const { readAt } = setUp([p], at);
    await state.links.link('m1', { uid: UID, name: 'Double C' }, true, 0);
    const read = newest.time! * 1000 + 3 * 24 * 3_600_000;
    expect(await readAt(read)).toBe(1);
    const [snapshot] = await state.tracking.snapshots(UID);
    expect([snapshot!.at, snapshot!.reachedAt, snapshot!.score]).toEqual([read, newest.time, newest.player.new_score]);
    const records = await state.tracking.timeline(UID);
    const points = trackedTimelinePoints(records.snapshots, records.matches);
    const fromSnapshot = points.filter((x) => x.source === 'snapshot');
    expect(fromSnapshot.map((x) => [x.time, x.score])).toEqual([[newest.time, newest.player.new_score]]);
    expect(points.every((x) => x.time <= newest.time!)).toBe(true);
    // The profile's own timeline with these records ends at the header: the match's score, at the match's time.
    expect(rankTimeline(p, points).at(-1)).toMatchObject({ time: newest.time, score: rankSummary(p).score, matchUid: newest.match_uid });
  });

  it('a read that shows no change stores no snapshot and backs off: the next due time doubles', async () => {
    const at = { now: 0 };
    const p = CAPTURES[2]!;
    const { readAt } = setUp([p, p, p], at);
    await state.links.link('m1', { uid: UID, name: 'Double C' }, true, 0);
    const lastMatch = Math.max(...p.recent_matches.map((m) => m.time!)) * 1000;
    let t = lastMatch + 60_000;
    await readAt(t);
    const dueAfter: number[] = [];
    for (let i = 0; i < 2; i++) {
      const row = await state.database.db.selectFrom('tracked_players').select(['next_read_at', 'interval_ms']).executeTakeFirstOrThrow();
      dueAfter.push(Number(row.interval_ms));
      t = Number(row.next_read_at);
      await readAt(t);
    }
    const row = await state.database.db.selectFrom('tracked_players').select('interval_ms').executeTakeFirstOrThrow();
    dueAfter.push(Number(row.interval_ms));
    expect(dueAfter).toEqual([MIN, 2 * MIN, 4 * MIN]);
    expect(await state.tracking.snapshots(UID)).toHaveLength(1);
    expect(seconds(lastMatch)).toBe((await state.tracking.claim(t + 10 * MAX, 1, 1))[0]!.lastMatchAt);
  });

  it('a 429, a 5xx or a stale answer records nothing, keeps the player, and retries sooner than the schedule; the next good read records', async () => {
    const at = { now: 0 };
    const failures: Answer[] = [
      new ApiError({ kind: 'rate_limited', endpoint: 'player', status: 429, upstreamMessage: 'slow down' }),
      new ApiError({ kind: 'unavailable', endpoint: 'player', status: 503, upstreamMessage: 'down' }),
      { stale: CAPTURES[0]! },
    ];
    const { readAt, lines } = setUp([...failures, CAPTURES[0]!], at);
    await state.links.link('m1', { uid: UID, name: 'Double C' }, true, 0);
    let t = 1_000;
    for (let i = 0; i < failures.length; i++) {
      expect(await readAt(t)).toBe(1);
      const row = await state.database.db.selectFrom('tracked_players').select(['next_read_at', 'failures', 'deadline_at']).executeTakeFirstOrThrow();
      expect(Number(row.failures)).toBe(i + 1);
      // Its place kept: the deadline it had when it was added (the first step, at 1 s).
      expect(Number(row.deadline_at)).toBe(1_000);
      expect(Number(row.next_read_at) - t).toBeLessThanOrEqual(MIN);
      t = Number(row.next_read_at);
    }
    expect(await state.tracking.snapshots(UID)).toEqual([]);
    expect(lines.join('')).toContain('tracking read failed');
    await readAt(t);
    expect(await state.tracking.snapshots(UID)).toHaveLength(1);
  });

  it('never records a private profile, and skips one that breaks its own invariants with a log line', async () => {
    const at = { now: 0 };
    const p = CAPTURES[1]!;
    const broken = { ...p, overall: { ...p.overall, total_wins: p.overall.total_matches + 5 } };
    const { readAt, lines } = setUp([{ ...p, is_private: true }, broken], at);
    await state.links.link('m1', { uid: UID, name: 'Double C' }, true, 0);
    await readAt(1_000);
    const row = await state.database.db.selectFrom('tracked_players').select('next_read_at').executeTakeFirstOrThrow();
    expect(Number(row.next_read_at)).toBe(1_000 + MAX);
    await readAt(1_000 + MAX);
    expect(await state.tracking.snapshots(UID)).toEqual([]);
    expect(await state.tracking.matches(UID)).toEqual([]);
    const skipped = lines.filter((l) => l.includes('tracking read skipped'));
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatch(/wins \d+ above matches \d+/);
  });

  it('a store outage pauses tracking with a log line and no read; it goes on once the store is back', async () => {
    const at = { now: 1_000 };
    const { tracker, calls, lines } = setUp([CAPTURES[0]!], at);
    await state.links.link('m1', { uid: UID, name: 'Double C' }, true, 0);
    const claim = state.tracking.claim.bind(state.tracking);
    let down = true;
    state.tracking.claim = async (...args) => {
      if (down) throw new Error('connection refused');
      return claim(...args);
    };
    tracker.start();
    await pollUntil(() => lines.join('').includes('tracking paused'), 'the pause to be logged');
    expect(calls).toHaveLength(0);
    down = false;
    await pollUntil(async () => (await state.tracking.snapshots(UID)).length === 1, 'the read after the outage');
    await tracker.stop();
  });
});
