/**
 * Slash-command texts in every language: the descriptions and choice names the command
 * definitions are built with, and the `name_localizations` / `description_localizations` the deploy
 * payload carries (Discord: "Interactions › Application Commands › Localization").
 *
 * The texts live in `src/i18n/locales/<locale>/commands.json`, English (`en`) the source, one entry per
 * command, keyed by the command's name:
 *
 * ```
 * { "<command>": {
 *     "name": "…", "description": "…",
 *     "options":     { "<option>": { "name": "…", "description": "…", "choices": { "<choice value>": "<choice name>" } } },
 *     "subcommands": { "<subcommand or group>": { "name": "…", "description": "…", "options": { … }, "subcommands": { … } } } } }
 * ```
 *
 * A subcommand group's entry holds its subcommands under `subcommands`; a context-menu command
 * (`Rivals profile`) has a `name` only. Names stay in the code (they are what Discord sends back);
 * the code reads only English descriptions and choice names from here ({@link describe},
 * {@link choiceName}), and {@link localizeCommand} adds every other language at deploy time.
 *
 * A description may hold `{{placeholders}}` (`Watch a hero (up to {{max}})`): the code fills the
 * English one, and {@link localizeCommand} reads the values back from the English description in the
 * definition, so a limit changed in the code changes every language. A command it names is written
 * `{/player}` and comes out as each locale's clients name it (`/joueur`), see src/i18n `commandNames`.
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type LocalizationMap,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { commandNames, DISCORD_LOCALES, LOCALE_NAMES, LOCALES, localeOf, readLocaleFile, SOURCE_LOCALE, type Locale, type MessageValues } from './index.js';

/** One entry of a commands.json file: a command, subcommand, subcommand group or option. */
export interface CommandTexts {
  name?: string;
  description?: string;
  options?: Record<string, CommandTexts>;
  subcommands?: Record<string, CommandTexts>;
  /** Choice names by choice value (`String(value)`). */
  choices?: Record<string, string>;
}

/** A commands.json file: entries by command name. */
export type CommandsFile = Record<string, CommandTexts>;

/** A registration body, as the command modules define it (src/discord/command.ts). */
export type CommandDefinition = RESTPostAPIChatInputApplicationCommandsJSONBody | RESTPostAPIContextMenuApplicationCommandsJSONBody;

/** One locale's commands.json (`{}` when it has none). @throws SyntaxError when the file is not JSON. */
export function commandsFile(locale: Locale): CommandsFile {
  return readLocaleFile(locale, 'commands') as CommandsFile;
}

let english: CommandsFile | undefined;

/** The English file, read once: the command modules read their descriptions from it as they are imported. */
function englishFile(): CommandsFile {
  return (english ??= commandsFile(SOURCE_LOCALE));
}

/**
 * The entry at `path` in `file`: the keys of the file joined by dots, such as `player`,
 * `player.options.season` or `config.subcommands.feed.options.channel`; undefined when there is none.
 */
export function textsAt(file: CommandsFile, path: string): CommandTexts | undefined {
  let node: unknown = file;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== null && typeof node === 'object' ? node : undefined;
}

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** The placeholder names in `text`, in order (`{{max}}` → `max`). */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** `text` with each `{{name}}` replaced by `values[name]`; undefined when a value is missing. */
function fill(text: string, values: MessageValues): string | undefined {
  let missing = false;
  const filled = text.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) missing = true;
    return String(value);
  });
  return missing ? undefined : filled;
}

/**
 * The English description of the command, subcommand or option at `path` ({@link textsAt}), with
 * `values` in its placeholders: what a definition passes to `setDescription`.
 * @throws Error when the English file has no description there or a placeholder has no value (a
 *   mistake in the code, found as soon as the command module is imported).
 */
export function describe(path: string, values: MessageValues = {}): string {
  const written = textsAt(englishFile(), path)?.description;
  if (written === undefined) throw new Error(`src/i18n/locales/en/commands.json has no description at ${path}`);
  const template = commandNames(written, SOURCE_LOCALE);
  const text = fill(template, values);
  if (text === undefined) throw new Error(`the description at ${path} needs values for ${placeholdersOf(template).join(', ')}`);
  return text;
}

