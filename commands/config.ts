/**
 * `/config`: server setup for members with Manage Server (Discord `default_member_permissions`, and
 * checked again at run time). Shows the settings; sets or clears each feed's channel (with a ping
 * role, publishing in announcement channels, and an optional backfill); the default leaderboard
 * platform; private answers by default; the language of feed posts and hero alerts (issue 16); each
 * feed's status; and a reset behind a confirmation button.
 */
import { SlashCommandBuilder } from '@discordjs/builders';
import { ButtonStyle, ChannelType, ComponentType, InteractionContextType, PermissionFlagsBits, type APIEmbed } from 'discord-api-types/v10';
import { PLATFORMS, type Platform } from '../src/api/endpoints.js';
import type { CommandContext, CommandModule, Invoker } from '../src/discord/command.js';
import { encodeCustomId } from '../src/discord/custom-id.js';
import { UserFacingError } from '../src/errors.js';
import { DIGEST_EVERY, digestPeriod, type DigestSchedule } from '../src/feeds/digest.js';
import { deliveryProblem } from '../src/feeds/delivery.js';
import { feedName } from '../src/feeds/render.js';
import { canonicalTimeZone, formatClock, parseClock, parseQuietHours, quietNow, suggestTimeZones, type QuietHours } from '../src/feeds/schedule.js';
import { chosenLanguage, choiceName, describe, DISCORD_LANGUAGE, languageChoices } from '../src/i18n/commands.js';
import { LOCALE_NAMES, pickLocale, runInLocale, tr, typedWord, type Locale } from '../src/i18n/index.js';
import { discordTime } from '../src/render/format.js';
import { escapeText } from '../src/render/limits.js';
import type { View } from '../src/render/view.js';
import { FEED_TYPES, MAX_FILTER_HEROES, type FeedType, type GuildSettings } from '../src/store/guild-settings.js';
import { t } from '../src/strings.js';

/** Feed types as the `type` option names them. */
const FEED_CHOICES: Record<FeedType, string> = { patchNotes: 'Patch notes', balances: 'Balance posts', devDiaries: 'Dev diaries', gameVersions: 'Game versions' };
const PLATFORM_NAMES: Record<Platform, string> = { pc: 'PC', ps: 'PlayStation', xbox: 'Xbox' };
const COLOUR = 0x5865f2;
/** Local time of a digest when the admin gives none: 09:00. */
const DEFAULT_DIGEST_AT = 9 * 60;
/** The `language` choice that clears the server's language: its Discord language is used again. */
/** Most posts an admin may ask to be sent again when setting a channel. */
export const MAX_BACKFILL = 10;

/** The `type` option of the subcommand `sub` (`feed`, `feed-off`, `test-post`). */
const feedType = (sub: string) => (o: import('@discordjs/builders').SlashCommandStringOption) =>
  o
    .setName('type')
    .setDescription(describe(`config.subcommands.${sub}.options.type`))
    .setRequired(true)
    .addChoices(...FEED_TYPES.map((f) => ({ name: choiceName(`config.subcommands.${sub}.options.type`, f), value: f })));

