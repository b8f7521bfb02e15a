/**
 * The i18n foundation (src/i18n/index.ts, issue 16): Discord locales mapped to ours, the locale
 * carried by runInLocale across awaits, messages by key with English fallback, and src/render/format.ts
 * following the current locale.
 */
import { describe, expect, it } from 'vitest';
import { currentLocale, hasMessage, LOCALES, localeOf, pickLocale, runInLocale, tr, trIn } from '../../src/i18n/index.js';
import { compactNumber, decimal, duration, integer, kda, percent } from '../../src/render/format.js';

describe('which locale', () => {
  it("maps Discord's locale codes to ours, by language when the region is not ours", () => {
    expect(localeOf('en-US')).toBe('en');
    expect(localeOf('en-GB')).toBe('en');
    expect(localeOf('es-419')).toBe('es-ES');
    expect(localeOf('ES-es')).toBe('es-ES');
    expect(localeOf('pt-BR')).toBe('pt-BR');
    expect(localeOf('pt-PT')).toBe('pt-BR');
    expect(localeOf('fr')).toBe('fr');
    expect(localeOf('de')).toBe('de');
    expect(localeOf('ja')).toBe('ja');
    for (const none of ['ko', 'zh-CN', 'sv-SE', '', null, undefined]) expect(localeOf(none)).toBeNull();
    for (const l of LOCALES) expect(localeOf(l)).toBe(l);
  });

  it("picks the first choice that is one of ours: the member's, then the server's, then English", () => {
    expect(pickLocale('ko', 'de')).toBe('de');
    expect(pickLocale('ja', 'de')).toBe('ja');
    expect(pickLocale('ko', undefined)).toBe('en');
  });

  it('carries the locale across awaits and timers, each piece of work its own', async () => {
    const seen = await Promise.all(
      (['fr', 'ja', 'de'] as const).map((l) =>
        runInLocale(l, async () => {
          await new Promise((r) => setTimeout(r, 5));
          return currentLocale();
        }),
      ),
    );
    expect(seen).toEqual(['fr', 'ja', 'de']);
    expect(currentLocale()).toBe('en');
  });
});

describe('messages', () => {
  it('reads a key in the current locale, with its values', () => {
    expect(tr('common:format.hoursMinutes', { h: 2, m: 5 })).toBe('2h 5m');
    expect(runInLocale('ja', () => tr('common:format.hoursMinutes', { h: 2, m: 5 }))).toBe('2時間5分');
    expect(trIn('de', 'common:format.minutesSeconds', { m: 4, s: 12 })).toBe('4 Min. 12 Sek.');
  });

  it('an unknown key comes back as itself, and does not exist', () => {
    expect(tr('common:no.such.key')).toBe('no.such.key');
    expect(hasMessage('fr', 'common:no.such.key')).toBe(false);
    expect(hasMessage('fr', 'common:format.kda')).toBe(true);
  });
});

describe('numbers follow the locale', () => {
  it('in English outside any locale', () => {
    expect(integer(1234567)).toBe('1,234,567');
    expect(percent(63.44)).toBe('63.4 %');
    expect(compactNumber(45_300)).toBe('45.3K');
    expect(duration(3600 * 12 + 240)).toBe('12h 4m');
    expect(kda(12, 4, 6)).toBe('12 / 4 / 6 (KDA 4.50)');
    expect(decimal(4.5)).toBe('4.50');
  });

  it('in French, German and Japanese', () => {
    runInLocale('fr', () => {
      expect(integer(1234567)).toBe('1\u202f234\u202f567');
      expect(percent(63.44)).toBe('63,4 %');
      expect(duration(252)).toBe('4 min 12 s');
      expect(kda(12, 4, 6)).toBe('12 / 4 / 6 (KDA 4,50)');
    });
    runInLocale('de', () => {
      expect(integer(1234567)).toBe('1.234.567');
      expect(compactNumber(45_300)).toBe('45.300');
      expect(compactNumber(1_200_000)).toBe('1,2\u00a0Mio.');
    });
    runInLocale('ja', () => {
      expect(duration(3600 * 12 + 240)).toBe('12時間4分');
      expect(compactNumber(1_200_000)).toBe('120万');
      expect(percent(50)).toBe('50.0%');
    });
  });
});
