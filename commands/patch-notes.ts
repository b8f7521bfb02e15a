/**
 * `/patch-notes [type]`: the latest posts of a type; picking one shows its full text, paged.
 * Data: api-spec.md endpoints 12 (balances), 13 (patch notes), 14 and 15 (dev diaries), 16 (game versions).
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord-api-types/v10';
import type { Fetched } from '../src/api/client.js';
import type { Page, Post } from '../src/api/schemas.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { encodeCustomId, pageArg } from '../src/render/custom-id.js';
import { choiceName, describe } from '../src/i18n/commands.js';
import { calendarDate, calendarDay, staleFooter } from '../src/render/common.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { clampPage, pageCount, pageFromArgs, pageRow, splitPages } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';
import { ApiError } from '../src/core/api-errors.js';
import { tr } from '../src/i18n/index.js';

/** The part of a command's context /patch-notes uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api'>;

export const POST_TYPES = ['patch-notes', 'balances', 'dev-diaries', 'game-versions'] as const;
export type PostType = (typeof POST_TYPES)[number];

const COLOURS: Record<PostType, number> = { 'patch-notes': 0xf59e0b, balances: 0x8b5cf6, 'dev-diaries': 0x06b6d4, 'game-versions': 0x64748b };
const PER_PAGE = 10;
const READ_PAGE_CHARS = 3_500;
/** Posts shown per list page: a page of titles and overviews fits a phone's first screen. The API still pages by {@link PER_PAGE}. */
const POSTS_SHOWN = 5;
/** The API page holding shown page `shown` of a post list. */
const apiPageOf = (shown: number) => Math.floor(((shown - 1) * POSTS_SHOWN) / PER_PAGE) + 1;
/** List pages searched for a post picked from an old message. */
const SEARCH_PAGES = 5;

const definition = slashCommand('patch-notes')
  .addStringOption((o) =>
    o
      .setName('type')
      .setDescription(describe('patch-notes.options.type'))
      .addChoices(...POST_TYPES.map((t) => ({ name: choiceName('patch-notes.options.type', t), value: t }))),
  )
  .toJSON();

const typeOf = (v: unknown): PostType => ((POST_TYPES as readonly string[]).includes(String(v)) ? (v as PostType) : 'patch-notes');

const TYPE_KEYS = { 'patch-notes': 'patchNotes', balances: 'balances', 'dev-diaries': 'devDiaries', 'game-versions': 'gameVersions' } as const satisfies Record<
  PostType,
  string
>;
const label = (type: PostType) => tr(`patch-notes:types.${TYPE_KEYS[type]}`);

/** One page of a post list from the API (the API pages by 10). */
function fetchPosts(type: Exclude<PostType, 'game-versions'>, page: number, ctx: Ctx): Promise<Fetched<Page<Post>>> {
  if (type === 'balances') return ctx.api.balances({ page, limit: PER_PAGE });
  if (type === 'dev-diaries') return ctx.api.devDiaries({ page, limit: PER_PAGE });
  return ctx.api.patchNotes({ page, limit: PER_PAGE });
}

/** A list page past the end answers 404 in the spec: that is an empty page, not an error. */
async function orEmpty<T>(load: Promise<Fetched<Page<T>>>): Promise<Fetched<Page<T>> | null> {
  try {
    return await load;
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') return null;
    throw err;
  }
}

function openMenu(
  type: PostType,
  listPage: number,
  options: { label: string; value: string; description?: string }[],
): APIActionRowComponent<APIComponentInMessageActionRow> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: encodeCustomId('pn.o', type, listPage),
        placeholder: tr(type === 'game-versions' ? 'patch-notes:readVersion' : 'patch-notes:readOne'),
        options,
      },
    ],
  };
}

/**
 * A game version's `release` (api-spec.md "Game version": an English date such as "April 10, 2025", or ISO) written long in the
 * current locale ("10 avril 2025"); null for text in any other shape, which the caller shows as given.
 */
export function releaseDate(release: string): string | null {
  return calendarDay(release) === null ? null : calendarDate(release, 'long');
}

