import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mainRole, standingOf } from '../../src/game/ladder.js';
import { heroSummary, rankSummary } from '../../src/game/profile.js';
import { readForTracking, trackedTimelinePoints, type ProfileSnapshot, type RecordedMatch } from '../../src/game/tracking.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import { profiles } from './samples.js';

const heroList = JSON.parse(readFileSync(join(SAMPLES_DIR, 'heroes', 'xerronn-heroes-2025-03-10.json'), 'utf8')) as { id: string | number; role: string }[];
const roles = new Map(heroList.map((h) => [String(h.id), h.role]));
const roleOf = (id: string | null) => (id === null ? null : (roles.get(id) ?? null));

const DAY_S = 24 * 60 * 60;
const NOW = Date.UTC(2026, 10, 20);
const now_s = NOW / 1000;

const snapshot = (score: number | null, season = 9): ProfileSnapshot => ({
  season,
  tier: 'Gold II',
  score,
  level: 30,
  matches: 10,
  wins: 5,
  rankedMatches: 10,
  rankedWins: 5,
});
const ranked = (uid: string, daysAgo: number, newScore: number, season = 9, modeId = 2): RecordedMatch => ({
  matchUid: uid,
  time: now_s - daysAgo * DAY_S,
  season,
  modeId,
  ranked: true,
  heroId: '1011',
  won: true,
  newScore,
  scoreChange: 20,
  newLevel: null,
  kills: 1,
  deaths: 1,
  assists: 1,
});

describe('mainRole', () => {
  it('is the role of most hero play time on every real capture, and agrees with the play time it sums', () => {
    for (const [file, p] of Object.entries(profiles)) {
      const role = mainRole(p, roleOf);
      const byRole = new Map<string, number>();
      for (const h of heroSummary(p).heroes) {
        const r = roleOf(h.hero_id);
        if (r) byRole.set(r, (byRole.get(r) ?? 0) + h.play_time);
      }
      const most = [...byRole.entries()].sort((a, b) => b[1] - a[1])[0];
      if (most && most[1] > 0) expect(role, file).toBe(most[0]);
      else expect(role, file).toBe(mainRole(p, () => null));
    }
  });

  it('falls back to the profile’s own play by role when no hero is known', () => {
    const p = Object.values(profiles).find((x) => x.overall.roles.length > 0);
    expect(p).toBeDefined();
    const top = [...p!.overall.roles].sort((a, b) => (b.play_time ?? 0) - (a.play_time ?? 0))[0]!;
    expect(mainRole(p!, () => null)?.toLowerCase()).toBe(top.role.toLowerCase());
  });
});

describe('standingOf', () => {
  it('peak is the highest of the API’s peak, the score and this season’s ranked scores; matches count this season’s ranked ones', () => {
    const matches = [
      ranked('a', 20, 3400),
      ranked('b', 10, 3550),
      ranked('c', 3, 3500),
      ranked('old', 100, 4800, 8),
      { ...ranked('qp', 2, 0, 9, 1), ranked: false, newScore: null },
    ];
    const s = standingOf(snapshot(3520), { timeline: trackedTimelinePoints([], matches), matches }, { apiPeak: 3450, role: 'Duelist' }, NOW);
    expect(s).toMatchObject({ season: 9, score: 3520, peak: 3550, matches: 3, role: 'Duelist', private: false });
  });

  it('the week’s change runs from the last score at or before a week ago to now; null with nothing recorded then', () => {
    const matches = [ranked('a', 10, 3400), ranked('b', 3, 3460)];
    expect(standingOf(snapshot(3480), { timeline: trackedTimelinePoints([], matches), matches }, { apiPeak: null, role: null }, NOW).weekDelta).toBe(80);
    expect(standingOf(snapshot(3480), { timeline: [], matches: [] }, { apiPeak: null, role: null }, NOW)).toMatchObject({
      weekDelta: null,
      peak: 3480,
      matches: 0,
    });
  });

  it('on every real capture: peak never below the score, and matches never above the ranked matches the capture embeds', () => {
    for (const [file, p] of Object.entries(profiles)) {
      const read = readForTracking(p);
      if (read.kind !== 'read') continue;
      const s = standingOf(
        read.snapshot,
        { timeline: trackedTimelinePoints([], read.matches), matches: read.matches },
        { apiPeak: rankSummary(p).seasonPeak?.score ?? null, role: mainRole(p, roleOf) },
        NOW,
      );
      if (s.score !== null) expect(s.peak!, file).toBeGreaterThanOrEqual(s.score);
      expect(s.matches, file).toBeLessThanOrEqual(read.matches.filter((m) => m.ranked).length);
    }
  });
});
