/**
 * The rank timeline dates each point by when its rank was reached, not by when the bot read it, keeps each point in the
 * season it holds, and ends at the header's rank: on every real capture, untracked and read by the tracker days later.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PlayerProfile } from '../../src/api/schemas.js';
import { newestUpdate, rankSummary } from '../../src/game/profile.js';
import { currentRankPoint, rankTimeline, sortTimeline, type RankTimelinePoint } from '../../src/game/rank-timeline.js';
import { tierOf } from '../../src/game/ranks.js';
import { seasonFromIndex } from '../../src/game/seasons.js';
import { standingOf } from '../../src/game/ladder.js';
import { readForTracking, trackedTimelinePoints, type ProfileSnapshot, type RecordedMatch } from '../../src/game/tracking.js';
import { everyRawProfile, profiles, schemas } from './samples.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/api-samples/player/', import.meta.url));
/** Every real capture: the replica's, the shared folder's and the fixtures', by file name. */
const RAW: Record<string, Record<string, unknown>> = {
  ...Object.fromEntries(
    readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as Record<string, unknown>]),
  ),
  ...everyRawProfile(),
};
const DAY_S = 86_400;

/** What the tracker records of `p` when it reads it at `readAt` (Unix seconds), as timeline points. */
function readBy(p: PlayerProfile, readAt: number): RankTimelinePoint[] {
  const read = readForTracking(p);
  if (read.kind !== 'read') return [];
  return trackedTimelinePoints([{ ...read.snapshot, at: readAt * 1000 }], read.matches);
}

/** The newest point shows the header: its score, its tier by the header's rule, its season, at the time it was reached. */
function expectEndsAtHeader(file: string, p: PlayerProfile, timeline: readonly RankTimelinePoint[]): void {
  const header = rankSummary(p);
  const last = timeline.at(-1);
  if (header.score === null) return expect(last, file).toBeUndefined();
  expect(last, file).toBeDefined();
  expect(last!.score, file).toBe(header.score);
  expect(tierOf(last!.level, last!.score), file).toBe(header.tier);
  expect(last!.season?.index, file).toBe(header.season?.index);
  expect(last!.time, file).toBe(header.reachedAt);
}

/** Oldest first by season, then by time within a season. */
function expectSorted(file: string, timeline: readonly RankTimelinePoint[]): void {
  for (let i = 1; i < timeline.length; i++) {
    const [a, b] = [timeline[i - 1]!, timeline[i]!];
    if (a.season && b.season && a.season.index !== b.season.index) expect(a.season.index, file).toBeLessThan(b.season.index);
    else expect(a.time, file).toBeLessThanOrEqual(b.time);
  }
}

describe('every real capture', () => {
  it('finds the captures: the replica’s, the shared folder’s and the fixtures’', () => {
    expect(Object.keys(RAW).length).toBeGreaterThanOrEqual(11);
  });

  for (const [file, body] of Object.entries(RAW)) {
    it(`${file}: the newest point of the timeline is the header’s rank, untracked and read by the tracker days later`, () => {
      const p = schemas.player.parse(body);
      const updated = newestUpdate(p)!;
      // Never later than the API says: the header's rank was reached by the profile's newest update at the latest.
      expect(rankSummary(p).reachedAt, file).toBeLessThanOrEqual(updated);
      const alone = rankTimeline(p);
      expectEndsAtHeader(file, p, alone);
      expectSorted(file, alone);
      // The tracker read the profile three days after its last update: its snapshot is dated when its rank was reached.
      const points = readBy(p, updated + 3 * DAY_S);
      for (const x of points) expect(x.time, file).toBeLessThanOrEqual(updated);
      const tracked = rankTimeline(p, points);
      expectEndsAtHeader(file, p, tracked);
      expectSorted(file, tracked);
      expect(tracked.every((x) => x.time <= updated)).toBe(true);
    });
  }
});

