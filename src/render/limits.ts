/** Discord's message limits, enforced in one place (Discord: "Embed Limits", "Message Components", "Create Message"). */
import type { APIEmbed } from 'discord-api-types/v10';

/** In characters (UTF-16 code units, which never undercount Discord's count) or items. */
export const LIMITS = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  /** Sum of title, description, field names and values, footer text and author name over all embeds. */
  embedTotal: 6000,
  actionRows: 5,
  buttonsPerRow: 5,
  selectOptions: 25,
  buttonLabel: 80,
  optionLabel: 100,
  optionValue: 100,
  optionDescription: 100,
  placeholder: 150,
  customId: 100,
  autocompleteChoices: 25,
  choiceName: 100,
  files: 10,
  /** All a message's files together: Discord's smallest upload limit ("Uploading Files"). */
  fileBytes: 8 * 1024 * 1024,
  attachmentDescription: 1024,
} as const;

const ELLIPSIS = '…';
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** `text` cut to at most `max` characters with an ellipsis, on a grapheme boundary; text that fits comes back unchanged. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let out = '';
  for (const { segment } of segmenter.segment(text)) {
    if (out.length + segment.length + ELLIPSIS.length > max) break;
    out += segment;
  }
  return out + ELLIPSIS;
}

// Every character Discord markdown gives a meaning to, anywhere (the colon so no URL is auto-linked) or at a line's start.
// Each rule looks only backwards, so two escaped texts side by side are as safe as each alone (`@` + `everyone`).
const MARKDOWN = /[\\*_~|`[\]<@:]|(?<=^[^\S\r\n]*)[>#+-]|(?<=^[^\S\r\n]*\d*)\./gm;

/** `raw` with every character of {@link MARKDOWN} preceded by a backslash. */
const escapeAll = (raw: string) => raw.replace(MARKDOWN, '\\$&');

/**
 * `raw` shown literally wherever Discord renders markdown ("Markdown Text 101"), cut to `max` UTF-16 code units (escaped,
 * `…` included) on a grapheme boundary of `raw`. Each {@link MARKDOWN} character gets a backslash, which Discord hides
 * (simple-markdown's rule `^\\([^0-9A-Za-z\s])`); the escaped colon of `://` stops auto-links. Safe beside any text that opens
 * no construct (no template ends in `<`, `\` or `[`). discord.js's `escapeMarkdown` is not used: it leaves mentions and URLs.
 * Footers, labels and choices render no markdown: they take {@link truncate}. Never throws. Tested against discord-markdown-parser.
 */
export function escapeText(raw: string, max: number = Number.MAX_SAFE_INTEGER): string {
  const full = escapeAll(raw);
  if (full.length <= max) return full;
  if (max <= 0) return '';
  const graphemes = [...segmenter.segment(raw)].map((s) => s.segment);
  // The longest prefix (in graphemes) whose escaped form plus the ellipsis fits; lengths only grow with the prefix.
  let lo = 0;
  let hi = graphemes.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (escapeAll(graphemes.slice(0, mid).join('')).length + ELLIPSIS.length <= max) lo = mid;
    else hi = mid - 1;
  }
  return escapeAll(graphemes.slice(0, lo).join('')) + ELLIPSIS;
}

/** Characters of an embed that count toward {@link LIMITS.embedTotal}. */
export function embedLength(embed: APIEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.fields ?? []).reduce((sum, f) => sum + f.name.length + f.value.length, 0)
  );
}

/** A file name Discord keeps as it is: anything but letters, digits, `-`, `_` and `.` becomes `_`; at most 100 characters. */
export function safeFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(-100);
  return safe === '' || /^\.+$/.test(safe) ? 'file' : safe;
}
