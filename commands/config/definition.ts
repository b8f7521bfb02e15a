/** `/config`'s definition: its subcommands and options, as registered with Discord. */
import { ChannelType, PermissionFlagsBits } from 'discord-api-types/v10';
import { PLATFORMS } from '../../src/api/endpoints.js';
import { SERVER_ONLY, slashCommand } from '../../src/discord/command.js';
import { DIVISIONS, TIER_NAMES } from '../../src/game/ranks.js';
import { formatClock } from '../../src/feeds/schedule.js';
import { choiceName, describe, languageChoices } from '../../src/i18n/commands.js';
import { FEED_TYPES, MAX_FILTER_HEROES } from '../../src/store/guild-settings.js';
import { DISPLAYS } from '../../src/store/account-links.js';

/** Minutes after midnight, local time, of a digest when the admin gives none. */
export const DEFAULT_DIGEST_AT = 9 * 60;
/** Most posts an admin may ask to be sent again when setting a channel. */
export const MAX_BACKFILL = 10;

/** The `type` option of subcommand `sub`. */
export const feedType = (sub: string) => (o: import('@discordjs/builders').SlashCommandStringOption) =>
  o
    .setName('type')
    .setDescription(describe(`config.subcommands.${sub}.options.type`))
    .setRequired(true)
    .addChoices(...FEED_TYPES.map((f) => ({ name: choiceName(`config.subcommands.${sub}.options.type`, f), value: f })));

