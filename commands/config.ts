/**
 * `/config`: server setup for members with Manage Server (`default_member_permissions`, checked again at run time):
 * feed channels and their options, the default leaderboard platform, private answers, feed language, the server’s ladder and its
 * rank roles, status and reset.
 */
import { ButtonStyle, ChannelType, ComponentType, PermissionFlagsBits, type APIEmbed, type APIEmbedField } from 'discord-api-types/v10';
import { PLATFORM_NAMES, PLATFORMS, type Platform } from '../src/api/endpoints.js';
import type { ChannelCheck, CommandContext, CommandInput, CommandModule, Invoker } from '../src/discord/command.js';
import { SERVER_ONLY, slashCommand } from '../src/discord/command.js';
import { MOMENT_KINDS, type MomentKind } from '../src/game/ladder.js';
import { cannotGive, RANK_ROLE_KEYS, rankRoleKey } from '../src/game/rank-roles.js';
import { DIVISIONS, TIER_NAMES } from '../src/game/ranks.js';
import { rankRolesEmbed, rankRolesStatus } from '../src/render/rank-roles.js';
import { listOf } from '../src/render/common.js';
import { encodeCustomId } from '../src/render/custom-id.js';
import { UserFacingError } from '../src/core/errors.js';
import { DIGEST_EVERY, DIGEST_PREFIX, digestPeriod, type DigestSchedule } from '../src/feeds/digest.js';
import { deliveryProblem } from '../src/core/discord-errors.js';
import { feedName, feedPostText } from '../src/feeds/render.js';
import { canonicalTimeZone, formatClock, parseClock, parseQuietHours, quietNow, suggestTimeZones, type QuietHours } from '../src/feeds/schedule.js';
import { chosenLanguage, choiceName, describe, DISCORD_LANGUAGE, languageChoices } from '../src/i18n/commands.js';
import { currentLocale, LOCALE_NAMES, pickLocale, runInLocale, tr, typedWord, type Locale } from '../src/i18n/index.js';
import { discordTime, duration, integer } from '../src/i18n/format.js';
import { tierName } from '../src/i18n/names.js';
import { escapeText, LIMITS } from '../src/render/limits.js';
import type { View } from '../src/render/view.js';
import { FEED_TYPES, MAX_FILTER_HEROES, type FeedSubscription, type FeedType, type GuildSettings } from '../src/store/guild-settings.js';
import type { TrackingBacklog } from '../src/store/tracking.js';
import type { StoredPost } from '../src/store/feed-state.js';
import { settleWithin } from '../src/core/deadline.js';
import type { LadderSettings } from '../src/store/ladder.js';
import { DISPLAYS } from '../src/store/account-links.js';
import { t } from '../src/render/strings.js';

/** Discord's "Unknown Channel": a moments channel deleted, which turned the posts off. */
const UNKNOWN_CHANNEL_CODE = 10003;
const COLOUR = 0x5865f2;
/** Minutes after midnight, local time, of a digest when the admin gives none. */
const DEFAULT_DIGEST_AT = 9 * 60;
/** Most posts an admin may ask to be sent again when setting a channel. */
export const MAX_BACKFILL = 10;

/** The `type` option of subcommand `sub`. */
const feedType = (sub: string) => (o: import('@discordjs/builders').SlashCommandStringOption) =>
  o
    .setName('type')
    .setDescription(describe(`config.subcommands.${sub}.options.type`))
    .setRequired(true)
    .addChoices(...FEED_TYPES.map((f) => ({ name: choiceName(`config.subcommands.${sub}.options.type`, f), value: f })));

const definition = slashCommand('config', SERVER_ONLY)
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

/** The `language` option: undefined for {@link DISCORD_LANGUAGE}, else one of ours. @throws {UserFacingError} for a value that is neither. */
function languageOf(value: unknown): Locale | undefined {
  const chosen = chosenLanguage(value);
  if (chosen === null) throw new UserFacingError(tr('config:language.unknown', { value: escapeText(typeof value === 'string' ? value.trim() : '', 40) }));
  return chosen === DISCORD_LANGUAGE ? undefined : chosen;
}

