/** Quiet hours of a feed channel in its IANA time zone; local times are minutes since midnight, read with `Intl.DateTimeFormat` (no offset arithmetic). */
import Fuse from 'fuse.js';

/** A daily window of local time, minutes since midnight; `start > end` crosses midnight (22:00–08:00). */
export interface QuietHours {
  start: number;
  end: number;
}

const MINUTES_PER_DAY = 24 * 60;

/** Every IANA time zone name this Node knows, plus `UTC` (which `Intl.supportedValuesOf` leaves out). */
export const TIME_ZONES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone')];

/** `"hh:mm"` (24-hour, `h:mm` too) as minutes since midnight, or null when it is not a time of day. */
export function parseClock(text: string): number | null {
  const m = /^\s*(\d{1,2})[:.h](\d{2})\s*$/i.exec(text);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h <= 23 && min <= 59 ? h * 60 + min : null;
}

/** `"22:00-08:00"` as a {@link QuietHours}, or null when it is not two times with a dash (or equal: no window). */
export function parseQuietHours(text: string): QuietHours | null {
  const parts = text.split(/\s*[-\u2013\u2014]\s*|\s+to\s+/i);
  if (parts.length !== 2) return null;
  const start = parseClock(parts[0]!);
  const end = parseClock(parts[1]!);
  return start === null || end === null || start === end ? null : { start, end };
}

/** Minutes since midnight as `hh:mm`. */
export function formatClock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The canonical name of an IANA time zone typed in any case (`europe/paris` → `Europe/Paris`), or null when there is none. */
export function canonicalTimeZone(name: string): string | null {
  const wanted = name.trim().toLowerCase();
  if (wanted === '') return null;
  const listed = TIME_ZONES.find((z) => z.toLowerCase() === wanted);
  if (listed) return listed;
  try {
    // Aliases Intl accepts but does not list (e.g. "Etc/GMT+2", "US/Eastern").
    return new Intl.DateTimeFormat('en-US', { timeZone: name.trim() }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

let fuse: Fuse<string> | undefined;
/** Up to `limit` time zones for autocomplete: those whose name contains the query (a city: "paris", "new york"), then fuzzy matches. */
export function suggestTimeZones(query: string, limit = 25): string[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, '_');
  if (q === '')
    return [
      'UTC',
      'Europe/London',
      'Europe/Paris',
      'Europe/Berlin',
      'America/New_York',
      'America/Chicago',
      'America/Los_Angeles',
      'America/Sao_Paulo',
      'Asia/Tokyo',
      'Asia/Shanghai',
      'Asia/Seoul',
      'Asia/Kolkata',
      'Australia/Sydney',
    ].slice(0, limit);
  const containing = TIME_ZONES.filter((z) => z.toLowerCase().includes(q));
  if (containing.length >= limit) return containing.slice(0, limit);
  fuse ??= new Fuse([...TIME_ZONES], { threshold: 0.35, ignoreLocation: true });
  const fuzzy = fuse.search(q, { limit }).map((r) => r.item);
  return [...new Set([...containing, ...fuzzy])].slice(0, limit);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The local date (`YYYY-MM-DD`), minutes since midnight and weekday (0 Sunday … 6 Saturday) of `instant` (ms) in `timeZone`. */
export function localTime(instant: number, timeZone: string): { date: string; minutes: number; weekday: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday ?? '');
  return { date: `${parts.year}-${parts.month}-${parts.day}`, minutes: (Number(parts.hour) % 24) * 60 + Number(parts.minute), weekday };
}

/** `YYYY-MM-DD` minus `days` days (calendar arithmetic; no time zone involved). */
export function minusDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** Whether `minutes` (since local midnight) falls in the window; the start is inside, the end is not. */
export function inWindow(q: QuietHours, minutes: number): boolean {
  return q.start < q.end ? minutes >= q.start && minutes < q.end : minutes >= q.start || minutes < q.end;
}

/** Whether `instant` is in the quiet hours and, if so, ms until they end (to the minute; a DST change in the window is made up by the next poll). */
export function quietNow(q: QuietHours, timeZone: string, instant: number): { quiet: false } | { quiet: true; endsInMs: number } {
  const { minutes } = localTime(instant, timeZone);
  if (!inWindow(q, minutes)) return { quiet: false };
  const seconds = Math.floor(instant / 1000) % 60;
  const untilEnd = ((q.end - minutes + MINUTES_PER_DAY) % MINUTES_PER_DAY) * 60_000 - seconds * 1000;
  return { quiet: true, endsInMs: Math.max(1_000, untilEnd) };
}
