/**
 * Discord's message limits, enforced in one place (STYLE.md: render/ owns the limits).
 * Source: Discord developer documentation, "Embed Limits" (Resources > Message), "Message Components"
 * (action rows, buttons, select menus) and "Create Message" (content, embeds).
 */
import { ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord-api-types/v10';
import type { View, ViewFile } from './view.js';

/** The limits, in characters (UTF-16 code units, which never undercount Discord's count) or items. */
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
  /** Files a message may carry (Discord: "Uploading Files"). */
  files: 10,
  /** Bytes of all a message's files together: Discord's smallest upload limit. */
  fileBytes: 8 * 1024 * 1024,
  attachmentDescription: 1024,
} as const;

const ELLIPSIS = '…';
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `text` cut to at most `max` characters with an ellipsis, on a grapheme boundary (never inside an
 * emoji, a surrogate pair or a combining sequence). Text that fits is returned unchanged.
 */
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

/**
 * Every character that gives text a meaning in Discord markdown, as one pattern (flags g, m):
 * - anywhere: `\` (an escape itself), `*` (bold, italics, bullets), `_` (italics, underline), `~`
 *   (strikethrough), `|` (spoilers), `` ` `` (inline code, code blocks), `[` and `]` (masked links),
 *   `<` (every `<…>` form: mentions `<@id>` `<@!id>` `<@&id>` `<#id>`, slash-command mentions `</name:id>`,
 *   custom emoji `<:name:id>` `<a:name:id>`, timestamps `<t:unix:R>`, guild navigation `<id:browse>`,
 *   autolinks `<https://…>` and `<a@b>`), `@` (`@everyone`, `@here`) and `:` (the `://` of a URL, so
 *   it is never auto-linked: see {@link escapeText});
 * - at the start of a line (the text's own start included, after any spaces or tabs): `>` (block quotes,
 *   `>>>`), `#` (headings, `#`–`###`), `-` (bullets and `-#` subtext), `+` (bullets) and the dot of a
 *   numbered list item (`1.`).
 * Each rule reads one character and at most what precedes it on its line, never what follows, so two
 * escaped texts side by side are as safe as each alone (`@` + `everyone`, `https:` + `//`).
 */
