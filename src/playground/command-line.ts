/**
 * The command bar's language, shared by the page and the tests: a line is split into command, subcommand and option texts using
 * the command's registration JSON to know which words are option names, so values may contain spaces.
 */

/** Discord's "Localization Map": a Discord locale code (`fr`, `es-419`) to that language's text. */
export type Localizations = Partial<Record<string, string>> | null;

/** A choice of an option (Discord: "Application Command Option Choice Structure"). */
export interface DefinitionChoice {
  name: string;
  value: string | number;
  name_localizations?: Localizations;
}

/** The parts of a command definition the command bar reads (Discord: "Application Command Object"). */
export interface DefinitionOption {
  type: number;
  name: string;
  description: string;
  name_localizations?: Localizations;
  description_localizations?: Localizations;
  required?: boolean;
  autocomplete?: boolean;
  choices?: DefinitionChoice[];
  channel_types?: number[];
  options?: DefinitionOption[];
  /** The registered name Discord sends, on a copy made by {@link localizeDefinition}. */
  key?: string;
}

export interface Definition {
  name: string;
  description?: string;
  name_localizations?: Localizations;
  description_localizations?: Localizations;
  /** 1 chat input (slash), 2 user context menu. */
  type?: number;
  default_member_permissions?: string | null;
  /** Where it may run (Discord: interaction context types; 1 is the bot's DMs). */
  contexts?: number[] | null;
  options?: DefinitionOption[];
  /** The registered name Discord sends, on a copy made by {@link localizeDefinition}. */
  key?: string;
}

const SUBCOMMAND = 1;
const SUBCOMMAND_GROUP = 2;

/** What the end of the line is editing. */
export type Focus =
  | { kind: 'command'; text: string }
  | { kind: 'subcommand'; text: string }
  /** Between options: `text` is a partial option name (maybe empty). */
  | { kind: 'option-name'; text: string }
  /**
   * Inside a value; `word` is its last word, maybe a partial option name. `implicit`: typed without `name:` right after the command,
   * as Discord's client lets a member type straight into the first required option.
   */
  | { kind: 'option-value'; option: DefinitionOption; text: string; word: string; implicit?: boolean };

export interface ParsedLine {
  definition?: Definition;
  subcommand?: string;
  /** Option name -> text typed, trimmed. */
  options: Record<string, string>;
  available: DefinitionOption[];
  focus: Focus;
}

export function subcommandsOf(definition: Definition): DefinitionOption[] {
  return (definition.options ?? []).filter((o) => o.type === SUBCOMMAND);
}

/** Subcommands and groups left out; [] for an unknown subcommand. */
export function optionsOf(definition: Definition, subcommand?: string): DefinitionOption[] {
  const list = subcommand === undefined ? (definition.options ?? []) : (subcommandsOf(definition).find((s) => s.name === subcommand)?.options ?? []);
  return list.filter((o) => o.type !== SUBCOMMAND && o.type !== SUBCOMMAND_GROUP);
}

const inLocale = (text: string, map: Localizations | undefined, locale: string): string => map?.[locale] || text;

function localizeOption(option: DefinitionOption, locale: string): DefinitionOption {
  return {
    ...option,
    key: option.key ?? option.name,
    name: inLocale(option.name, option.name_localizations, locale),
    description: inLocale(option.description, option.description_localizations, locale),
    ...(option.choices && { choices: option.choices.map((c) => ({ ...c, name: inLocale(c.name, c.name_localizations, locale) })) }),
    ...(option.options && { options: option.options.map((o) => localizeOption(o, locale)) }),
  };
}

/**
 * `definition` as a client in Discord locale `locale` shows it (Discord: "Localization"), default texts where a map has none.
 * Each node keeps its registered name in `key`, which is what Discord puts in the interaction.
 */
export function localizeDefinition(definition: Definition, locale: string): Definition {
  return {
    ...definition,
    key: definition.key ?? definition.name,
    name: inLocale(definition.name, definition.name_localizations, locale),
    ...(definition.description !== undefined && { description: inLocale(definition.description, definition.description_localizations, locale) }),
    ...(definition.options && { options: definition.options.map((o) => localizeOption(o, locale)) }),
  };
}

