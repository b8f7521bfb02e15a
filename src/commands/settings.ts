/**
 * `/settings language`: the language the bot answers a member in (and writes their DM alerts in), or back to
 * their Discord app's; stored with their account links and read by the router for every answer.
 */
import { SlashCommandBuilder } from '@discordjs/builders';
import { ApplicationIntegrationType, InteractionContextType } from 'discord-api-types/v10';
import type { CommandModule } from '../discord/command.js';
import { UserFacingError } from '../core/errors.js';
import { chosenLanguage, describe, DISCORD_LANGUAGE, languageChoices } from '../i18n/commands.js';
import { LOCALE_NAMES, pickLocale, runInLocale, tr, type Locale } from '../i18n/index.js';
import { escapeText } from '../render/limits.js';
import type { View } from '../render/view.js';

const COLOUR = 0x5865f2;
const LANGUAGE_OPTION = 'settings.subcommands.language.options.language';

const definition = new SlashCommandBuilder()
  .setName('settings')
  .setDescription(describe('settings'))
  .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
  .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
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
  .toJSON();

const privately = (description: string): View => ({ ephemeral: true, embeds: [{ color: COLOUR, description }] });

/** Null for {@link DISCORD_LANGUAGE} (their app's again), else one of ours. @throws {UserFacingError} for a value that is neither. */
function chosenLocale(value: unknown): Locale | null {
  const chosen = chosenLanguage(value);
  if (chosen === null) throw new UserFacingError(tr('settings:language.unknown', { value: escapeText(typeof value === 'string' ? value.trim() : '', 40) }));
  return chosen === DISCORD_LANGUAGE ? null : chosen;
}

export const settings: CommandModule = {
  definition,
  async execute(input, ctx) {
    const chosen = chosenLocale(input.options.language);
    await ctx.links.setLocale(input.user.userId, chosen, ctx.now());
    // Answered in the language their answers use from now on: the one chosen, else their app's.
    const now = chosen ?? pickLocale(input.user.locale, input.user.guildLocale);
    return runInLocale(now, () => privately(tr(chosen ? 'settings:language.set' : 'settings:language.discord', { language: LOCALE_NAMES[now] })));
  },
};
