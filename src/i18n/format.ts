/** Numbers, durations and times for people, in the current locale (the member's for an answer, the server's for a feed post). */
import { time, TimestampStyles } from '@discordjs/formatters';
import { dateLocale, perLocale, tr } from './index.js';

const numbers = perLocale((locale) => ({
  compact: new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }),
  whole: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
  oneDecimal: new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 }),
  twoDecimals: new Intl.NumberFormat(locale, { maximumFractionDigits: 2, minimumFractionDigits: 2 }),
}));

const shortDates = perLocale((locale) => new Intl.DateTimeFormat(dateLocale(locale), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }));

/** Unix seconds, UTC: "26 May 2025", "26 mai 2025", "2025年5月26日". */
export function shortDate(unixSeconds: number): string {
  return shortDates().format(new Date(unixSeconds * 1000));
}

/** "1.2M", "45.3K", "950"; whole below `from` ("9,950"); an em dash for null. */
export function compactNumber(n: number | null | undefined, from = 10_000): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  // Whole first: a locale without a short form for thousands (German) would print the decimals.
  const whole = Math.round(n);
  return Math.abs(whole) < from ? numbers().whole.format(whole) : numbers().compact.format(whole);
}

/** "1,234"; an em dash for null. */
export function integer(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '—' : numbers().whole.format(n);
}

/** Exactly `digits` decimals ("4.50", "4,50"); an em dash for null. */
export function decimal(n: number | null | undefined, digits: 1 | 2 = 2): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return (digits === 1 ? numbers().oneDecimal : numbers().twoDecimals).format(n);
}

export function plural(n: number, one: string, many: string): string {
  return `${integer(n)} ${n === 1 ? one : many}`;
}

/** Already in percent (63.4 → "63.4 %"); an em dash for null. */
export function percent(p: number | null | undefined): string {
  return p === null || p === undefined || !Number.isFinite(p) ? '—' : tr('common:format.percent', { value: numbers().oneDecimal.format(p) });
}

/** A 0-100 share rounded to a whole number, in the locale's way ("77 %", "77%"): where a decimal would be noise (a card's role share). */
export function wholePercent(p: number): string {
  return tr('common:format.percent', { value: integer(Math.round(p)) });
}

/** A part of a whole, 0–1, as a whole percent (0.436 → "44 %"); a part above nothing that rounds to 0 reads "<1 %", never "0 %". */
export function sharePercent(fraction: number): string {
  const whole = Math.round(fraction * 100);
  return fraction > 0 && whole === 0 ? tr('common:format.underOne', { value: wholePercent(1) }) : wholePercent(whole);
}

/** A 0-1 ratio (0.634 → "63.4 %"). */
export function ratioPercent(r: number | null | undefined): string {
  return r === null || r === undefined ? '—' : percent(r * 100);
}

export function winRate(wins: number, matches: number): string {
  return matches > 0 ? percent((wins / matches) * 100) : '—';
}

/** A record as "7–3", or "7–3–1" when it has draws. */
export function winLoss(r: { wins: number; losses: number; draws?: number }): string {
  return `${integer(r.wins)}–${integer(r.losses)}${r.draws ? `–${integer(r.draws)}` : ''}`;
}

/** Seconds as "12h 4m" (an hour or more) or "4m 12s", localised; an em dash for null. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? tr('common:format.hoursMinutes', { h: numbers().whole.format(h), m }) : tr('common:format.minutesSeconds', { m, s: s % 60 });
}

/** "12 / 4 / 6 (KDA 4.50)", the ratio (kills + assists) / deaths; an em dash for 0 / 0 / 0. */
export function kda(k: number, d: number, a: number): string {
  if (k === 0 && d === 0 && a === 0) return '—';
  const ratio = (k + a) / Math.max(1, d);
  const f = (n: number) => (Number.isInteger(n) ? numbers().whole.format(n) : numbers().oneDecimal.format(n));
  return tr('common:format.kda', { k: f(k), d: f(d), a: f(a), ratio: numbers().twoDecimals.format(ratio) });
}

/** "4.50", the ratio (kills + assists) / deaths alone; an em dash for 0 / 0 / 0. */
export function kdaRatio(k: number, d: number, a: number): string {
  if (k === 0 && d === 0 && a === 0) return '—';
  return numbers().twoDecimals.format((k + a) / Math.max(1, d));
}

/** `text` as an aside in the locale's typography (" (Duelist)", "（デュエリスト）"); empty for none. Inserted as is: escape member or API text first. */
export function aside(text: string | null | undefined): string {
  return text ? tr('common:format.aside', { text }) : '';
}

/** `<t:unix:R>` by default: each member sees it in their own time zone; an em dash for null. */
export function discordTime(unixSeconds: number | null | undefined, style: 'R' | 'f' | 'D' = 'R'): string {
  if (unixSeconds === null || unixSeconds === undefined || !Number.isFinite(unixSeconds)) return '—';
  const styles = { R: TimestampStyles.RelativeTime, f: TimestampStyles.LongDateShortTime, D: TimestampStyles.LongDate } as const;
  return time(Math.round(unixSeconds), styles[style]);
}

/** "#EB46FF" as an integer; null if unusable. */
export function hexColour(hex: string | null | undefined): number | null {
  const m = hex?.trim().match(/^#?([0-9a-f]{6})$/i);
  return m ? Number.parseInt(m[1]!, 16) : null;
}

/** For the API's lower-case hero names ("cloak & dagger" → "Cloak & Dagger"). */
export function titleCase(name: string): string {
  return name.replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}
