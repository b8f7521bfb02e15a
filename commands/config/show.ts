/** `/config show`: the server's settings, each feed on a line, the ladder and the rank roles. */
import { type APIEmbedField } from 'discord-api-types/v10';
import { PLATFORM_NAMES } from '../../src/api/endpoints.js';
import type { Invoker } from '../../src/discord/command.js';
import { RANK_ROLE_KEYS } from '../../src/game/rank-roles.js';
import { feedName } from '../../src/feeds/render.js';
import { formatClock } from '../../src/feeds/schedule.js';
import { tr } from '../../src/i18n/index.js';
import { tierName } from '../../src/i18n/names.js';
import { LIMITS } from '../../src/render/limits.js';
import type { View } from '../../src/render/view.js';
import { FEED_TYPES, type FeedType, type GuildSettings } from '../../src/store/guild-settings.js';
import { settleWithin } from '../../src/core/deadline.js';
import { t } from '../../src/render/strings.js';

import { privately, languageLine, type Ctx } from './common.js';
import { ladderPosts } from './ladder.js';

/** One feed's settings on one line, in the current locale: "<#channel> · pings @role · published · …", or "Off". */
export function feedLine(s: GuildSettings, type: FeedType, names: Map<string, string>): string {
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

/** Longest wait for each of /config show's own reads of the store, ms: past it, its field says so. */
export const SHOW_READ_MS = 1_000;

/** `read`'s value, or null when it fails or outlasts {@link SHOW_READ_MS} (logged). */
export function showRead<T>(read: Promise<T>, ctx: Ctx): Promise<T | null> {
  return settleWithin(read, SHOW_READ_MS, () => null).catch((err: unknown) => {
    ctx.logger.warn({ err }, 'could not read a setting for /config show');
    return null;
  });
}

/** The ladder's field of /config show: off, or on with where and what it posts ({@link ladderPosts}); null without a ladder store. */
export async function ladderShowField(guildId: string, ctx: Ctx): Promise<APIEmbedField | null> {
  if (!ctx.ladder) return null;
  const s = await showRead(ctx.ladder.settings(guildId), ctx);
  if (s === null) return { name: tr('ladder:title'), value: tr('config:show.notRead'), inline: false };
  return { name: tr('ladder:title'), value: s.enabled ? `${tr('config:on')}\n${ladderPosts(s)}` : tr('config:off'), inline: false };
}

/**
 * The rank roles' fields of /config show: on or off, then every tier mapped to its role, lowest first. A full mapping (every
 * tier and division) passes a field's 1,024 characters, so the mapping goes on in further fields rather than being cut.
 */
export async function rankRolesShowFields(guildId: string, ctx: Ctx): Promise<APIEmbedField[]> {
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
export async function showView(guildId: string, s: GuildSettings, ctx: Ctx, user: Invoker): Promise<View> {
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
