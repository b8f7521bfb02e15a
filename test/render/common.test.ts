import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runInLocale } from '../../src/i18n/index.js';
import { calendarDate, humanAge, staleFooter } from '../../src/render/common.js';

const S = 1_000;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;

describe('humanAge', () => {
  it('says each bucket, at and around its boundaries', () => {
    const cases: [number, string][] = [
      [0, 'a few seconds'],
      [3 * S, 'a few seconds'],
      [45 * S - 1, 'a few seconds'],
      [45 * S, '1 minute'],
      [90 * S - 1, '1 minute'],
      [90 * S, '2 minutes'],
      [3 * MIN, '3 minutes'],
      [59 * MIN, '59 minutes'],
      [59.5 * MIN - 1, '59 minutes'],
      [59.5 * MIN, '1 hour'],
      [90 * MIN - 1, '1 hour'],
      [90 * MIN, '2 hours'],
      [2 * H, '2 hours'],
      [23 * H, '23 hours'],
      [23.5 * H - 1, '23 hours'],
      [23.5 * H, '1 day'],
      [36 * H - 1, '1 day'],
      [36 * H, '2 days'],
      [3 * D, '3 days'],
      [400 * D, '400 days'],
      [1500 * D, '1,500 days'],
      [-5 * S, 'a few seconds'],
      [Number.NaN, 'a few seconds'],
      [Number.POSITIVE_INFINITY, 'a few seconds'],
    ];
    for (const [ms, words] of cases) expect(humanAge(ms), String(ms)).toBe(words);
  });

  it('never overstates or understates an age by more than a third, and never says a minute under 45 s', () => {
    const unit: Record<string, number> = { minute: MIN, minutes: MIN, hour: H, hours: H, day: D, days: D };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 * D }), (ms) => {
        const words = humanAge(ms);
        if (words === 'a few seconds') {
          expect(ms).toBeLessThan(45 * S);
          return;
        }
        const [, count, name] = words.match(/^([\d,]+) (\w+)$/)!;
        const said = Number(count!.replaceAll(',', '')) * unit[name!]!;
        expect(said).toBeLessThanOrEqual((ms * 4) / 3);
        expect(said).toBeGreaterThanOrEqual((ms * 2) / 3);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('staleFooter', () => {
  it('says how old stale data is, in words that read for every bucket', () => {
    expect(staleFooter({ stale: true, ageMs: 3 * S })?.text).toBe('API unavailable: showing data from a few seconds ago');
    expect(staleFooter({ stale: true, ageMs: 60 * S })?.text).toBe('API unavailable: showing data from 1 minute ago');
    expect(staleFooter({ stale: true, ageMs: 3 * MIN })?.text).toBe('API unavailable: showing data from 3 minutes ago');
    expect(staleFooter({ stale: true, ageMs: 2 * H })?.text).toBe('API unavailable: showing data from 2 hours ago');
    expect(staleFooter({ stale: true, ageMs: 3 * D })?.text).toBe('API unavailable: showing data from 3 days ago');
  });
  it('is absent for fresh data', () => {
    expect(staleFooter({ stale: false, ageMs: 3 * H })).toBeUndefined();
    expect(staleFooter(undefined)).toBeUndefined();
  });
});

describe('calendarDate', () => {
  it('reads the forms the API sends (YYYY-MM-DD, YYYY/MM/DD, the English month name of game versions) and writes them in the locale', () => {
    for (const date of ['2025-11-13', '2025/11/13', 'November 13, 2025', 'Nov 13, 2025', 'Nov. 13 2025', '13 November 2025']) {
      expect(
        runInLocale('fr', () => calendarDate(date)),
        date,
      ).toBe('13 nov. 2025');
      expect(
        runInLocale('de', () => calendarDate(date, 'long')),
        date,
      ).toBe('13. November 2025');
    }
    expect(runInLocale('ja', () => calendarDate('November 13, 2025', 'long'))).toBe('2025年11月13日');
    expect(calendarDate('2099-03-10')).toBe('Mar 10, 2099');
  });
  it('returns text it cannot read unchanged, never guessing the order of day and month', () => {
    for (const date of ['03/04/2025', '04.03.2025', 'February 30, 2025', '2025-13-01', 'Smarch 3, 2025', 'soon', ''])
      expect(
        runInLocale('fr', () => calendarDate(date)),
        date,
      ).toBe(date);
  });
});
