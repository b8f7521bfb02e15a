/**
 * The i18n foundation (src/i18n/index.ts): Discord locales mapped to ours, the locale
 * carried by runInLocale across awaits, messages by key with English fallback, and src/i18n/format.ts
 * following the current locale.
 */
import type { MessageKey } from '../../src/i18n/keys.js';
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { readdirSync, readFileSync } from 'node:fs';
import {
  commandReferences,
  currentLocale,
  hasMessage,
  LOCALES,
  localeOf,
  namespaces,
  pickLocale,
  readLocaleFile,
  runInLocale,
  tr,
  trIn,
} from '../../src/i18n/index.js';
import { aside, compactNumber, decimal, duration, integer, kda, percent } from '../../src/i18n/format.js';
import { kdaText, percentText, scoreText, timeTicks } from '../../src/charts/format.js';

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
    // A key that no file has: typecheck refuses it, so it is cast to try the runtime's fallback.
    expect(tr('common:no.such.key' as MessageKey)).toBe('no.such.key');
    expect(hasMessage('fr', 'common:no.such.key')).toBe(false);
    expect(hasMessage('fr', 'common:format.kda')).toBe(true);
  });
});

/** Every string of a locale file with its key path (`a.b.c_one`). */
function entries(value: unknown, path: string[] = []): [string, string][] {
  if (typeof value === 'string') return [[path.join('.'), value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => entries(v, [...path, k]));
}

describe("a command's file holds its messages", () => {
  const localesDir = new URL('../../src/i18n/locales/', import.meta.url);
  const commandFiles = (locale: string) => readdirSync(new URL(`${locale}/commands/`, localesDir)).map((f) => f.slice(0, -'.json'.length));

  it("reads a command's messages from commands/<name>.json, and its names and descriptions without them", () => {
    const file = JSON.parse(readFileSync(new URL('fr/commands/session.json', localesDir), 'utf8')) as { name: string; messages: Record<string, unknown> };
    expect(readLocaleFile('fr', 'session')).toEqual(file.messages);
    expect(Object.keys(file.messages).length).toBeGreaterThan(5);
    const texts = readLocaleFile('fr', 'commands') as Record<string, Record<string, unknown>>;
    expect(texts.session!.name).toBe(file.name);
    for (const [name, command] of Object.entries(texts)) expect(command, name).not.toHaveProperty('messages');
    expect(namespaces()).toEqual(expect.arrayContaining(['player', 'session', 'config', 'messages', 'commands']));
    expect(trIn('fr', 'session:titleLatest', { name: 'X' })).not.toBe(trIn('en', 'session:titleLatest', { name: 'X' }));
  });

  it('no locale keeps a file beside a command that holds the same messages (the loader would never read it)', () => {
    expect(namespaces().filter((ns) => commandFiles('en').includes(ns)).length).toBeGreaterThan(10);
    for (const locale of LOCALES) {
      expect(commandFiles(locale).sort(), locale).toEqual(commandFiles('en').sort());
      const own = readdirSync(new URL(`${locale}/`, localesDir)).map((f) => f.replace(/\.json$/, ''));
      const messagesOf = commandFiles(locale).filter((name) => {
        const file = JSON.parse(readFileSync(new URL(`${locale}/commands/${encodeURIComponent(name)}.json`, localesDir), 'utf8')) as object;
        return 'messages' in file;
      });
      expect(
        messagesOf.filter((name) => own.includes(name)),
        locale,
      ).toEqual([]);
      expect(messagesOf.sort(), locale).toEqual(
        namespaces()
          .filter((ns) => commandFiles('en').includes(ns))
          .sort(),
      );
    }
  });
});

describe('messages as i18next gives them', () => {
  it('locale files use only plain {{name}} placeholders: no formatters, nesting or context, which the template cache would not carry', () => {
    for (const locale of LOCALES) {
      for (const ns of namespaces()) {
        for (const [key, text] of entries(readLocaleFile(locale, ns))) {
          expect(text, `${locale} ${ns}:${key}`).not.toMatch(/\{\{[^}]*,[^}]*\}\}|\$t\(|\{\{-/);
          expect(key, `${locale} ${ns}:${key}`).not.toMatch(/_(male|female|context)\b/);
        }
      }
    }
  });

  it('every message, with values and counts, reads as i18next itself renders it, in every locale', () => {
    const plain = i18next.createInstance();
    void plain.init({
      initAsync: false,
      fallbackLng: 'en',
      defaultNS: false,
      nsSeparator: ':',
      keySeparator: '.',
      interpolation: { escapeValue: false },
      resources: Object.fromEntries(LOCALES.map((l) => [l, Object.fromEntries(namespaces().map((ns) => [ns, readLocaleFile(l, ns)]))])),
    });
    let checked = 0;
    for (const ns of namespaces()) {
      for (const [path, text] of entries(readLocaleFile('en', ns))) {
        const key = `${ns}:${path.replace(/_(zero|one|two|few|many|other)$/, '')}`;
        const names = [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]!).filter((n) => n !== 'count');
        for (const locale of LOCALES) {
          for (const count of [undefined, 1, 2, 5, 1_000_000]) {
            const values = Object.fromEntries(names.map((n, i) => [n, i % 2 === 0 ? `<${n}>` : i * 7]));
            const withCount = count === undefined ? values : { ...values, count };
            // Commands named in a message are written out by trIn (./command-mentions.test.ts), after i18next.
            expect(trIn(locale, key as MessageKey, withCount), `${locale} ${key} ${count}`).toBe(
              commandReferences(plain.t(key, { ...withCount, lng: locale }), locale),
            );
            // A second time from the cache, with other values.
            const other = Object.fromEntries(names.map((n) => [n, `«${n}»`]));
            expect(trIn(locale, key as MessageKey, count === undefined ? other : { ...other, count })).toBe(
              commandReferences(plain.t(key, { ...other, ...(count === undefined ? {} : { count }), lng: locale }), locale),
            );
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1_000);
  });
});

describe('asides follow the locale’s typography', () => {
  it('a space and ASCII parentheses in Latin-script locales, full-width parentheses with no space in Japanese, nothing for no text', () => {
    expect(`Storm${aside('Duelist')}`).toBe('Storm (Duelist)');
    expect(runInLocale('fr', () => `Tornade${aside('Duellant')}`)).toBe('Tornade (Duellant)');
    expect(runInLocale('ja', () => `ストーム${aside('デュエリスト')}`)).toBe('ストーム（デュエリスト）');
    expect([aside(null), aside(undefined), aside(''), runInLocale('ja', () => aside(null))]).toEqual(['', '', '', '']);
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
    // The charts' numbers and dates too (the worker draws each spec in its locale).
    expect(percentText(0.542)).toBe('54.2 %');
    expect(
      runInLocale('fr', () => [percentText(0.542), kdaText(3.14), timeTicks(Date.UTC(2025, 2, 3) / 1000, Date.UTC(2025, 2, 3) / 1000, 5)[0]!.label]),
    ).toEqual(['54,2 %', '3,1', '3 mars']);
    expect(runInLocale('de', () => scoreText(3752.9))).toBe('3.752');
    runInLocale('ja', () => {
      expect(duration(3600 * 12 + 240)).toBe('12時間4分');
      expect(compactNumber(1_200_000)).toBe('120万');
      expect(percent(50)).toBe('50.0%');
    });
  });
});
