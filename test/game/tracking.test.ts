import { describe, expect, it } from 'vitest';
import {
  nextInterval,
  readForTracking,
  sameSnapshot,
  trackedTimelinePoints,
  weekChange,
  withRecordedMatches,
  type ProfileSnapshot,
  type RecordedMatch,
} from '../../src/game/tracking.js';
import { modesByMap } from '../../src/game/modes.js';
import { rankSummary } from '../../src/game/profile.js';
import { rankTimeline } from '../../src/game/rank-timeline.js';
import { tierOf } from '../../src/game/ranks.js';
import { seasonFromIndex } from '../../src/game/seasons.js';
import { profiles } from './samples.js';

const CAPTURES = [
  'doublec8-double-c-1786151874-2025-05-26.json',
  'doublec8-double-c-1786151874-2025-06-05.json',
  'doublec8-double-c-1786151874-2025-08-05.json',
];

describe('readForTracking', () => {
  it('reads every real capture: wins within matches, the current score, and one ranked point per competitive match', () => {
    for (const [file, p] of Object.entries(profiles)) {
      const read = readForTracking(p);
      if (p.is_private) {
        expect(read.kind, file).toBe('private');
        continue;
      }
      expect(read.kind, file).toBe('read');
      if (read.kind !== 'read') continue;
      expect(read.snapshot.wins, file).toBeLessThanOrEqual(read.snapshot.matches);
      expect(read.snapshot.score, file).toBe(rankSummary(p).score);
      // Each recorded match once, by its match UID, and a rank score only after a competitive one.
      expect(new Set(read.matches.map((m) => m.matchUid)).size, file).toBe(read.matches.length);
      for (const m of read.matches) if (!m.ranked) expect(m.newScore, `${file} ${m.matchUid}`).toBeNull();
      expect(read.lastMatchAt, file).toBe(read.matches.length ? Math.max(...read.matches.map((m) => m.time)) : null);
    }
  });

  it('three captures of one player: each read records the newest match and its rank score after it', () => {
    const reads = CAPTURES.map((f) => readForTracking(profiles[f]!));
    const times = reads.map((r) => (r.kind === 'read' ? r.lastMatchAt : null));
    expect(times).toEqual([1748300560, 1749103193, 1754021918]);
    const newest = reads.map((r) => (r.kind === 'read' ? r.matches.find((m) => m.time === r.lastMatchAt)!.newScore : null));
    expect(newest.map((s) => Math.round(s!))).toEqual([3137, 3525, 3468]);
  });

  it('never records a private profile', () => {
    const p = { ...profiles[CAPTURES[0]!]!, is_private: true };
    expect(readForTracking(p)).toEqual({ kind: 'private' });
  });

  it('skips a profile whose wins exceed its matches, or whose score is no score, saying which', () => {
    const p = profiles[CAPTURES[2]!]!;
    expect(readForTracking({ ...p, overall: { ...p.overall, total_wins: p.overall.total_matches + 1 } })).toMatchObject({
      kind: 'malformed',
      reason: expect.stringContaining('above matches') as string,
    });
    // The score recorded is the season's (the API's own rank block is not read over it).
    const seasons = p.rank_seasons.map((s, i) => (i === p.rank_seasons.length - 1 ? { ...s, rank_score: -5 } : s));
    expect(readForTracking({ ...p, rank_seasons: seasons })).toMatchObject({ kind: 'malformed', reason: 'rank score -5' });
    const bad = p.recent_matches.findIndex((m) => m.game_mode_id === 2);
    const matches = p.recent_matches.map((m, i) => (i === bad ? { ...m, player: { ...m.player, new_score: Number.POSITIVE_INFINITY } } : m));
    expect(readForTracking({ ...p, recent_matches: matches })).toMatchObject({ kind: 'malformed' });
  });
});

describe('sameSnapshot', () => {
  const base: ProfileSnapshot = { season: 7, tier: 'Gold II', score: 3752, level: 40, matches: 43, wins: 20, rankedMatches: 30, rankedWins: 15 };
  it('is true only when every field is the same', () => {
    expect(sameSnapshot(base, { ...base })).toBe(true);
    for (const key of Object.keys(base) as (keyof ProfileSnapshot)[]) {
      expect(sameSnapshot(base, { ...base, [key]: key === 'tier' ? 'Gold I' : 1 }), key).toBe(false);
    }
  });
});

describe('nextInterval', () => {
  const bounds = { minMs: 1_800_000, maxMs: 86_400_000 };
  const now = Date.UTC(2026, 10, 27, 12);
  const hoursAgo = (h: number) => (now - h * 3_600_000) / 1000;

  it('reads a player who played recently more often: a quarter of the time since the last match, within the bounds', () => {
    expect(nextInterval({ changed: true, previousMs: null, lastMatchAt: hoursAgo(1), now }, bounds)).toBe(bounds.minMs);
    expect(nextInterval({ changed: true, previousMs: null, lastMatchAt: hoursAgo(8), now }, bounds)).toBe(2 * 3_600_000);
    expect(nextInterval({ changed: true, previousMs: null, lastMatchAt: hoursAgo(24 * 21), now }, bounds)).toBe(bounds.maxMs);
    expect(nextInterval({ changed: true, previousMs: null, lastMatchAt: null, now }, bounds)).toBe(bounds.maxMs);
  });

  it('backs off a read that changed nothing, doubling up to the longest interval', () => {
    let interval = bounds.minMs;
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      interval = nextInterval({ changed: false, previousMs: interval, lastMatchAt: hoursAgo(1), now }, bounds);
      seen.push(interval);
    }
    expect(seen.slice(0, 5)).toEqual([3_600_000, 7_200_000, 14_400_000, 28_800_000, 57_600_000]);
    expect(seen.slice(5)).toEqual([bounds.maxMs, bounds.maxMs, bounds.maxMs]);
    // A change brings the interval back to the player's activity.
    expect(nextInterval({ changed: true, previousMs: bounds.maxMs, lastMatchAt: hoursAgo(0.1), now }, bounds)).toBe(bounds.minMs);
  });
});

