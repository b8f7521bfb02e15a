/**
 * The API's profile update times (`updates.*`): US-locale date and time text without a time zone
 * ("3/5/2025, 9:23:44 PM"), read and written as UTC, since the API names no zone. Source:
 * api-samples/README.md ("`updates.*` timestamps are US-locale text without a time zone").
 * One module for the bot, which reads them, and the replica, which writes them after an update.
 */

/**
 * Unix seconds of an `updates.*` text; null for null, missing or unreadable values. Seconds and
 * AM/PM may be missing (then 24-hour time).
 */
export function parseUpdateTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = value.trim().match(/^(\d{1,2})\/(\d{1,2})\/(\d{4}),?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)?$/i);
  if (!m) return null;
  let hour = Number(m[4]);
  const meridiem = m[7]?.toUpperCase();
  if (meridiem === 'PM' && hour < 12) hour += 12;
  if (meridiem === 'AM' && hour === 12) hour = 0;
  const ms = Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2]), hour, Number(m[5]), Number(m[6] ?? 0));
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/**
 * An `updates.*` text from ms since the epoch, written in UTC: 1754318537000 → "8/4/2025, 2:42:17 PM".
 * Written by hand rather than with `toLocaleString('en-US')`, whose ICU output puts a narrow no-break
 * space before AM/PM.
 */
export function formatUpdateTime(ms: number): string {
  const d = new Date(ms);
  const h = d.getUTCHours();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}, ${h % 12 || 12}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

/** The newest of some `updates.*` texts, as Unix seconds; null when none is readable. */
export function newestUpdateTime(values: unknown[]): number | null {
  const times = values.map(parseUpdateTime).filter((t): t is number => t !== null);
  return times.length === 0 ? null : Math.max(...times);
}
