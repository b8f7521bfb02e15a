/**
 * A player's play sessions: their recorded matches (src/game/tracking.ts `RecordedMatch`, times in Unix seconds) grouped so
 * that a gap of {@link SESSION_GAP_S} or more between two matches ends one; and how many matches the next division takes at
 * their recent pace.
 */
import { matchPace, PACE_MATCHES } from './pace.js';
import { floorOfLevel, levelOfScore, tierOf } from './ranks.js';
import type { RecordedMatch } from './tracking.js';

/** An hour without a match ends a session. */
export const SESSION_GAP_S = 60 * 60;

/** A hero of a session: matches, wins and losses with it. */
export interface SessionHero {
  heroId: string | null;
  matches: number;
  wins: number;
  losses: number;
}

/** One session, its matches oldest first; rank scores of its ranked matches (null: none with a score). */
export interface Session {
  matches: RecordedMatch[];
  /** Unix seconds of its first and last match. */
  start: number;
  end: number;
  wins: number;
  losses: number;
  draws: number;
  scoreBefore: number | null;
  scoreAfter: number | null;
  /** The tiers those scores fall in ("Gold I"). */
  tierBefore: string | null;
  tierAfter: string | null;
  /** Most played first. */
  heroes: SessionHero[];
  /** Its MVP match, else its best KDA (kills and assists over deaths, at least one), ties by kills. */
  best: RecordedMatch;
  /** The season most of its matches belong to (the later on a tie). */
  season: number | null;
}

const kda = (m: RecordedMatch) => (m.kills + m.assists) / Math.max(m.deaths, 1);

/** `matches` (any order, each once) as sessions, the latest first. */
export function sessionsOf(matches: readonly RecordedMatch[], gapS = SESSION_GAP_S): Session[] {
  const sorted = [...matches].sort((a, b) => a.time - b.time);
  const groups: RecordedMatch[][] = [];
  for (const m of sorted) {
    const last = groups.at(-1);
    if (last && m.time - last.at(-1)!.time < gapS) last.push(m);
    else groups.push([m]);
  }
  return groups.map(sessionOf).reverse();
}

function sessionOf(matches: RecordedMatch[]): Session {
  const ranked = matches.filter((m) => m.ranked && m.newScore !== null);
  const first = ranked[0];
  const last = ranked.at(-1);
  const scoreBefore = first ? first.newScore! - (first.scoreChange ?? 0) : null;
  const scoreAfter = last ? last.newScore : null;
  const heroes = new Map<string | null, SessionHero>();
  for (const m of matches) {
    const h = heroes.get(m.heroId) ?? { heroId: m.heroId, matches: 0, wins: 0, losses: 0 };
    h.matches++;
    if (m.won === true) h.wins++;
    else if (m.won === false && !m.drawn) h.losses++;
    heroes.set(m.heroId, h);
  }
  const seasons = new Map<number | null, number>();
  for (const m of matches) seasons.set(m.season, (seasons.get(m.season) ?? 0) + 1);
  const best = [...matches].sort((a, b) => Number(b.mvp ?? false) - Number(a.mvp ?? false) || kda(b) - kda(a) || b.kills - a.kills)[0]!;
  return {
    matches,
    start: matches[0]!.time,
    end: matches.at(-1)!.time,
    wins: matches.filter((m) => m.won === true).length,
    losses: matches.filter((m) => m.won === false && !m.drawn).length,
    draws: matches.filter((m) => m.drawn === true).length,
    scoreBefore,
    scoreAfter,
    tierBefore: tierOf(null, scoreBefore),
    tierAfter: tierOf(null, scoreAfter),
    heroes: [...heroes.values()].sort((a, b) => b.matches - a.matches || b.wins - a.wins),
    best,
    season: [...seasons].sort((a, b) => b[1] - a[1] || (b[0] ?? -1) - (a[0] ?? -1))[0]![0],
  };
}

/** Per session of a season: matches, win rate over all its matches (draws are not wins), rank score change; null without sessions. */
export interface SeasonAverage {
  sessions: number;
  matchesPerSession: number;
  winRate: number | null;
  /** Over the sessions with ranked matches; null without any. */
  changePerSession: number | null;
}

/** The average session of `season` among `sessions`. */
export function seasonAverage(sessions: readonly Session[], season: number | null): SeasonAverage | null {
  const of = sessions.filter((s) => s.season === season);
  if (of.length === 0) return null;
  const matches = of.reduce((n, s) => n + s.matches.length, 0);
  const wins = of.reduce((n, s) => n + s.wins, 0);
  const changes = of.filter((s) => s.scoreBefore !== null && s.scoreAfter !== null).map((s) => s.scoreAfter! - s.scoreBefore!);
  return {
    sessions: of.length,
    matchesPerSession: matches / of.length,
    winRate: matches > 0 ? wins / matches : null,
    changePerSession: changes.length > 0 ? changes.reduce((a, b) => a + b, 0) / changes.length : null,
  };
}

/** How far the next division is and how many matches it takes at the recent pace (`basis` the ranked matches read). */
export type NextDivision =
  | { kind: 'top' }
  | { kind: 'unknown'; pointsToGo: number | null }
  | { kind: 'flat'; pointsToGo: number; winRate: number; gainPerWin: number; lossPerLoss: number; basis: number }
  | { kind: 'climbs'; pointsToGo: number; matches: number; winRate: number; gainPerWin: number; lossPerLoss: number; basis: number };

/**
 * The matches to the division above `score`, at the win rate and mean gains per win and loss of the latest
 * {@link PACE_MATCHES} ranked matches of `season` with a score change ({@link matchPace}). `flat` when that gain is not above zero (the recent rate does not climb); `unknown` without a win and a loss
 * to measure; `top` from Eternity up, where divisions end.
 */
export function nextDivision(score: number | null, matches: readonly RecordedMatch[], season: number | null): NextDivision {
  const level = levelOfScore(score);
  if (score === null || level === null) return { kind: 'unknown', pointsToGo: null };
  if (level >= 22) return { kind: 'top' };
  const pointsToGo = floorOfLevel(level + 1) - score;
  const recent = matches
    .filter((m) => m.ranked && m.season === season && m.scoreChange !== null && !m.drawn && m.won !== null)
    .sort((a, b) => b.time - a.time)
    .slice(0, PACE_MATCHES);
  const m = matchPace(
    pointsToGo,
    recent.filter((x) => x.won === true).map((x) => x.scoreChange!),
    recent.filter((x) => x.won === false).map((x) => -x.scoreChange!),
  );
  if (!m) return { kind: 'unknown', pointsToGo };
  const pace = { pointsToGo, winRate: m.winRate, gainPerWin: m.perWin, lossPerLoss: m.perLoss, basis: m.basis };
  return m.needed === null ? { kind: 'flat', ...pace } : { kind: 'climbs', matches: m.needed, ...pace };
}
