import type { APIEmbedFooter } from 'discord-api-types/v10';
import type { Fetched } from '../cache/response-cache.js';
import { perLocale, tr } from '../i18n/index.js';
import type { Season } from '../game/seasons.js';
import { t } from './strings.js';

/** Embed colour of a role; blurple otherwise. */
export function roleColour(role: string | null | undefined): number {
  switch (role?.toLowerCase()) {
    case 'vanguard':
      return 0x3b82f6;
    case 'duelist':
      return 0xef4444;
    case 'strategist':
      return 0x22c55e;
    default:
      return 0x5865f2;
  }
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** How old data is, in words, from `ms` milliseconds; under 45 s is "a few seconds", so a fresh answer never says "1 minute". */
export function humanAge(ms: number): string {
  const age = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  if (age < 45 * SECOND) return t.ageFewSeconds();
  if (age < 90 * SECOND) return t.age(1, 'minute');
  const minutes = Math.round(age / MINUTE);
  if (minutes < 60) return t.age(minutes, 'minute');
  if (age < 90 * MINUTE) return t.age(1, 'hour');
  const hours = Math.round(age / HOUR);
  if (hours < 24) return t.age(hours, 'hour');
  if (age < 36 * HOUR) return t.age(1, 'day');
  return t.age(Math.round(age / (24 * HOUR)), 'day');
}

/** A footer giving stale data's age; undefined for fresh data. */
export function staleFooter(fetched: Pick<Fetched<unknown>, 'stale' | 'ageMs'> | undefined): APIEmbedFooter | undefined {
  return fetched?.stale ? { text: t.staleNote(humanAge(fetched.ageMs)) } : undefined;
}

/** `items` joined with the current locale's list separator; escape member input and API text before. */
export function listOf(items: readonly string[]): string {
  return items.join(tr('render:listSeparator'));
}

// The date is a day, not an instant: read and shown in UTC, so no time zone moves it to another day.
const calendarDates = perLocale((locale) => ({
  medium: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
  long: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }),
}));

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * The day an API date names (`YYYY-MM-DD`, `YYYY/MM/DD`: api-spec.md "Post"; "Nov 13, 2025"), as ms at 00:00 UTC, or null.
 * "03/04/2025" is not read: its day/month order would be a guess.
 */
export function calendarDay(date: string): number | null {
  const text = date.trim();
  const parts =
    text.match(/^(?<year>\d{4})([-/])(?<month>\d{1,2})\2(?<day>\d{1,2})$/)?.groups ??
    text.match(/^(?<name>[A-Za-z]{3,})\.? (?<day>\d{1,2}),? (?<year>\d{4})$/)?.groups ??
    text.match(/^(?<day>\d{1,2}) (?<name>[A-Za-z]{3,})\.?,? (?<year>\d{4})$/)?.groups;
  if (!parts) return null;
  const name = parts.name?.toLowerCase();
  const month = name ? MONTHS.findIndex((m) => m.startsWith(name)) : Number(parts.month) - 1;
  const [year, day] = [Number(parts.year), Number(parts.day)];
  if (month < 0 || month > 11) return null;
  const instant = Date.UTC(year, month, day);
  // Date.UTC rolls 30 February over into March: such a day is not one.
  return new Date(instant).getUTCDate() === day && new Date(instant).getUTCMonth() === month ? instant : null;
}

/** An API calendar date in the current locale, `medium` or `long`; text that is not a date comes back unchanged. */
export function calendarDate(date: string, style: 'medium' | 'long' = 'medium'): string {
  const day = calendarDay(date);
  return day === null ? date : calendarDates()[style].format(day);
}

/** A season as players name it ("Season 1.5"): the in-game number, never translated. */
export const seasonLabel = (season: Season) => tr('player:season', { number: season.number });
