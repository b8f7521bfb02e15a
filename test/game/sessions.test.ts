/** Sessions (src/game/sessions.ts): the hour's gap, records, rank change and tiers, heroes, the best match, averages, the next division. */
import { describe, expect, it } from 'vitest';
import { PACE_MATCHES } from '../../src/game/pace.js';
import { nextDivision, seasonAverage, SESSION_GAP_S, sessionsOf } from '../../src/game/sessions.js';
import type { RecordedMatch } from '../../src/game/tracking.js';

const m = (time: number, r: Partial<RecordedMatch> = {}): RecordedMatch => ({
  matchUid: `m${time}`,
  time,
  season: 3,
  modeId: 2,
  ranked: true,
  heroId: '1014',
  won: true,
  drawn: false,
  newScore: null,
  scoreChange: null,
  newLevel: null,
  kills: 10,
  deaths: 5,
  assists: 5,
  ...r,
});

const H = SESSION_GAP_S;

describe('sessionsOf', () => {
  it('ends a session at a gap of an hour or more, and lists the latest first', () => {
    // Gaps: just under an hour, just under, exactly an hour, then hours.
    const matches = [m(0), m(H - 1), m(2 * H - 2), m(3 * H - 2), m(10 * H)];
    // Unordered input: grouped by time all the same.
    const sessions = sessionsOf([...matches].reverse());
    expect(sessions.map((s) => s.matches.map((x) => x.time))).toEqual([[10 * H], [3 * H - 2], [0, H - 1, 2 * H - 2]]);
    expect(sessionsOf([])).toEqual([]);
  });

  it('gives a session its record, rank change with the tiers crossed, heroes by play and its best match', () => {
    const [s] = sessionsOf([
      m(0, { newScore: 3590, scoreChange: 20, won: true, heroId: '1014' }),
      m(600, { newScore: 3570, scoreChange: -20, won: false, heroId: '1014' }),
      m(1200, { newScore: 3610, scoreChange: 40, won: true, heroId: '1015', kills: 30, deaths: 2, assists: 10 }),
      m(1800, { won: null, drawn: true, heroId: '1015', ranked: false }),
      m(2400, { newScore: 3635, scoreChange: 25, won: true, heroId: '1011', mvp: true, kills: 3 }),
    ]);
    expect(s).toMatchObject({
      start: 0,
      end: 2400,
      wins: 3,
      losses: 1,
      draws: 1,
      scoreBefore: 3570,
      scoreAfter: 3635,
      tierBefore: 'Silver I',
      tierAfter: 'Gold III',
    });
    expect(s!.heroes).toEqual([
      { heroId: '1014', matches: 2, wins: 1, losses: 1 },
      { heroId: '1015', matches: 2, wins: 1, losses: 0 },
      { heroId: '1011', matches: 1, wins: 1, losses: 0 },
    ]);
    // The MVP match beats a better KDA.
    expect(s!.best.time).toBe(2400);
    expect(sessionsOf([m(0, { kills: 1 }), m(60, { kills: 20 })])[0]!.best.time).toBe(60);
    // No ranked score: no rank change.
    expect(sessionsOf([m(0, { ranked: false })])[0]).toMatchObject({ scoreBefore: null, scoreAfter: null, tierBefore: null });
  });

  it('averages the sessions of a season', () => {
    const sessions = sessionsOf([
      m(0, { newScore: 3100, scoreChange: 20 }),
      m(60, { newScore: 3080, scoreChange: -20, won: false }),
      m(10 * H, { newScore: 3140, scoreChange: 60 }),
      m(30 * H, { season: 2, won: false }),
    ]);
    expect(seasonAverage(sessions, 3)).toEqual({ sessions: 2, matchesPerSession: 1.5, winRate: 2 / 3, changePerSession: (0 + 60) / 2 });
    expect(seasonAverage(sessions, 2)).toEqual({ sessions: 1, matchesPerSession: 1, winRate: 0, changePerSession: null });
    expect(seasonAverage(sessions, 9)).toBeNull();
  });
});

describe('nextDivision', () => {
  const paced = (wins: number, losses: number, gain: number, loss: number) => [
    ...Array.from({ length: wins }, (_, i) => m(i * 100, { scoreChange: gain, newScore: 3500 })),
    ...Array.from({ length: losses }, (_, i) => m(10_000 + i * 100, { scoreChange: -loss, newScore: 3500, won: false })),
  ];

  it('counts the matches at the recent win rate and mean gains: the points over the expected gain a match, rounded up', () => {
    // 12 wins of +25 and 8 losses of −20: 0.6 × 25 − 0.4 × 20 = 7 a match; 3,650 is 50 below Gold II (3,700).
    const next = nextDivision(3650, paced(12, 8, 25, 20), 3);
    expect(next).toEqual({ kind: 'climbs', pointsToGo: 50, matches: 8, winRate: 0.6, gainPerWin: 25, lossPerLoss: 20, basis: 20 });
  });

  it('reads only the latest ranked matches of the season, and says when the rate does not climb', () => {
    const old = Array.from({ length: 30 }, (_, i) => m(-100_000 + i, { scoreChange: 30, newScore: 3500 }));
    const flat = nextDivision(3650, [...old, ...paced(10, 10, 20, 20)], 3);
    expect(flat).toMatchObject({ kind: 'flat', winRate: 0.5, basis: PACE_MATCHES });
    expect(nextDivision(3650, [...paced(10, 10, 20, 20).map((x) => ({ ...x, season: 2 })), ...paced(3, 1, 20, 20)], 3)).toMatchObject({
      kind: 'climbs',
      basis: 4,
    });
  });

  it('has no pace without a win and a loss, no division above Eternity, and nothing without a score', () => {
    expect(nextDivision(3650, paced(5, 0, 20, 20), 3)).toEqual({ kind: 'unknown', pointsToGo: 50 });
    expect(nextDivision(5200, paced(5, 5, 20, 10), 3)).toEqual({ kind: 'top' });
    expect(nextDivision(null, paced(5, 5, 20, 10), 3)).toEqual({ kind: 'unknown', pointsToGo: null });
  });
});
