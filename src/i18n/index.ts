/**
 * The bot's languages (docs/languages.md, "Languages"): locales, their Discord locales, i18next messages read per locale on first use, and
 * the current locale (an AsyncLocalStorage). Values are not escaped here: member input is escaped where echoed (src/render/text.ts).
 */
import type { MessageKey } from './keys.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import i18next, { type i18n } from 'i18next';
import { LRUCache } from 'lru-cache';

import { LOCALES, type Locale } from './locales.js';

export { LOCALES, type Locale };
/** Also the fallback when a member's or server's locale is not one of ours. */
export const SOURCE_LOCALE: Locale = 'en';

/** The Discord locales each of ours serves (Discord: "Reference › Locales"), for interaction and guild locales and command localizations. */
export const DISCORD_LOCALES: Readonly<Record<Locale, readonly string[]>> = {
  en: ['en-US', 'en-GB'],
  'es-ES': ['es-ES', 'es-419'],
  'pt-BR': ['pt-BR'],
  fr: ['fr'],
  de: ['de'],
  ja: ['ja'],
};

/** In its own language, for menus. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  'es-ES': 'Español',
  'pt-BR': 'Português (Brasil)',
  fr: 'Français',
  de: 'Deutsch',
  ja: '日本語',
};

const byDiscordLocale = new Map<string, Locale>(LOCALES.flatMap((l) => DISCORD_LOCALES[l].map((d) => [d.toLowerCase(), l] as const)));

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Our locale for a Discord or own code, ignoring case, then by language alone (`pt-PT` → `pt-BR`); null when none serves it. */
export function localeOf(code: string | null | undefined): Locale | null {
  if (!code) return null;
  const lower = code.trim().toLowerCase();
  const exact = byDiscordLocale.get(lower) ?? LOCALES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const language = lower.split(/[-_]/)[0]!;
  return LOCALES.find((l) => l.toLowerCase().split('-')[0] === language) ?? null;
}

/** The first of `choices` that is one of ours, else English. */
export function pickLocale(...choices: (string | null | undefined)[]): Locale {
  for (const choice of choices) {
    const locale = localeOf(choice);
    if (locale) return locale;
  }
  return SOURCE_LOCALE;
}

/** Found through the build's `import.meta.url` rewrite in production. */
const LOCALES_DIR = new URL('./locales/', import.meta.url);

/** The folder of the commands' files: `commands/<name>.json`, a command's names, descriptions and `messages` together. */
const COMMANDS = 'commands';

