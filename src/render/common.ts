/** Small rendering pieces shared by commands. */
import type { APIEmbedFooter } from 'discord-api-types/v10';
import type { Fetched } from '../cache/response-cache.js';
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