export const definition = slashCommand('config', SERVER_ONLY)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) => s.setName('show').setDescription(describe('config.subcommands.show')))
  .addSubcommand((s) =>
    s
      .setName('feed')
      .setDescription(describe('config.subcommands.feed'))
      .addStringOption(feedType('feed'))
      .addChannelOption((o) =>
        o
          .setName('channel')
          .setDescription(describe('config.subcommands.feed.options.channel'))
          .setRequired(true)
          .addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement),
      )
      .addRoleOption((o) => o.setName('role').setDescription(describe('config.subcommands.feed.options.role')))
      .addBooleanOption((o) => o.setName('publish').setDescription(describe('config.subcommands.feed.options.publish')))
      .addIntegerOption((o) =>
        o
          .setName('backfill')
          .setDescription(describe('config.subcommands.feed.options.backfill', { max: MAX_BACKFILL }))
          .setMinValue(0)
          .setMaxValue(MAX_BACKFILL),
      )
      .addStringOption((o) =>
        o
          .setName('heroes')
          .setDescription(describe('config.subcommands.feed.options.heroes', { max: MAX_FILTER_HEROES }))
          .setMaxLength(300),
      )
      .addStringOption((o) => o.setName('quiet').setDescription(describe('config.subcommands.feed.options.quiet')).setMaxLength(40))
      .addStringOption((o) => o.setName('timezone').setDescription(describe('config.subcommands.feed.options.timezone')).setAutocomplete(true).setMaxLength(64))
      .addStringOption((o) =>
        o
          .setName('digest')
          .setDescription(describe('config.subcommands.feed.options.digest'))
          .addChoices(...(['off', 'daily', 'weekly'] as const).map((value) => ({ name: choiceName('config.subcommands.feed.options.digest', value), value }))),
      )
      .addStringOption((o) =>
        o
          .setName('at')
          .setDescription(describe('config.subcommands.feed.options.at', { time: formatClock(DEFAULT_DIGEST_AT) }))
          .setMaxLength(10),
      )
      .addBooleanOption((o) => o.setName('thread').setDescription(describe('config.subcommands.feed.options.thread'))),
  )
  .addSubcommand((s) => s.setName('feed-off').setDescription(describe('config.subcommands.feed-off')).addStringOption(feedType('feed-off')))
  .addSubcommand((s) =>
    s
      .setName('alerts')
      .setDescription(describe('config.subcommands.alerts'))
      .addChannelOption((o) =>
        o
          .setName('channel')
          .setDescription(describe('config.subcommands.alerts.options.channel'))
          .addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('platform')
      .setDescription(describe('config.subcommands.platform'))
      .addStringOption((o) =>
        o
          .setName('platform')
          .setDescription(describe('config.subcommands.platform.options.platform'))
          .setRequired(true)
          .addChoices(...PLATFORMS.map((p) => ({ name: choiceName('config.subcommands.platform.options.platform', p), value: p }))),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('private-answers')
      .setDescription(describe('config.subcommands.private-answers'))
      .addBooleanOption((o) => o.setName('enabled').setDescription(describe('config.subcommands.private-answers.options.enabled')).setRequired(true)),
  )
  .addSubcommand((s) =>
    s
      .setName('display')
      .setDescription(describe('config.subcommands.display'))
      .addStringOption((o) =>
        o
          .setName('style')
          .setDescription(describe('config.subcommands.display.options.style'))
          .setRequired(true)
          .addChoices(...DISPLAYS.map((d) => ({ name: choiceName('config.subcommands.display.options.style', d), value: d }))),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('language')
      .setDescription(describe('config.subcommands.language'))
      .addStringOption((o) =>
        o
          .setName('language')
          .setDescription(describe('config.subcommands.language.options.language'))
          .setRequired(true)
          // Each language by its own name, as language pickers do.
          .addChoices(...languageChoices('config.subcommands.language.options.language')),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('ladder')
      .setDescription(describe('config.subcommands.ladder'))
      .addBooleanOption((o) => o.setName('enabled').setDescription(describe('config.subcommands.ladder.options.enabled')).setRequired(true))
      .addChannelOption((o) =>
        o
          .setName('channel')
          .setDescription(describe('config.subcommands.ladder.options.channel'))
          .addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement),
      )
      .addBooleanOption((o) => o.setName('rank-changes').setDescription(describe('config.subcommands.ladder.options.rank-changes')))
      .addBooleanOption((o) => o.setName('peaks').setDescription(describe('config.subcommands.ladder.options.peaks')))
      .addBooleanOption((o) => o.setName('posts-off').setDescription(describe('config.subcommands.ladder.options.posts-off')))
      .addBooleanOption((o) => o.setName('top-3').setDescription(describe('config.subcommands.ladder.options.top-3')))
      .addBooleanOption((o) => o.setName('season-end').setDescription(describe('config.subcommands.ladder.options.season-end')))
      .addStringOption((o) =>
        o
          .setName('recap')
          .setDescription(describe('config.subcommands.ladder.options.recap'))
          .addChoices(
            ...(['off', '1', '2', '3', '4', '5', '6', '0'] as const).map((value) => ({
              name: choiceName('config.subcommands.ladder.options.recap', value),
              value,
            })),
          ),
      )
      .addStringOption((o) =>
        o
          .setName('at')
          .setDescription(describe('config.subcommands.ladder.options.at', { time: formatClock(18 * 60) }))
          .setMaxLength(10),
      )
      .addStringOption((o) =>
        o.setName('timezone').setDescription(describe('config.subcommands.ladder.options.timezone')).setAutocomplete(true).setMaxLength(64),
      )
      .addStringOption((o) => o.setName('quiet').setDescription(describe('config.subcommands.ladder.options.quiet')).setMaxLength(20)),
  )
  .addSubcommand((s) =>
    s
      .setName('rank-roles')
      .setDescription(describe('config.subcommands.rank-roles'))
      .addStringOption((o) =>
        o
          .setName('tier')
          .setDescription(describe('config.subcommands.rank-roles.options.tier'))
          .addChoices(...TIER_NAMES.map((value) => ({ name: choiceName('config.subcommands.rank-roles.options.tier', value), value }))),
      )
      .addStringOption((o) =>
        o
          .setName('division')
          .setDescription(describe('config.subcommands.rank-roles.options.division'))
          .addChoices(...DIVISIONS.map((value) => ({ name: choiceName('config.subcommands.rank-roles.options.division', value), value }))),
      )
      .addRoleOption((o) => o.setName('role').setDescription(describe('config.subcommands.rank-roles.options.role')))
      .addBooleanOption((o) => o.setName('enabled').setDescription(describe('config.subcommands.rank-roles.options.enabled'))),
  )
  .addSubcommand((s) => s.setName('status').setDescription(describe('config.subcommands.status')))
  .addSubcommand((s) => s.setName('test-post').setDescription(describe('config.subcommands.test-post')).addStringOption(feedType('test-post')))
  .addSubcommand((s) => s.setName('reset').setDescription(describe('config.subcommands.reset')))
  .toJSON();