function readJson(url: URL): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(url, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * One namespace of one locale, parsed; `{}` when missing. A namespace is one of three:
 * - `commands`: every command's names and descriptions (`commands/<name>.json` is `commands:<name>.*`), without messages;
 * - a command's messages: the `messages` of its `commands/<name>.json`, so `player:…` is read from `commands/player.json`;
 * - any other: its file `<namespace>.json`, or a folder `<namespace>/` of files, each file the key of its name.
 * @throws SyntaxError when not JSON: a broken file stops the start, not an answer.
 */
export function readLocaleFile(locale: Locale, namespace: string): Record<string, unknown> {
  if (namespace === COMMANDS || commandNamespaces().includes(namespace)) return fromCommands(readFolder(locale, COMMANDS), namespace);
  if (existsSync(new URL(`${locale}/${namespace}/`, LOCALES_DIR))) return readFolder(locale, namespace);
  return readJson(new URL(`${locale}/${namespace}.json`, LOCALES_DIR)) ?? {};
}

/** Every namespace of one locale ({@link readLocaleFile}), its commands' files read once for all of theirs. */
function readLocale(locale: Locale): Map<string, Record<string, unknown>> {
  const commandFiles = readFolder(locale, COMMANDS);
  if (locale === SOURCE_LOCALE) commandMessageNamespaces ??= withMessages(commandFiles);
  return new Map(
    namespaces().map((ns) => [ns, ns === COMMANDS || commandNamespaces().includes(ns) ? fromCommands(commandFiles, ns) : readLocaleFile(locale, ns)]),
  );
}

/** The `commands` namespace (every file without its messages), or one command's messages. */
function fromCommands(files: Record<string, unknown>, namespace: string): Record<string, unknown> {
  if (namespace !== COMMANDS) return (files[namespace] as { messages?: Record<string, unknown> } | undefined)?.messages ?? {};
  return Object.fromEntries(
    Object.entries(files).map(([name, file]) => {
      if (typeof file !== 'object' || file === null || !('messages' in file)) return [name, file];
      const { messages: _messages, ...texts } = file as Record<string, unknown>;
      return [name, texts];
    }),
  );
}

function readFolder(locale: Locale, folder: string): Record<string, unknown> {
  const url = new URL(`${locale}/${folder}/`, LOCALES_DIR);
  if (!existsSync(url)) return {};
  const files = readdirSync(url).filter((f) => f.endsWith('.json'));
  return Object.fromEntries(files.sort().map((f) => [f.slice(0, -'.json'.length), readJson(new URL(encodeURIComponent(f), url))]));
}

let commandMessageNamespaces: string[] | undefined;

const withMessages = (files: Record<string, unknown>): string[] =>
  Object.entries(files)
    .filter(([, file]) => typeof file === 'object' && file !== null && 'messages' in file)
    .map(([name]) => name)
    .sort();

/** The commands whose English file holds `messages`: each is a namespace of its own. */
function commandNamespaces(): string[] {
  return (commandMessageNamespaces ??= withMessages(readFolder(SOURCE_LOCALE, COMMANDS)));
}

/**
 * The source locale's namespaces, sorted: its files, its folders of files, and its commands' messages ({@link readLocaleFile}).
 * @throws Error when a name is both a file or folder and a command's messages: one name, one place.
 */
export function namespaces(): string[] {
  const own = readdirSync(new URL(`${SOURCE_LOCALE}/`, LOCALES_DIR), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? [e.name] : e.name.endsWith('.json') ? [e.name.slice(0, -'.json'.length)] : [],
  );
  const twice = commandNamespaces().filter((name) => own.includes(name));
  if (twice.length > 0) throw new Error(`src/i18n/locales/${SOURCE_LOCALE}: ${twice.join(', ')} both a file and a command's messages (commands/<name>.json)`);
  return [...own, ...commandNamespaces()].sort();
}

let instance: i18n | undefined;
const loaded = new Set<Locale>();

/** Initialised on first use with English; other locales are added by {@link ensureLoaded}. */
function i18n(): i18n {
  if (instance) return instance;
  const created = i18next.createInstance();
  // English read once: its namespaces, and what they hold.
  const english = readLocale(SOURCE_LOCALE);
  void created.init({
    initAsync: false,
    lng: SOURCE_LOCALE,
    fallbackLng: SOURCE_LOCALE,
    supportedLngs: [...LOCALES],
    ns: [...english.keys()],
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
  for (const [ns, resources] of english) created.addResourceBundle(SOURCE_LOCALE, ns, resources, true, true);
  loaded.add(SOURCE_LOCALE);
  return created;
}

function ensureLoaded(locale: Locale): void {
  if (loaded.has(locale)) return;
  const i = instance ?? i18n();
  if (loaded.has(locale)) return;
  for (const [ns, resources] of readLocale(locale)) i.addResourceBundle(locale, ns, resources, true, true);
  loaded.add(locale);
}

const current = new AsyncLocalStorage<Locale>();

/** Runs `work` in `locale`: every {@link tr} and number formatted inside it, across awaits, uses it. */
export function runInLocale<T>(locale: Locale, work: () => T): T {
  return current.run(locale, work);
}

/** English outside any {@link runInLocale}. */
export function currentLocale(): Locale {
  return current.getStore() ?? SOURCE_LOCALE;
}

/** The Intl locale for dates: the bot's English is British, as the charts write dates. */
export const dateLocale = (locale: Locale): string => (locale === 'en' ? 'en-GB' : locale);

/** What `make` builds for the current locale, built once per locale: Intl formatters are costly to make and used on every answer. */
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

/** `count` also picks the plural form. */
export type MessageValues = Record<string, string | number | boolean | null | undefined>;

/** The message `key` in the current locale with `values` filled in; falls back to English, then to the key itself. */
export function tr(key: MessageKey, values?: MessageValues): string {
  return trIn(currentLocale(), key, values);
}

/** A message ready to fill: `parts[0] + values[names[0]] + parts[1] + …`. */
interface Template {
  parts: string[];
  names: string[];
}

/** Templates per locale, key, count and value names: i18next's `t` is slow per call, so it runs once per shape with markers (plain `{{name}}` only, tested). */
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

/** A command named in a message: `</config feed>` where Discord renders mentions, `{/config feed}` where it does not (titles, labels). */
export const COMMAND_REFERENCE = /<\/([a-z][\w-]*(?: [a-z][\w-]*){0,2})>|\{\/([a-z][\w-]*(?: [a-z][\w-]*){0,2})\}/g;

const commandIds = new Map<string, string>();

/** The registered command ids by name: `</name sub>` then becomes a mention each member's client shows in their language. Clears made messages. */
export function setCommandIds(ids: ReadonlyMap<string, string>): void {
  commandIds.clear();
  for (const [name, id] of ids) if (/^\d{1,20}$/.test(id)) commandIds.set(name, id);
  templates.clear();
}

/** A command path (`config feed`) as `locale` names it, part by part, English where the locale has none. */
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

/** `text` with every command reference as the plain name `locale`'s clients show, for texts where Discord renders no mentions (descriptions). */
export function commandNames(text: string, locale: Locale): string {
  if (!text.includes('</') && !text.includes('{/')) return text;
  return text.replace(
    COMMAND_REFERENCE,
    (_, mention: string | undefined, plain: string | undefined) => `/${localizedCommandPath((mention ?? plain)!, locale)}`,
  );
}

/** `text` with command references for `locale`: a mention when the id is known, else the name in code; `{/…}` always as plain text. */
export function commandReferences(text: string, locale: Locale): string {
  if (!text.includes('</') && !text.includes('{/')) return text;
  return text.replace(COMMAND_REFERENCE, (_, mention: string | undefined, plain: string | undefined) => {
    if (plain !== undefined) return `/${localizedCommandPath(plain, locale)}`;
    const id = commandIds.get(mention!.split(' ')[0]!);
    return id ? `</${mention}:${id}>` : `\`/${localizedCommandPath(mention!, locale)}\``;
  });
}

/** Whether a member typed one of the `english` words or the current locale's word at `key`, in any case and Unicode form. */
export function typedWord(typed: string, english: readonly string[], key: MessageKey): boolean {
  const word = typed.trim().normalize('NFC').toLowerCase();
  return english.includes(word) || tr(key).normalize('NFC').toLowerCase() === word;
}

/** Without falling back. */
export function hasMessage(locale: Locale, key: string): boolean {
  ensureLoaded(locale);
  return i18n().exists(key, { lng: locale, fallbackLng: false });
}
