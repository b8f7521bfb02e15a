/**
 * A match's scoreboard, derived from the match detail (api-spec.md "Match detail"): each player's
 * main hero, and who never picked a hero, who left and who came in as a replacement. Pure functions.
 *
 * The API marks none of this. A team has six places; the real captures list 12 to 14 players, the
 * extra ones being replacements for players who left (a player who left at 51 s and one who played the
 * remaining 335 s of a 404 s match, on the same team). So, per team:
 * - a player with no hero time (no `player_heroes`, or all at 0 s, or `cur_hero_id` 0) never picked a hero;
 * - with more than six players, the ones with the least play time, as many as the extra places, left;
 *   the others who played clearly less than the match (under 90 %) are replacements;
 * - with six or fewer, a player who played clearly less than the match (under 85 %) left early.
 * The match length is the longest time any player played.
 */
import type { MatchDetail, MatchPlayer } from '../api/schemas.js';

/** Places of a team. */
const TEAM_SIZE = 6;
const REPLACEMENT_SHARE = 0.9;
const LEFT_SHARE = 0.85;

export type PlayerStatus = 'played' | 'replacement' | 'left' | 'no-hero';

/** One scoreboard line. */
export interface ScoreLine {
  player: MatchPlayer;
  /** The hero with the most play time; else `cur_hero_id`; null when none. */
  mainHeroId: string | null;
  /** Seconds played, all heroes. */
  playTime: number;
  status: PlayerStatus;
}

/** A team (camp) of the match, players in scoreboard order: those who played, then those who left, then those without a hero. */
export interface ScoreTeam {
  camp: number | null;
  /** True, false, or null when the match does not say. */
  won: boolean | null;
  lines: ScoreLine[];
}

/** Seconds a player played, over all their heroes. */
export function playTimeOf(p: MatchPlayer): number {
  return p.heroes.reduce((s, h) => s + (h.play_time ?? 0), 0);
}

/** The hero a player played longest; `cur_hero_id` when no hero has time; null when none. */
export function mainHeroOf(p: MatchPlayer): string | null {
  let best: { id: string; time: number } | null = null;
  for (const h of p.heroes) {
    if (h.hero_id !== null && (h.play_time ?? 0) > (best?.time ?? -1)) best = { id: h.hero_id, time: h.play_time ?? 0 };
  }
  return best && best.time > 0 ? best.id : (p.cur_hero_id ?? best?.id ?? null);
}

const ORDER: Record<PlayerStatus, number> = { played: 0, replacement: 0, left: 1, 'no-hero': 2 };

/** The match's length in seconds: the longest any player played; null with no hero time at all. */
export function matchLength(m: MatchDetail): number | null {
  const longest = Math.max(0, ...m.players.map(playTimeOf));
  return longest > 0 ? longest : null;
}

/**
 * The scoreboard: one team per camp (sorted by camp; players without a camp last), each player with
 * main hero and status, in scoreboard order (kept in the API's order within a status group).
 */
export function scoreboard(m: MatchDetail): ScoreTeam[] {
  const length = matchLength(m) ?? 0;
  const camps = [...new Set(m.players.map((p) => p.camp))].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));
  return camps.map((camp) => {
    const players = m.players.filter((p) => p.camp === camp);
    const lines: ScoreLine[] = players.map((player) => {
      const playTime = playTimeOf(player);
      const mainHeroId = mainHeroOf(player);
      const noHero = mainHeroId === null || playTime <= 0;
      return { player, mainHeroId: noHero ? null : mainHeroId, playTime, status: noHero ? 'no-hero' : 'played' };
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
    return { camp, won, lines };
  });
}
