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

/** Wins, losses and draws counted so far. */
interface Counts {
  wins: number;
  losses: number;
  draws: number;
}

/** Adds `n` matches of result `won` (1 a win, 0 a loss, 2 a draw) to the entry of `into` at `key`, made by `make` the first time. */
function tally<T extends Counts>(into: Map<string, T>, key: string, make: () => T, won: 0 | 1 | 2, n: number): void {
  const entry = into.get(key) ?? make();
  if (won === 1) entry.wins += n;
  else if (won === 0) entry.losses += n;
  else entry.draws += n;
  into.set(key, entry);
}

/**
 * The duos and rivalries of `pairs` with at least `min` matches: duos by the low end of their interval (a long winning run
 * above a short lucky one), then by matches; rivalries by matches. Each member's record apart is their `totals` less the
 * matches with the other.
 */
export function duosOf(pairs: readonly PairCount[], totals: readonly ResultCount[], min = DEFAULT_MIN_TOGETHER): { duos: Duo[]; rivals: Rivalry[] } {
  const together = new Map<string, Counts & { a: string; b: string }>();
  const against = new Map<string, Counts & { a: string; b: string }>();
  for (const p of pairs) {
    if (p.same === null) continue;
    tally(p.same ? together : against, `${p.a}\u0000${p.b}`, () => ({ a: p.a, b: p.b, wins: 0, losses: 0, draws: 0 }), p.won, p.matches);
  }
  const own = new Map<string, Counts>();
  for (const t of totals) tally(own, t.uid, () => ({ wins: 0, losses: 0, draws: 0 }), t.won, t.matches);
  const apart = (uid: string, e: Counts): WinLoss => {
    const o = own.get(uid) ?? { wins: 0, losses: 0, draws: 0 };
    return record(Math.max(0, o.wins - e.wins), Math.max(0, o.losses - e.losses), Math.max(0, o.draws - e.draws));
  };
  const duos = [...together.values()]
    .map((e): Duo => ({
      a: e.a,
      b: e.b,
      together: record(e.wins, e.losses, e.draws),
      interval: wilsonInterval(e.wins, e.wins + e.losses + e.draws),
      aApart: apart(e.a, e),
      bApart: apart(e.b, e),
    }))
    .filter((d) => d.together.matches >= min)
    .sort((x, y) => (y.interval?.low ?? 0) - (x.interval?.low ?? 0) || y.together.matches - x.together.matches || x.a.localeCompare(y.a));
  const rivals = [...against.values()]
    .map((e): Rivalry => ({ a: e.a, b: e.b, aWins: e.wins, bWins: e.losses, draws: e.draws, matches: e.wins + e.losses + e.draws }))
    .filter((r) => r.matches >= min)
    .sort((x, y) => y.matches - x.matches || x.a.localeCompare(y.a));
  return { duos, rivals };
}

/** One member's record with another: `together` one team (else against each other), from the first member's side. */
export interface PartnerRecord extends Counts {
  uid: string;
  together: boolean;
}

/**
 * One member's records with each other member, from `pairs` that all have that member as `a` (src/store/server-matches.ts
 * `pairCounts` with a uid): one a partner and side, in the order first met; a side not known is left out.
 */
export function partnersOf(pairs: readonly PairCount[]): PartnerRecord[] {
  const out = new Map<string, PartnerRecord>();
  for (const p of pairs) {
    if (p.same === null) continue;
    tally(out, `${p.b}:${p.same}`, () => ({ uid: p.b, together: p.same!, wins: 0, losses: 0, draws: 0 }), p.won, p.matches);
  }
  return [...out.values()];
}
