/**
 * The API's profile update times (`updates.*`): US-locale date and time text without a zone
 * ("3/5/2025, 9:23:44 PM"), which is US Eastern wall time (America/New_York, daylight saving
 * included). One module for the bot, which reads them, and the replica, which writes them.
 *
 * How the zone was found (README, "What the API's fields mean"): `last_inserted_match` read as
 * Eastern time falls 33–63 s after the end (`match_time_stamp`, Unix seconds) of one of the profile's
 * own matches in every real capture that has it, in both EST and EDT; read as UTC or Central time it
 * lands hours away from any match.
 */

/** The zone the API writes `updates.*` in. */
export const UPDATE_TIME_ZONE = 'America/New_York';

const zoneParts = new Intl.DateTimeFormat('en-US', {
  timeZone: UPDATE_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** The wall time of `ms` in the update zone, as the ms of the same wall time read as UTC. */
function wallTimeAt(ms: number): number {
  const parts: Record<string, number> = {};
  for (const p of zoneParts.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour! % 24, parts.minute, parts.second);
}

/** Ms since the epoch of a wall time in the update zone, given as if it were UTC (`Date.UTC` of its fields). */
function fromWallTime(wallAsUtc: number): number {
  // The zone's offset at a first guess, then again at the corrected instant (they differ only across a DST change).
  const first = wallAsUtc - (wallTimeAt(wallAsUtc) - wallAsUtc);
  return wallAsUtc - (wallTimeAt(first) - first);
}

/**
 * Unix seconds of an `updates.*` text, read as US Eastern time; null for null, missing or unreadable
 * values. Seconds and AM/PM may be missing (then 24-hour time).
 */
export function parseUpdateTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = value.trim().match(/^(\d{1,2})\/(\d{1,2})\/(\d{4}),?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)?$/i);
  if (!m) return null;
  let hour = Number(m[4]);
  const meridiem = m[7]?.toUpperCase();
  if (meridiem === 'PM' && hour < 12) hour += 12;
  if (meridiem === 'AM' && hour === 12) hour = 0;
  const wall = Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2]), hour, Number(m[5]), Number(m[6] ?? 0));
  if (!Number.isFinite(wall)) return null;
  return Math.floor(fromWallTime(wall) / 1000);
}

/**
 * An `updates.*` text from ms since the epoch, in US Eastern time: 1754332937000 → "8/4/2025, 2:42:17 PM".
 * Written by hand rather than with `toLocaleString('en-US')`, whose ICU output puts a narrow no-break
 * space before AM/PM.
 */
export function formatUpdateTime(ms: number): string {
  const d = new Date(wallTimeAt(ms));
  const h = d.getUTCHours();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}, ${h % 12 || 12}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

/** The newest of some `updates.*` texts, as Unix seconds; null when none is readable. */
export function newestUpdateTime(values: unknown[]): number | null {
  const times = values.map(parseUpdateTime).filter((t): t is number => t !== null);
  return times.length === 0 ? null : Math.max(...times);
}
