/**
 * The bot's languages (README "Languages"): which locales exist, which Discord locale each
 * serves, the locale of the work running now, and messages by key through i18next.
 *
 * - Messages live in `src/i18n/locales/<locale>/<namespace>.json`, one file per namespace, English
 *   (`en`) the source. A key is `namespace:path.to.key` (`errors:unknownHero`); placeholders are
 *   `{{name}}`; plurals use i18next's suffixes from `Intl.PluralRules` (`_one`, `_other`; Japanese has
 *   only `_other`) with a `count` value.
 * - A locale's files are read the first time it is used, synchronously (a few small files), so a bot
 *   whose members all speak English never holds the other languages in memory.
 * - The locale travels with the work in an AsyncLocalStorage, as the interaction's deadline does
 *   (src/core/deadline.ts): the runtime runs each interaction's handler in the member's locale, a feed post
 *   is rendered in its server's, and every message and number formatted inside reads it. Outside any
 *   ({@link runInLocale} never called) it is English.
 * - Values are not escaped (`escapeValue: false`): Discord markdown is escaped where member input is
 *   echoed (src/render/text.ts), not here.
 */
import type { MessageKey } from './keys.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import i18next, { type i18n } from 'i18next';
import { LRUCache } from 'lru-cache';

import { LOCALES, type Locale } from './locales.js';

export { LOCALES, type Locale };
/** The source locale, and the one used when a member's or server's locale is not one of ours. */
export const SOURCE_LOCALE: Locale = 'en';

/**
 * The Discord locales (Discord's documentation, "Reference › Locales") each of ours serves: the
 * locale of an interaction (`locale`, `guild_locale`) or a guild (`preferred_locale`) maps to ours,
 * and command localizations are given under each of these keys.
 */
export const DISCORD_LOCALES: Readonly<Record<Locale, readonly string[]>> = {
  en: ['en-US', 'en-GB'],
  'es-ES': ['es-ES', 'es-419'],
  'pt-BR': ['pt-BR'],
  fr: ['fr'],
  de: ['de'],
  ja: ['ja'],
};

/** Each locale's name in its own language, for menus that offer them. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  'es-ES': 'Español',
  'pt-BR': 'Português (Brasil)',
  fr: 'Français',
  de: 'Deutsch',
  ja: '日本語',
};

const byDiscordLocale = new Map<string, Locale>(LOCALES.flatMap((l) => DISCORD_LOCALES[l].map((d) => [d.toLowerCase(), l] as const)));

/** Whether `value` is one of {@link LOCALES}. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Our locale for a Discord locale code (`es-419` → `es-ES`, `en-GB` → `en`) or one of ours; matched
 * without regard to case, then by language alone (`pt-PT` → `pt-BR`, `fr-CA` → `fr`). Null when none
 * serves it (`ko`, `zh-CN`, nothing): the caller picks the next choice (the server's, then English).
 */
export function localeOf(code: string | null | undefined): Locale | null {
  if (!code) return null;
  const lower = code.trim().toLowerCase();
  const exact = byDiscordLocale.get(lower) ?? LOCALES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const language = lower.split(/[-_]/)[0]!;
  return LOCALES.find((l) => l.toLowerCase().split('-')[0] === language) ?? null;
}

/** The first of `choices` that is one of ours ({@link localeOf}), else English. */
export function pickLocale(...choices: (string | null | undefined)[]): Locale {
  for (const choice of choices) {
    const locale = localeOf(choice);
    if (locale) return locale;
  }
  return SOURCE_LOCALE;
}

/** The folder of the locale files: in src/ in development and, through the build's `import.meta.url` rewrite, in production. */
const LOCALES_DIR = new URL('./locales/', import.meta.url);

/**
 * One namespace file of one locale, parsed; `{}` when the file does not exist.
 * @throws SyntaxError when the file is not JSON (a broken locale file stops the start, not an answer).
 */