const privately = (embed: APIEmbed, extra: Partial<View> = {}): View => ({ ephemeral: true, embeds: [{ color: COLOUR, ...embed }], ...extra });
/**
 * The answer to the reset confirmation, in its place and without its buttons. Not marked private: the router replaces the
 * pressed message only with an answer that is not, and the confirmation is private, so it stays so (Discord: UPDATE_MESSAGE).
 */
const answered = (description: string): View => ({ embeds: [{ color: COLOUR, description }], components: [] });

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
 * The `heroes` option as ids, in order, without repeats: undefined when empty (filter kept), null for `off` (filter cleared).
 * @throws {UserFacingError} when the feed is not balance posts or there are too many; {@link UnknownHeroError} for a name that is no hero.
 */
async function heroFilterOf(type: FeedType, text: unknown, ctx: CommandContext): Promise<string[] | null | undefined> {
  if (typeof text === 'string' && typedWord(text, ['off', 'none', 'no'], 'messages:config.quietOff')) return null;
  const names =
    typeof text === 'string'
      ? text
          .split(/[,;\n]/)
          .map((n) => n.trim())
          .filter((n) => n !== '')
      : [];
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

/** The language of feed posts and hero alerts: `/config language`, else the server's Discord language (`guild_locale`), else English. */
function serverLocale(s: GuildSettings, user: Invoker): Locale {
  return s.locale ?? pickLocale(user.guildLocale);
}

/** The language line of /config show: "Français", or "English (the server's Discord language)". */
function languageLine(s: GuildSettings, user: Invoker): string {
  const name = LOCALE_NAMES[serverLocale(s, user)];
  return s.locale ? name : tr('config:show.languageDiscord', { language: name });
}

/** Longest wait for each of /config show's own reads of the store, ms: past it, its field says so. */
const SHOW_READ_MS = 1_000;

/** `read`'s value, or null when it fails or outlasts {@link SHOW_READ_MS} (logged). */
function showRead<T>(read: Promise<T>, ctx: CommandContext): Promise<T | null> {
  return settleWithin(read, SHOW_READ_MS, () => null).catch((err: unknown) => {
    ctx.logger.warn({ err }, 'could not read a setting for /config show');
    return null;
  });
}

/** The ladder's field of /config show: off, or on with where and what it posts ({@link ladderPosts}); null without a ladder store. */
async function ladderShowField(guildId: string, ctx: CommandContext): Promise<APIEmbedField | null> {
  if (!ctx.ladder) return null;
  const s = await showRead(ctx.ladder.settings(guildId), ctx);
  if (s === null) return { name: tr('ladder:title'), value: tr('config:show.notRead'), inline: false };
  return { name: tr('ladder:title'), value: s.enabled ? `${tr('config:on')}\n${ladderPosts(s)}` : tr('config:off'), inline: false };
}

/**
 * The rank roles' fields of /config show: on or off, then every tier mapped to its role, lowest first. A full mapping (every
 * tier and division) passes a field's 1,024 characters, so the mapping goes on in further fields rather than being cut.
 */
async function rankRolesShowFields(guildId: string, ctx: CommandContext): Promise<APIEmbedField[]> {
  if (!ctx.rankRoles) return [];
  const settings = await showRead(ctx.rankRoles.store.settings(guildId), ctx);
  if (settings === null) return [{ name: tr('ladder:roles.title'), value: tr('config:show.notRead'), inline: false }];
  const lines = [
    tr(settings.enabled ? 'config:on' : 'config:off'),
    ...RANK_ROLE_KEYS.filter((k) => settings.roles[k] !== undefined).map((k) => `${tierName(k)} → <@&${settings.roles[k]!}>`),
  ];
  const values: string[] = [];
  for (const line of lines) {
    const last = values.at(-1);
    if (last !== undefined && last.length + 1 + line.length <= LIMITS.fieldValue) values[values.length - 1] = `${last}\n${line}`;
    else values.push(line);
  }
  return values.map((value, i) => ({ name: tr(i === 0 ? 'ladder:roles.title' : 'config:show.rankRolesMore'), value, inline: false }));
}

/** Every setting `/config` changes, for `guildId`: each feed, the language, platform, private answers, display, alerts, the ladder and the rank roles. */
async function showView(guildId: string, s: GuildSettings, ctx: CommandContext, user: Invoker): Promise<View> {
  const names = Object.values(s.feeds).some((f) => f?.heroes?.length) ? await ctx.heroes.displayNames() : new Map<string, string>();
  const [ladder, rankRoles] = await Promise.all([ladderShowField(guildId, ctx), rankRolesShowFields(guildId, ctx)]);
  return privately({
    title: tr('config:show.title'),
    fields: [
      ...FEED_TYPES.map((type) => ({ name: feedName(type), value: feedLine(s, type, names), inline: false })),
      { name: tr('config:show.language'), value: languageLine(s, user), inline: false },
      { name: tr('config:show.leaderboardPlatform'), value: PLATFORM_NAMES[s.leaderboardPlatform], inline: true },
      { name: tr('config:show.privateAnswers'), value: tr(s.ephemeralByDefault ? 'config:on' : 'config:off'), inline: true },
      { name: tr('config:show.display'), value: tr(`config:display.${s.display ?? 'cards'}`), inline: true },
      { name: tr('config:show.heroAlerts'), value: s.alertsChannelId ? `<#${s.alertsChannelId}>` : tr('config:off'), inline: true },
      ...(ladder ? [ladder] : []),
      ...rankRoles,
    ],
  });
}

/** What one run of `/config feed` asks to change; a field absent (option not given) keeps what the subscription had. */
interface FeedRequest {
  channelId: string;
  roleId?: string;
  publish?: boolean;
  backfill?: number;
  /** Hero ids; null for `off` (every balance post). */
  heroes?: string[] | null;
  /** null for `off` (no quiet hours). */
  quiet?: QuietHours | null;
  /** An IANA zone; null for UTC. */
  timeZone?: string | null;
  digest?: 'off' | DigestSchedule['every'];
  /** The digest's local time, minutes since midnight. */
  at?: number;
  threads?: boolean;
}

/**
 * The schedule options as typed: `quiet` (`off` for none), `timezone`, `digest` and `at`, each absent when not given.
 * @throws {UserFacingError} naming what to type when one cannot be read.
 */
function scheduleOf(quietText: unknown, zoneText: unknown, digestText: unknown, atText: unknown): Pick<FeedRequest, 'quiet' | 'timeZone' | 'digest' | 'at'> {
  const out: Pick<FeedRequest, 'quiet' | 'timeZone' | 'digest' | 'at'> = {};
  if (typeof zoneText === 'string' && zoneText.trim() !== '') {
    const zone = canonicalTimeZone(zoneText);
    if (!zone) throw new UserFacingError(t.unknownTimeZone(escapeText(zoneText.trim(), 64)));
    out.timeZone = zone === 'UTC' ? null : zone;
  }
  if (typeof quietText === 'string' && quietText.trim() !== '') {
    if (typedWord(quietText, ['off', 'none', 'no'], 'messages:config.quietOff')) out.quiet = null;
    else {
      const quiet = parseQuietHours(quietText);
      if (!quiet) throw new UserFacingError(t.badQuietHours(escapeText(quietText.trim(), 40)));
      out.quiet = quiet;
    }
  }
  if (digestText === 'off') out.digest = 'off';
  const every = DIGEST_EVERY.find((d) => d === digestText);
  if (every) out.digest = every;
  if (typeof atText === 'string' && atText.trim() !== '') {
    const at = parseClock(atText.trim());
    if (at === null) throw new UserFacingError(t.badDigestTime(escapeText(atText.trim(), 10)));
    out.at = at;
  }
  return out;
}

/**
 * `prev` (undefined for a feed not set yet) with the options of `req` replacing what they name; `broken` is cleared, as the
 * channel passed the check. `refusal` says why nothing can change, in the current locale.
 */
function nextSubscription(
  type: FeedType,
  prev: FeedSubscription | undefined,
  req: FeedRequest,
  check: ChannelCheck,
  now: number,
): { sub: FeedSubscription } | { refusal: string } {
  const moved = !prev || prev.channelId !== req.channelId;
  const sub: FeedSubscription = prev
    ? structuredClone(prev)
    : { channelId: req.channelId, roleId: null, since: now, publish: false, backfill: 0, broken: null, lastDelivered: null, lastEdit: null };
  sub.channelId = req.channelId;
  sub.broken = null;
  if (moved) {
    // Another channel: it gets the posts found from now, and its history starts empty.
    Object.assign(sub, { since: now, lastDelivered: null, lastEdit: null });
  } else {
    // The poller marks only the subscription it read (channel and `since`): a new `since` keeps a poll in flight's marks off
    // this change. One ms later, not now, so posts still held (quiet hours, retries) still reach the channel.
    sub.since = prev.broken ? now : prev.since + 1;
  }
  if (req.roleId !== undefined) sub.roleId = req.roleId;
  // Kept from before on a channel that cannot publish: dropped (and listed in the answer as changed).
  if (req.publish !== undefined) sub.publish = req.publish;
  else if (sub.publish && !check.announcement) sub.publish = false;
  if (req.backfill !== undefined) sub.backfill = req.backfill;
  if (req.heroes === null) delete sub.heroes;
  else if (req.heroes !== undefined) sub.heroes = req.heroes;
  if (req.quiet === null) delete sub.quiet;
  else if (req.quiet !== undefined) sub.quiet = req.quiet;
  if (req.timeZone === null) delete sub.timeZone;
  else if (req.timeZone !== undefined) sub.timeZone = req.timeZone;
  if (req.digest === 'off') {
    if (req.at !== undefined) return { refusal: t.digestAtWithoutDigest() };
    delete sub.digest;
    delete sub.digestPeriod;
  } else if (req.digest !== undefined || req.at !== undefined) {
    const every = req.digest ?? sub.digest?.every;
    if (!every) return { refusal: t.digestAtWithoutDigest() };
    sub.digest = { every, at: req.at ?? sub.digest?.at ?? DEFAULT_DIGEST_AT };
  }
  if (sub.digest) {
    const zone = sub.timeZone ?? 'UTC';
    const same = prev?.digest && prev.digest.every === sub.digest.every && prev.digest.at === sub.digest.at && (prev.timeZone ?? 'UTC') === zone;
    // A new schedule counts from now: its first digest comes at its next due moment.
    if (!same || sub.digestPeriod === undefined) sub.digestPeriod = digestPeriod(sub.digest, zone, now);
  }
  if (req.threads === false) delete sub.threads;
  else if (req.threads) sub.threads = true;
  if (sub.threads && type === 'gameVersions') return { refusal: t.threadsNeedText() };
  if (sub.threads && check.missingForThreads?.length) return { refusal: t.channelMissing(req.channelId, check.missingForThreads) };
  return { sub };
}

/** What changed from `prev` to `next`, one item per setting, in the words of /config show; `names` maps hero ids to names. */
function changesOf(prev: FeedSubscription, next: FeedSubscription, names: Map<string, string>): string[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const zone = next.timeZone ?? 'UTC';
  const changes: string[] = [];
  if (prev.channelId !== next.channelId) changes.push(tr('config:feedChanges.channel', { channelId: next.channelId }));
  else if (prev.broken) changes.push(tr('config:feedChanges.resumed'));
  // A role is only ever given, never taken away here (no option says "none").
  if (next.roleId !== null && prev.roleId !== next.roleId) changes.push(tr('config:show.pings', { roleId: next.roleId }));
  if (prev.publish !== next.publish) changes.push(tr(next.publish ? 'config:show.published' : 'config:feedChanges.notPublished'));
  if (prev.backfill !== next.backfill)
    changes.push(
      next.backfill > 0 ? tr('config:feedChanges.backfill', { count: next.backfill, backfill: integer(next.backfill) }) : tr('config:feedChanges.noBackfill'),
    );
  if (!same(prev.heroes, next.heroes))
    changes.push(next.heroes?.length ? t.heroFilter(next.heroes.map((id) => names.get(id) ?? id)) : tr('config:feedChanges.everyPost'));
  if (!same(prev.quiet, next.quiet))
    changes.push(next.quiet ? t.quietHours(formatClock(next.quiet.start), formatClock(next.quiet.end), zone) : tr('config:feedChanges.noQuiet'));
  if ((prev.timeZone ?? 'UTC') !== zone) changes.push(tr('config:feedChanges.timeZone', { zone }));
  if (!same(prev.digest, next.digest))
    changes.push(next.digest ? t.digestSchedule(next.digest.every, formatClock(next.digest.at), zone) : tr('config:feedChanges.noDigest'));
  if (Boolean(prev.threads) !== Boolean(next.threads)) changes.push(next.threads ? t.threadsOn() : tr('config:feedChanges.noThread'));
  return changes;
}

/** The backlog, or null without tracking; a store that cannot say leaves the field out rather than fail the feeds' status. */
async function trackingBacklog(ctx: CommandContext): Promise<TrackingBacklog | null> {
  if (!ctx.tracking) return null;
  try {
    return await ctx.tracking.backlog(ctx.now());
  } catch (err) {
    ctx.logger.warn({ err }, 'could not read the tracking backlog for /config status');
    return null;
  }
}

/** The tracking schedule's state for /config status, or null when the bot tracks nothing (no store behind it). */
function trackingField(backlog: TrackingBacklog | null): { name: string; value: string } | null {
  if (!backlog) return null;
  const name = tr('config:status.tracking');
  if (backlog.tracked === 0) return { name, value: tr('config:status.trackingNone') };
  const state = tr('config:status.trackingState', {
    count: backlog.tracked,
    tracked: integer(backlog.tracked),
    oldest: duration((backlog.oldestReadMs ?? 0) / 1000),
  });
  const behind =
    backlog.due > 0
      ? `\n${tr('config:status.trackingBehind', { count: backlog.due, due: integer(backlog.due), wait: duration(backlog.oldestDueMs / 1000) })}`
      : '';
  return { name, value: `${state}${behind}` };
}

/** The rank roles' field of /config status, or null for a server that never set them up. */
async function rankRolesField(guildId: string, ctx: CommandContext): Promise<{ name: string; value: string } | null> {
  if (!ctx.rankRoles) return null;
  const [settings, failures] = await Promise.all([ctx.rankRoles.store.settings(guildId), ctx.rankRoles.store.failures(guildId)]);
  if (!settings.enabled && failures.total === 0 && Object.keys(settings.roles).length === 0) return null;
  return rankRolesStatus(settings, failures);
}

/** What /config status reads of the feeds: the server's settings and the posts they name. */
interface FeedsRead {
  settings: GuildSettings;
  posts: PostsNamed;
}

async function feedsRead(guildId: string, ctx: CommandContext): Promise<FeedsRead> {
  const settings = await ctx.settings.get(guildId);
  return { settings, posts: await postsNamed(settings, ctx) };
}

function statusView(feeds: FeedsRead, now: number, backlog: TrackingBacklog | null, more: ({ name: string; value: string } | null)[] = []): View {
  const tracking = trackingField(backlog);
  return privately({
    title: tr('config:status.title'),
    fields: [...feedFields(feeds.settings, now, feeds.posts), ...(tracking ? [tracking] : []), ...more.filter((f) => f !== null)],
  });
}

/** Longest wait for the posts' titles in /config status, ms: past it the posts are named by id. */
const POST_TITLES_DEADLINE_MS = 500;

/** The stored posts /config status names (each feed's last post and last correction), by feed. */
type PostsNamed = Partial<Record<FeedType, Map<string, StoredPost>>>;

/** The posts {@link feedFields} names, one indexed read per feed set; none without the store, or when it fails or is slow. */
async function postsNamed(s: GuildSettings, ctx: CommandContext): Promise<PostsNamed> {
  const store = ctx.feedPosts;
  if (!store) return {};
  const read = Promise.all(
    FEED_TYPES.map(async (type) => {
      const f = s.feeds[type];
      const ids = [f?.lastDelivered?.postId, f?.lastEdit?.postId].filter((id): id is string => id !== undefined);
      return [type, await store.posts(type, ids)] as const;
    }),
  ).then((entries): PostsNamed => Object.fromEntries(entries));
  return settleWithin(read, POST_TITLES_DEADLINE_MS, (): PostsNamed => ({})).catch((err: unknown) => {
    ctx.logger.warn({ err }, 'could not read the posts /config status names');
    return {};
  });
}

/**
 * A delivered post as /config status names it: its title (a game version's as its posts write it), a digest by what it
 * gathers, else (never read, or read before titles were kept) by its id.
 */
function postName(type: FeedType, postId: string, posts: PostsNamed): string {
  if (postId.startsWith(DIGEST_PREFIX)) {
    const every = postId.startsWith(`${DIGEST_PREFIX}week-`) ? 'weekly' : 'daily';
    return tr('config:status.postTitle', { title: tr(`feeds:digest.title.${type}.${every}`) });
  }
  const post = posts[type]?.get(postId);
  const title = post ? feedPostText(type, post).title : type === 'gameVersions' ? tr('feeds:gameVersion.title', { version: postId }) : null;
  return title ? tr('config:status.postTitle', { title: escapeText(title, POST_TITLE_CHARS) }) : tr('config:status.postId', { postId: escapeText(postId, 40) });
}

/** Characters of a post's title in /config status: four feeds' fields share the embed. */
const POST_TITLE_CHARS = 100;

function feedFields(s: GuildSettings, now: number, posts: PostsNamed): { name: string; value: string }[] {
  return FEED_TYPES.map((type) => {
    const f = s.feeds[type];
    if (!f) return { name: feedName(type), value: tr('config:off') };
    const last = f.lastDelivered
      ? tr('config:status.lastPost', { when: discordTime(f.lastDelivered.at / 1000), post: postName(type, f.lastDelivered.postId, posts) })
      : tr('config:status.noPostYet');
    const problem = f.broken
      ? `\n⚠️ ${t.deliveryProblem(deliveryProblem(f.broken.reason, f.broken.code))}. ${t.feedFix(f.channelId)}`
      : `\n${tr('config:status.noProblem')}`;
    const held = f.quiet && quietNow(f.quiet, f.timeZone ?? 'UTC', now).quiet ? `\n${t.quietNow(formatClock(f.quiet.end), f.timeZone ?? 'UTC')}` : '';
    const edit = f.lastEdit
      ? `\n${f.lastEdit.error ? t.feedEditFailed(postName(type, f.lastEdit.postId, posts), discordTime(f.lastEdit.at / 1000), t.deliveryProblem(deliveryProblem(f.lastEdit.error))) : t.feedEdited(postName(type, f.lastEdit.postId, posts), discordTime(f.lastEdit.at / 1000))}`
      : '';
    return { name: feedName(type), value: `<#${f.channelId}> · ${last}${problem}${held}${edit}` };
  });
}

/**
 * `/config feed`: sets a feed's channel, or only the options given, and lists what changed. A backfill starts a poll at once
 * (`ctx.feedTester.pollNow`) rather than waiting for the next one.
 */
async function setFeed(guildId: string, input: Parameters<CommandModule['execute']>[0], ctx: CommandContext): Promise<View> {
  const type = input.options.type as FeedType;
  const channelId = String(input.options.channel ?? '');
  const check = await ctx.channels.check(guildId, channelId);
  if (!check.exists) return privately({ description: t.channelGone(channelId) });
  if (check.missing.length > 0) return privately({ description: t.channelMissing(channelId, check.missing) });
  const o = input.options;
  if (o.publish === true && !check.announcement) return privately({ description: t.publishNeedsAnnouncement(channelId) });
  const heroes = await heroFilterOf(type, o.heroes, ctx);
  const req: FeedRequest = {
    channelId,
    ...(o.role !== undefined && { roleId: String(o.role) }),
    ...(typeof o.publish === 'boolean' && { publish: o.publish }),
    ...(o.backfill !== undefined && { backfill: Math.min(MAX_BACKFILL, Math.max(0, Math.trunc(Number(o.backfill)) || 0)) }),
    ...(heroes !== undefined && { heroes }),
    ...scheduleOf(o.quiet, o.timezone, o.digest, o.at),
    ...(typeof o.thread === 'boolean' && { threads: o.thread }),
  };
  // Refused on what the cache holds, before any write; the change below is worked out again on what it reads.
  const first = nextSubscription(type, (await ctx.settings.get(guildId)).feeds[type], req, check, ctx.now());
  if ('refusal' in first) return privately({ description: first.refusal });
  // Set by the last run of the change (it runs again when another writer got there first).
  const applied: { prev?: FeedSubscription; next?: FeedSubscription; refusal?: string } = {};
  const settings = await ctx.settings.update(guildId, (s) => {
    const prev = s.feeds[type];
    const next = nextSubscription(type, prev, req, check, ctx.now());
    if ('refusal' in next) return void Object.assign(applied, { prev, next: undefined, refusal: next.refusal });
    Object.assign(applied, { prev, next: next.sub, refusal: undefined });
    s.feeds[type] = next.sub;
  });
  // Changed meanwhile by another admin so that this run no longer fits (a rare race): nothing was changed.
  if (applied.refusal !== undefined || !applied.next) return privately({ description: applied.refusal ?? '' });
  const { prev, next } = applied;
  if (next.backfill > 0) ctx.feedTester?.pollNow?.();
  const view = await showView(guildId, settings, ctx, input.user);
  if (!prev) return { ...view, content: t.feedSet(feedName(type), channelId, next.backfill) };
  const names = next.heroes?.length ? await ctx.heroes.displayNames() : new Map<string, string>();
  const changes = changesOf(prev, next, names);
  const feed = feedName(type);
  return {
    ...view,
    content:
      changes.length > 0
        ? tr('config:feedChanges.changed', { feed, changes: changes.map((c) => `• ${c}`).join('\n') })
        : tr('config:feedChanges.unchanged', { feed }),
  };
}

/**
 * `/config ladder`: on or off, and where its moments are posted: `channel` (checked as a feed channel), `rank-changes` and
 * `peaks` each on or off (kept when not given), `posts-off` to stop posting them.
 */
async function configureLadder(guildId: string, o: CommandInput['options'], ctx: CommandContext): Promise<View> {
  if (!ctx.ladder) throw new UserFacingError(tr('ladder:unavailable'));
  const on = o.enabled === true;
  let momentsChannelId: string | null | undefined;
  if (o['posts-off'] === true) momentsChannelId = null;
  else if (o.channel !== undefined) {
    const channelId = String(o.channel);
    const check = await ctx.channels.check(guildId, channelId);
    if (!check.exists) return privately({ description: t.channelGone(channelId) });
    if (check.missing.length > 0) return privately({ description: t.channelMissing(channelId, check.missing) });
    momentsChannelId = channelId;
  }
  const schedule = scheduleOf(o.quiet, o.timezone, undefined, o.at);
  const before = await ctx.ladder.settings(guildId);
  const asked: Partial<Record<MomentKind, unknown>> = {
    rank: o['rank-changes'],
    peak: o.peaks,
    top3: o['top-3'],
    'season-end': o['season-end'],
    recap: o.recap === undefined ? undefined : o.recap !== 'off',
  };
  const kinds = MOMENT_KINDS.filter((k) => (typeof asked[k] === 'boolean' ? asked[k] : before.kinds.includes(k)));
  const recapDay = o.recap === undefined ? undefined : o.recap === 'off' ? null : Number(o.recap);
  const after = await ctx.ladder.configure(
    guildId,
    {
      enabled: on,
      kinds,
      ...(momentsChannelId !== undefined ? { momentsChannelId } : {}),
      ...(recapDay !== undefined ? { recapDay } : {}),
      ...(schedule.at !== undefined ? { recapAt: schedule.at } : {}),
      ...(schedule.timeZone !== undefined ? { timeZone: schedule.timeZone } : {}),
      ...(schedule.quiet !== undefined ? { quiet: schedule.quiet } : {}),
    },
    ctx.now(),
  );
  return privately({ description: `${tr(on ? 'ladder:configOn' : 'ladder:configOff')}\n${ladderPosts(after)}` });
}

/** A weekday's name in the answer's language (0 Sunday … 6 Saturday). */
const weekday = (day: number) => new Intl.DateTimeFormat(currentLocale(), { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2023, 0, 1 + day));

/** Where and what the ladder posts, its weekly recap and quiet hours, and the last problem posting them. */
function ladderPosts(s: LadderSettings): string {
  const kinds = s.kinds.filter((k) => k !== 'recap');
  const lines = [
    s.momentsChannelId && kinds.length > 0
      ? tr('ladder:postsIn', { channel: `<#${s.momentsChannelId}>`, kinds: listOf(kinds.map((k) => tr(`ladder:kinds.${k}`))) })
      : tr('ladder:postsOff'),
  ];
  if (s.momentsChannelId)
    lines.push(
      s.recapDay === null ? tr('ladder:recapOff') : tr('ladder:recapAt', { day: weekday(s.recapDay), time: formatClock(s.recapAt), zone: s.timeZone }),
    );
  if (s.quiet && s.momentsChannelId) lines.push(tr('ladder:quietAt', { from: formatClock(s.quiet.start), to: formatClock(s.quiet.end), zone: s.timeZone }));
  if (s.problem)
    lines.push(
      s.problem.code === UNKNOWN_CHANNEL_CODE
        ? `⚠️ ${tr('ladder:channelDeleted', { channel: `<#${s.problem.channelId}>` })}`
        : `⚠️ ${t.deliveryProblem(deliveryProblem(s.problem.reason, s.problem.code))}. ${t.feedFix(s.problem.channelId)}`,
    );
  return lines.join('\n');
}

/** The ladder's field of /config status, or null when the server has no ladder. */
async function ladderField(guildId: string, ctx: CommandContext): Promise<{ name: string; value: string } | null> {
  if (!ctx.ladder) return null;
  const s = await ctx.ladder.settings(guildId);
  return s.enabled ? { name: tr('ladder:title'), value: ladderPosts(s) } : null;
}

/**
 * `/config rank-roles [tier] [division] [role] [enabled]`: maps a tier or one division to a role (no role: unmaps it),
 * checked against the bot's Manage Roles and highest role first; turns the sync on or off; always shows the mapping
 * and what a sync would change now (a dry run while it is off).
 */
async function configureRankRoles(guildId: string, o: CommandInput['options'], ctx: CommandContext, user: Invoker): Promise<View> {
  if (!ctx.rankRoles || !ctx.ladder) throw new UserFacingError(tr('ladder:unavailable'));
  const { store, discord } = ctx.rankRoles;
  // Unread (Discord failing): the answer says the roles were not checked, and the sync checks them again before any change.
  const guild = discord
    ? await discord.guildRoles(guildId).catch((err: unknown) => {
        ctx.logger.warn({ err, guildId }, 'could not read the server roles for /config rank-roles');
        return null;
      })
    : null;
  const set: Record<string, string | null> = {};
  if (o.tier !== undefined) {
    const tier = TIER_NAMES.find((t) => t === o.tier);
    if (!tier) throw new UserFacingError(tr('ladder:roles.unknownTier', { tier: escapeText(String(o.tier), 40) }));
    const division = DIVISIONS.find((d) => d === o.division) ?? null;
    const key = rankRoleKey(tier, division);
    if (o.role !== undefined) {
      const roleId = String(o.role);
      // Choosing the roles the bot hands out is giving roles: Discord asks Manage Roles of whoever gives one.
      const bits = BigInt(user.permissions ?? '0');
      if ((bits & (PermissionFlagsBits.ManageRoles | PermissionFlagsBits.Administrator)) === 0n)
        return privately({ description: tr('ladder:roles.refuse.yourPermission', { role: `<@&${roleId}>` }) });
      const why = guild ? cannotGive(roleId, guild) : null;
      if (why) return privately({ description: tr(`ladder:roles.refuse.${why}`, { role: `<@&${roleId}>`, tier: tierName(key) }) });
      set[key] = roleId;
    } else set[key] = null;
  } else if (o.role !== undefined || o.division !== undefined) {
    return privately({ description: tr('ladder:roles.needTier') });
  }
  const change = { ...(typeof o.enabled === 'boolean' ? { enabled: o.enabled } : {}), ...(Object.keys(set).length > 0 ? { set } : {}) };
  const settings = Object.keys(change).length > 0 ? await store.configure(guildId, change, ctx.now()) : await store.settings(guildId);
  // While off, the dry run shows what turning them on would change.
  const plan = await store.plan(guildId, ctx.now(), { enabled: true });
  return privately(rankRolesEmbed({ settings, guild, offline: !discord, changes: plan.changes, held: plan.held, ladderOn: await ctx.ladder.enabled(guildId) }));
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
      return answered(t.resetDone());
    },
    'cfg.keep': async (input) => {
      guildOf(input.user);
      return answered(t.resetCancelled());
    },
  },
};