/** A command as members see it (`/config feed`), named as `definitions` name it (pass localized copies); unknown parts kept as they are. */
export function commandLabel(command: string, definitions: readonly Definition[], kind: 'slash' | 'user'): string {
  const keyOf = (node: { key?: string; name: string }) => node.key ?? node.name;
  if (kind === 'user') return definitions.find((d) => d.type === 2 && keyOf(d) === command)?.name ?? command;
  const [name = '', ...rest] = command.replace(/^\//, '').split(' ');
  const definition = definitions.find((d) => (d.type ?? 1) === 1 && keyOf(d) === name);
  if (!definition) return command;
  let nodes = definition.options ?? [];
  const parts = [definition.name];
  for (const part of rest) {
    const node = nodes.find((o) => (o.type === SUBCOMMAND || o.type === SUBCOMMAND_GROUP) && keyOf(o) === part);
    parts.push(node?.name ?? part);
    nodes = node?.options ?? [];
  }
  return `/${parts.join(' ')}`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Parses a command bar line against the chat-input definitions; a line not starting with `/` focuses the command. */
export function parseCommandLine(line: string, definitions: readonly Definition[]): ParsedLine {
  const none = { options: {}, available: [] };
  if (!line.startsWith('/')) return { ...none, focus: { kind: 'command', text: line } };
  const nameMatch = line.slice(1).match(/^(\S*)(\s*)/)!;
  const name = nameMatch[1]!;
  if (nameMatch[2] === '') return { ...none, focus: { kind: 'command', text: name } };
  // By the name the member's client shows, or the registered one (a member may type either).
  const named = (node: { name: string; key?: string }, text: string) =>
    node.name.toLowerCase() === text.toLowerCase() || (node.key ?? node.name).toLowerCase() === text.toLowerCase();
  const definition = definitions.find((d) => (d.type ?? 1) === 1 && named(d, name));
  if (!definition) return { ...none, focus: { kind: 'command', text: name } };
  let rest = line.slice(1 + nameMatch[0].length);
  let subcommand: string | undefined;
  if (subcommandsOf(definition).length > 0) {
    const subMatch = rest.match(/^(\S*)(\s*)/)!;
    const sub = subcommandsOf(definition).find((s) => named(s, subMatch[1]!));
    if (!sub || subMatch[2] === '') return { definition, ...none, focus: { kind: 'subcommand', text: subMatch[1]! } };
    subcommand = sub.name;
    rest = rest.slice(subMatch[0].length);
  }
  const available = optionsOf(definition, subcommand);
  const options: Record<string, string> = {};
  if (available.length === 0) return { definition, subcommand, options, available, focus: { kind: 'option-name', text: rest.trim() } };
  // Option names followed by a colon, at the start or after a space; shown or registered names, longest first.
  const spellings = new Map<string, string>();
  for (const o of available) for (const spelt of [o.key ?? o.name, o.name]) spellings.set(spelt.toLowerCase(), o.name);
  const alternatives = [...spellings.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`(^|\\s)(${alternatives.join('|')}):`, 'gi');
  const marks = [...rest.matchAll(pattern)].map((m) => ({
    name: spellings.get(m[2]!.toLowerCase())!,
    start: m.index + m[1]!.length,
    valueStart: m.index + m[0].length,
  }));
  marks.forEach((mark, i) => {
    const end = i + 1 < marks.length ? marks[i + 1]!.start : rest.length;
    options[mark.name] = rest.slice(mark.valueStart, end).trim();
  });
  // Text before any `name:` is the value of the first required option not given by name (else the first option).
  const leading = rest.slice(0, marks[0]?.start ?? rest.length);
  if (leading.trim() !== '') {
    const unnamed = available.filter((o) => options[o.name] === undefined);
    const implicit = unnamed.find((o) => o.required) ?? unnamed[0];
    if (implicit) {
      options[implicit.name] = leading.trim();
      if (marks.length === 0) {
        const word = /\s$/.test(leading) ? '' : (leading.split(/\s+/).pop() ?? '');
        return {
          definition,
          subcommand,
          options,
          available,
          focus: { kind: 'option-value', option: implicit, text: leading.trimStart(), word, implicit: true },
        };
      }
    }
  }
  if (marks.length === 0) return { definition, subcommand, options, available, focus: { kind: 'option-name', text: rest.trim() } };
  const last = marks[marks.length - 1]!;
  const option = available.find((o) => o.name === last.name)!;
  const text = rest.slice(last.valueStart);
  const word = /\s$/.test(text) ? '' : (text.split(/\s+/).pop() ?? '');
  return { definition, subcommand, options, available, focus: { kind: 'option-value', option, text: text.trimStart(), word } };
}

/** A suggestion the picker shows: the line to replace the bar's text with, and what to show. */
export interface Suggestion {
  label: string;
  detail: string;
  /** The new line when picked. */
  line: string;
  /** Set when picking records a choice whose value differs from its name (autocomplete, choices). */
  pick?: { option: string; name: string; value: string | number };
  required?: boolean;
}

/** Static suggestions for a parsed line: commands, subcommands, option names, choices, members, channels, roles (autocomplete: {@link valueSuggestions}). */
export function staticSuggestions(
  line: string,
  parsed: ParsedLine,
  definitions: readonly Definition[],
  guild: { members: { id: string; name: string }[]; channels: { id: string; name: string; type: number }[]; roles: { id: string; name: string }[] },
): Suggestion[] {
  const focus = parsed.focus;
  const prefix = (s: string, p: string) => s.toLowerCase().startsWith(p.toLowerCase());
  if (focus.kind === 'command') {
    const out: Suggestion[] = [];
    for (const d of definitions) {
      if ((d.type ?? 1) !== 1 || !prefix(d.name, focus.text)) continue;
      const subs = subcommandsOf(d);
      if (subs.length === 0) out.push({ label: `/${d.name}`, detail: d.description ?? '', line: `/${d.name} ` });
      else for (const s of subs) out.push({ label: `/${d.name} ${s.name}`, detail: s.description, line: `/${d.name} ${s.name} ` });
    }
    return out;
  }
  const head = `/${parsed.definition!.name} `;
  if (focus.kind === 'subcommand') {
    return subcommandsOf(parsed.definition!)
      .filter((s) => prefix(s.name, focus.text))
      .map((s) => ({ label: `/${parsed.definition!.name} ${s.name}`, detail: s.description, line: `${head}${s.name} ` }));
  }
  const unused = parsed.available.filter((o) => parsed.options[o.name] === undefined);
  const names = (partial: string, base: string) =>
    unused
      .filter((o) => prefix(o.name, partial))
      .sort((a, b) => Number(Boolean(b.required)) - Number(Boolean(a.required)))
      .map((o) => ({ label: `${o.name}:`, detail: o.description, line: `${base}${o.name}:`, required: Boolean(o.required) }));
  if (focus.kind === 'option-name') {
    const base = line.slice(0, line.length - focus.text.length).replace(/\s*$/, ' ');
    return names(focus.text, base);
  }
  const base = line.slice(0, line.length - focus.text.length) + (focus.implicit ? `${focus.option.name}:` : '');
  const values = valueSuggestions(focus.option, focus.text, base, guild);
  const named = focus.word === '' ? [] : names(focus.word, line.slice(0, line.length - focus.word.length));
  return [...values, ...named];
}

/** Suggestions for an option's value: its choices, or the guild's members, channels or roles. */
function valueSuggestions(
  option: DefinitionOption,
  text: string,
  base: string,
  guild: { members: { id: string; name: string }[]; channels: { id: string; name: string; type: number }[]; roles: { id: string; name: string }[] },
): Suggestion[] {
  const typed = text.trim().toLowerCase().replace(/^[#@]/, '');
  const has = (s: string) => s.toLowerCase().includes(typed);
  const make = (name: string, value: string | number, shown = name, detail = ''): Suggestion => ({
    label: shown,
    detail,
    line: `${base}${shown} `,
    pick: { option: option.name, name: shown, value },
  });
  if (option.choices?.length) return option.choices.filter((c) => has(c.name)).map((c) => make(c.name, c.value));
  switch (option.type) {
    case 5:
      return ['True', 'False'].filter(has).map((b) => make(b, b));
    case 6:
    case 9:
      return guild.members.filter((m) => has(m.name)).map((m) => make(m.name, m.id, `@${m.name}`));
    case 7:
      return guild.channels
        .filter((c) => has(c.name) && (!option.channel_types?.length || option.channel_types.includes(c.type)))
        .map((c) => make(c.name, c.id, `#${c.name}`));
    case 8:
      return guild.roles.filter((r) => has(r.name)).map((r) => make(r.name, r.id, `@${r.name}`));
    default:
      return [];
  }
}

/** Suggestions from autocomplete choices for the focused option value. */
export function autocompleteSuggestions(line: string, parsed: ParsedLine, choices: { name: string; value: string | number }[]): Suggestion[] {
  if (parsed.focus.kind !== 'option-value') return [];
  const base = line.slice(0, line.length - parsed.focus.text.length) + (parsed.focus.implicit ? `${parsed.focus.option.name}:` : '');
  const option = parsed.focus.option.name;
  return choices.map((c) => ({ label: c.name, detail: '', line: `${base}${c.name} `, pick: { option, name: c.name, value: c.value } }));
}

/** A slash command as Discord puts it in the interaction: registered names, and each option's value as text. */
export interface RegisteredCommand {
  command: string;
  subcommand?: string;
  options: Record<string, string>;
}

/**
 * What Discord's client sends for a parsed line, typed in any language ({@link localizeDefinition}'s copies): registered names,
 * and for an option with choices the value of the choice its text names or of the one picked. No command gives `command: ''`.
 */
export function registeredCommand(parsed: ParsedLine, picks: ReadonlyMap<string, { name: string; value: string | number }>): RegisteredCommand {
  const definition = parsed.definition;
  const subcommand = parsed.subcommand === undefined || !definition ? undefined : subcommandsOf(definition).find((s) => s.name === parsed.subcommand);
  const options: Record<string, string> = {};
  for (const [name, text] of Object.entries(optionsToSend(parsed, picks))) {
    const option = parsed.available.find((o) => o.name === name);
    const choice = option?.choices?.find((c) => c.name.toLowerCase() === text.toLowerCase());
    options[option?.key ?? name] = choice ? String(choice.value) : text;
  }
  return {
    command: definition ? (definition.key ?? definition.name) : '',
    ...(subcommand && { subcommand: subcommand.key ?? subcommand.name }),
    options,
  };
}

/** Each typed text, or the picked choice's value while the text is still its name (Discord sends an autocomplete choice's value). */
export function optionsToSend(parsed: ParsedLine, picks: ReadonlyMap<string, { name: string; value: string | number }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(parsed.options)) {
    const pick = picks.get(name);
    out[name] = pick && pick.name === text ? String(pick.value) : text;
  }
  return out;
}