const definition = new SlashCommandBuilder()
  .setName('config')
  .setDescription(describe('config'))
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((s) => s.setName('show').setDescription(describe('config.subcommands.show')))
  .addSubcommand((s) =>
    s
      .setName('feed')
      .setDescription(describe('config.subcommands.feed'))
      .addStringOption(feedType('feed'))
      .addChannelOption((o) => o.setName('channel').setDescription(describe('config.subcommands.feed.options.channel')).setRequired(true).addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement))
      .addRoleOption((o) => o.setName('role').setDescription(describe('config.subcommands.feed.options.role')))
      .addBooleanOption((o) => o.setName('publish').setDescription(describe('config.subcommands.feed.options.publish')))
      .addIntegerOption((o) => o.setName('backfill').setDescription(describe('config.subcommands.feed.options.backfill', { max: MAX_BACKFILL })).setMinValue(0).setMaxValue(MAX_BACKFILL))
      .addStringOption((o) => o.setName('heroes').setDescription(describe('config.subcommands.feed.options.heroes', { max: MAX_FILTER_HEROES })).setMaxLength(300))
      .addStringOption((o) => o.setName('quiet').setDescription(describe('config.subcommands.feed.options.quiet')).setMaxLength(40))
      .addStringOption((o) => o.setName('timezone').setDescription(describe('config.subcommands.feed.options.timezone')).setAutocomplete(true).setMaxLength(64))
      .addStringOption((o) =>
        o
          .setName('digest')
          .setDescription(describe('config.subcommands.feed.options.digest'))
          .addChoices(...(['off', 'daily', 'weekly'] as const).map((value) => ({ name: choiceName('config.subcommands.feed.options.digest', value), value }))),
      )
      .addStringOption((o) => o.setName('at').setDescription(describe('config.subcommands.feed.options.at', { time: formatClock(DEFAULT_DIGEST_AT) })).setMaxLength(10))
      .addBooleanOption((o) => o.setName('thread').setDescription(describe('config.subcommands.feed.options.thread'))),
  )
  .addSubcommand((s) => s.setName('feed-off').setDescription(describe('config.subcommands.feed-off')).addStringOption(feedType('feed-off')))
  .addSubcommand((s) =>
    s
      .setName('alerts')
      .setDescription(describe('config.subcommands.alerts'))
      .addChannelOption((o) => o.setName('channel').setDescription(describe('config.subcommands.alerts.options.channel')).addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement)),
  )
  .addSubcommand((s) =>
    s
      .setName('platform')
      .setDescription(describe('config.subcommands.platform'))
      .addStringOption((o) => o.setName('platform').setDescription(describe('config.subcommands.platform.options.platform')).setRequired(true).addChoices(...PLATFORMS.map((p) => ({ name: choiceName('config.subcommands.platform.options.platform', p), value: p })))),
  )
  .addSubcommand((s) =>
    s
      .setName('private-answers')
      .setDescription(describe('config.subcommands.private-answers'))
      .addBooleanOption((o) => o.setName('enabled').setDescription(describe('config.subcommands.private-answers.options.enabled')).setRequired(true)),
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
  .addSubcommand((s) => s.setName('status').setDescription(describe('config.subcommands.status')))
  .addSubcommand((s) => s.setName('test-post').setDescription(describe('config.subcommands.test-post')).addStringOption(feedType('test-post')))
  .addSubcommand((s) => s.setName('reset').setDescription(describe('config.subcommands.reset')))
  .toJSON();

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
function guildOf(user: Invoker): string {
  if (!user.guildId) throw new UserFacingError(t.configGuildOnly());
  if (!canManageServer(user)) throw new UserFacingError(t.configNeedsManageServer());
  return user.guildId;
}

/**
 * The server language of the `language` option: undefined for {@link DISCORD_LANGUAGE} (the server's
 * Discord language), else one of ours ({@link chosenLanguage}).
 * @throws {UserFacingError} for a value that is neither.
 */
function languageOf(value: unknown): Locale | undefined {
  const chosen = chosenLanguage(value);
  if (chosen === null) throw new UserFacingError(tr('config:language.unknown', { value: escapeText(typeof value === 'string' ? value.trim() : '', 40) }));
  return chosen === DISCORD_LANGUAGE ? undefined : chosen;
}

const privately = (embed: APIEmbed, extra: Partial<View> = {}): View => ({ ephemeral: true, embeds: [{ color: COLOUR, ...embed }], ...extra });

/** One feed's settings on one line, in the current locale: "<#channel> · pings @role · published · …", or "Off". */
function feedLine(s: GuildSettings, type: FeedType, names: Map<string, string>): string {
  const f = s.feeds[type];
  if (!f) return tr('config:off');
  const role = f.roleId ? ` · ${tr('config:show.pings', { roleId: f.roleId })}` : '';
  const publish = f.publish ? ` · ${tr('config:show.published')}` : '';
  const heroes = f.heroes?.length ? ` · ${t.heroFilter(f.heroes.map((id) => names.get(id) ?? id))}` : '';
  const quiet = f.quiet ? ` · ${t.quietHours(formatClock(f.quiet.start), formatClock(f.quiet.end), f.timeZone ?? 'UTC')}` : '';
  const digest = f.digest ? ` · ${t.digestSchedule(f.digest.every, formatClock(f.digest.at), f.timeZone ?? 'UTC')}` : '';
  const thread = f.threads ? ` · ${t.threadsOn()}` : '';
  const broken = f.broken ? ` · ${tr('config:show.notPosting')}` : '';
  return `<#${f.channelId}>${role}${publish}${heroes}${quiet}${digest}${thread}${broken}`;
}

/**
 * The heroes of the `heroes` option as ids, in the order given, without repeats: undefined when the option is empty.
 * @throws {UserFacingError} when the feed is not balance posts or there are too many; {@link UnknownHeroError} for a name that is no hero.
 */
async function heroFilterOf(type: FeedType, text: unknown, ctx: CommandContext): Promise<string[] | undefined> {
  const names = typeof text === 'string' ? text.split(/[,;\n]/).map((n) => n.trim()).filter((n) => n !== '') : [];
  if (names.length === 0) return undefined;
  if (type !== 'balances') throw new UserFacingError(t.heroFilterBalancesOnly());
  const ids: string[] = [];
  for (const name of names) {
    const id = (await ctx.heroes.resolve(name)).id;
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length > MAX_FILTER_HEROES) throw new UserFacingError(t.heroFilterTooMany(MAX_FILTER_HEROES));
  return ids;
}

/**
 * The language of the server's feed posts and hero alerts (issue 16): its `/config language`, else its
 * Discord language (the interaction's `guild_locale`, the poller's `preferred_locale`), else English.
 */
function serverLocale(s: GuildSettings, user: Invoker): Locale {
  return s.locale ?? pickLocale(user.guildLocale);
}

/** The language line of /config show: "Français", or "English (the server's Discord language)". */
function languageLine(s: GuildSettings, user: Invoker): string {
  const name = LOCALE_NAMES[serverLocale(s, user)];
  return s.locale ? name : tr('config:show.languageDiscord', { language: name });
}

async function showView(s: GuildSettings, ctx: CommandContext, user: Invoker): Promise<View> {
  const names = Object.values(s.feeds).some((f) => f?.heroes?.length) ? await ctx.heroes.displayNames() : new Map<string, string>();
  return privately({
    title: tr('config:show.title'),
    fields: [
      ...FEED_TYPES.map((type) => ({ name: feedName(type), value: feedLine(s, type, names), inline: false })),
      { name: tr('config:show.language'), value: languageLine(s, user), inline: false },
      { name: tr('config:show.leaderboardPlatform'), value: PLATFORM_NAMES[s.leaderboardPlatform], inline: true },
      { name: tr('config:show.privateAnswers'), value: tr(s.ephemeralByDefault ? 'config:on' : 'config:off'), inline: true },
      { name: tr('config:show.heroAlerts'), value: s.alertsChannelId ? `<#${s.alertsChannelId}>` : tr('config:off'), inline: true },
    ],
  });
}

/**
 * The quiet hours and time zone of the `quiet` and `timezone` options: `quiet` "off" (or empty) for none.
 * @throws {UserFacingError} naming what to type when either cannot be read.
 */
function scheduleOf(quietText: unknown, zoneText: unknown, digestText: unknown, atText: unknown, now: number): { quiet?: QuietHours; timeZone?: string; digest?: DigestSchedule; digestPeriod?: string } {
  const out: { quiet?: QuietHours; timeZone?: string; digest?: DigestSchedule; digestPeriod?: string } = {};
  if (typeof zoneText === 'string' && zoneText.trim() !== '') {
    const zone = canonicalTimeZone(zoneText);
    if (!zone) throw new UserFacingError(t.unknownTimeZone(escapeText(zoneText.trim(), 64)));
    if (zone !== 'UTC') out.timeZone = zone;
  }
  if (typeof quietText === 'string' && quietText.trim() !== '' && !typedWord(quietText, ['off', 'none', 'no'], 'messages:config.quietOff')) {
    const quiet = parseQuietHours(quietText);
    if (!quiet) throw new UserFacingError(t.badQuietHours(escapeText(quietText.trim(), 40)));
    out.quiet = quiet;
  }
  const every = DIGEST_EVERY.find((d) => d === digestText);
  const atTyped = typeof atText === 'string' && atText.trim() !== '' ? atText.trim() : undefined;
  if (atTyped !== undefined && !every) throw new UserFacingError(t.digestAtWithoutDigest());
  if (every) {
    const at = atTyped === undefined ? DEFAULT_DIGEST_AT : parseClock(atTyped);
    if (at === null) throw new UserFacingError(t.badDigestTime(escapeText(atTyped!, 10)));
    out.digest = { every, at };
    // The first digest comes at the next due moment, with the posts found from now.
    out.digestPeriod = digestPeriod(out.digest, out.timeZone ?? 'UTC', now);
  }
  return out;
}

function statusView(s: GuildSettings, now: number): View {
  return privately({
    title: tr('config:status.title'),
    fields: FEED_TYPES.map((type) => {
      const f = s.feeds[type];
      if (!f) return { name: feedName(type), value: tr('config:off') };
      const last = f.lastDelivered ? tr('config:status.lastPost', { when: discordTime(f.lastDelivered.at / 1000), postId: f.lastDelivered.postId }) : tr('config:status.noPostYet');
      const problem = f.broken ? `\n⚠️ ${t.deliveryProblem(deliveryProblem(f.broken.reason, f.broken.code))}. ${t.feedFix(f.channelId)}` : `\n${tr('config:status.noProblem')}`;
      const held = f.quiet && quietNow(f.quiet, f.timeZone ?? 'UTC', now).quiet ? `\n${t.quietNow(formatClock(f.quiet.end), f.timeZone ?? 'UTC')}` : '';
      const edit = f.lastEdit ? `\n${f.lastEdit.error ? t.feedEditFailed(f.lastEdit.postId, discordTime(f.lastEdit.at / 1000), t.deliveryProblem(deliveryProblem(f.lastEdit.error))) : t.feedEdited(f.lastEdit.postId, discordTime(f.lastEdit.at / 1000))}` : '';
      return { name: feedName(type), value: `<#${f.channelId}> · ${last}${problem}${held}${edit}` };
    }),
  });
}

async function setFeed(guildId: string, input: Parameters<CommandModule['execute']>[0], ctx: CommandContext): Promise<View> {
  const type = input.options.type as FeedType;
  const channelId = String(input.options.channel ?? '');
  const check = await ctx.channels.check(guildId, channelId);
  if (!check.exists) return privately({ description: t.channelGone(channelId) });
  if (check.missing.length > 0) return privately({ description: t.channelMissing(channelId, check.missing) });
  const publish = input.options.publish === true;
  if (publish && !check.announcement) return privately({ description: t.publishNeedsAnnouncement(channelId) });
  const roleId = input.options.role === undefined ? null : String(input.options.role);
  const backfill = Math.min(MAX_BACKFILL, Math.max(0, Number(input.options.backfill ?? 0)));
  const threads = input.options.thread === true;
  if (threads && type === 'gameVersions') return privately({ description: t.threadsNeedText() });
  if (threads && check.missingForThreads?.length) return privately({ description: t.channelMissing(channelId, check.missingForThreads) });
  const heroes = await heroFilterOf(type, input.options.heroes, ctx);
  const schedule = scheduleOf(input.options.quiet, input.options.timezone, input.options.digest, input.options.at, ctx.now());
  const settings = await ctx.settings.update(guildId, (s) => {
    s.feeds[type] = { channelId, roleId, since: ctx.now(), publish, backfill, broken: null, lastDelivered: null, lastEdit: null, ...(heroes ? { heroes } : {}), ...schedule, ...(threads ? { threads } : {}) };
  });
  return { ...(await showView(settings, ctx, input.user)), content: t.feedSet(feedName(type), channelId, backfill) };
}

export const config: CommandModule = {
  definition,
  async execute(input, ctx) {
    const guildId = guildOf(input.user);
    switch (input.subcommand) {
      case 'feed':
        return setFeed(guildId, input, ctx);
      case 'alerts': {
        if (input.options.channel === undefined) {
          const settings = await ctx.settings.update(guildId, (s) => void delete s.alertsChannelId);
          return { ...(await showView(settings, ctx, input.user)), content: t.alertsChannelOff() };
        }
        const channelId = String(input.options.channel);
        const check = await ctx.channels.check(guildId, channelId);
        if (!check.exists) return privately({ description: t.channelGone(channelId) });
        if (check.missing.length > 0) return privately({ description: t.channelMissing(channelId, check.missing) });
        const settings = await ctx.settings.update(guildId, (s) => void (s.alertsChannelId = channelId));
        return { ...(await showView(settings, ctx, input.user)), content: t.alertsChannelSet(channelId) };
      }
      case 'feed-off': {
        const type = input.options.type as FeedType;
        return showView(await ctx.settings.update(guildId, (s) => void delete s.feeds[type]), ctx, input.user);
      }
      case 'platform': {
        const platform = input.options.platform as Platform;
        return showView(await ctx.settings.update(guildId, (s) => void (s.leaderboardPlatform = platform)), ctx, input.user);
      }
      case 'private-answers': {
        const enabled = input.options.enabled === true;
        return showView(await ctx.settings.update(guildId, (s) => void (s.ephemeralByDefault = enabled)), ctx, input.user);
      }
      case 'language': {
        const locale = languageOf(input.options.language);
        const settings = await ctx.settings.update(guildId, (s) => {
          if (locale) s.locale = locale;
          else delete s.locale;
        });
        const language = LOCALE_NAMES[serverLocale(settings, input.user)];
        return { ...(await showView(settings, ctx, input.user)), content: tr(locale ? 'config:language.set' : 'config:language.discord', { language }) };
      }
      case 'status':
        return statusView(await ctx.settings.get(guildId), ctx.now());
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
                  { type: ComponentType.Button, style: ButtonStyle.Secondary, label: tr('config:reset.cancel'), custom_id: encodeCustomId('cfg.keep', guildId) },
                ],
              },
            ],
          },
        );
      default:
        return showView(await ctx.settings.get(guildId), ctx, input.user);
    }
  },
  /** The `timezone` option of `/config feed`: IANA names containing what is typed (a city works), then fuzzy matches. */
  async autocomplete(input) {
    if (input.focused.name !== 'timezone') return [];
    return suggestTimeZones(input.focused.value).map((zone) => ({ name: zone.replaceAll('_', ' '), value: zone }));
  },
  components: {
    /** Confirmed reset: `cfg.reset:<guildId>`; the presser needs Manage Server in that guild. */
    'cfg.reset': async (input, ctx) => {
      const guildId = guildOf(input.user);
      if (input.args[0] !== guildId) throw new UserFacingError(t.expiredComponent());
      await ctx.settings.reset(guildId);
      return privately({ description: t.resetDone() }, { components: [] });
    },
    'cfg.keep': async (input) => {
      guildOf(input.user);
      return privately({ description: t.resetCancelled() }, { components: [] });
    },
  },
};
