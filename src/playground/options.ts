/**
 * What a member typed in the command bar as the option values Discord would send, checked as Discord's client checks them
 * (required options, choices, ranges, lengths, channel types). Members, channels and roles by mention, name or id.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, type APIApplicationCommandBasicOption } from 'discord-api-types/v10';
import type { CommandInput, CommandModule } from '../discord/command.js';
import { t } from '../render/strings.js';
import { localizeCommand } from '../i18n/commands.js';
import { localizeDefinition, optionsOf, subcommandsOf, type Definition } from './command-line.js';
import { CHANNELS, mayUse, PEOPLE, type GuildDirectory, type PlaygroundMember } from './guild.js';

/** Names, and each option's text as typed (or a picked choice's value). */
export interface TypedCommand {
  command: string;
  subcommand?: string;
  options: Record<string, string>;
}

export type ResolvedCommand =
  { ok: true; module: CommandModule; subcommand?: string; options: CommandInput['options']; display: string } | { ok: false; error: string };

/**
 * Checks a typed command (registered names) against the bot's definitions and converts each option to what Discord sends.
 * Refusals name things as the client in Discord locale `locale` shows them, written in the current locale. Members and
 * roles are those of `guild`.
 */
export function resolveCommand(
  modules: readonly CommandModule[],
  typed: TypedCommand,
  member: PlaygroundMember,
  locale = 'en-US',
  guild: GuildDirectory = PEOPLE,
): ResolvedCommand {
  const module = modules.find(
    (m) => m.definition.name === typed.command && (m.definition.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput,
  );
  if (!module) return { ok: false, error: t.playgroundUnknownCommand(typed.command) };
  // As the member's client shows it: each node's registered name in `key`.
  const shown = localizeDefinition(localizeCommand(module.definition) as Definition, locale);
  if (!mayUse(member, module.definition.default_member_permissions)) return { ok: false, error: t.playgroundNoPermission(shown.name) };
  const subcommands = subcommandsOf(shown);
  if (subcommands.length > 0 && typed.subcommand === undefined)
    return {
      ok: false,
      error: t.playgroundNeedsSubcommand(
        shown.name,
        subcommands.map((o) => o.name),
      ),
    };
  const subcommand = typed.subcommand === undefined ? undefined : subcommands.find((o) => o.key === typed.subcommand);
  if (typed.subcommand !== undefined && !subcommand) return { ok: false, error: t.playgroundUnknownSubcommand(shown.name, typed.subcommand) };
  const defined = optionsOf(shown, subcommand?.name);
  const options: CommandInput['options'] = {};
  for (const name of Object.keys(typed.options)) {
    if (!defined.some((o) => o.key === name)) return { ok: false, error: t.playgroundUnknownOption(shown.name, name) };
  }
  for (const option of defined) {
    const key = option.key ?? option.name;
    const raw = typed.options[key]?.trim();
    if (raw === undefined || raw === '') {
      if (option.required) return { ok: false, error: t.playgroundMissingOption(option.name) };
      continue;
    }
    const value = convert(option, raw, guild);
    if (typeof value === 'object') return { ok: false, error: value.error };
    options[key] = value;
  }
  const display = `/${typed.command}${subcommand ? ` ${typed.subcommand}` : ''}`;
  return { ok: true, module, subcommand: typed.subcommand, options, display };
}

const lower = (s: string) => s.toLowerCase();

function convert(option: APIApplicationCommandBasicOption, raw: string, guild: GuildDirectory): string | number | boolean | { error: string } {
  switch (option.type) {
    case ApplicationCommandOptionType.String: {
      if (option.choices?.length) {
        const choice = option.choices.find((c) => lower(c.name) === lower(raw) || lower(c.value) === lower(raw));
        return choice
          ? choice.value
          : {
              error: t.playgroundBadChoice(
                option.name,
                option.choices.map((c) => c.name),
              ),
            };
      }
      const min = option.min_length ?? 0;
      const max = option.max_length ?? 6000;
      return raw.length < min || raw.length > max ? { error: t.playgroundBadLength(option.name, option.min_length, option.max_length) } : raw;
    }
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const integer = option.type === ApplicationCommandOptionType.Integer;
      if (option.choices?.length) {
        const choice = option.choices.find((c) => lower(c.name) === lower(raw) || String(c.value) === raw);
        return choice
          ? choice.value
          : {
              error: t.playgroundBadChoice(
                option.name,
                option.choices.map((c) => c.name),
              ),
            };
      }
      const value = Number(raw);
      if (!(integer ? /^-?\d+$/ : /^-?(\d+\.?\d*|\.\d+)$/).test(raw) || !Number.isFinite(value)) return { error: t.playgroundBadNumber(option.name, integer) };
      if ((option.min_value !== undefined && value < option.min_value) || (option.max_value !== undefined && value > option.max_value)) {
        return { error: t.playgroundOutOfRange(option.name, option.min_value, option.max_value) };
      }
      return value;
    }
    case ApplicationCommandOptionType.Boolean:
      if (/^(true|yes|on)$/i.test(raw)) return true;
      if (/^(false|no|off)$/i.test(raw)) return false;
      return { error: t.playgroundBadBoolean(option.name) };
    case ApplicationCommandOptionType.User:
    case ApplicationCommandOptionType.Mentionable: {
      const id = raw.match(/^<@!?(\d+)>$/)?.[1] ?? raw;
      const found = guild.members.find((m) => m.id === id || lower(m.name) === lower(raw.replace(/^@/, '')));
      return found ? found.id : { error: t.playgroundUnknownMember(option.name, raw) };
    }
    case ApplicationCommandOptionType.Channel: {
      const id = raw.match(/^<#(\d+)>$/)?.[1] ?? raw;
      const found = CHANNELS.find(
        (c) =>
          (c.id === id || lower(c.name) === lower(raw.replace(/^#/, ''))) && (!option.channel_types?.length || option.channel_types.includes(c.type as never)),
      );
      return found ? found.id : { error: t.playgroundUnknownChannel(option.name, raw) };
    }
    case ApplicationCommandOptionType.Role: {
      const id = raw.match(/^<@&(\d+)>$/)?.[1] ?? raw;
      const found = guild.roles.find((r) => r.id === id || lower(r.name) === lower(raw.replace(/^@/, '')));
      return found ? found.id : { error: t.playgroundUnknownRole(option.name, raw) };
    }
    default:
      return raw;
  }
}
