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
 *
 * Also: every hero a player used with its time, badge names with the API's misspellings corrected, and
 * the round score, which the match detail does not carry but a history row's `score_info` does.
 */
import type { MatchDetail, MatchPlayer } from '../api/schemas.js';

/** Places of a team. */
const TEAM_SIZE = 6;
const REPLACEMENT_SHARE = 0.9;
const LEFT_SHARE = 0.85;

export type PlayerStatus = 'played' | 'replacement' | 'left' | 'no-hero';

/** One hero a player used: its id and the seconds played on it. */
export interface HeroTime {
  heroId: string;
  /** Seconds. */
  playTime: number;
}

/** A badge of a player, named as the game names it. */
export interface Badge {
  name: string;
  /** Times earned; null when the API does not say. */
  count: number | null;
}

/**
 * Rounds won by camp 0 and camp 1, as a history row's `score_info` `{"0": 3, "1": 0}` gives them
 * (src/api/schemas.ts reads it as `[3, 0]`). Its keys are camps: in the real histories the larger number
 * is nearly always the `match_winner_side`'s, whose camp the match detail marks as won. The exceptions
 * (a ranked row reading 1–0 for the losing camp of a player who disconnected, a draw at 3–3) are real
 * results, so the score is shown as given, never checked against the result.
 */
export type RoundScore = readonly [number, number];

/** One scoreboard line. */
export interface ScoreLine {
  player: MatchPlayer;
  /** The hero with the most play time; else `cur_hero_id`; null when none. */
  mainHeroId: string | null;
  /** Seconds played, all heroes. */
  playTime: number;
  /** Every hero used, longest first ({@link heroTimesOf}); empty for a player who never picked a hero. */
  heroes: HeroTime[];
  /** The player's badges, names corrected by {@link badgeName}, in the API's order. */
  badges: Badge[];
  status: PlayerStatus;
}

/** A team (camp) of the match, players in scoreboard order: those who played, then those who left, then those without a hero. */
export interface ScoreTeam {
  camp: number | null;
  /** True, false, or null when the match does not say. */
  won: boolean | null;
  /** Rounds this team won and lost; null when the score is unknown, or for a team that is not camp 0 or 1. */
  rounds: { won: number; lost: number } | null;
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

/**
 * Every hero a player used, longest first (ties in the API's order), with the seconds on each; a hero
 * listed twice is counted once with both times. Under half a second is left out: it shows as 0 s and is a
 * pick, not play.
 */
export function heroTimesOf(p: MatchPlayer): HeroTime[] {
  const times = new Map<string, number>();
  for (const h of p.heroes) if (h.hero_id !== null && h.play_time !== null && h.play_time > 0) times.set(h.hero_id, (times.get(h.hero_id) ?? 0) + h.play_time);
  return [...times]
    .filter(([, t]) => t >= 0.5)
    .map(([heroId, playTime]) => ({ heroId, playTime }))
    .sort((a, b) => b.playTime - a.playTime);
}

/** The API's badge names that are misspelt, with the game's spelling. Names seen in the real match captures. */
const BADGE_SPELLING: Readonly<Record<string, string>> = {
  'Impentrable Defence': 'Impenetrable Defence',
};

/** A badge name as the game spells it: the API's known misspellings corrected, any other name (trimmed) unchanged. */
export function badgeName(name: string): string {
  const trimmed = name.trim();
  return BADGE_SPELLING[trimmed] ?? trimmed;
}

/** A camp's rounds won and lost from `score` (camp 0's, camp 1's); null without a score or for a camp other than 0 or 1. */
function roundsOf(camp: number | null, score: RoundScore | null): ScoreTeam['rounds'] {
  return score && (camp === 0 || camp === 1) ? { won: score[camp], lost: score[1 - camp]! } : null;
}

const ORDER: Record<PlayerStatus, number> = { played: 0, replacement: 0, left: 1, 'no-hero': 2 };

/** The match's length in seconds: the longest any player played; null with no hero time at all. */
export function matchLength(m: MatchDetail): number | null {
  const longest = Math.max(0, ...m.players.map(playTimeOf));
  return longest > 0 ? longest : null;
}

/**
 * The scoreboard: one team per camp (sorted by camp; players without a camp last), each player with
 * main hero, heroes, badges and status, in scoreboard order (kept in the API's order within a status group).
 * @param score the round score from the match's history row ({@link RoundScore}), when known.
 */
export function scoreboard(m: MatchDetail, score: RoundScore | null = null): ScoreTeam[] {
  const length = matchLength(m) ?? 0;
  const camps = [...new Set(m.players.map((p) => p.camp))].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));
  return camps.map((camp) => {
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
    return { camp, won, rounds: roundsOf(camp, score), lines };
  });
}
