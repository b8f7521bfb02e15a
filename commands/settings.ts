/**
 * `/settings language`: the language the bot answers a member in (and writes their DM alerts in), or back to
 * their Discord app's; stored with their account links and read by the router for every answer.
 * `/settings platform`: the member's own default platform, for answers where no server's applies (a DM, their own install).
 * `/settings display`: image cards with their embeds (the default) or the embeds alone.
 * Usable wherever the member is, through either install: these are the member's settings, not a server's.
 */
import { isPlatform, PLATFORM_NAMES, PLATFORMS, type Platform } from '../src/api/endpoints.js';
import { slashCommand, type CommandContext, type CommandModule } from '../src/discord/command.js';
import { UserFacingError } from '../src/core/errors.js';
import { choiceName, chosenLanguage, describe, DISCORD_LANGUAGE, languageChoices } from '../src/i18n/commands.js';
import { LOCALE_NAMES, pickLocale, runInLocale, tr, type Locale } from '../src/i18n/index.js';
import { escapeText } from '../src/render/limits.js';
import type { View } from '../src/render/view.js';
import { DISPLAYS, type Display } from '../src/store/account-links.js';

/** The part of a command's context /settings uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'links' | 'now'>;

const COLOUR = 0x5865f2;
const LANGUAGE_OPTION = 'settings.subcommands.language.options.language';
const PLATFORM_OPTION = 'settings.subcommands.platform.options.platform';
const DISPLAY_OPTION = 'settings.subcommands.display.options.style';
/** The display choice that forgets the member's own: the server's choice applies again (`/config display`). */
const SERVER_CHOICE = 'server';

const definition = slashCommand('settings')
  .addSubcommand((s) =>
    s
      .setName('language')
      .setDescription(describe('settings.subcommands.language'))
      .addStringOption((o) =>
        o
          .setName('language')
          .setDescription(describe(LANGUAGE_OPTION))
          .setRequired(true)
          // Each language by its own name, as language pickers do: a member finds theirs whatever the app's.
          .addChoices(...languageChoices(LANGUAGE_OPTION)),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('platform')
      .setDescription(describe('settings.subcommands.platform'))
      .addStringOption((o) =>
        o
          .setName('platform')
          .setDescription(describe(PLATFORM_OPTION))
          .setRequired(true)
          .addChoices(...PLATFORMS.map((p) => ({ name: choiceName(PLATFORM_OPTION, p), value: p }))),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('display')
      .setDescription(describe('settings.subcommands.display'))
      .addStringOption((o) =>
        o
          .setName('style')
          .setDescription(describe(DISPLAY_OPTION))
          .setRequired(true)
          .addChoices(...[...DISPLAYS, SERVER_CHOICE].map((d) => ({ name: choiceName(DISPLAY_OPTION, d), value: d }))),
      ),
  )
  .toJSON();

const privately = (description: string): View => ({ ephemeral: true, embeds: [{ color: COLOUR, description }] });

/** Null for {@link DISCORD_LANGUAGE} (their app's again), else one of ours. @throws {UserFacingError} for a value that is neither. */
function chosenLocale(value: unknown): Locale | null {
  const chosen = chosenLanguage(value);
  if (chosen === null) throw new UserFacingError(tr('settings:language.unknown', { value: escapeText(typeof value === 'string' ? value.trim() : '', 40) }));
  return chosen === DISCORD_LANGUAGE ? null : chosen;
}

/** @throws {UserFacingError} naming the value, when it is not a platform. */
function chosenPlatform(value: unknown): Platform {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (isPlatform(v)) return v;
  throw new UserFacingError(tr('settings:platform.unknown', { value: escapeText(v, 40) }));
}

/** Null for {@link SERVER_CHOICE} (the server's again). @throws {UserFacingError} naming the value, when it is not a display style. */
function chosenDisplay(value: unknown): Display | null {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (v === SERVER_CHOICE) return null;
  if ((DISPLAYS as readonly string[]).includes(v)) return v as Display;
  throw new UserFacingError(tr('settings:display.unknown', { value: escapeText(v, 40) }));
}

export const settings: CommandModule = {
  definition,
  async execute(input, ctx: Ctx) {
    if (input.subcommand === 'display') {
      const display = chosenDisplay(input.options.style);
      await ctx.links.setDisplay(input.user.userId, display, ctx.now());
      return privately(tr(`settings:display.${display ?? SERVER_CHOICE}`));
    }
    if (input.subcommand === 'platform') {
      const platform = chosenPlatform(input.options.platform);
      await ctx.links.setPlatform(input.user.userId, platform, ctx.now());
      return privately(tr('settings:platform.set', { platform: PLATFORM_NAMES[platform] }));
    }
    const chosen = chosenLocale(input.options.language);
    await ctx.links.setLocale(input.user.userId, chosen, ctx.now());
    // Answered in the language their answers use from now on: the one chosen, else their app's.
    const now = chosen ?? pickLocale(input.user.locale, input.user.guildLocale);
    return runInLocale(now, () => privately(tr(chosen ? 'settings:language.set' : 'settings:language.discord', { language: LOCALE_NAMES[now] })));
  },
};
