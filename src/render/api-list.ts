/** A list the API serves in pages (items, maps, achievements); its 404 past the last page reads as an empty page. */
import type { APIEmbed } from 'discord-api-types/v10';
import type { Fetched } from '../cache/response-cache.js';
import { ApiError } from '../core/api-errors.js';
import type { Page } from '../api/schemas.js';
import { staleFooter } from './common.js';
import { clampPage, pageCount, pageRow } from './paginate.js';
import type { View } from './view.js';

/** Page size the reference commands ask the API for. */
export const API_PAGE_SIZE = 10;

export interface ApiListOptions<T> {
  /** Loads one API page (1-based) of `API_PAGE_SIZE` entries. */
  load: (page: number) => Promise<Fetched<Page<T>>>;
  page: number;
  /** Custom-ID route and arguments of the paginator (the page is appended). */
  route: string;
  args: (string | number)[];
  embed: Omit<APIEmbed, 'description' | 'footer'>;
  line: (entry: T, index: number) => string;
  /** Shown for a 404 or an empty page. */
  empty: string;
}

/** The view of one page of an API-paged list. @throws {ApiError} except `not_found`, which is an empty list. */
export async function apiListView<T>(o: ApiListOptions<T>): Promise<View> {
  let fetched: Fetched<Page<T>> | undefined;
  try {
    fetched = await o.load(Math.max(1, o.page));
  } catch (err) {
    if (!(err instanceof ApiError && err.kind === 'not_found')) throw err;
  }
  const entries = fetched?.data.entries ?? [];
  const pages = pageCount(fetched?.data.total ?? 0, API_PAGE_SIZE);
  const page = clampPage(o.page, pages);
  const nav = pageRow(o.route, o.args, page, pages);
  return {
    embeds: [{ ...o.embed, description: entries.map((e, i) => o.line(e, (page - 1) * API_PAGE_SIZE + i)).join('\n') || o.empty, footer: staleFooter(fetched) }],
    components: nav ? [nav] : [],
  };
}
