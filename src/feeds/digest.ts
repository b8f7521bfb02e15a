/**
 * Digests: one message a day or a week at the channel's local time, listing the period's posts with a menu to read any. A period is named by
 * its due moment's local date, so "due since the last digest" is "the name changed"; each is a ledger delivery (`digest:<period>`).
 */
import { ComponentType } from 'discord-api-types/v10';
import { encodeCustomId } from '../render/custom-id.js';
import { tr } from '../i18n/index.js';
import { calendarDate } from '../render/common.js';
import { integer } from '../i18n/format.js';
import { escapeText, LIMITS, truncate } from '../render/limits.js';
import type { View } from '../render/view.js';
import type { FeedType } from '../store/guild-settings.js';
import { FEED_TO_POST_TYPE, feedPostText, type FeedPost } from './render.js';
import { formatClock, localTime, minusDays } from './schedule.js';

/** How often a digest is sent. */
export const DIGEST_EVERY = ['daily', 'weekly'] as const;
export type DigestEvery = (typeof DIGEST_EVERY)[number];

/** A channel's digest: how often, and at what local time (minutes since midnight; weekly digests go on Mondays). */
export interface DigestSchedule {
  every: DigestEvery;
  at: number;
}

/** Posts listed in one digest message at most (Discord: 25 embed fields, 25 select options); the rest are counted. */
export const DIGEST_MAX_POSTS = 25;
/** Characters of each post's overview in a digest, at most (fewer when many posts share the embed's 6,000). */
const OVERVIEW_CHARS = 300;
/** Characters of each post's title in a digest field name. */
const TITLE_CHARS = 100;
/** What the fields of a digest embed may take together: Discord's 6,000 per embed, less the rest of the embed. */
const FIELDS_BUDGET = 5_400;

/** The period `instant` (ms) falls in: the local date of the latest due moment not after it, `YYYY-MM-DD`, or `week-YYYY-MM-DD` (a Monday). */
export function digestPeriod(schedule: DigestSchedule, timeZone: string, instant: number): string {
  const local = localTime(instant, timeZone);
  if (schedule.every === 'daily') return local.minutes >= schedule.at ? local.date : minusDays(local.date, 1);
  const sinceMonday = (local.weekday + 6) % 7;
  const monday = minusDays(local.date, sinceMonday);
  return `week-${sinceMonday === 0 && local.minutes < schedule.at ? minusDays(monday, 7) : monday}`;
}

/** What every digest's post id starts with. */
export const DIGEST_PREFIX = 'digest:';

/** The ledger's post id of a digest: one delivery per channel and period. */
export const digestPostId = (period: string) => `${DIGEST_PREFIX}${period}`;

const COLOUR = 0x5865f2;

/** The digest of `posts` (oldest first): a field per post, a menu to read one privately, and the role ping; its own texts in the current locale. */
export function digestView(type: FeedType, schedule: DigestSchedule, timeZone: string, posts: readonly FeedPost[], roleId: string | null): View {
  const shown = posts.slice(-DIGEST_MAX_POSTS);
  const hidden = posts.length - shown.length;
  const count = tr('feeds:digest.count', { count: posts.length, n: integer(posts.length) });
  const when = tr(`feeds:digest.${schedule.every}`, { time: formatClock(schedule.at), zone: timeZone });
  // Every post keeps its field: the overviews share what the titles leave of the embed's budget.
  const overviewChars = Math.max(40, Math.min(OVERVIEW_CHARS, Math.floor(FIELDS_BUDGET / Math.max(1, shown.length)) - TITLE_CHARS - 16));
  return {
    content: roleId ? `<@&${roleId}>` : undefined,
    allowedRoleIds: roleId ? [roleId] : undefined,
    embeds: [
      {
        color: COLOUR,
        author: { name: tr(`feeds:digest.title.${type}.${schedule.every}`) },
        title: count,
        description: hidden > 0 ? tr('feeds:digest.older', { count: hidden, n: integer(hidden), shown: integer(shown.length) }) : undefined,
        fields: shown.map((p) => {
          const text = feedPostText(type, p);
          return {
            name: truncate(text.title, TITLE_CHARS),
            value: truncate(
              [p.date ? `*${escapeText(calendarDate(p.date))}*` : '', escapeText(text.overview ?? '', overviewChars)].filter(Boolean).join(' · ') || '—',
              LIMITS.fieldValue,
            ),
          };
        }),
        footer: { text: tr('feeds:digest.footer', { when }) },
      },
    ],
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.StringSelect,
            custom_id: encodeCustomId('feed.read', FEED_TO_POST_TYPE[type]),
            placeholder: tr(type === 'gameVersions' ? 'feeds:digest.readVersion' : 'feeds:digest.readOne'),
            options: shown.map((p) => ({
              label: truncate(feedPostText(type, p).title, LIMITS.optionLabel),
              value: p.id,
              ...(p.date ? { description: truncate(calendarDate(p.date), LIMITS.optionDescription) } : {}),
            })),
          },
        ],
      },
    ],
  };
}