export function readLocaleFile(locale: Locale, namespace: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(new URL(`${locale}/${namespace}.json`, LOCALES_DIR), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/** The namespaces of the source locale (its file names), sorted. */
export function namespaces(): string[] {
  return readdirSync(new URL(`${SOURCE_LOCALE}/`, LOCALES_DIR))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

let instance: i18n | undefined;
const loaded = new Set<Locale>();

/** The i18next instance, initialised on first use with English; other locales are added by {@link ensureLoaded}. */
function i18n(): i18n {
  if (instance) return instance;
  const created = i18next.createInstance();
  const ns = namespaces();
  void created.init({
    initAsync: false,
    lng: SOURCE_LOCALE,
    fallbackLng: SOURCE_LOCALE,
    supportedLngs: [...LOCALES],
    // Keys are `namespace:key`; the dots inside are paths into the JSON.
    ns,
    defaultNS: false,
    nsSeparator: ':',
    keySeparator: '.',
    interpolation: { escapeValue: false },
    returnNull: false,
    returnEmptyString: false,
    load: 'currentOnly',
    resources: {},
  });
  instance = created;
  ensureLoaded(SOURCE_LOCALE);
  return created;
}

/** Reads `locale`'s files into i18next the first time it is asked for. */
function ensureLoaded(locale: Locale): void {
  if (loaded.has(locale)) return;
  const i = instance ?? i18n();
  if (loaded.has(locale)) return;
  for (const ns of namespaces()) i.addResourceBundle(locale, ns, readLocaleFile(locale, ns), true, true);
  loaded.add(locale);
}

const current = new AsyncLocalStorage<Locale>();

/** Runs `work` in `locale`: every {@link tr} and number formatted inside it, however deep and across awaits, uses it. */
export function runInLocale<T>(locale: Locale, work: () => T): T {
  return current.run(locale, work);
}

/** The locale of the work running now ({@link runInLocale}), English outside any. */
export function currentLocale(): Locale {
  return current.getStore() ?? SOURCE_LOCALE;
}

/**
 * The Intl locale dates are written in for one of ours: the bot's English is British ("5 Mar 2025",
 * as the charts write dates), every other locale its own.
 */
export const dateLocale = (locale: Locale): string => (locale === 'en' ? 'en-GB' : locale);

/**
 * A getter of what `make` builds for the current locale ({@link currentLocale}), built once per locale
 * and kept: Intl formatters cost tens of microseconds to make and are used on every answer.
 */
export function perLocale<T>(make: (locale: Locale) => T): () => T {
  const made = new Map<Locale, T>();
  return () => {
    const locale = currentLocale();
    let value = made.get(locale);
    if (value === undefined) {
      value = make(locale);
      made.set(locale, value);
    }
    return value;
  };
}

/** Values of a message's placeholders; `count` also picks the plural form. */
export type MessageValues = Record<string, string | number | boolean | null | undefined>;

/**
 * The message `key` (`namespace:path`) in the current locale ({@link currentLocale}), with `values`
 * in its placeholders. A key missing from the locale falls back to English; a key missing from
 * English too comes back as the key itself (the parity test keeps that from shipping).
 */
export function tr(key: MessageKey, values?: MessageValues): string {
  return trIn(currentLocale(), key, values);
}

/**
 * A message made ready to fill: its literal parts, and between them the names of the values that go
 * there (`parts[0] + values[names[0]] + parts[1] + …`).
 */
interface Template {
  parts: string[];
  names: string[];
}

/**
 * Templates by locale, key, plural count and value names. i18next's `t` costs 20 to 80 µs a call here
 * (its options are merged, its patterns rebuilt and its nesting looked for on each), and an answer
 * asks for a hundred messages: a cached /player took 2 ms more. i18next still picks the text (the
 * locale, its fallback, the plural form); it is asked once per shape, with markers in place of the
 * values, and the markers are then replaced. Locale files use no formatters, nesting or context, which
 * this would not carry (test/i18n/messages.test.ts checks the files use only plain `{{name}}`).
 */
const templates = new LRUCache<string, Template>({ max: 20_000 });
const MARK = '\u0001';

/** {@link tr} in a given locale, whatever the current one. */
export function trIn(locale: Locale, key: MessageKey, values?: MessageValues): string {
  const names = values
    ? Object.keys(values)
        .filter((n) => n !== 'count')
        .sort()
    : [];
  const count = values?.count;
  const id = `${locale}\u0000${key}\u0000${count ?? ''}\u0000${names.join(',')}`;
  let template = templates.get(id);
  if (!template) {
    ensureLoaded(locale);
    const marked: Record<string, unknown> = { lng: locale };
    for (const name of names) marked[name] = `${MARK}${name}${MARK}`;
    if (count !== undefined) marked.count = count;
    const text = commandReferences(i18n().t(key, marked), locale);
    const pieces = text.split(MARK);
    template = { parts: pieces.filter((_, i) => i % 2 === 0), names: pieces.filter((_, i) => i % 2 === 1) };
    templates.set(id, template);
  }
  if (template.names.length === 0) return template.parts[0]!;
  let out = template.parts[0]!;
  for (let i = 0; i < template.names.length; i++) out += String(values![template.names[i]!] ?? '') + template.parts[i + 1]!;
  return out;
}

/**
 * A command named in a message, as the locale files write it: `</config feed>` where Discord renders
 * mentions (message content, embed descriptions and field values), `{/config feed}` where it does not
 * (titles, field names, footers, labels). The path is the command's English name, then its subcommand
 * group and subcommand, as registered.
 */
export const COMMAND_REFERENCE = /<\/([a-z][\w-]*(?: [a-z][\w-]*){0,2})>|\{\/([a-z][\w-]*(?: [a-z][\w-]*){0,2})\}/g;

/** Registered command ids by command name ({@link setCommandIds}). */
const commandIds = new Map<string, string>();

/**
 * Sets the ids Discord gave the bot's commands (its "Get Global Application Commands" answer, or the
 * development guild's), by command name: from then on `</name sub>` in a message becomes the command
 * mention `</name sub:id>`, which each member's client shows in their own language and makes
 * clickable. An empty map goes back to the names. Messages already made are made again.
 */
export function setCommandIds(ids: ReadonlyMap<string, string>): void {
  commandIds.clear();
  for (const [name, id] of ids) if (/^\d{1,20}$/.test(id)) commandIds.set(name, id);
  templates.clear();
}

/**
 * The command path `path` (`config feed`) as `locale` names it: each part's `name` in its
 * commands.json (`configuration flux`), the English part where a locale has none.
 */
export function localizedCommandPath(path: string, locale: Locale): string {
  ensureLoaded(locale);
  const parts = path.split(' ');
  const out: string[] = [];
  let key = 'commands:';
  for (let i = 0; i < parts.length; i++) {
    key += i === 0 ? parts[i]! : `.subcommands.${parts[i]}`;
    const name: string = i18n().exists(`${key}.name`, { lng: locale }) ? i18n().t(`${key}.name`, { lng: locale }) : '';
    out.push(name || parts[i]!);
  }
  return out.join(' ');
}

/**
 * `text` with every command reference ({@link COMMAND_REFERENCE}), either form, as the plain name
 * `locale`'s clients show (`/lier`): for texts where Discord renders neither markdown nor mentions,
 * such as command and option descriptions.
 */
export function commandNames(text: string, locale: Locale): string {
  if (!text.includes('</') && !text.includes('{/')) return text;
  return text.replace(
    COMMAND_REFERENCE,
    (_, mention: string | undefined, plain: string | undefined) => `/${localizedCommandPath((mention ?? plain)!, locale)}`,
  );
}

/**
 * `text` with its command references ({@link COMMAND_REFERENCE}) written out for `locale`: a mention
 * (`</config feed:123>`) when the command's id is known, else the name the member's client shows, in
 * code (`` `/configuration flux` ``); `{/…}` always as plain text (`/configuration flux`).
 */
export function commandReferences(text: string, locale: Locale): string {
  if (!text.includes('</') && !text.includes('{/')) return text;
  return text.replace(COMMAND_REFERENCE, (_, mention: string | undefined, plain: string | undefined) => {
    if (plain !== undefined) return `/${localizedCommandPath(plain, locale)}`;
    const id = commandIds.get(mention!.split(' ')[0]!);
    return id ? `</${mention}:${id}>` : `\`/${localizedCommandPath(mention!, locale)}\``;
  });
}

/**
 * Whether a member typed one of the `english` words, or the current locale's word at `key` (a
 * message holding one word: `aus` for `off`), in any case and Unicode form.
 */
export function typedWord(typed: string, english: readonly string[], key: MessageKey): boolean {
  const word = typed.trim().normalize('NFC').toLowerCase();
  return english.includes(word) || tr(key).normalize('NFC').toLowerCase() === word;
}

/** Whether `key` exists in `locale` itself, without falling back. */
export function hasMessage(locale: Locale, key: string): boolean {
  ensureLoaded(locale);
  return i18n().exists(key, { lng: locale, fallbackLng: false });
}
