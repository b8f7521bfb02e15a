/**
 * Numbers, durations and dates in the current locale, and time-axis ticks. Dates are UTC on a linear axis
 * of Unix seconds: chart.js's time axis would need a date adapter package.
 */
import { currentLocale, dateLocale, perLocale, tr } from '../i18n/index.js';

const DAY = 86_400;
const HOUR = 3_600;

/** Made once per locale; English dates in British order ("3 Mar"). */
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

/** Cut toward zero, as the game shows it. */
export function scoreText(score: number): string {
  return formats().grouped.format(Math.trunc(score));
}

/** `share` 0..1 → "54.2 %". */
export function percentText(share: number, digits = 1): string {
  return tr('common:format.percent', {
    value: new Intl.NumberFormat(currentLocale(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(share * 100),
  });
}

export function kdaText(kda: number): string {
  return formats().oneDecimal.format(kda);
}

export function playTimeUnit(maxSeconds: number): 'h' | 'min' {
  return maxSeconds >= 2 * HOUR ? 'h' : 'min';
}

/** "12 h", "45 min", with the units the text answers use. */
export function durationTick(value: number, unit: 'h' | 'min'): string {
  const { grouped, oneDecimal } = formats();
  const text = Number.isInteger(value) ? grouped.format(value) : oneDecimal.format(value);
  return tr(unit === 'h' ? 'common:format.hours' : 'common:format.minutes', { value: text });
}

/** `value` in Unix seconds; `label` two lines when a date follows an hour, or a year a month. */
export interface TimeTick {
  value: number;
  label: string | string[];
}

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

/** On round UTC times over `[min, max]` (Unix seconds): the smallest step within `maxTicks`; short labels, for phones. */
export function timeTicks(min: number, max: number, maxTicks: number): TimeTick[] {
  const { dayMonth, monthOnly, yearOnly, hourMinute } = formats();
  if (!(max > min)) return [{ value: min, label: dayMonth.format(min * 1000) }];
  for (const step of STEPS) {
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

function everySeconds(min: number, max: number, step: number): number[] {
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) out.push(v);
  return out;
}

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
