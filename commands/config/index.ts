/**
 * `/config`: server setup for members with Manage Server (`default_member_permissions`, checked again at run time):
 * feed channels and their options, the default leaderboard platform, private answers, feed language, the server’s ladder and its
 * rank roles, status and reset.
 */
import { ButtonStyle, ComponentType } from 'discord-api-types/v10';
import { type Platform } from '../../src/api/endpoints.js';
import type { CommandInput, CommandModule } from '../../src/discord/command.js';
import type { View } from '../../src/render/view.js';
import { encodeCustomId } from '../../src/render/custom-id.js';
import { UserFacingError } from '../../src/core/errors.js';
import { deliveryProblem } from '../../src/core/discord-errors.js';
import { feedName } from '../../src/feeds/render.js';
import { suggestTimeZones } from '../../src/feeds/schedule.js';
import { LOCALE_NAMES, runInLocale, tr } from '../../src/i18n/index.js';
import { escapeText } from '../../src/render/limits.js';
import { type FeedType } from '../../src/store/guild-settings.js';
import { DISPLAYS } from '../../src/store/account-links.js';
import { t } from '../../src/render/strings.js';

import { definition } from './definition.js';
import { audited, guildOf, languageOf, privately, answered, recordChange, serverLocale, type Ctx } from './common.js';
import { showView } from './show.js';
import { setFeed } from './feed.js';
import { trackingBacklog, rankRolesField, feedsRead, statusView } from './status.js';
import { configureLadder, ladderField } from './ladder.js';
import { configureRankRoles } from './rank-roles.js';

export const config: CommandModule = {
  definition,
  async execute(input, ctx: Ctx) {
    const guildId = guildOf(input.user);
    return audited(guildId, input, ctx, () => run(guildId, input, ctx));
  },
  /** The `timezone` option of `/config feed`: IANA names containing what is typed (a city works), then fuzzy matches. */
  async autocomplete(input) {
    if (input.focused.name !== 'timezone') return [];
    return suggestTimeZones(input.focused.value).map((zone) => ({ name: zone.replaceAll('_', ' '), value: zone }));
  },
  components: {
    /** Confirmed reset: `cfg.reset:<guildId>`; the presser needs Manage Server in that guild. */
    'cfg.reset': async (input, ctx: Ctx) => {
      const guildId = guildOf(input.user);
      if (input.args[0] !== guildId) throw new UserFacingError(t.expiredComponent());
      await ctx.settings.reset(guildId);
      await recordChange(guildId, input.user.userId, 'command', 'reset', {}, ctx, null);
      return answered(t.resetDone());
    },
    'cfg.keep': async (input) => {
      guildOf(input.user);
      return answered(t.resetCancelled());
    },
  },
};

/** A /config subcommand's answer, after {@link guildOf} checked the member. */
async function run(guildId: string, input: CommandInput, ctx: Ctx): Promise<View> {
  switch (input.subcommand) {
    case 'feed':
      return setFeed(guildId, input, ctx);
    case 'alerts': {
      if (input.options.channel === undefined) {
        const settings = await ctx.settings.update(guildId, (s) => void delete s.alertsChannelId);
        return { ...(await showView(guildId, settings, ctx, input.user)), content: t.alertsChannelOff() };
      }
      const channelId = String(input.options.channel);
      const check = await ctx.channels.check(guildId, channelId);
      if (!check.exists) return privately({ description: t.channelGone(channelId) });
      if (check.missing.length > 0) return privately({ description: t.channelMissing(channelId, check.missing) });
      const settings = await ctx.settings.update(guildId, (s) => void (s.alertsChannelId = channelId));
      return { ...(await showView(guildId, settings, ctx, input.user)), content: t.alertsChannelSet(channelId) };
    }
    case 'feed-off': {
      const type = input.options.type as FeedType;
      // Set by the last run of the change (it runs again when another writer got there first).
      const found = { on: false };
      const settings = await ctx.settings.update(guildId, (s) => {
        found.on = s.feeds[type] !== undefined;
        // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- `type` is a FeedType key of the settings draft
        delete s.feeds[type];
      });
      const content = tr(found.on ? 'config:feedOff.done' : 'config:feedOff.already', { feed: feedName(type) });
      return { ...(await showView(guildId, settings, ctx, input.user)), content };
    }
    case 'platform': {
      const platform = input.options.platform as Platform;
      return showView(guildId, await ctx.settings.update(guildId, (s) => void (s.leaderboardPlatform = platform)), ctx, input.user);
    }
    case 'private-answers': {
      const enabled = input.options.enabled === true;
      return showView(guildId, await ctx.settings.update(guildId, (s) => void (s.ephemeralByDefault = enabled)), ctx, input.user);
    }
    case 'display': {
      // A value outside the choices (an old client, a hand-made request) keeps what the server had.
      const style = DISPLAYS.find((d) => d === input.options.style);
      if (!style) throw new UserFacingError(tr('settings:display.unknown', { value: escapeText(String(input.options.style ?? ''), 40) }));
      return showView(guildId, await ctx.settings.update(guildId, (s) => void (s.display = style)), ctx, input.user);
    }
    case 'language': {
      const locale = languageOf(input.options.language);
      const settings = await ctx.settings.update(guildId, (s) => {
        if (locale) s.locale = locale;
        else delete s.locale;
      });
      const language = LOCALE_NAMES[serverLocale(settings, input.user)];
      return {
        ...(await showView(guildId, settings, ctx, input.user)),
        content: tr(locale ? 'config:language.set' : 'config:language.discord', { language }),
      };
    }
    case 'ladder':
      return configureLadder(guildId, input.options, ctx);
    case 'rank-roles':
      return configureRankRoles(guildId, input.options, ctx, input.user);
    case 'status':
      return statusView(await feedsRead(guildId, ctx), ctx.now(), await trackingBacklog(ctx), [
        await ladderField(guildId, ctx),
        await rankRolesField(guildId, ctx),
      ]);
    case 'test-post': {
      const type = input.options.type as FeedType;
      if (!ctx.feedTester) return privately({ description: t.testPostOffline() });
      // Rendered in the server's language, as the poller renders its posts; the answer stays in the admin's.
      const locale = serverLocale(await ctx.settings.get(guildId), input.user);
      const tester = ctx.feedTester;
      const result = await runInLocale(locale, () => tester.testPost(guildId, type));
      if (result.ok) return privately({ description: t.testPostSent(feedName(type), result.channelId) });
      if (result.reason === 'not-set') return privately({ description: t.testPostNotSet(feedName(type)) });
      return privately({ description: t.testPostFailed(result.channelId ?? '', t.deliveryProblem(deliveryProblem(result.reason, result.code))) });
    }
    case 'reset':
      return privately(
        { description: t.resetConfirm() },
        {
          components: [
            {
              type: ComponentType.ActionRow,
              components: [
                { type: ComponentType.Button, style: ButtonStyle.Danger, label: tr('config:reset.confirm'), custom_id: encodeCustomId('cfg.reset', guildId) },
                {
                  type: ComponentType.Button,
                  style: ButtonStyle.Secondary,
                  label: tr('config:reset.cancel'),
                  custom_id: encodeCustomId('cfg.keep', guildId),
                },
              ],
            },
          ],
        },
      );
    default:
      return showView(guildId, await ctx.settings.get(guildId), ctx, input.user);
  }
}
