/**
 * Localised slash commands (src/i18n/commands.ts): every command, subcommand, option and
 * choice has its name and description in every locale's commands/<name>.json, every localised text keeps
 * Discord's rules (Discord: "Application Commands › Application Command Naming", "Localization",
 * "Registering a Command" for the combined-length limit), and the deploy payload carries them in a
 * shape Discord accepts.
 */
import { ContextMenuCommandAssertions, SlashCommandAssertions } from '@discordjs/builders';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  Locale as DiscordLocale,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { alerts } from '../../commands/alerts.js';
import { commands } from '../../commands/index.js';
import { player } from '../../commands/player.js';
import { registrationPayload } from '../../src/discord/deploy.js';
import {
  choiceName,
  commandsFile,
  describe as describeCommand,
  localizeCommand,
  placeholdersOf,
  placeholderValues,
  type CommandTexts,
} from '../../src/i18n/commands.js';
import { commandNames, DISCORD_LOCALES, LOCALES, SOURCE_LOCALE } from '../../src/i18n/index.js';
import { MAX_WATCHED_HEROES } from '../../src/store/alerts.js';

/** Discord's rule for chat-input command, subcommand, group and option names (and their localizations). */
const NAME_RULE = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
/** The Discord locales that get localizations: all but English's (en-US and en-GB read the default texts). */
const LOCALIZED = LOCALES.filter((l) => l !== SOURCE_LOCALE).flatMap((l) => DISCORD_LOCALES[l]);
/** Every text a member may see: the default (English) and each localized one. */
const VARIANTS = ['default', ...LOCALIZED] as const;

type LocMap = Record<string, string> | undefined;
interface WireNode {
  name: string;
  type?: number;
  description?: string;
  name_localizations?: LocMap;
  description_localizations?: LocMap;
  options?: WireNode[];
  choices?: { name: string; value: string | number; name_localizations?: LocMap }[];
}

