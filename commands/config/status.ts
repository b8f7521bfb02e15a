/** `/config status`: each feed's last post and problem, the tracker's backlog, the ladder's posts and the rank-role sync. */
import { rankRolesStatus } from '../../src/render/rank-roles.js';
import { DIGEST_PREFIX } from '../../src/feeds/digest.js';
import { deliveryProblem } from '../../src/core/discord-errors.js';
import { feedName, feedPostText } from '../../src/feeds/render.js';
import { formatClock, quietNow } from '../../src/feeds/schedule.js';
import { tr } from '../../src/i18n/index.js';
import { discordTime, duration, integer } from '../../src/i18n/format.js';
import { escapeText } from '../../src/render/limits.js';
import type { View } from '../../src/render/view.js';
import { FEED_TYPES, type FeedType, type GuildSettings } from '../../src/store/guild-settings.js';
import type { TrackingBacklog } from '../../src/store/tracking.js';
import type { StoredPost } from '../../src/store/feed-state.js';
import { settleWithin } from '../../src/core/deadline.js';
import { t } from '../../src/render/strings.js';

import { privately, type Ctx } from './common.js';

/** The backlog, or null without tracking; a store that cannot say leaves the field out rather than fail the feeds' status. */
export async function trackingBacklog(ctx: Ctx): Promise<TrackingBacklog | null> {
  if (!ctx.tracking) return null;
  try {
    return await ctx.tracking.backlog(ctx.now());
  } catch (err) {
    ctx.logger.warn({ err }, 'could not read the tracking backlog for /config status');
    return null;
  }
}

/** The tracking schedule's state for /config status, or null when the bot tracks nothing (no store behind it). */
export function trackingField(backlog: TrackingBacklog | null): { name: string; value: string } | null {
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
export async function rankRolesField(guildId: string, ctx: Ctx): Promise<{ name: string; value: string } | null> {
  if (!ctx.rankRoles) return null;
  const [settings, failures] = await Promise.all([ctx.rankRoles.store.settings(guildId), ctx.rankRoles.store.failures(guildId)]);
  if (!settings.enabled && failures.total === 0 && Object.keys(settings.roles).length === 0) return null;
  return rankRolesStatus(settings, failures);
}

/** What /config status reads of the feeds: the server's settings and the posts they name. */
export interface FeedsRead {
  settings: GuildSettings;
  posts: PostsNamed;
}

export async function feedsRead(guildId: string, ctx: Ctx): Promise<FeedsRead> {
  const settings = await ctx.settings.get(guildId);
  return { settings, posts: await postsNamed(settings, ctx) };
}

export function statusView(feeds: FeedsRead, now: number, backlog: TrackingBacklog | null, more: ({ name: string; value: string } | null)[] = []): View {
  const tracking = trackingField(backlog);
  return privately({
    title: tr('config:status.title'),
    fields: [...feedFields(feeds.settings, now, feeds.posts), ...(tracking ? [tracking] : []), ...more.filter((f) => f !== null)],
  });
}

/** Longest wait for the posts' titles in /config status, ms: past it the posts are named by id. */
export const POST_TITLES_DEADLINE_MS = 500;

/** The stored posts /config status names (each feed's last post and last correction), by feed. */
export type PostsNamed = Partial<Record<FeedType, Map<string, StoredPost>>>;

/** The posts {@link feedFields} names, one indexed read per feed set; none without the store, or when it fails or is slow. */
export async function postsNamed(s: GuildSettings, ctx: Ctx): Promise<PostsNamed> {
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
export function postName(type: FeedType, postId: string, posts: PostsNamed): string {
  if (postId.startsWith(DIGEST_PREFIX)) {
    const every = postId.startsWith(`${DIGEST_PREFIX}week-`) ? 'weekly' : 'daily';
    return tr('config:status.postTitle', { title: tr(`feeds:digest.title.${type}.${every}`) });
  }
  const post = posts[type]?.get(postId);
  const title = post ? feedPostText(type, post).title : type === 'gameVersions' ? tr('feeds:gameVersion.title', { version: postId }) : null;
  return title ? tr('config:status.postTitle', { title: escapeText(title, POST_TITLE_CHARS) }) : tr('config:status.postId', { postId: escapeText(postId, 40) });
}

/** Characters of a post's title in /config status: four feeds' fields share the embed. */
export const POST_TITLE_CHARS = 100;

export function feedFields(s: GuildSettings, now: number, posts: PostsNamed): { name: string; value: string }[] {
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