/**
 * The English name of the choice `value` of the option at `optionPath` ({@link textsAt}), such as
 * `choiceName('meta.options.sort', 'win-rate')` → `Win rate`.
 * @throws Error when the English file has no such choice.
 */
export function choiceName(optionPath: string, value: string | number): string {
  const name = textsAt(englishFile(), optionPath)?.choices?.[String(value)];
  if (name === undefined) throw new Error(`src/i18n/locales/en/commands.json has no choice ${String(value)} at ${optionPath}`);
  return name;
}

/** The value of a language option that means Discord's language: the member's app's (`/settings language`), the server's (`/config language`). */
export const DISCORD_LANGUAGE = 'discord';

/**
 * The choices of the language option at `optionPath` ({@link textsAt}): Discord's language (its name
 * from the English file), then each of ours by its own name ({@link LOCALE_NAMES}).
 * @throws Error when the English file has no name for the Discord choice.
 */
export function languageChoices(optionPath: string): { name: string; value: string }[] {
  return [{ name: choiceName(optionPath, DISCORD_LANGUAGE), value: DISCORD_LANGUAGE }, ...LOCALES.map((l) => ({ name: LOCALE_NAMES[l], value: l }))];
}

/**
 * What a language option's value chose: {@link DISCORD_LANGUAGE} (in any case), else one of ours (a
 * Discord code such as `fr-FR`, as the CLI may pass, reads as its language); null for anything else.
 */
export function chosenLanguage(value: unknown): Locale | typeof DISCORD_LANGUAGE | null {
  const text = typeof value === 'string' ? value.trim() : '';
  return text.toLowerCase() === DISCORD_LANGUAGE ? DISCORD_LANGUAGE : localeOf(text);
}

/**
 * The values of `template`'s placeholders as they appear in `text` (`Watch a hero (up to {{max}})`
 * and `Watch a hero (up to 10)` → `{ max: '10' }`); null when `text` does not follow the template.
 */
export function placeholderValues(template: string, text: string): MessageValues | null {
  const parts = template.split(PLACEHOLDER); // literal, name, literal, name, …, literal
  const names = parts.filter((_, i) => i % 2 === 1);
  const pattern = parts.map((p, i) => (i % 2 === 1 ? '(.*?)' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  const match = new RegExp(`^${pattern}$`, 's').exec(text);
  if (!match) return null;
  return Object.fromEntries(names.map((n, i) => [n, match[i + 1]!]));
}

/** A node of a registration body that can carry localizations: the command, a subcommand, group or option. */
interface Node {
  name: string;
  type?: number;
  description?: string;
  name_localizations?: LocalizationMap | null;
  description_localizations?: LocalizationMap | null;
  options?: Node[];
  choices?: { name: string; value: string | number; name_localizations?: LocalizationMap | null }[];
}

/** Every locale but English, with its entry for the node being localized (undefined where it has none). */
type LocaleEntries = [Locale, CommandTexts | undefined][];

/** `text(entry)` of each locale under each Discord locale it serves; undefined when no locale has a text. */
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
    // Commands named in a description (`{/player}`) are named as each locale's clients name them.
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
 * A copy of `definition` with `name_localizations` and `description_localizations` on the command and
 * every subcommand, group and option, and `name_localizations` on every choice (a context-menu command:
 * its name only), from each locale's commands.json, under every Discord locale it serves
 * ({@link DISCORD_LOCALES}) but English's (en-US and en-GB read the default texts, which are English).
 * Placeholders in a description are filled with the values in the definition's English one
 * ({@link placeholderValues}). A text missing from a file is left out, not an error (the tests in
 * test/i18n/commands.test.ts keep that from shipping).
 * @throws SyntaxError when a locale's commands.json is not JSON.
 */
export function localizeCommand<T extends CommandDefinition>(definition: T): T {
  const copy = structuredClone(definition);
  const entries: LocaleEntries = LOCALES.filter((l) => l !== SOURCE_LOCALE).map((l) => [l, commandsFile(l)[definition.name]]);
  const chatInput = (definition.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput;
  localizeNode(copy, englishFile()[definition.name], entries, chatInput);
  return copy;
}