const MARKDOWN = /[\\*_~|`[\]<@:]|(?<=^[^\S\r\n]*)[>#+-]|(?<=^[^\S\r\n]*\d*)\./gm;

/** `raw` with every character of {@link MARKDOWN} preceded by a backslash. */
const escapeAll = (raw: string) => raw.replace(MARKDOWN, '\\$&');

/**
 * What a member typed, or a text from the API, made to show literally as plain text wherever Discord
 * renders markdown (embed descriptions, field values, titles and field names; message content), then
 * cut to `max` characters (UTF-16 code units of the escaped text, ellipsis included).
 *
 * Each character Discord markdown gives a meaning to ({@link MARKDOWN}; Discord's "Markdown Text 101"
 * help article and message-formatting reference) is preceded by a backslash. Discord, like the
 * simple-markdown rules it is built on (its escape rule `^\\([^0-9A-Za-z\s])`), reads a backslash before
 * any character other than a letter, a digit or a space as "this character literally" and shows the
 * character alone, so the member sees exactly the text, with no formatting, heading, list, quote,
 * code, spoiler, masked link, mention pill (users, roles, channels, `@everyone`, `@here`, slash
 * commands), timestamp or custom emoji.
 * A backslash before a letter or a digit is shown as typed, so the text's own backslashes are doubled.
 * An auto-linked URL (`https://x.y`) cannot be escaped and stay a link: it is neutralised by escaping
 * the colon of `://` (`https\://x.y`), which shows as `https://x.y` in plain text, not as a link.
 * discord.js's `escapeMarkdown` is not used: it leaves mentions, `@everyone`, URLs and emoji alone,
 * and on purpose does not escape `_` and `*` inside URLs, which become markdown once the URL is
 * neutralised. Checked against discord-markdown-parser in test/render/escape-property.test.ts.
 *
 * The escaped text is safe wherever it stands in a line and next to any text that does not itself
 * open an unfinished construct (no template ends in `<`, `\` or `[`). Footers, author names,
 * select-menu labels, button labels and autocomplete choices render no markdown: a backslash would
 * show there, so they take {@link truncate}, not this.
 *
 * The cut is made on the raw text, on a grapheme boundary, before escaping: it never falls inside an
 * escape sequence, an emoji or a combining sequence, and a cut text ends with `…`. Never throws.
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

/** One embed within its own limits (fields past 25 dropped; empty field texts replaced by a zero-width space, as Discord refuses them). */
function fitEmbed(embed: APIEmbed): APIEmbed {
  const out: APIEmbed = { ...embed };
  if (out.title !== undefined) out.title = truncate(out.title, LIMITS.title);
  if (out.description !== undefined) out.description = truncate(out.description, LIMITS.description) || undefined;
  if (out.author) out.author = { ...out.author, name: truncate(out.author.name, LIMITS.author) };
  if (out.footer) out.footer = { ...out.footer, text: truncate(out.footer.text, LIMITS.footer) };
  if (out.fields) {
    out.fields = out.fields.slice(0, LIMITS.fields).map((f) => ({
      ...f,
      name: truncate(f.name, LIMITS.fieldName) || '\u200b',
      value: truncate(f.value, LIMITS.fieldValue) || '\u200b',
    }));
  }
  return out;
}

/** Shrinks embeds until their total fits: descriptions first (last embed first), then trailing fields. */
function fitTotal(embeds: APIEmbed[]): APIEmbed[] {
  const out = embeds.map((e) => ({ ...e, fields: e.fields ? [...e.fields] : undefined }));
  let over = out.reduce((s, e) => s + embedLength(e), 0) - LIMITS.embedTotal;
  for (let i = out.length - 1; i >= 0 && over > 0; i--) {
    const e = out[i]!;
    if (!e.description) continue;
    const keep = Math.max(0, e.description.length - over);
    const before = e.description.length;
    e.description = keep >= 2 ? truncate(e.description, keep) : undefined;
    over -= before - (e.description?.length ?? 0);
  }
  for (let i = out.length - 1; i >= 0 && over > 0; i--) {
    const fields = out[i]!.fields ?? [];
    while (fields.length > 0 && over > 0) {
      const f = fields.pop()!;
      over -= f.name.length + f.value.length;
    }
  }
  for (let i = out.length - 1; i >= 0 && over > 0; i--) {
    const e = out[i]!;
    if (e.footer) {
      over -= e.footer.text.length;
      delete e.footer;
    }
  }
  return out;
}

type Row = APIActionRowComponent<APIComponentInMessageActionRow>;

function fitRow(row: Row): Row {
  const components = row.components.slice(0, LIMITS.buttonsPerRow).map((c) => {
    if (c.type === ComponentType.Button) return 'label' in c && c.label !== undefined ? { ...c, label: truncate(c.label, LIMITS.buttonLabel) } : c;
    if (c.type === ComponentType.StringSelect) {
      return {
        ...c,
        placeholder: c.placeholder === undefined ? undefined : truncate(c.placeholder, LIMITS.placeholder),
        options: c.options.slice(0, LIMITS.selectOptions).map((o) => ({
          ...o,
          label: truncate(o.label, LIMITS.optionLabel) || '\u200b',
          value: o.value.slice(0, LIMITS.optionValue),
          description: o.description === undefined ? undefined : truncate(o.description, LIMITS.optionDescription) || undefined,
        })),
      };
    }
    return c;
  });
  // A select menu fills its row alone.
  const select = components.find((c) => c.type !== ComponentType.Button);
  return { ...row, components: select ? [select] : components };
}

/** A file name Discord keeps as it is: anything but letters, digits, `-`, `_` and `.` becomes `_`; at most 100 characters. */
export function safeFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(-100);
  return safe === '' || /^\.+$/.test(safe) ? 'file' : safe;
}

/** The files that fit: at most {@link LIMITS.files}, in order, while their bytes stay within {@link LIMITS.fileBytes}; names made safe and unique. */
function fitFiles(files: ViewFile[]): ViewFile[] {
  const kept: ViewFile[] = [];
  const names = new Set<string>();
  let bytes = 0;
  for (const f of files) {
    if (kept.length === LIMITS.files) break;
    if (bytes + f.data.byteLength > LIMITS.fileBytes) continue;
    const name = safeFileName(f.name);
    if (names.has(name)) continue;
    names.add(name);
    bytes += f.data.byteLength;
    kept.push({ ...f, name, ...(f.description ? { description: truncate(f.description, LIMITS.attachmentDescription) } : {}) });
  }
  return kept;
}

/**
 * The view within every Discord limit: content 2,000; at most 10 embeds, each within the per-field
 * limits and all within 6,000 characters; at most 5 action rows of 5 buttons or one select menu of
 * 25 options; at most 10 files of 8 MB in all, with safe names (a file over the limit is left out, and
 * so is an embed image that showed it). Never throws; text is cut with an ellipsis, never mid-character.
 */
export function fitView(view: View): View {
  const out: View = { ...view };
  if (out.files) {
    const kept = fitFiles(out.files);
    const names = new Set(kept.map((f) => f.name));
    // An image of a file that is not sent would show a broken link: drop it. Names were made safe, so match them the same way.
    const imageOf = (url: string) => (url.startsWith('attachment://') ? safeFileName(url.slice('attachment://'.length)) : undefined);
    if (out.embeds && kept.length !== out.files.length) {
      out.embeds = out.embeds.map((e) => {
        const file = e.image && imageOf(e.image.url);
        return file !== undefined && !names.has(file) ? { ...e, image: undefined } : e;
      });
    }
    if (out.embeds) out.embeds = out.embeds.map((e) => (e.image && imageOf(e.image.url) !== undefined ? { ...e, image: { ...e.image, url: `attachment://${imageOf(e.image.url)}` } } : e));
    out.files = kept.length > 0 ? kept : undefined;
  }
  if (out.content !== undefined) out.content = truncate(out.content, LIMITS.content);
  if (out.embeds) out.embeds = fitTotal(out.embeds.slice(0, LIMITS.embeds).map(fitEmbed));
  if (out.components) out.components = out.components.filter((r) => r.components.length > 0).slice(0, LIMITS.actionRows).map(fitRow);
  return out;
}