describe('when a rank was reached', () => {
  it('is the match that produced it: the season’s last change where that match is listed, else a newer competitive match', () => {
    // Card1gan's Season 1.5 last changed at the end of its newest competitive row, which holds the season's score.
    const card1gan = profiles['autumnnippert-card1gan-1403392756-2025-03-06.json']!;
    const newest = card1gan.recent_matches.find((m) => m.game_mode_id === 2)!;
    expect([rankSummary(card1gan).reachedAt, rankSummary(card1gan).score]).toEqual([newest.time, newest.player.new_score]);
    // Freddyhun's newest competitive match came after the season's last change: it holds the score and its time.
    const freddy = profiles['freddyhun-template-2025-03.json']!;
    expect(rankSummary(freddy).reachedAt).toBe(1742933538);
    expect(Math.trunc(rankSummary(freddy).score!)).toBe(5032);
  });

  it('is the season’s own update time when no listed match produced it, never the time of the update request', () => {
    // Hayamaken lists no competitive match: Season 1 last changed in January, the profile was asked for an update in March.
    const p = profiles['autumnnippert-hayamaken-1402468705.json']!;
    expect(rankSummary(p).reachedAt).toBe(1737529190);
    expect(newestUpdate(p)).toBe(1741237836);
  });

  it('is never later than the profile’s newest update, and is the update time for a profile that lists no ranked season', () => {
    const p = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    const last = p.rank_seasons.length - 1;
    const late = { ...p, rank_seasons: p.rank_seasons.map((s, i) => (i === last ? { ...s, update_time: newestUpdate(p)! + DAY_S } : s)) };
    expect(rankSummary(late).reachedAt).toBe(newestUpdate(p));
    const none = { ...p, rank_seasons: [] };
    expect(rankSummary(none).reachedAt).toBe(newestUpdate(p));
  });

  it('dates a snapshot by its `reachedAt`, never later than its read; one recorded before that was kept, by the match that left its score', () => {
    const match = (time: number, newScore: number): RecordedMatch => ({
      matchUid: `m${time}`,
      time,
      season: 9,
      modeId: 2,
      ranked: true,
      heroId: null,
      won: true,
      newScore,
      scoreChange: 20,
      newLevel: 8,
      kills: 0,
      deaths: 0,
      assists: 0,
    });
    const snap = (at: number, score: number, reachedAt?: number | null): ProfileSnapshot & { at: number } => ({
      at: at * 1000,
      season: 9,
      tier: 'Gold II',
      score,
      level: 40,
      matches: 1,
      wins: 1,
      rankedMatches: 1,
      rankedWins: 1,
      ...(reachedAt === undefined ? {} : { reachedAt }),
    });
    const T = 1_800_000_000;
    const times = (s: ProfileSnapshot & { at: number }) => trackedTimelinePoints([s], [match(T - 5 * DAY_S, 3700), match(T - 4 * DAY_S, 3752)])[2]!.time;
    expect(times(snap(T, 3752, T - 4 * DAY_S))).toBe(T - 4 * DAY_S);
    expect(times(snap(T, 3752, T + DAY_S))).toBe(T);
    // Recorded before `reachedAt` was kept: the newest recorded match of its season that left the same score.
    expect(times(snap(T, 3752))).toBe(T - 4 * DAY_S);
    expect(times(snap(T, 3752, null))).toBe(T - 4 * DAY_S);
    // Nothing else dates it: its read.
    expect(times(snap(T, 3800))).toBe(T);
  });

  it('hands the ladder its records in order: the week starts from the last point at or before a week ago, by its own time', () => {
    const T = 1_800_000_000;
    const match = (time: number, newScore: number): RecordedMatch => ({
      matchUid: `m${time}`,
      time,
      season: 9,
      modeId: 2,
      ranked: true,
      heroId: null,
      won: true,
      newScore,
      scoreChange: 20,
      newLevel: 8,
      kills: 0,
      deaths: 0,
      assists: 0,
    });
    const current: ProfileSnapshot = { season: 9, tier: 'Gold II', score: 3752, level: 40, matches: 3, wins: 3, rankedMatches: 3, rankedWins: 3 };
    // The first read, ten days ago, holds 3,700; the matches nine and two days ago leave 3,720 and 3,752.
    const snapshots = [{ ...current, score: 3700, at: (T - 10 * DAY_S) * 1000, reachedAt: T - 10 * DAY_S }];
    const matches = [match(T - 9 * DAY_S, 3720), match(T - 2 * DAY_S, 3752)];
    const points = trackedTimelinePoints(snapshots, matches);
    expect(points.map((x) => x.time)).toEqual([T - 10 * DAY_S, T - 9 * DAY_S, T - 2 * DAY_S]);
    const standing = standingOf(current, { timeline: points, matches }, { apiPeak: null, role: null }, T * 1000);
    expect(standing.weekDelta).toBe(32);
  });
});

describe('sortTimeline', () => {
  const point = (time: number, season: number | null): RankTimelinePoint => ({
    time,
    score: 3000,
    change: null,
    level: null,
    levelFrom: null,
    season: season === null ? null : seasonFromIndex(season),
    source: 'match',
  });

  it('orders by season, then by time; a point of no known season goes by its time among the rest', () => {
    // A point of Season 2.5 dated after the first points of Season 3 still comes before them.
    const sorted = sortTimeline([point(40, 5), point(10, 4), point(35, 4), point(20, 5), point(30, null), point(5, null), point(99, null)]);
    expect(sorted.map((x) => [x.time, x.season?.index ?? null])).toEqual([
      [5, null],
      [10, 4],
      [30, null],
      [35, 4],
      [20, 5],
      [40, 5],
      [99, null],
    ]);
  });

  it('keeps the order of points at one time', () => {
    const a = { ...point(10, 4), source: 'match' as const };
    const b = { ...point(10, 4), source: 'snapshot' as const };
    expect(sortTimeline([a, b])).toEqual([a, b]);
  });
});

describe('currentRankPoint', () => {
  it('is the header’s rank at the time it was reached, for every capture that has one', () => {
    for (const [file, p] of Object.entries(profiles)) {
      const header = rankSummary(p);
      const point = currentRankPoint(p);
      if (header.score === null) continue;
      expect([point?.score, tierOf(point!.level, point!.score), point?.season?.index, point?.time], file).toEqual([
        header.score,
        header.tier,
        header.season?.index,
        header.reachedAt,
      ]);
    }
  });
});
