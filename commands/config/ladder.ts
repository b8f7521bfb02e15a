/** `/config ladder`: the server's ladder, its moments channel and kinds, quiet hours and weekly recap. */
import type { CommandInput } from '../../src/discord/command.js';
import { MOMENT_KINDS, type MomentKind } from '../../src/game/ladder.js';
import { listOf } from '../../src/render/common.js';
import { UserFacingError } from '../../src/core/errors.js';
import { deliveryProblem } from '../../src/core/discord-errors.js';
import { formatClock } from '../../src/feeds/schedule.js';
import { currentLocale, tr } from '../../src/i18n/index.js';
import type { View } from '../../src/render/view.js';
import type { LadderSettings } from '../../src/store/ladder/index.js';
import { t } from '../../src/render/strings.js';

import { privately, UNKNOWN_CHANNEL_CODE, type Ctx } from './common.js';
import { scheduleOf } from './schedule.js';

/**
 * `/config ladder`: on or off, and where its moments are posted: `channel` (checked as a feed channel), `rank-changes` and
 * `peaks` each on or off (kept when not given), `posts-off` to stop posting them.
 */
export async function configureLadder(guildId: string, o: CommandInput['options'], ctx: Ctx): Promise<View> {
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
export const weekday = (day: number) => new Intl.DateTimeFormat(currentLocale(), { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2023, 0, 1 + day));

/** Where and what the ladder posts, its weekly recap and quiet hours, and the last problem posting them. */
export function ladderPosts(s: LadderSettings): string {
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
export async function ladderField(guildId: string, ctx: Ctx): Promise<{ name: string; value: string } | null> {
  if (!ctx.ladder) return null;
  const s = await ctx.ladder.settings(guildId);
  return s.enabled ? { name: tr('ladder:title'), value: ladderPosts(s) } : null;
}
