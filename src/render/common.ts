/** Small rendering pieces shared by commands. */
import type { APIEmbedFooter } from 'discord-api-types/v10';
import type { Fetched } from '../cache/response-cache.js';
import { perLocale, tr } from '../i18n/index.js';
import type { Season } from '../game/seasons.js';
import { t } from './strings.js';

/** Embed colours of the three roles (Vanguard blue, Duelist red, Strategist green); blurple otherwise. */
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

/**
 * How old data is, in words: `ms` milliseconds (negative or not finite: 0) as
 * - under 45 s: "a few seconds" (so a 3-second-old answer never says "1 minute");
 * - 45 s to 90 s: "1 minute"; then whole minutes, rounded: "2 minutes" … "59 minutes";
 * - 59.5 min to 90 min: "1 hour"; then whole hours, rounded: "2 hours" … "23 hours";
 * - 23.5 h to 36 h: "1 day"; then whole days, rounded: "2 days", "3 days" …
 * A stated age is within a third of the true one. The words come from {@link t.age}. Never throws.
 */
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

/** A footer saying the data is stale and how old it is ({@link humanAge}: "… showing data from 3 minutes ago"); undefined for fresh data. */
export function staleFooter(fetched: Pick<Fetched<unknown>, 'stale' | 'ageMs'> | undefined): APIEmbedFooter | undefined {
  return fetched?.stale ? { text: t.staleNote(humanAge(fetched.ageMs)) } : undefined;
}

/**
 * `items` as one list in the current locale's way (src/i18n): "Hulk, Storm" in English, "Hulk、Storm"
 * in Japanese. The items are joined as they are (escape member input and API text before). Never throws.
 */
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
 * The calendar day a date of the API names, as ms since the epoch at 00:00 UTC, or null when the text
 * names none. The forms the API sends are read: `YYYY-MM-DD`, `YYYY/MM/DD` (posts, api-spec.md
 * "Post") and the English month name of game versions ("November 13, 2025", "Nov 13 2025", also
 * "13 November 2025"). Numbers alone in another order ("03/04/2025") are not read: their day/month
 * order would be a guess. Never throws.
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

/**
 * A calendar date of the API (a day with no time zone, in a form {@link calendarDay} reads) as text in
 * the current locale, `medium` ("Mar 10, 2099" in English, "10 mars 2099" in French, "2099/03/10" in
 * Japanese) or `long` ("March 10, 2099", "10 mars 2099", "2099年3月10日"). Text that is not such a
 * date (the API's odd values) is returned unchanged. Never throws.
 */
export function calendarDate(date: string, style: 'medium' | 'long' = 'medium'): string {
  const day = calendarDay(date);
  return day === null ? date : calendarDates()[style].format(day);
}

/** A season as players name it, in the current locale ("Season 1.5", "Saison 1.5"): the game's in-game number, never translated. */
export const seasonLabel = (season: Season) => tr('player:season', { number: season.number });
