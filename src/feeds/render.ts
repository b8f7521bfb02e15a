/** A feed post's message: an embed in the feed's colour and a read button, in the current locale (the poller renders one per server locale). */
import { ButtonStyle, ComponentType } from 'discord-api-types/v10';
import { encodeCustomId } from '../render/custom-id.js';
import { tr } from '../i18n/index.js';
import { calendarDate, calendarDay } from '../render/common.js';
import { integer } from '../i18n/format.js';
import { escapeText, LIMITS, truncate } from '../render/limits.js';
import type { View } from '../render/view.js';
import type { StoredPost } from '../store/feed-state.js';
import type { FeedType } from '../store/guild-settings.js';

/** The post fields a feed message needs: the shape the feed state keeps while a fan-out is pending (src/store/feed-state.ts `storedPostSchema`). */
export type FeedPost = StoredPost;

const COLOURS: Record<FeedType, number> = { patchNotes: 0xf59e0b, balances: 0x8b5cf6, devDiaries: 0x06b6d4, gameVersions: 0x64748b };
/** The /patch-notes type of each feed, for the read button. */
export const FEED_TO_POST_TYPE: Record<FeedType, string> = {
  patchNotes: 'patch-notes',
  balances: 'balances',
  devDiaries: 'dev-diaries',
  gameVersions: 'game-versions',
};

/** A feed's name in the current locale, as /config shows it and sentences take it (key `feeds:name.<type>`). */
export function feedName(type: FeedType): string {
  return tr(`feeds:name.${type}`);
}

/** The footer of a message edited because its post was corrected at the source (src/feeds/corrections.ts), in the current locale. */
export function correctedFooter(): string {
  return tr('feeds:post.corrected');
}

/**
 * The title and text a message shows: the API's, but a game version has none, so its stored English text (what its content hash is made
 * of, src/feeds/read.ts) is shown in the current locale instead, from the version (the post id) and its release date.
 */
export function feedPostText(type: FeedType, post: FeedPost): { title: string; overview: string | null } {
  if (type !== 'gameVersions') return { title: post.title, overview: post.overview };
  return {
    title: tr('feeds:gameVersion.title', { version: post.id }),
    overview: post.date ? tr('feeds:gameVersion.released', { date: calendarDate(post.date, 'long') }) : null,
  };
}

/** The feed message of `post`, pinging only `roleId`; `corrected` adds the correction footer, `test` marks a `/config test-post` in its title. */
export function feedPostView(type: FeedType, post: FeedPost, roleId: string | null, corrected = false, test = false): View {
  const text = feedPostText(type, post);
  // The post's day at midnight UTC; the API gives patch notes "2025-11-13" and game versions "November 13, 2025".
  const day = post.date ? calendarDay(post.date) : null;
  const date = day === null ? undefined : new Date(day).toISOString();
  return {
    content: roleId ? `<@&${roleId}>` : undefined,
    allowedRoleIds: roleId ? [roleId] : undefined,
    embeds: [
      {
        color: COLOURS[type],
        author: { name: tr(`feeds:post.new.${type}`) },
        title: truncate(test ? tr('feeds:testPost.prefix', { title: text.title }) : text.title, LIMITS.title),
        description: escapeText(text.overview ?? '', LIMITS.description) || undefined,
        image: post.image ? { url: post.image } : undefined,
        timestamp: date,
        footer: corrected ? { text: correctedFooter() } : undefined,
      },
    ],
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.Button,
            style: ButtonStyle.Primary,
            label: tr(type === 'gameVersions' ? 'feeds:post.readPatchNotes' : 'feeds:post.readAll'),
            custom_id: encodeCustomId('feed.read', FEED_TO_POST_TYPE[type], post.id),
          },
        ],
      },
    ],
  };
}

/** Characters of the full text per thread message (an embed description holds 4,096). */
export const THREAD_PART_CHARS = 3_900;
/** Messages of full text a thread gets at most; a longer text ends with a pointer to the read button. */
export const MAX_THREAD_PARTS = 10;

/** The full text as thread embeds of at most {@link THREAD_PART_CHARS}, cut at paragraph, line, then word; numbered when several; [] without text. */
export function threadPartViews(type: FeedType, post: FeedPost): View[] {
  const text = (post.content ?? '').replace(/\r\n?/g, '\n').trim();
  if (text === '') return [];
  const parts: string[] = [];
  let rest = text;
  while (rest.length > 0 && parts.length < MAX_THREAD_PARTS) {
    if (rest.length <= THREAD_PART_CHARS) {
      parts.push(rest);
      rest = '';
      break;
    }
    const window = rest.slice(0, THREAD_PART_CHARS);
    const cut = Math.max(window.lastIndexOf('\n\n'), 0) || Math.max(window.lastIndexOf('\n'), 0) || Math.max(window.lastIndexOf(' '), 0) || THREAD_PART_CHARS;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  const cutShort = rest.length > 0;
  return parts.map((part, i) => ({
    embeds: [
      {
        color: COLOURS[type],
        description: escapeText(part, LIMITS.description),
        footer:
          parts.length > 1
            ? {
                text: tr(cutShort && i === parts.length - 1 ? 'feeds:thread.partCutShort' : 'feeds:thread.part', {
                  part: integer(i + 1),
                  total: integer(parts.length),
                }),
              }
            : undefined,
      },
    ],
  }));
}
