import { describe, expect, it } from 'vitest';
import { nextInterval, readForTracking, sameSnapshot, type ProfileSnapshot } from '../../src/game/tracking.js';
import { rankSummary } from '../../src/game/profile.js';
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
    expect(readForTracking({ ...p, rank: { ...p.rank, score: -5 } })).toMatchObject({ kind: 'malformed', reason: 'rank score -5' });
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
