/**
 * A match's scoreboard (api-spec.md "Match detail"). The API marks neither leavers nor replacements, and
 * real captures list more than six players a team, so status is inferred from play time against the match length.
 */
import type { MatchDetail, MatchPlayer } from '../api/schemas.js';

const TEAM_SIZE = 6;
const REPLACEMENT_SHARE = 0.9;
const LEFT_SHARE = 0.85;

export type PlayerStatus = 'played' | 'replacement' | 'left' | 'no-hero';

export interface HeroTime {
  heroId: string;
  /** Seconds. */
  playTime: number;
}

export interface Badge {
  name: string;
  count: number | null;
}

/**
 * Rounds won by camp 0 and camp 1, from a history row's `score_info` (the match detail lacks it). Shown as
 * given, never checked against the result: real rows occasionally disagree with the winner.
 */
export type RoundScore = readonly [number, number];

/** `playTime` in seconds; `heroes` longest first, empty with no hero. */
export interface ScoreLine {
  player: MatchPlayer;
  mainHeroId: string | null;
  playTime: number;
  heroes: HeroTime[];
  badges: Badge[];
  status: PlayerStatus;
}

/**
 * Lines: played, then left, then no hero. `rounds` null when unknown or the camp is not 0 or 1. `won` null when unknown or a
 * draw: every player of both teams marked as not winning is a draw, not two defeats, and so is any player marked with a
 * draw (`drawn`).
 */
export interface ScoreTeam {
  camp: number | null;
  won: boolean | null;
  drawn: boolean;
  rounds: { won: number; lost: number } | null;
  lines: ScoreLine[];
}

/** Seconds. */
export function playTimeOf(p: MatchPlayer): number {
  return p.heroes.reduce((s, h) => s + (h.play_time ?? 0), 0);
}

/** Longest played; else `cur_hero_id`. */
export function mainHeroOf(p: MatchPlayer): string | null {
  let best: { id: string; time: number } | null = null;
  for (const h of p.heroes) {
    if (h.hero_id !== null && (h.play_time ?? 0) > (best?.time ?? -1)) best = { id: h.hero_id, time: h.play_time ?? 0 };
  }
  return best && best.time > 0 ? best.id : (p.cur_hero_id ?? best?.id ?? null);
}

/** Longest first; under half a second is left out: it shows as 0 s and is a pick, not play. */
export function heroTimesOf(p: MatchPlayer): HeroTime[] {
  const times = new Map<string, number>();
  for (const h of p.heroes) if (h.hero_id !== null && h.play_time !== null && h.play_time > 0) times.set(h.hero_id, (times.get(h.hero_id) ?? 0) + h.play_time);
  return [...times]
    .filter(([, t]) => t >= 0.5)
    .map(([heroId, playTime]) => ({ heroId, playTime }))
    .sort((a, b) => b.playTime - a.playTime);
}

/** Misspellings seen in real match captures. */
const BADGE_SPELLING: Readonly<Record<string, string>> = {
  'Impentrable Defence': 'Impenetrable Defence',
};

export function badgeName(name: string): string {
  const trimmed = name.trim();
  return BADGE_SPELLING[trimmed] ?? trimmed;
}

function roundsOf(camp: number | null, score: RoundScore | null): ScoreTeam['rounds'] {
  return score && (camp === 0 || camp === 1) ? { won: score[camp], lost: score[1 - camp]! } : null;
}

const ORDER: Record<PlayerStatus, number> = { played: 0, replacement: 0, left: 1, 'no-hero': 2 };

/** Seconds: the longest any player played; null with no hero time. */
export function matchLength(m: MatchDetail): number | null {
  const longest = Math.max(0, ...m.players.map(playTimeOf));
  return longest > 0 ? longest : null;
}

/** One team per camp, camp-less players last. @param score from the match's history row, when known. */
export function scoreboard(m: MatchDetail, score: RoundScore | null = null): ScoreTeam[] {
  const length = matchLength(m) ?? 0;
  const camps = [...new Set(m.players.map((p) => p.camp))].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));
  const teams = camps.map((camp) => {
    const players = m.players.filter((p) => p.camp === camp);
    const lines: ScoreLine[] = players.map((player) => {
      const playTime = playTimeOf(player);
      const mainHeroId = mainHeroOf(player);
      const noHero = mainHeroId === null || playTime <= 0;
      const badges = player.badges.map((b) => ({ name: badgeName(b.name), count: b.count }));
      return {
        player,
        mainHeroId: noHero ? null : mainHeroId,
        playTime,
        heroes: noHero ? [] : heroTimesOf(player),
        badges,
        status: noHero ? 'no-hero' : 'played',
      };
    });
    const withHero = lines.filter((l) => l.status !== 'no-hero');
    const extra = withHero.length - TEAM_SIZE;
    if (extra > 0) {
      const shortest = [...withHero].sort((a, b) => a.playTime - b.playTime).slice(0, extra);
      for (const l of shortest) l.status = 'left';
      for (const l of withHero) if (l.status === 'played' && l.playTime < length * REPLACEMENT_SHARE) l.status = 'replacement';
    } else {
      for (const l of withHero) if (l.playTime < length * LEFT_SHARE) l.status = 'left';
    }
    lines.sort((a, b) => ORDER[a.status] - ORDER[b.status]);
    const won = players.some((p) => p.is_win === true) ? true : players.length > 0 && players.every((p) => p.is_win === false) ? false : null;
    return { camp, won, drawn: false, rounds: roundsOf(camp, score), lines };
  });
  const sides = teams.filter((t) => t.camp !== null);
  // A player's own draw (`is_win` 2, as a history row marks one) draws the match for both sides.
  const drawn = (sides.length >= 2 && sides.every((t) => t.won === false)) || m.players.some((p) => p.result === 'draw');
  if (drawn) for (const t of sides) Object.assign(t, { won: null, drawn: true });
  return teams;
}
