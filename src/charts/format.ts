/**
 * How the charts write numbers, shares, durations and dates, and where a time axis puts its ticks, in
 * the current locale (src/i18n; the worker draws a spec in its `locale`, src/charts/draw.ts): "3,752"
 * and "54.2 %" in English, "3.752" and "54,2 %" in German. Dates are UTC, written with
 * Intl.DateTimeFormat ("3 Mar" in English, "3 mars" in French): the charts use a linear axis of Unix
 * seconds, as chart.js's time axis would need a date adapter package.
 */
import { currentLocale, dateLocale, perLocale, tr } from '../i18n/index.js';

const DAY = 86_400;
const HOUR = 3_600;

/** The current locale's formats, made once each; English dates in British order ("3 Mar"), as before languages. */
const formats = perLocale((locale) => {
  const dates = dateLocale(locale);
  return {
    grouped: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
    oneDecimal: new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    dayMonth: new Intl.DateTimeFormat(dates, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
    monthOnly: new Intl.DateTimeFormat(dates, { month: 'short', timeZone: 'UTC' }),
    yearOnly: new Intl.DateTimeFormat(dates, { year: 'numeric', timeZone: 'UTC' }),
    hourMinute: new Intl.DateTimeFormat(dates, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }),
  };
});

/** A rank score as the game shows it: whole points cut toward zero, grouped ("3,752"). */
export function scoreText(score: number): string {
  return formats().grouped.format(Math.trunc(score));
}

/** A share 0..1 as a percentage with `digits` decimals and a thin gap before the sign ("54.2 %"). */
export function percentText(share: number, digits = 1): string {
  return tr('common:format.percent', {
    value: new Intl.NumberFormat(currentLocale(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(share * 100),
  });
}

/** A KDA ratio with one decimal ("3.1"). */
export function kdaText(kda: number): string {
  return formats().oneDecimal.format(kda);
}

/** The unit a play-time axis counts in: hours from two hours of play up, else minutes. */
export function playTimeUnit(maxSeconds: number): 'h' | 'min' {
  return maxSeconds >= 2 * HOUR ? 'h' : 'min';
}

/**
 * A duration in `unit`s as an axis label in the current locale, with the units the text answers use
 * (`common:format.hours` / `minutes`: "12 h", "45 min"; "12 Std.", "45 Min." in German; "12時間", "45分"
 * in Japanese), whole or with one decimal when it has one.
 */
export function durationTick(value: number, unit: 'h' | 'min'): string {
  const { grouped, oneDecimal } = formats();
  const text = Number.isInteger(value) ? grouped.format(value) : oneDecimal.format(value);
  return tr(unit === 'h' ? 'common:format.hours' : 'common:format.minutes', { value: text });
}

/** A tick of a time axis: its value in Unix seconds and its label (two lines when a date follows an hour, or a year a month). */
export interface TimeTick {
  value: number;
  label: string | string[];
}

/** Steps a time axis may take: hours and days in seconds, or whole months. */
const STEPS: readonly ({ seconds: number } | { months: number })[] = [
  { seconds: HOUR },
  { seconds: 2 * HOUR },
  { seconds: 3 * HOUR },
  { seconds: 6 * HOUR },
  { seconds: 12 * HOUR },
  { seconds: DAY },
  { seconds: 2 * DAY },
  { seconds: 3 * DAY },
  { seconds: 7 * DAY },
  { seconds: 14 * DAY },
  { months: 1 },
  { months: 2 },
  { months: 3 },
  { months: 6 },
  { months: 12 },
];

/**
 * Ticks for a time axis over `[min, max]` (Unix seconds), at most `maxTicks` of them, on round UTC
 * times: whole hours ("14:00", the date below the first and at each new day), midnights ("3 Mar"),
 * or firsts of months ("Mar", the year below the first and at each January: short labels, so a phone-
 * width chart has room for them). The smallest step that keeps within `maxTicks` wins.
 */
export function timeTicks(min: number, max: number, maxTicks: number): TimeTick[] {
  const { dayMonth, monthOnly, yearOnly, hourMinute } = formats();
  if (!(max > min)) return [{ value: min, label: dayMonth.format(min * 1000) }];
  for (const step of STEPS) {
    // Too many ticks for sure: skip without listing them.
    if ('seconds' in step && (max - min) / step.seconds > maxTicks + 1) continue;
    const values = 'seconds' in step ? everySeconds(min, max, step.seconds) : everyMonths(min, max, step.months);
    if (values.length > maxTicks) continue;
    if ('months' in step) {
      return values.map((value, i) => {
        const text = monthOnly.format(value * 1000);
        return { value, label: i === 0 || new Date(value * 1000).getUTCMonth() === 0 ? [text, yearOnly.format(value * 1000)] : text };
      });
    }
    if (step.seconds >= DAY) return values.map((value) => ({ value, label: dayMonth.format(value * 1000) }));
    let lastDay = Number.NaN;
    return values.map((value) => {
      const day = Math.floor(value / DAY);
      const label = day !== lastDay ? [hourMinute.format(value * 1000), dayMonth.format(value * 1000)] : hourMinute.format(value * 1000);
      lastDay = day;
      return { value, label };
    });
  }
  return [];
}

/** Multiples of `step` seconds (aligned to UTC midnight, weeks included) within `[min, max]`. */
function everySeconds(min: number, max: number, step: number): number[] {
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) out.push(v);
  return out;
}

/** Firsts of months (every `months`, aligned to January) within `[min, max]`, as Unix seconds. */
function everyMonths(min: number, max: number, months: number): number[] {
  const out: number[] = [];
  const start = new Date(min * 1000);
  let year = start.getUTCFullYear();
  let month = Math.ceil(start.getUTCMonth() / months) * months;
  for (;;) {
    const value = Date.UTC(year, month, 1) / 1000;
    if (value > max) return out;
    if (value >= min) out.push(value);
    month += months;
    if (month >= 12) {
      year += Math.floor(month / 12);
      month %= 12;
    }
  }
}
