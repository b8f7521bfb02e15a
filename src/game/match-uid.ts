/**
 * What a match uid says of its match. Real uids read `<server>_<start>_<part>_<queue>_<format>`
 * (`5518294_1749102302_1290153_11001_11`): the second part is the Unix second the match started, and since the
 * `_11`, `_12` and `_13` formats the third part is the map id followed by three digits (map 1290 above). Older
 * uids (`_10`, `_50`) carry a short counter there, never a map (docs/data.md "What the API's fields mean").
 */

/** 2024-12-01: no real match starts before the game's launch. */
const LAUNCH = Date.UTC(2024, 11, 1) / 1000;

/** Digits after the map id in a uid's third part. */
const MAP_PART_SUFFIX = 3;
/** Map ids are four digits and more: a shorter third part is an older uid's counter. */
const MIN_MAP_PART = 4 + MAP_PART_SUFFIX;

/**
 * The start a match uid carries (its second part, Unix seconds) when plausible: after the game's launch and no later than a
 * day past `nowMs` (epoch ms). Null otherwise, or for a uid of another shape.
 */
export function matchUidStart(uid: string, nowMs: number): number | null {
  const part = Number(uid.split('_')[1]);
  return Number.isInteger(part) && part > LAUNCH && part < nowMs / 1000 + 86_400 ? part : null;
}

/**
 * The map id a match uid embeds (`1290` of `5518294_1749102302_1290153_11001_11`), or null for a uid that embeds none (an
 * older uid's short third part, or another shape). The caller checks the id against the map list before naming a map.
 */
export function matchUidMapId(uid: string): string | null {
  const parts = uid.split('_');
  if (parts.length < 5) return null;
  const part = parts[2]!;
  if (!/^[1-9]\d*$/.test(part) || part.length < MIN_MAP_PART) return null;
  return part.slice(0, -MAP_PART_SUFFIX);
}

/** A match ends within a day of its start (a uid's start further from its end is not that match's). */
const DAY = 86_400;

/**
 * When a listed match started, Unix seconds: the one time every view of a match says (docs/data.md "A match is dated by
 * its start"). Its uid's start when plausible: after the game's launch, no later than the row's end (`time`, its
 * `match_time_stamp`) and under a day before it. Else the end less the match's length (`duration`, seconds), within
 * minutes of the start; null with neither. Without an end, {@link matchUidStart} alone.
 */
export function rowStart(row: { match_uid: string; time: number | null; duration: number | null }): number | null {
  const { time: end, duration: seconds } = row;
  if (end === null) return matchUidStart(row.match_uid, Number.POSITIVE_INFINITY);
  const start = matchUidStart(row.match_uid, (end + DAY) * 1000);
  if (start !== null && start <= end && end - start < DAY) return start;
  return seconds !== null && seconds >= 0 ? Math.round(end - seconds) : null;
}

/** Whether `uid` reads as the API's match uids do (`5518294_1749102302_1290153_11001_11`), with a plausible start. */
export function isMatchUid(uid: string, nowMs: number): boolean {
  return /^\d+_\d+_\d+_\d+_\d+$/.test(uid) && matchUidStart(uid, nowMs) !== null;
}
