/** The match a select menu opens, with what its history row knew that the match detail does not say. */
import type { RoundScore } from '../game/scoreboard.js';
import { encodeCustomIdIfFits, pageArg, storeKeyArg } from './custom-id.js';
import { LIMITS } from './limits.js';

export interface MatchOrigin {
  matchUid: string;
  mapId: string | null;
  modeId: number | null;
  /** Seconds. */
  duration: number | null;
  /** Unix seconds. */
  time: number | null;
  /** Rounds of camp 0 and camp 1 (`score_info`); absent or null when the row had none. */
  score?: RoundScore | null;
}

const SEPARATOR = '~';

/** `<match uid>~<map id>~<mode id>~<seconds>~<unix time>[~<a>-<b>]` within Discord's 100-character option value, else the uid alone. */
export function encodeMatchOrigin(o: MatchOrigin): string {
  const part = (v: string | number | null) => (v === null ? '' : String(typeof v === 'number' ? Math.round(v) : v).replaceAll(SEPARATOR, ''));
  const parts = [o.matchUid.replaceAll(SEPARATOR, ''), part(o.mapId), part(o.modeId), part(o.duration), part(o.time)];
  // Rounds are counts: anything else is not a score worth carrying.
  if (o.score && o.score.every((n) => Number.isInteger(n) && n >= 0)) parts.push(`${o.score[0]}-${o.score[1]}`);
  const full = parts.join(SEPARATOR);
  return full.length <= LIMITS.optionValue ? full : o.matchUid.slice(0, LIMITS.optionValue);
}

/**
 * The inverse of {@link encodeMatchOrigin}; a bare match uid gives unknowns, a value without a score a null score. A value
 * is crafted text as much as a custom ID is: a map id that is not the API's digits is unknown.
 */
export function decodeMatchOrigin(value: string): MatchOrigin {
  const [matchUid = '', map = '', mode = '', seconds = '', time = '', rounds = ''] = value.split(SEPARATOR);
  const num = (s: string) => (/^\d+$/.test(s) ? Number(s) : null);
  const score = /^(\d+)-(\d+)$/.exec(rounds);
  return {
    matchUid: matchUid.trim(),
    mapId: /^\d+$/.test(map) ? map : null,
    modeId: num(mode),
    duration: num(seconds),
    time: num(time),
    score: score ? [Number(score[1]), Number(score[2])] : null,
  };
}

/**
 * The page of a player's recent matches a match was opened from: the arguments of the list's select,
 * `mt.l:<uid>:<season>:<page>:<filter>[:<back key>]` (`filter` `r` hides bot and practice matches; older messages carry the
 * uid alone; the back key when the profile was itself opened from a scoreboard).
 */
export interface ListPlace {
  uid: string;
  /** The season option as the list carried it ('' for the current season). */
  season: string;
  /** 1-based. */
  page: number;
  filter: '' | 'r';
  /** The store key of the profile's own Back button (src/store/back-targets.ts), carried on so the list keeps it; absent for none. */
  backKey?: string;
}

/** The place `args` (the select's arguments, or the same carried on) name; null without a player uid. */
export function listPlace(args: readonly string[]): ListPlace | null {
  const [uid = '', season = '', page, filter, key] = args;
  if (uid === '') return null;
  const backKey = storeKeyArg(key);
  return { uid, season, page: pageArg(page), filter: filter === 'r' ? 'r' : '', ...(backKey ? { backKey } : {}) };
}

/** The arguments that carry `place` on to another custom ID, read back by {@link listPlace}. */
export function listPlaceArgs(place: ListPlace): (string | number)[] {
  return [place.uid, place.season, place.page, place.filter, ...(place.backKey ? [place.backKey] : [])];
}

/**
 * The Back button's custom ID to the list page: `pl.p:<uid>:<season>:matches[:r]:<page>:b`, or with the profile's back key
 * `pl.p:<uid>:<season>:matches:<filter>:<back key>:<page>:b` (the layout `pl.p` reads); without the key when only that fits,
 * null when a crafted place does not fit either.
 */
export function listBackId(place: ListPlace): string | null {
  const { uid, season, page, filter, backKey } = place;
  return (
    (backKey ? encodeCustomIdIfFits('pl.p', uid, season, 'matches', filter, backKey, page, 'b') : null) ??
    encodeCustomIdIfFits('pl.p', uid, season, 'matches', ...(filter === 'r' ? ['r'] : []), page, 'b')
  );
}
