/** What every `/config` subcommand shares: the Manage Server check, the server's language, and the private answer's shape. */
import { PermissionFlagsBits, type APIEmbed } from 'discord-api-types/v10';
import type { CommandContext, CommandInput, Invoker } from '../../src/discord/command.js';
import type { AuditSource } from '../../src/store/config-audit.js';
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
  'audit' | 'channels' | 'feedPosts' | 'feedTester' | 'heroes' | 'ladder' | 'logger' | 'now' | 'rankRoles' | 'settings' | 'tracking'
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

/** The subcommands that change a server's settings, which the audit log records. */
const CHANGES = new Set(['feed', 'alerts', 'feed-off', 'platform', 'private-answers', 'display', 'language', 'ladder', 'rank-roles']);

/** Everything /config changes for a server, as one comparable text; null without an audit log (nothing to compare for). */
async function settingsNow(guildId: string, ctx: Ctx): Promise<string | null> {
  if (!ctx.audit) return null;
  const [settings, ladder, rankRoles] = await Promise.all([ctx.settings.get(guildId), ctx.ladder?.settings(guildId), ctx.rankRoles?.store.settings(guildId)]);
  return JSON.stringify([settings, ladder ?? null, rankRoles ?? null]);
}

/**
 * Runs a /config subcommand and, when it changed what the server has (compared before and after, so a refusal or a dry run
 * records nothing), adds it to the audit log with who ran it and from where. A log that cannot be written is logged, never
 * shown: the change itself is made.
 */
export async function audited(guildId: string, input: CommandInput, ctx: Ctx, run: () => Promise<View>): Promise<View> {
  const action = input.subcommand ?? 'show';
  if (!CHANGES.has(action) || !ctx.audit) return run();
  const before = await settingsNow(guildId, ctx);
  const view = await run();
  await recordChange(guildId, input.user.userId, input.via ?? 'command', action, input.options, ctx, before);
  return view;
}

/** Adds `action` to the audit log when the settings differ from `before` (null: always). */
export async function recordChange(
  guildId: string,
  userId: string,
  source: AuditSource,
  action: string,
  detail: CommandInput['options'],
  ctx: Ctx,
  before: string | null,
): Promise<void> {
  if (!ctx.audit) return;
  try {
    if (before !== null && (await settingsNow(guildId, ctx)) === before) return;
    await ctx.audit.record({ guildId, userId, source, action, detail, at: ctx.now() });
  } catch (err) {
    ctx.logger.warn({ err, guildId, action }, 'could not write the settings change to the audit log');
  }
}
