/** `/config feed`: a feed's channel and its options (role ping, publishing, hero filter, quiet hours, digests, threads, backfill). */
import type { ChannelCheck, CommandModule } from '../../src/discord/command.js';
import { UserFacingError } from '../../src/core/errors.js';
import { digestPeriod } from '../../src/feeds/digest.js';
import { feedName } from '../../src/feeds/render.js';
import { formatClock } from '../../src/feeds/schedule.js';
import { tr, typedWord } from '../../src/i18n/index.js';
import { integer } from '../../src/i18n/format.js';
import type { View } from '../../src/render/view.js';
import { MAX_FILTER_HEROES, type FeedSubscription, type FeedType } from '../../src/store/guild-settings.js';
import { t } from '../../src/render/strings.js';

import { DEFAULT_DIGEST_AT, MAX_BACKFILL } from './definition.js';
import { privately, type Ctx } from './common.js';
import { showView } from './show.js';
import { scheduleOf, type FeedRequest } from './schedule.js';

/**
 * The `heroes` option as ids, in order, without repeats: undefined when empty (filter kept), null for `off` (filter cleared).
 * @throws {UserFacingError} when the feed is not balance posts or there are too many; {@link UnknownHeroError} for a name that is no hero.
 */
export async function heroFilterOf(type: FeedType, text: unknown, ctx: Ctx): Promise<string[] | null | undefined> {
  if (typeof text === 'string' && typedWord(text, ['off', 'none', 'no'], 'config:quietOff')) return null;
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

/**
 * `prev` (undefined for a feed not set yet) with the options of `req` replacing what they name; `broken` is cleared, as the
 * channel passed the check. `refusal` says why nothing can change, in the current locale.
 */
export function nextSubscription(
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
export function changesOf(prev: FeedSubscription, next: FeedSubscription, names: Map<string, string>): string[] {
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

/**
 * `/config feed`: sets a feed's channel, or only the options given, and lists what changed. A backfill starts a poll at once
 * (`ctx.feedTester.pollNow`) rather than waiting for the next one.
 */
export async function setFeed(guildId: string, input: Parameters<CommandModule['execute']>[0], ctx: Ctx): Promise<View> {
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
