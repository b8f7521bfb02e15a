/** What every `/config` subcommand shares: the Manage Server check, the server's language, and the private answer's shape. */
import { PermissionFlagsBits, type APIEmbed } from 'discord-api-types/v10';
import type { CommandContext, Invoker } from '../../src/discord/command.js';
import { UserFacingError } from '../../src/core/errors.js';
import { chosenLanguage, DISCORD_LANGUAGE } from '../../src/i18n/commands.js';
import { LOCALE_NAMES, pickLocale, tr, type Locale } from '../../src/i18n/index.js';
import { escapeText } from '../../src/render/limits.js';
import type { View } from '../../src/render/view.js';
import { type GuildSettings } from '../../src/store/guild-settings.js';
import { t } from '../../src/render/strings.js';

/** The part of a command's context /config uses (src/discord/command.ts). */
export type Ctx = Pick<
  CommandContext,
  'channels' | 'feedPosts' | 'feedTester' | 'heroes' | 'ladder' | 'logger' | 'now' | 'rankRoles' | 'settings' | 'tracking'
>;

/** The colour of /config's answers. */
const COLOUR = 0x5865f2;
/** Discord's "Unknown Channel": a moments channel deleted, which turned the posts off. */
export const UNKNOWN_CHANNEL_CODE = 10003;

/** Manage Server (0x20) or Administrator (0x8) in the member's permission bitfield. */
export function canManageServer(user: Invoker): boolean {
  if (!user.permissions) return false;
  try {
    const bits = BigInt(user.permissions);
    return (bits & PermissionFlagsBits.ManageGuild) !== 0n || (bits & PermissionFlagsBits.Administrator) !== 0n;
  } catch {
    return false;
  }
}

/** @throws {UserFacingError} outside a server or without Manage Server. */
export function guildOf(user: Invoker): string {
  if (!user.guildId) throw new UserFacingError(t.configGuildOnly());
  if (!canManageServer(user)) throw new UserFacingError(t.configNeedsManageServer());
  return user.guildId;
}

/** The `language` option: undefined for {@link DISCORD_LANGUAGE}, else one of ours. @throws {UserFacingError} for a value that is neither. */
export function languageOf(value: unknown): Locale | undefined {
  const chosen = chosenLanguage(value);
  if (chosen === null) throw new UserFacingError(tr('config:language.unknown', { value: escapeText(typeof value === 'string' ? value.trim() : '', 40) }));
  return chosen === DISCORD_LANGUAGE ? undefined : chosen;
}

export const privately = (embed: APIEmbed, extra: Partial<View> = {}): View => ({ ephemeral: true, embeds: [{ color: COLOUR, ...embed }], ...extra });
/**
 * The answer to the reset confirmation, in its place and without its buttons. Not marked private: the router replaces the
 * pressed message only with an answer that is not, and the confirmation is private, so it stays so (Discord: UPDATE_MESSAGE).
 */
export const answered = (description: string): View => ({ embeds: [{ color: COLOUR, description }], components: [] });

/** The language of feed posts and hero alerts: `/config language`, else the server's Discord language (`guild_locale`), else English. */
export function serverLocale(s: GuildSettings, user: Invoker): Locale {
  return s.locale ?? pickLocale(user.guildLocale);
}

/** The language line of /config show: "Français", or "English (the server's Discord language)". */
export function languageLine(s: GuildSettings, user: Invoker): string {
  const name = LOCALE_NAMES[serverLocale(s, user)];
  return s.locale ? name : tr('config:show.languageDiscord', { language: name });
}
