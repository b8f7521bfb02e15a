/** Small rendering pieces shared by commands. */
import type { APIEmbedFooter } from 'discord-api-types/v10';
import type { Fetched } from '../cache/response-cache.js';
import { perLocale, tr } from '../i18n/index.js';
import { t } from '../strings.js';

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
const calendarDates = perLocale((locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }));

/**
 * A calendar date of the API (`YYYY-MM-DD`, a day with no time zone) as text in the current locale:
 * "Mar 10, 2099" in English, "10 mars 2099" in French, "2099/03/10" in Japanese. Text that is not such
 * a date (the API's odd values) is returned unchanged. Never throws.
 */
export function calendarDate(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const instant = Date.parse(`${date}T00:00:00Z`);
  if (!Number.isFinite(instant)) return date;
  return calendarDates().format(instant);
}
