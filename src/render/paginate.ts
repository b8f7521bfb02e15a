/** The one paginator: first / previous / "page x of y" / next / last, each custom ID carrying its target page. */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponentWithCustomId } from 'discord-api-types/v10';
import { encodeCustomId, pageArg } from './custom-id.js';
import { tr } from '../i18n/index.js';
import { t } from './strings.js';

export function pageCount(count: number, perPage: number): number {
  return Math.max(1, Math.ceil(count / perPage));
}

/** `page` clamped into 1..total (a stale button may point past a list that shrank). */
export function clampPage(page: number, total: number): number {
  return Math.min(Math.max(1, Number.isFinite(page) ? Math.trunc(page) : 1), Math.max(1, total));
}

/**
 * The row for `route` and `args` at `page` of `total`, null for one page; IDs end `:<target>:<f|p|n|l>`, distinct as Discord
 * requires. Grey (secondary) buttons: navigation should not outshine the answer, as a blurple row of five does.
 */
export function pageRow(route: string, args: (string | number)[], page: number, total: number): APIActionRowComponent<APIButtonComponentWithCustomId> | null {
  if (total <= 1) return null;
  const button = (label: string, target: number, kind: string, disabled: boolean): APIButtonComponentWithCustomId => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    label,
    custom_id: encodeCustomId(route, ...args, target, kind),
    disabled,
  });
  return {
    type: ComponentType.ActionRow,
    components: [
      button('«', 1, 'f', page <= 1),
      button('‹', page - 1, 'p', page <= 1),
      button(t.pageOf(page, total), page, 'i', true),
      button('›', page + 1, 'n', page >= total),
      button('»', total, 'l', page >= total),
    ],
  };
}

/** A row of one button: grey unless it is the answer's next step (blurple, `ButtonStyle.Primary`). */
export function buttonRow(
  label: string,
  customId: string,
  style: ButtonStyle.Primary | ButtonStyle.Secondary = ButtonStyle.Secondary,
): APIActionRowComponent<APIButtonComponentWithCustomId> {
  return { type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style, label, custom_id: customId }] };
}

/** A grey Back button whose `customId` (made by the opening list) returns to that list's page. */
export function backRow(customId: string): APIActionRowComponent<APIButtonComponentWithCustomId> {
  return buttonRow(`‹ ${tr('render:back')}`, customId);
}

/**
 * The page number carried by a paginator custom ID's arguments (the second to last), as {@link pageArg} reads it: an
 * integer from 1 to `MAX_PAGE`, 1 for anything that is not a page, whoever crafted the ID.
 */
export function pageFromArgs(args: readonly string[]): number {
  return pageArg(args.at(-2));
}

/**
 * Splits long text into pages of at most `max` characters, on paragraph boundaries where possible,
 * then on line, sentence and word boundaries; never inside a word unless a word is longer than a page.
 */
export function splitPages(text: string, max: number): string[] {
  const pages: string[] = [];
  let current = '';
  const push = () => {
    if (current.trim()) pages.push(current.trim());
    current = '';
  };
  const pieces = text.replace(/\r\n/g, '\n').split(/\n{2,}/);
  for (const piece of pieces) {
    const paragraph = piece.trim();
    if (paragraph === '') continue;
    const candidate = current ? `${current}\n\n${paragraph}` : paragraph;
    if (candidate.length <= max) {
      current = candidate;
      continue;
    }
    push();
    if (paragraph.length <= max) {
      current = paragraph;
      continue;
    }
    // A paragraph longer than a page: cut at the last line, sentence or word break that fits.
    let rest = paragraph;
    while (rest.length > max) {
      const window = rest.slice(0, max);
      // The last line, sentence or word break in the window; a cut inside a word only for a word longer than a page.
      const cut = Math.max(window.lastIndexOf('\n'), window.lastIndexOf('. ') + 1, window.lastIndexOf(' '));
      const at = cut > 0 ? cut : max;
      pages.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trimStart();
    }
    current = rest;
  }
  push();
  return pages.length > 0 ? pages : [''];
}
