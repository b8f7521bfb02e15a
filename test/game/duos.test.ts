/** Duos and rivals (src/game/duos.ts): the team rule checked on the recorded details, records together and apart, order. */
import { describe, expect, it } from 'vitest';
import { duosOf, type PairCount, type ResultCount } from '../../src/game/duos.js';
import { wilsonInterval } from '../../src/game/server-meta.js';
import { loadDataset } from '../../src/replica/data/dataset.js';
import { matches } from './samples.js';

describe('the team rule', () => {
  it('holds on every recorded match detail: the players of a team share its result, and the two teams’ results differ', () => {
    const details = Object.values(matches);
    expect(details.length).toBeGreaterThanOrEqual(4);
    for (const d of details) {
      const byTeam = new Map<number | null, Set<string | null>>();
      for (const p of d.players) byTeam.set(p.camp, new Set([...(byTeam.get(p.camp) ?? []), p.result]));
      expect(byTeam.size, d.match_uid).toBe(2);
      const [a, b] = [...byTeam.values()];
      expect(a!.size, d.match_uid).toBe(1);
      expect(b!.size, d.match_uid).toBe(1);
      expect([...a!][0], d.match_uid).not.toBe([...b!][0]);
    }
  });
});

describe('the team rule on the captured profiles', () => {
  it('holds where two captured players’ rows are of one match: same team exactly when same result', () => {
    const rows = new Map<string, { uid: string; camp: unknown; won: unknown }[]>();
    for (const c of loadDataset().profileCaptures) {
      for (const m of (c.body.match_history ?? []) as { match_uid: string; player_performance: { camp?: unknown; is_win?: { is_win?: unknown } } }[]) {
        const list = rows.get(m.match_uid) ?? [];
        if (!list.some((r) => r.uid === c.uid)) list.push({ uid: c.uid, camp: m.player_performance.camp, won: m.player_performance.is_win?.is_win });
        rows.set(m.match_uid, list);
      }
    }
    const shared = [...rows.values()].filter((l) => l.length > 1);
    // Two matches: four captured players in one, two in the other.
    expect(shared.reduce((n, l) => n + (l.length * (l.length - 1)) / 2, 0)).toBe(7);
    for (const l of shared) for (const a of l) for (const b of l) if (a !== b) expect(a.camp === b.camp, `${a.uid} ${b.uid}`).toBe(a.won === b.won);
  });
});

describe('duosOf', () => {
  const pairs: PairCount[] = [
    { a: 'ann', b: 'bob', same: true, won: 1, matches: 7 },
    { a: 'ann', b: 'bob', same: true, won: 0, matches: 2 },
    { a: 'ann', b: 'bob', same: true, won: 2, matches: 1 },
    { a: 'ann', b: 'bob', same: false, won: 1, matches: 1 },
    { a: 'ann', b: 'cat', same: true, won: 1, matches: 2 },
    { a: 'bob', b: 'cat', same: false, won: 0, matches: 4 },
    { a: 'bob', b: 'cat', same: false, won: 1, matches: 1 },
    // A draw with no detail to tell the teams apart: counted nowhere.
    { a: 'bob', b: 'cat', same: null, won: 2, matches: 3 },
  ];
  const totals: ResultCount[] = [
    { uid: 'ann', won: 1, matches: 20 },
    { uid: 'ann', won: 0, matches: 10 },
    { uid: 'ann', won: 2, matches: 1 },
    { uid: 'bob', won: 1, matches: 9 },
    { uid: 'bob', won: 0, matches: 6 },
    { uid: 'bob', won: 2, matches: 4 },
    { uid: 'cat', won: 1, matches: 3 },
  ];

  it('gives each duo its record together, its interval, and each one’s record in their other matches', () => {
    const { duos } = duosOf(pairs, totals, 3);
    expect(duos).toHaveLength(1);
    const [d] = duos;
    expect(d).toMatchObject({ a: 'ann', b: 'bob', together: { wins: 7, losses: 2, draws: 1, matches: 10, winRate: 0.7 } });
    expect(d!.interval).toEqual(wilsonInterval(7, 10));
    // Ann: 31 matches, 10 with Bob on her team; the match against him is among her others.
    expect(d!.aApart).toEqual({ wins: 13, losses: 8, draws: 0, matches: 21, winRate: 13 / 21 });
    expect(d!.bApart).toEqual({ wins: 2, losses: 4, draws: 3, matches: 9, winRate: 2 / 9 });
  });

  it('lists rivalries by matches, the first member’s team’s wins first', () => {
    const { rivals } = duosOf(pairs, totals, 1);
    expect(rivals).toEqual([
      { a: 'bob', b: 'cat', aWins: 1, bWins: 4, draws: 0, matches: 5 },
      { a: 'ann', b: 'bob', aWins: 1, bWins: 0, draws: 0, matches: 1 },
    ]);
  });

  it('ranks duos by the low end of their interval: a long record above a short perfect one', () => {
    const { duos } = duosOf(pairs, totals, 1);
    expect(duos.map((d) => `${d.a}+${d.b}`)).toEqual(['ann+bob', 'ann+cat']);
    expect(wilsonInterval(2, 2)!.low).toBeLessThan(wilsonInterval(7, 10)!.low);
  });
});
