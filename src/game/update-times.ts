/**
 * Profile update times (`updates.*`): US-locale text without a zone, which is US Eastern wall time. Only in that zone is
 * `last_inserted_match` the start inside one of the profile's own match uids, and `last_update_request` an hour before the
 * signed image URLs of a response taken right after it expire (docs/data.md).
 */

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

function wallTimeAt(ms: number): number {
  const parts: Record<string, number> = {};
  for (const p of zoneParts.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour! % 24, parts.minute, parts.second);
}

function fromWallTime(wallAsUtc: number): number {
  // Offset taken twice: it differs between guess and answer only across a DST change.
  const first = wallAsUtc - (wallTimeAt(wallAsUtc) - wallAsUtc);
  return wallAsUtc - (wallTimeAt(first) - first);
}

/** Texts already read: a profile is rendered again and again from the cache, and each reading costs two time-zone lookups. */
const parsed = new Map<string, number | null>();
/** Most texts kept; past it the memory starts again (the texts of the profiles shown lately come back at once). */
const MOST_PARSED = 2_048;

/** Unix seconds of an `updates.*` text, or null if unreadable. Seconds and AM/PM are optional. */
export function parseUpdateTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const known = parsed.get(value);
  if (known !== undefined) return known;
  const seconds = readUpdateTime(value);
  if (parsed.size >= MOST_PARSED) parsed.clear();
  parsed.set(value, seconds);
  return seconds;
}

function readUpdateTime(value: string): number | null {
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

/** An `updates.*` text from epoch ms. By hand: ICU's `toLocaleString` puts a narrow no-break space before AM/PM. */
export function formatUpdateTime(ms: number): string {
  const d = new Date(wallTimeAt(ms));
  const h = d.getUTCHours();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}, ${h % 12 || 12}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

/** Unix seconds; null when none is readable. */
export function newestUpdateTime(values: unknown[]): number | null {
  const times = values.map(parseUpdateTime).filter((t): t is number => t !== null);
  return times.length === 0 ? null : Math.max(...times);
}
