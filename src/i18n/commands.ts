/** Slash-command texts per language (commands/<name>.json, a file per command; Discord: "Localization"): the code reads English, {@link localizeCommand} adds the rest at deploy. */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type LocalizationMap,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { commandNames, DISCORD_LOCALES, LOCALE_NAMES, LOCALES, localeOf, readLocaleFile, SOURCE_LOCALE, type Locale, type MessageValues } from './index.js';

/** A command, subcommand, group or option; a context-menu command has a `name` only. */
export interface CommandTexts {
  name?: string;
  description?: string;
  options?: Record<string, CommandTexts>;
  subcommands?: Record<string, CommandTexts>;
  /** By choice value (`String(value)`). */
  choices?: Record<string, string>;
}

export type CommandsFile = Record<string, CommandTexts>;

/** As the command modules define it (src/discord/command.ts). */
export type CommandDefinition = RESTPostAPIChatInputApplicationCommandsJSONBody | RESTPostAPIContextMenuApplicationCommandsJSONBody;

/** `{}` when the locale has none. @throws SyntaxError when the file is not JSON. */
export function commandsFile(locale: Locale): CommandsFile {
  return readLocaleFile(locale, 'commands') as CommandsFile;
}

let english: CommandsFile | undefined;

/** Read once: the command modules read their descriptions as they are imported. */
function englishFile(): CommandsFile {
  return (english ??= commandsFile(SOURCE_LOCALE));
}

/** The entry at a dotted `path` such as `config.subcommands.feed.options.channel`; undefined when none. */
export function textsAt(file: CommandsFile, path: string): CommandTexts | undefined {
  let node: unknown = file;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== null && typeof node === 'object' ? node : undefined;
}

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** Undefined when a value is missing. */
function fill(text: string, values: MessageValues): string | undefined {
  let missing = false;
  const filled = text.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) missing = true;
    return String(value);
  });
  return missing ? undefined : filled;
}

/** The English description at `path`, placeholders filled. @throws Error when it or a placeholder's value is missing (found at import). */
export function describe(path: string, values: MessageValues = {}): string {
  const written = textsAt(englishFile(), path)?.description;
  if (written === undefined) throw new Error(`src/i18n/locales/en/commands/${path.split('.')[0]!}.json has no description at ${path}`);
  const template = commandNames(written, SOURCE_LOCALE);
  const text = fill(template, values);
  if (text === undefined) throw new Error(`the description at ${path} needs values for ${placeholdersOf(template).join(', ')}`);
  return text;
}

/** The English name of choice `value` at `optionPath` (`choiceName('meta.options.sort', 'win-rate')` → `Win rate`). @throws Error when missing. */
export function choiceName(optionPath: string, value: string | number): string {
  const name = textsAt(englishFile(), optionPath)?.choices?.[String(value)];
  if (name === undefined) throw new Error(`src/i18n/locales/en/commands/${optionPath.split('.')[0]!}.json has no choice ${String(value)} at ${optionPath}`);
  return name;
}

/** A language option's value for Discord's language: the member's app's (`/settings language`), the server's (`/config language`). */
export const DISCORD_LANGUAGE = 'discord';

/** Discord's language first, then each of ours by its own name. @throws Error when the English file has no name for the Discord choice. */
export function languageChoices(optionPath: string): { name: string; value: string }[] {
  return [{ name: choiceName(optionPath, DISCORD_LANGUAGE), value: DISCORD_LANGUAGE }, ...LOCALES.map((l) => ({ name: LOCALE_NAMES[l], value: l }))];
}

/** {@link DISCORD_LANGUAGE} (any case), else one of ours (a Discord code such as `fr-FR`, as the CLI may pass, reads as its language), else null. */
export function chosenLanguage(value: unknown): Locale | typeof DISCORD_LANGUAGE | null {
  const text = typeof value === 'string' ? value.trim() : '';
  return text.toLowerCase() === DISCORD_LANGUAGE ? DISCORD_LANGUAGE : localeOf(text);
}

/** `template`'s values as they appear in `text` (`up to {{max}}`, `up to 10` → `{ max: '10' }`); null when `text` does not follow it. */
export function placeholderValues(template: string, text: string): MessageValues | null {
  const parts = template.split(PLACEHOLDER); // literal, name, literal, name, …, literal
  const names = parts.filter((_, i) => i % 2 === 1);
  const pattern = parts.map((p, i) => (i % 2 === 1 ? '(.*?)' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  const match = new RegExp(`^${pattern}$`, 's').exec(text);
  if (!match) return null;
  return Object.fromEntries(names.map((n, i) => [n, match[i + 1]!]));
}

interface Node {
  name: string;
  type?: number;
  description?: string;
  name_localizations?: LocalizationMap | null;
  description_localizations?: LocalizationMap | null;
  options?: Node[];
  choices?: { name: string; value: string | number; name_localizations?: LocalizationMap | null }[];
}

type LocaleEntries = [Locale, CommandTexts | undefined][];

/** `text(entry)` of each locale under each Discord locale it serves; undefined when none has a text. */
function localizations(entries: LocaleEntries, text: (entry: CommandTexts, locale: Locale) => string | undefined): LocalizationMap | undefined {
  const map: Record<string, string> = {};
  for (const [locale, entry] of entries) {
    const value = entry ? text(entry, locale) : undefined;
    if (value === undefined || value === '') continue;
    for (const code of DISCORD_LOCALES[locale]) map[code] = value;
  }
  return Object.keys(map).length > 0 ? map : undefined;
}

function localizeNode(node: Node, source: CommandTexts | undefined, entries: LocaleEntries, chatInput: boolean): void {
  const names = localizations(entries, (e) => e.name);
  if (names) node.name_localizations = names;
  if (!chatInput) return;
  if (node.description !== undefined) {
    const description = node.description;
    const values = source?.description === undefined ? {} : placeholderValues(commandNames(source.description, SOURCE_LOCALE), description);
    const descriptions = localizations(entries, (e, locale) =>
      e.description === undefined || values === null ? undefined : fill(commandNames(e.description, locale), values),
    );
    if (descriptions) node.description_localizations = descriptions;
  }
  for (const choice of node.choices ?? []) {
    const choiceNames = localizations(entries, (e) => e.choices?.[String(choice.value)]);
    if (choiceNames) choice.name_localizations = choiceNames;
  }
  for (const child of node.options ?? []) {
    const group =
      child.type === ApplicationCommandOptionType.Subcommand || child.type === ApplicationCommandOptionType.SubcommandGroup ? 'subcommands' : 'options';
    localizeNode(
      child,
      source?.[group]?.[child.name],
      entries.map(([l, e]) => [l, e?.[group]?.[child.name]]),
      true,
    );
  }
}

/**
 * A copy of `definition` with name, description and choice localizations from every other locale's commands/ files; missing texts are left out.
 * @throws SyntaxError when a locale's command file is not JSON.
 */
export function localizeCommand<T extends CommandDefinition>(definition: T): T {
  const copy = structuredClone(definition);
  const entries: LocaleEntries = LOCALES.filter((l) => l !== SOURCE_LOCALE).map((l) => [l, commandsFile(l)[definition.name]]);
  const chatInput = (definition.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput;
  localizeNode(copy, englishFile()[definition.name], entries, chatInput);
  return copy;
}
