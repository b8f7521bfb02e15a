/** The match a select menu opens, with what its history row knew that the match detail does not say. */
import type { RoundScore } from '../game/scoreboard.js';
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

/** The inverse of {@link encodeMatchOrigin}; a bare match uid gives unknowns, a value without a score a null score. */
export function decodeMatchOrigin(value: string): MatchOrigin {
  const [matchUid = '', map = '', mode = '', seconds = '', time = '', rounds = ''] = value.split(SEPARATOR);
  const num = (s: string) => (/^\d+$/.test(s) ? Number(s) : null);
  const score = /^(\d+)-(\d+)$/.exec(rounds);
  return {
    matchUid: matchUid.trim(),
    mapId: map || null,
    modeId: num(mode),
    duration: num(seconds),
    time: num(time),
    score: score ? [Number(score[1]), Number(score[2])] : null,
  };
}
