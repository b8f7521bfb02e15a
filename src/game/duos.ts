/**
 * Duos and rivals among a server's ladder members (src/store/server-matches.ts): two members who played the same match are a
 * duo when they were on one team, rivals when on opposite teams. A match's team is read from its stored detail; without one,
 * from the two results, since one team wins or loses together: on every recorded match detail the players of a team share
 * its result, and in the two matches the captured profiles share (7 pairs of rows) two players were on one team exactly
 * when their results agree (test/game/duos.test.ts checks both).
 */
import { wilsonInterval } from './server-meta.js';

/** Matches two members both played: `a` < `b`, `same` one team (null: unknown), `won` `a`'s result (1 win, 0 loss, 2 draw). */
export interface PairCount {
  a: string;
  b: string;
  same: boolean | null;
  won: 0 | 1 | 2;
  matches: number;
}

/** A member's matches with a result, by result. */
export interface ResultCount {
  uid: string;
  won: 0 | 1 | 2;
  matches: number;
}

/** Wins, losses and draws; `winRate` of all of them (draws are not wins), null with none. */
export interface WinLoss {
  wins: number;
  losses: number;
  draws: number;
  matches: number;
  winRate: number | null;
}

/** Two members on one team: their record together, its 95 % interval, and each one's record in their other matches. */
export interface Duo {
  a: string;
  b: string;
  together: WinLoss;
  interval: { low: number; high: number } | null;
  aApart: WinLoss;
  bApart: WinLoss;
}

/** Two members on opposite teams: `aWins` the matches `a`'s team won. */
export interface Rivalry {
  a: string;
  b: string;
  aWins: number;
  bWins: number;
  draws: number;
  matches: number;
}

/** The default least matches together for a duo or rivalry to be listed. */
export const DEFAULT_MIN_TOGETHER = 3;

function record(wins: number, losses: number, draws: number): WinLoss {
  const matches = wins + losses + draws;
  return { wins, losses, draws, matches, winRate: matches > 0 ? wins / matches : null };
}

/**
 * The duos and rivalries of `pairs` with at least `min` matches: duos by the low end of their interval (a long winning run
 * above a short lucky one), then by matches; rivalries by matches. Each member's record apart is their `totals` less the
 * matches with the other.
 */
export function duosOf(pairs: readonly PairCount[], totals: readonly ResultCount[], min = DEFAULT_MIN_TOGETHER): { duos: Duo[]; rivals: Rivalry[] } {
  const key = (a: string, b: string) => `${a}\u0000${b}`;
  const together = new Map<string, { a: string; b: string; w: number; l: number; d: number }>();
  const against = new Map<string, { a: string; b: string; w: number; l: number; d: number }>();
  for (const p of pairs) {
    if (p.same === null) continue;
    const into = p.same ? together : against;
    const entry = into.get(key(p.a, p.b)) ?? { a: p.a, b: p.b, w: 0, l: 0, d: 0 };
    if (p.won === 1) entry.w += p.matches;
    else if (p.won === 0) entry.l += p.matches;
    else entry.d += p.matches;
    into.set(key(p.a, p.b), entry);
  }
  const own = new Map<string, { w: number; l: number; d: number }>();
  for (const t of totals) {
    const o = own.get(t.uid) ?? { w: 0, l: 0, d: 0 };
    if (t.won === 1) o.w += t.matches;
    else if (t.won === 0) o.l += t.matches;
    else o.d += t.matches;
    own.set(t.uid, o);
  }
  const apart = (uid: string, w: number, l: number, d: number): WinLoss => {
    const o = own.get(uid) ?? { w: 0, l: 0, d: 0 };
    return record(Math.max(0, o.w - w), Math.max(0, o.l - l), Math.max(0, o.d - d));
  };
  const duos = [...together.values()]
    .map((e): Duo => ({
      a: e.a,
      b: e.b,
      together: record(e.w, e.l, e.d),
      interval: wilsonInterval(e.w, e.w + e.l + e.d),
      aApart: apart(e.a, e.w, e.l, e.d),
      bApart: apart(e.b, e.w, e.l, e.d),
    }))
    .filter((d) => d.together.matches >= min)
    .sort((x, y) => (y.interval?.low ?? 0) - (x.interval?.low ?? 0) || y.together.matches - x.together.matches || x.a.localeCompare(y.a));
  const rivals = [...against.values()]
    .map((e): Rivalry => ({ a: e.a, b: e.b, aWins: e.w, bWins: e.l, draws: e.d, matches: e.w + e.l + e.d }))
    .filter((r) => r.matches >= min)
    .sort((x, y) => y.matches - x.matches || x.a.localeCompare(y.a));
  return { duos, rivals };
}