/** The list of a post type at a page. */
export async function postListView(type: PostType, page: number, ctx: Ctx): Promise<View> {
  const p = Math.max(1, page);
  if (type === 'game-versions') {
    const fetched = await orEmpty(ctx.api.gameVersions({ page: p, limit: PER_PAGE }));
    const versions = fetched?.data.entries ?? [];
    const pages = pageCount(fetched?.data.total ?? 0, PER_PAGE);
    const embed: APIEmbed = {
      color: COLOURS[type],
      title: label(type),
      description:
        versions
          .map(
            (v) =>
              `**${escapeText(v.version, 20)}** · ${v.release ? tr('patch-notes:released', { date: releaseDate(v.release) ?? escapeText(v.release, 60) }) : tr('patch-notes:releasedUnknown')}`,
          )
          .join('\n') || tr('patch-notes:noVersions'),
      footer: staleFooter(fetched ?? undefined),
    };
    const nav = pageRow('pn.l', [type], clampPage(p, pages), pages);
    const menu =
      versions.length > 0
        ? [
            openMenu(
              type,
              p,
              versions.map((v) => ({
                label: tr('patch-notes:versionLabel', { version: v.version }),
                value: v.version,
                description: v.release ? truncate(releaseDate(v.release) ?? v.release, LIMITS.optionDescription) : undefined,
              })),
            ),
          ]
        : [];
    return { embeds: [embed], components: [...menu, ...(nav ? [nav] : [])] };
  }
  const fetched = await orEmpty(fetchPosts(type, apiPageOf(p), ctx));
  const offset = ((p - 1) * POSTS_SHOWN) % PER_PAGE;
  const posts = (fetched?.data.entries ?? []).slice(offset, offset + POSTS_SHOWN);
  const pages = pageCount(fetched?.data.total ?? 0, POSTS_SHOWN);
  const embed: APIEmbed = {
    color: COLOURS[type],
    title: label(type),
    fields: posts.map((post) => ({
      name: truncate(`${post.title ?? post.id}${post.date ? ` · ${calendarDate(post.date)}` : ''}`, LIMITS.fieldName),
      value: escapeText(post.overview ?? '—', 300),
    })),
    description: posts.length === 0 ? tr('patch-notes:nothingPosted') : undefined,
    footer: staleFooter(fetched ?? undefined),
  };
  const nav = pageRow('pn.l', [type], clampPage(p, pages), pages);
  const menu =
    posts.length > 0
      ? [
          openMenu(
            type,
            p,
            posts.map((post) => ({
              label: truncate(post.title ?? post.id, LIMITS.optionLabel),
              value: post.id.slice(0, LIMITS.optionValue),
              description: post.date ? truncate(calendarDate(post.date), LIMITS.optionDescription) : undefined,
            })),
          ),
        ]
      : [];
  return { embeds: [embed], components: [...menu, ...(nav ? [nav] : [])] };
}

/** Dev diaries by id (endpoint 15); others on the list page they were picked from, then the first pages. */
async function findPost(type: Exclude<PostType, 'game-versions'>, id: string, listPage: number, ctx: Ctx): Promise<Fetched<Post> | null> {
  if (type === 'dev-diaries') {
    try {
      return await ctx.api.devDiary(id);
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not_found') return null;
      throw err;
    }
  }
  const tried = new Set<number>();
  for (const page of [apiPageOf(listPage), ...Array.from({ length: SEARCH_PAGES }, (_, i) => i + 1)]) {
    if (tried.has(page) || page < 1) continue;
    tried.add(page);
    const fetched = await orEmpty(fetchPosts(type, page, ctx));
    const post = fetched?.data.entries.find((p) => p.id === id);
    if (post) return { ...fetched!, data: post };
    if (!fetched || fetched.data.entries.length < PER_PAGE) break;
  }
  return null;
}

export async function postView(type: PostType, id: string, listPage: number, page: number, ctx: Ctx): Promise<View> {
  // A game version is read as its patch note (its patchNotesUrl names the patch note of the same id).
  const postType = type === 'game-versions' ? 'patch-notes' : type;
  const found = await findPost(postType, id, type === 'game-versions' ? 1 : listPage, ctx);
  const back: APIActionRowComponent<APIComponentInMessageActionRow> = {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        label: tr(`patch-notes:back.${TYPE_KEYS[type]}`),
        custom_id: encodeCustomId('pn.l', type, listPage, 'b'),
      },
    ],
  };
  if (!found) {
    return { embeds: [{ color: COLOURS[type], title: label(type), description: tr('patch-notes:gone', { id: escapeText(id, 60) }) }], components: [back] };
  }
  const post = found.data;
  const parts = splitPages(post.full_content ?? post.overview ?? '', READ_PAGE_CHARS);
  const p = clampPage(page, parts.length);
  const embed: APIEmbed = {
    color: COLOURS[postType],
    author: { name: label(postType) },
    title: truncate(post.title ?? post.id, LIMITS.title),
    description: escapeText(parts[p - 1] ?? '', LIMITS.description) || '—',
    image: p === 1 && post.image ? { url: post.image } : undefined,
    footer: staleFooter(found) ?? (post.date ? { text: tr('patch-notes:published', { date: calendarDate(post.date) }) } : undefined),
  };
  const nav = pageRow('pn.r', [type, listPage, id], p, parts.length);
  return { embeds: [embed], components: [...(nav ? [nav] : []), back] };
}

export const patchNotes: CommandModule = {
  definition,
  async execute(input, ctx: Ctx) {
    return postListView(typeOf(input.options.type), 1, ctx);
  },
  components: {
    /** List paginator and back button: `pn.l:<type>:<page>:<kind>` (`b` for Back). */
    'pn.l': async (input, ctx: Ctx) => postListView(typeOf(input.args[0]), pageFromArgs(input.args), ctx),
    /** Pick one: `pn.o:<type>:<listPage>`, the post id (or version) as the value. */
    'pn.o': async (input, ctx: Ctx) => postView(typeOf(input.args[0]), input.values[0] ?? '', pageArg(input.args[1]), 1, ctx),
    /** The read button of a feed post, `feed.read:<type>:<id>`, or a digest's menu, `feed.read:<type>` with the post id as the value: the full text privately, for whoever presses. */
    'feed.read': async (input, ctx: Ctx) => ({
      ...(await postView(typeOf(input.args[0]), input.args[1] ?? input.values[0] ?? '', 1, 1, ctx)),
      ephemeral: true,
    }),
    /** Reading paginator: `pn.r:<type>:<listPage>:<id>:<page>:<kind>`. */
    'pn.r': async (input, ctx: Ctx) => postView(typeOf(input.args[0]), input.args[2] ?? '', pageArg(input.args[1]), pageFromArgs(input.args), ctx),
  },
};
