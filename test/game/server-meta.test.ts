/** The server meta's arithmetic (src/game/server-meta.ts): Wilson intervals against reference values, periods, brackets, draws, ranking. */
import { describe, expect, it } from 'vitest';
import { BRACKETS, MIN_SAMPLE, rankServerRows, serverMeta, wilsonInterval, type HeroCount } from '../../src/game/server-meta.js';

describe('wilsonInterval', () => {
  it('matches reference values of the 95 % Wilson score interval', () => {
    // 50 of 100 is the textbook case (0.4038–0.5962); the others were computed apart from this code, in Python, from Wilson's formula.
    const cases: [number, number, number, number][] = [
      [50, 100, 0.403832, 0.596168],
      [7, 10, 0.396778, 0.892209],
      [0, 10, 0, 0.277533],
      [10, 10, 0.722467, 1],
      [1, 1, 0.206549, 1],
      [81, 263, 0.255289, 0.36621],
    ];
    for (const [wins, n, low, high] of cases) {
      const i = wilsonInterval(wins, n)!;
      expect(i.low, `${wins}/${n}`).toBeCloseTo(low, 5);
      expect(i.high, `${wins}/${n}`).toBeCloseTo(high, 5);
    }
  });

  it('is null for no trials or counts that are not counts', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(wilsonInterval(3, 2)).toBeNull();
    expect(wilsonInterval(-1, 2)).toBeNull();
    expect(wilsonInterval(Number.NaN, 2)).toBeNull();
  });
});

const count = (c: Partial<HeroCount> & Pick<HeroCount, 'heroId' | 'won' | 'matches'>): HeroCount => ({
  season: 3,
  recent: true,
  bracket: 2,
  kills: 0,
  deaths: 0,
  assists: 0,
  ...c,
});

const HEROES = [
  { id: '1011', name: 'Hulk', role: 'Vanguard' },
  { id: '1014', name: 'The Punisher', role: 'Duelist' },
  { id: '1015', name: 'Storm', role: 'Duelist' },
];

describe('serverMeta', () => {
  const counts: HeroCount[] = [
    count({ heroId: '1014', won: 1, matches: 8, kills: 160, deaths: 40, assists: 40 }),
    count({ heroId: '1014', won: 0, matches: 4, kills: 40, deaths: 30, assists: 20 }),
    count({ heroId: '1014', won: 2, matches: 1, kills: 10, deaths: 5, assists: 0 }),
    count({ heroId: '1011', won: 1, matches: 3, bracket: 4, kills: 9, deaths: 0, assists: 3 }),
    count({ heroId: '1011', won: 0, matches: 9, bracket: 4 }),
    count({ heroId: '1015', won: 1, matches: 2, bracket: null }),
    // Last season, and older than the recent period.
    count({ heroId: '1015', won: 1, matches: 50, season: 2, recent: false }),
    count({ heroId: '9999', won: 0, matches: 1, season: 2, recent: true }),
  ];

  it('counts the latest season: draws are matches, not wins; picks a share of all; KDA over the sums', () => {
    const m = serverMeta(counts, 'season', null, HEROES);
    expect(m.season).toBe(3);
    expect(m.matches).toBe(13 + 12 + 2);
    const punisher = m.rows.find((r) => r.heroId === '1014')!;
    expect(punisher).toMatchObject({ name: 'The Punisher', role: 'Duelist', matches: 13, wins: 8, enough: true });
    expect(punisher.winRate).toBeCloseTo(8 / 13, 12);
    expect(punisher.pickShare).toBeCloseTo(13 / 27, 12);
    expect(punisher.kda).toBeCloseTo((210 + 60) / 75, 12);
    expect(punisher.interval).toEqual(wilsonInterval(8, 13));
    // No deaths at all: KDA over one death, as elsewhere in the bot.
    const hulk = m.rows.find((r) => r.heroId === '1011')!;
    expect(hulk).toMatchObject({ matches: 12, wins: 3, kda: 12, enough: true });
    expect(m.rows.find((r) => r.heroId === '1015')).toMatchObject({ matches: 2, wins: 2, enough: false });
  });

  it('the last 30 days take every season; a bracket only matches begun in it; an unknown hero is named by its id', () => {
    const recent = serverMeta(counts, '30d', null, HEROES);
    expect(recent.season).toBeNull();
    expect(recent.matches).toBe(28);
    expect(recent.rows.find((r) => r.heroId === '9999')).toMatchObject({ name: '9999', role: null, matches: 1 });
    const diamond = serverMeta(counts, 'season', BRACKETS.indexOf('Diamond'), HEROES);
    expect(diamond.rows.map((r) => r.heroId)).toEqual(['1011']);
    expect(diamond.rows[0]!.pickShare).toBe(1);
    expect(serverMeta(counts, 'season', BRACKETS.indexOf('Eternity'), HEROES)).toEqual({ season: 3, matches: 0, rows: [] });
    expect(serverMeta([], 'season', null, HEROES)).toEqual({ season: null, matches: 0, rows: [] });
  });

  it('ranks heroes with enough matches by the sort, then lists the rest by matches, never ranked', () => {
    const m = serverMeta(counts, 'season', null, HEROES);
    expect(MIN_SAMPLE).toBe(10);
    expect(rankServerRows(m.rows, 'win-rate').map((r) => r.heroId)).toEqual(['1014', '1011', '1015']);
    expect(rankServerRows(m.rows, 'kda').map((r) => r.heroId)).toEqual(['1011', '1014', '1015']);
    // Storm's 2 of 2 would top a raw ranking: it is listed last.
    expect(rankServerRows(m.rows, 'win-rate').at(-1)).toMatchObject({ heroId: '1015', winRate: 1, enough: false });
  });
});