/** The payload as it goes on the wire (JSON), which is what Discord validates. */
const payload = JSON.parse(JSON.stringify(registrationPayload(commands))) as WireNode[];
const chatInput = payload.filter((c) => (c.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput);
const contextMenus = payload.filter((c) => c.type === ApplicationCommandType.User || c.type === ApplicationCommandType.Message);

/** A node's text in one variant: its localization there, else its default. */
const textIn = (value: string, map: LocMap, variant: string) => (variant === 'default' ? value : (map?.[variant] ?? value));

/** Every command, subcommand, group and option below `node` (itself included), with a readable path. */
function* nodes(node: WireNode, path = node.name): Generator<{ node: WireNode; path: string }> {
  yield { node, path };
  for (const child of node.options ?? []) yield* nodes(child, `${path} ${child.name}`);
}

const isSubcommandLike = (n: { type?: number }) =>
  n.type === ApplicationCommandOptionType.Subcommand || n.type === ApplicationCommandOptionType.SubcommandGroup;

describe('localized command texts keep Discord’s rules', () => {
  it('every chat-input name in every locale passes the name rule and is lower case', () => {
    const bad: string[] = [];
    for (const command of chatInput) {
      for (const { node, path } of nodes(command)) {
        for (const variant of VARIANTS) {
          const name = textIn(node.name, node.name_localizations, variant);
          // Discord's rule, then @discordjs/builders' own (which also refuses upper case).
          if (!NAME_RULE.test(name) || name !== name.toLowerCase()) bad.push(`${variant} ${path}: ${name}`);
          else expect(() => SlashCommandAssertions.validateName(name)).not.toThrow();
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('a context-menu command is localized by its name only, 1–32 characters', () => {
    expect(contextMenus.map((c) => c.name)).toEqual(['Rivals profile']);
    for (const c of contextMenus) {
      expect(Object.keys(c.name_localizations ?? {}).sort()).toEqual([...LOCALIZED].sort());
      for (const name of Object.values(c.name_localizations ?? {})) {
        expect(name.length).toBeGreaterThanOrEqual(1);
        expect(name.length).toBeLessThanOrEqual(32);
        expect(() => ContextMenuCommandAssertions.validateName(name)).not.toThrow();
      }
      expect(c).not.toHaveProperty('description_localizations');
    }
  });

  it('descriptions and choice names are 1–100 characters in every locale, with no placeholder left unfilled', () => {
    const bad: string[] = [];
    for (const command of chatInput) {
      for (const { node, path } of nodes(command)) {
        for (const variant of VARIANTS) {
          const description = textIn(node.description ?? '', node.description_localizations, variant);
          if (description.length < 1 || description.length > 100 || description.includes('{{'))
            bad.push(`${variant} ${path}: ${description} (${description.length})`);
          for (const choice of node.choices ?? []) {
            const name = textIn(choice.name, choice.name_localizations, variant);
            if (name.length < 1 || name.length > 100) bad.push(`${variant} ${path} choice ${String(choice.value)}: ${name}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('names are unique among their siblings in every locale: options in their parent, commands of one type', () => {
    const clashes: string[] = [];
    const unique = (names: string[], where: string) => {
      const seen = new Set<string>();
      for (const n of names) {
        if (seen.has(n)) clashes.push(`${where}: ${n}`);
        else seen.add(n);
      }
    };
    for (const variant of VARIANTS) {
      for (const type of new Set(payload.map((c) => c.type ?? ApplicationCommandType.ChatInput))) {
        unique(
          payload.filter((c) => (c.type ?? ApplicationCommandType.ChatInput) === type).map((c) => textIn(c.name, c.name_localizations, variant)),
          `${variant} commands of type ${type}`,
        );
      }
      for (const command of chatInput) {
        for (const { node, path } of nodes(command)) {
          if (node.options)
            unique(
              node.options.map((o) => textIn(o.name, o.name_localizations, variant)),
              `${variant} ${path}`,
            );
        }
      }
    }
    expect(clashes).toEqual([]);
  });

  it('each command stays within 4000 characters, counting the longest text of each field (and so within it in every locale)', () => {
    const longest = (value: string, map: LocMap) => Math.max(value.length, ...Object.values(map ?? {}).map((s) => s.length));
    const size = (node: WireNode): number =>
      longest(node.name, node.name_localizations) +
      longest(node.description ?? '', node.description_localizations) +
      (node.choices ?? []).reduce((n, c) => n + longest(c.name, c.name_localizations) + String(c.value).length, 0) +
      (node.options ?? []).reduce((n, o) => n + size(o), 0);
    const sizes = Object.fromEntries(payload.map((c) => [c.name, size(c)]));
    for (const [name, chars] of Object.entries(sizes)) expect(chars, name).toBeLessThanOrEqual(4000);
    // The largest, /config, is the one that would reach the limit first: it is counted, not skipped.
    expect(sizes.config).toBeGreaterThan(2000);
  });
});

/** An entry's children of one kind, as [name, entry]. */
const childrenOf = (entry: CommandTexts | undefined, kind: 'options' | 'subcommands') => Object.entries(entry?.[kind] ?? {});

describe('every locale’s commands/ files match the definitions', () => {
  const definitions = commands.map((m) => JSON.parse(JSON.stringify(m.definition)) as WireNode);

  it('every command, subcommand, option and choice has a name (and a description) in every locale', () => {
    const missing: string[] = [];
    for (const locale of LOCALES) {
      const file = commandsFile(locale);
      const check = (node: WireNode, entry: CommandTexts | undefined, path: string, menu: boolean) => {
        if (!entry?.name) missing.push(`${locale} ${path}: name`);
        if (!menu && !entry?.description) missing.push(`${locale} ${path}: description`);
        for (const choice of node.choices ?? []) if (!entry?.choices?.[String(choice.value)]) missing.push(`${locale} ${path}: choice ${String(choice.value)}`);
        for (const child of node.options ?? [])
          check(child, entry?.[isSubcommandLike(child) ? 'subcommands' : 'options']?.[child.name], `${path} ${child.name}`, false);
      };
      for (const d of definitions) check(d, file[d.name], d.name, d.type === ApplicationCommandType.User || d.type === ApplicationCommandType.Message);
    }
    expect(missing).toEqual([]);
  });

  it('no locale has entries for commands, options or choices that do not exist, or fields Discord does not have', () => {
    const stale: string[] = [];
    const fields = new Set(['name', 'description', 'options', 'subcommands', 'choices']);
    for (const locale of LOCALES) {
      const file = commandsFile(locale);
      const check = (entry: CommandTexts, node: WireNode | undefined, path: string) => {
        if (!node) return void stale.push(`${locale} ${path}`);
        for (const key of Object.keys(entry)) if (!fields.has(key)) stale.push(`${locale} ${path}: ${key}`);
        if (entry.description !== undefined && node.description === undefined) stale.push(`${locale} ${path}: description`);
        for (const value of Object.keys(entry.choices ?? {}))
          if (!node.choices?.some((c) => String(c.value) === value)) stale.push(`${locale} ${path}: choice ${value}`);
        for (const [name, child] of childrenOf(entry, 'options'))
          check(
            child,
            node.options?.find((o) => o.name === name && !isSubcommandLike(o)),
            `${path} ${name}`,
          );
        for (const [name, child] of childrenOf(entry, 'subcommands'))
          check(
            child,
            node.options?.find((o) => o.name === name && isSubcommandLike(o)),
            `${path} ${name}`,
          );
      };
      for (const [name, entry] of Object.entries(file))
        check(
          entry,
          definitions.find((d) => d.name === name),
          name,
        );
    }
    expect(stale).toEqual([]);
  });

  it('English is what the definitions say, and every translation has the placeholders of its English text', () => {
    const english = commandsFile('en');
    const wrong: string[] = [];
    const check = (node: WireNode, entry: CommandTexts | undefined, path: string) => {
      if (entry?.name !== node.name) wrong.push(`en ${path}: name ${String(entry?.name)}`);
      // A command the description names is written `{/player}` in the file (src/i18n `commandNames`).
      if (node.description !== undefined && (!entry?.description || !placeholderValues(commandNames(entry.description, 'en'), node.description)))
        wrong.push(`en ${path}: description`);
      for (const c of node.choices ?? []) if (entry?.choices?.[String(c.value)] !== c.name) wrong.push(`en ${path}: choice ${String(c.value)}`);
      for (const child of node.options ?? []) check(child, entry?.[isSubcommandLike(child) ? 'subcommands' : 'options']?.[child.name], `${path} ${child.name}`);
    };
    for (const d of definitions) check(d, english[d.name], d.name);

    const placeholders = (locale: (typeof LOCALES)[number], entry: CommandTexts | undefined, source: CommandTexts, path: string) => {
      const want = placeholdersOf(source.description ?? '').sort();
      if (JSON.stringify(placeholdersOf(entry?.description ?? '').sort()) !== JSON.stringify(want)) wrong.push(`${locale} ${path}: placeholders`);
      for (const kind of ['options', 'subcommands'] as const)
        for (const [name, child] of childrenOf(source, kind)) placeholders(locale, entry?.[kind]?.[name], child, `${path} ${name}`);
    };
    for (const locale of LOCALES) for (const [name, source] of Object.entries(english)) placeholders(locale, commandsFile(locale)[name], source, name);
    expect(wrong).toEqual([]);
  });

  it('every name, description and choice in the payload is localized for every Discord locale but English’s', () => {
    const want = [...LOCALIZED].sort();
    const gaps: string[] = [];
    const keys = (map: LocMap) => JSON.stringify(Object.keys(map ?? {}).sort());
    for (const command of chatInput) {
      for (const { node, path } of nodes(command)) {
        if (keys(node.name_localizations) !== JSON.stringify(want)) gaps.push(`${path}: name_localizations ${keys(node.name_localizations)}`);
        if (keys(node.description_localizations) !== JSON.stringify(want))
          gaps.push(`${path}: description_localizations ${keys(node.description_localizations)}`);
        for (const c of node.choices ?? []) if (keys(c.name_localizations) !== JSON.stringify(want)) gaps.push(`${path} choice ${String(c.value)}`);
      }
    }
    expect(gaps).toEqual([]);
  });
});

describe('the deploy payload is what Discord accepts', () => {
  const localizations = <T extends z.ZodType>(text: T) => z.partialRecord(z.enum(DiscordLocale), text).optional();
  const chatName = z
    .string()
    .regex(NAME_RULE)
    .refine((s) => s === s.toLowerCase(), 'lower case');
  const description = z.string().min(1).max(100);
  const choice = z.strictObject({
    name: description,
    name_localizations: localizations(description),
    value: z.union([z.string().min(1).max(100), z.number()]),
  });
  const named = { name: chatName, name_localizations: localizations(chatName), description, description_localizations: localizations(description) };
  const option = z
    .strictObject({
      ...named,
      type: z.number().int().min(ApplicationCommandOptionType.String).max(ApplicationCommandOptionType.Attachment),
      required: z.boolean().optional(),
      choices: z.array(choice).min(1).max(25).optional(),
      autocomplete: z.boolean().optional(),
      channel_types: z.array(z.number().int()).optional(),
      min_value: z.number().optional(),
      max_value: z.number().optional(),
      min_length: z.number().int().min(0).max(6000).optional(),
      max_length: z.number().int().min(1).max(6000).optional(),
    })
    .refine((o) => !(o.autocomplete && o.choices), 'an option has choices or autocomplete, not both');
  /** Discord: required options come before optional ones. */
  const requiredFirst = (options: object[] | undefined) => {
    const required = (options ?? []).map((o) => 'required' in o && o.required === true);
    return required.every((r, i) => !r || required.slice(0, i).every(Boolean));
  };
  const subcommand = z.strictObject({
    ...named,
    type: z.literal(ApplicationCommandOptionType.Subcommand),
    options: z.array(option).max(25).refine(requiredFirst, 'required options first').optional(),
  });
  const group = z.strictObject({ ...named, type: z.literal(ApplicationCommandOptionType.SubcommandGroup), options: z.array(subcommand).min(1).max(25) });
  const common = {
    default_member_permissions: z.string().regex(/^\d+$/).nullable().optional(),
    contexts: z.array(z.number().int().min(0).max(2)).optional(),
    integration_types: z.array(z.number().int().min(0).max(1)).optional(),
    nsfw: z.boolean().optional(),
  };
  const slashCommand = z.strictObject({
    ...named,
    ...common,
    type: z.literal(ApplicationCommandType.ChatInput).optional(),
    options: z
      .array(z.union([subcommand, group, option]))
      .max(25)
      .refine((o) => o.every(isSubcommandLike) || !o.some(isSubcommandLike), 'subcommands and options do not mix at one level')
      .refine(requiredFirst, 'required options first')
      .optional(),
  });
  const menuName = z.string().min(1).max(32).regex(/\S/);
  const contextMenu = z.strictObject({
    ...common,
    name: menuName,
    name_localizations: localizations(menuName),
    type: z.union([z.literal(ApplicationCommandType.User), z.literal(ApplicationCommandType.Message)]),
  });
  const body = z.array(z.union([slashCommand, contextMenu])).max(100);

  it('every command parses against a strict schema of Discord’s registration body, localization maps keyed by Discord locale codes', () => {
    const result = body.safeParse(payload);
    expect(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
    // The localization maps also pass @discordjs/builders' own check (only Discord's Locale values).
    for (const command of payload)
      for (const { node } of nodes(command))
        for (const map of [node.name_localizations, node.description_localizations])
          expect(() => SlashCommandAssertions.validateLocalizationMap(map)).not.toThrow();
  });

  it('the schema refuses what Discord refuses: an unknown locale, an upper-case or spaced name, a long description', () => {
    const good = payload.find((c) => c.name === 'player')!;
    expect(body.safeParse([good]).success).toBe(true);
    expect(body.safeParse([{ ...good, name_localizations: { ...good.name_localizations, 'fr-FR': 'joueur' } }]).success).toBe(false);
    expect(body.safeParse([{ ...good, name_localizations: { fr: 'Joueur' } }]).success).toBe(false);
    expect(body.safeParse([{ ...good, name_localizations: { de: 'ein spieler' } }]).success).toBe(false);
    expect(body.safeParse([{ ...good, description_localizations: { ja: 'あ'.repeat(101) } }]).success).toBe(false);
    expect(body.safeParse([{ ...good, options: [...good.options!.slice(1), { ...good.options![0]!, required: true }] }]).success).toBe(false);
  });
});

describe('localizeCommand', () => {
  const fr = commandsFile('fr');
  const es = commandsFile('es-ES');

  it('gives each Discord locale its language’s texts; es-419 reads Spain’s Spanish, English locales the default', () => {
    const localized = localizeCommand(player.definition) as RESTPostAPIChatInputApplicationCommandsJSONBody;
    expect(localized.name_localizations?.fr).toBe(fr.player!.name);
    expect(localized.name_localizations?.fr).toBe('joueur');
    expect(localized.name_localizations?.['es-419']).toBe(localized.name_localizations?.['es-ES']);
    expect(localized.name_localizations?.['es-ES']).toBe(es.player!.name);
    expect(localized.name_localizations).not.toHaveProperty('en-US');
    expect(localized.name_localizations).not.toHaveProperty('en-GB');
    expect(localized.description).toBe((player.definition as RESTPostAPIChatInputApplicationCommandsJSONBody).description);
    const season = localized.options!.find((o) => o.name === 'season')!;
    expect(season.name_localizations?.ja).toBe('シーズン');
    expect(season.description_localizations?.de).toBe(commandsFile('de').player!.options!.season!.description);
    // The definition itself is left as it was.
    expect(player.definition.name_localizations).toBeUndefined();
  });

  it('fills a translation’s placeholders with the values in the definition’s English text', () => {
    const localized = localizeCommand(alerts.definition) as RESTPostAPIChatInputApplicationCommandsJSONBody;
    const hero = localized.options!.find((o) => o.name === 'hero')!;
    expect(hero.description).toBe(`Watch a hero (up to ${MAX_WATCHED_HEROES})`);
    expect(hero.description_localizations?.fr).toBe(fr.alerts!.subcommands!.hero!.description!.replace('{{max}}', String(MAX_WATCHED_HEROES)));
    expect(hero.description_localizations?.fr).toContain(String(MAX_WATCHED_HEROES));
  });

  it('leaves out what it cannot localize instead of failing: an unknown command, a description that no longer follows its English text', () => {
    const unknown = localizeCommand({
      name: 'nope',
      description: 'Not a command',
      options: [{ type: ApplicationCommandOptionType.String, name: 'x', description: 'X', choices: [{ name: 'A', value: 'a' }] }],
    });
    expect(unknown).toEqual({
      name: 'nope',
      description: 'Not a command',
      options: [{ type: ApplicationCommandOptionType.String, name: 'x', description: 'X', choices: [{ name: 'A', value: 'a' }] }],
    });

    const edited = structuredClone(alerts.definition) as RESTPostAPIChatInputApplicationCommandsJSONBody;
    edited.options!.find((o) => o.name === 'hero')!.description = 'Something else entirely';
    const hero = localizeCommand(edited).options!.find((o) => o.name === 'hero')!;
    expect(hero.description_localizations).toBeUndefined();
    expect(hero.name_localizations?.de).toBe('held');
  });
});

describe('describe and choiceName (the definitions’ English texts)', () => {
  it('read the English file, filling placeholders', () => {
    expect(describeCommand('player.options.season')).toBe('Season, such as 0, 1, 1.5 or 2 (default: the current season)');
    expect(describeCommand('alerts.subcommands.hero', { max: 7 })).toBe('Watch a hero (up to 7)');
    expect(choiceName('meta.options.sort', 'win-rate')).toBe('Win rate');
    expect(choiceName('config.subcommands.feed.options.digest', 'weekly')).toBe('Weekly (Mondays)');
  });

  it('throw on a text the English file does not have, or a placeholder without a value', () => {
    expect(() => describeCommand('player.options.nope')).toThrow(/no description at player\.options\.nope/);
    expect(() => describeCommand('alerts.subcommands.hero')).toThrow(/needs values for max/);
    expect(() => choiceName('meta.options.sort', 'nope')).toThrow(/no choice nope/);
  });

  it('placeholderValues reads values back from a filled text, or null when the text does not follow the template', () => {
    expect(placeholderValues('Time of the digest, e.g. 18:00 (default {{time}})', 'Time of the digest, e.g. 18:00 (default 09:00)')).toEqual({ time: '09:00' });
    expect(placeholderValues('No placeholder (a.b)', 'No placeholder (a.b)')).toEqual({});
    expect(placeholderValues('No placeholder (a.b)', 'No placeholder (axb)')).toBeNull();
    expect(placeholderValues('Up to {{max}}', 'Up to')).toBeNull();
  });
});