describe('the tracked timeline and the week', () => {
  const season = seasonFromIndex(9)!;
  const DAY_S = 86_400;
  const now = Date.UTC(2026, 10, 27) / 1000;
  const m = (uid: string, time: number, newScore: number | null, won: boolean, modeId = 2): RecordedMatch => ({
    matchUid: uid,
    time,
    season: 9,
    modeId,
    ranked: modeId === 2,
    heroId: null,
    won,
    newScore,
    scoreChange: null,
    newLevel: null,
    kills: 0,
    deaths: 0,
    assists: 0,
  });

  it('turns ranked matches and snapshots into points; a snapshot repeating the score before it adds nothing', () => {
    const snap = (at: number, score: number) => ({
      at: at * 1000,
      ...{ season: 9, tier: 'Gold I', score, level: 1, matches: 1, wins: 1, rankedMatches: 1, rankedWins: 1 },
    });
    const points = trackedTimelinePoints([snap(now - 50, 3100), snap(now - 10, 3200)], [m('a', now - 100, 3100, true), m('q', now - 90, null, true, 1)]);
    expect(points.map((p) => [p.source, p.score, p.season?.index])).toEqual([
      ['match', 3100, 9],
      ['snapshot', 3100, 9],
      ['snapshot', 3200, 9],
    ]);
    const p = profiles[CAPTURES[0]!]!;
    const timeline = rankTimeline({ ...p, recent_matches: [], rank_history: [], rank_seasons: [] }, points);
    expect(timeline.map((x) => [x.source, x.score])).toEqual([
      ['match', 3100],
      ['snapshot', 3200],
    ]);
  });

  it('a full week: from the last point at or before a week ago; matches of the week with their wins, practice left out', () => {
    const timeline = [
      { time: now - 9 * DAY_S, score: 3000, change: null, level: null, levelFrom: null, season, source: 'match' as const },
      { time: now - 8 * DAY_S, score: 3050, change: null, level: null, levelFrom: null, season, source: 'match' as const },
      { time: now - 2 * DAY_S, score: 3120, change: null, level: null, levelFrom: null, season, source: 'match' as const },
      // Another season's point is never compared with this one's.
      { time: now - 7.5 * DAY_S, score: 5000, change: null, level: null, levelFrom: null, season: seasonFromIndex(8), source: 'snapshot' as const },
    ].sort((a, b) => a.time - b.time);
    const matches = [
      m('old', now - 8 * DAY_S, 3050, true),
      m('a', now - 2 * DAY_S, 3120, true),
      m('b', now - DAY_S, 3100, false),
      m('ai', now - 3600, null, true, 7),
    ];
    const week = weekChange(timeline, matches, { score: 3100, tier: 'Gold I', season: 9 }, now * 1000);
    expect(week).toEqual({
      since: now - 7 * DAY_S,
      fullWeek: true,
      scoreFrom: 3050,
      scoreTo: 3100,
      tierFrom: tierOf(null, 3050),
      tierTo: 'Gold I',
      matches: 2,
      wins: 1,
    });
    expect(weekChange([], [], { score: 3100, tier: 'Gold I', season: 9 }, now * 1000)).toBeNull();
  });
});

describe('withRecordedMatches', () => {
  it('adds the recorded matches the rows lack, each on the map its uid names; an older uid names none', () => {
    const recorded = (file: string) => {
      const read = readForTracking(profiles[file]!);
      if (read.kind !== 'read') throw new Error(`${file} is not readable`);
      return read.matches;
    };
    // The June capture's uids are of the newer form: each names its row's map.
    const june = profiles['doublec8-double-c-1786151874-2025-06-05.json']!;
    const rows = withRecordedMatches([], recorded('doublec8-double-c-1786151874-2025-06-05.json'));
    expect(rows.map((r) => [r.match_uid, r.map_id, r.game_mode_id])).toEqual(june.recent_matches.map((m) => [m.match_uid, m.map_id, m.game_mode_id]));
    expect(modesByMap(rows)).toEqual(modesByMap(june.recent_matches));
    // A match whose row is held keeps the row (it has play_mode_id); March's older uids name no map, so no mode.
    const held = june.recent_matches.slice(0, 5);
    expect(withRecordedMatches(held, recorded('doublec8-double-c-1786151874-2025-06-05.json')).slice(0, 5)).toEqual(held);
    expect(withRecordedMatches(held, recorded('doublec8-double-c-1786151874-2025-06-05.json'))).toHaveLength(20);
    const march = withRecordedMatches([], recorded('autumnnippert-sir-final-1117455441.json'));
    expect(march).toHaveLength(20);
    expect(march.every((r) => r.map_id === null)).toBe(true);
    expect(modesByMap(march).size).toBe(0);
  });
});
