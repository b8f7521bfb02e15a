/** A View: what a handler wants shown. The runtime decides how to send it; the CLI and the playground render the same object. */
import {
  ComponentType,
  MessageFlags,
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIEmbedField,
} from 'discord-api-types/v10';
import type { ChartSpec } from '../charts/specs.js';
import { embedLength, LIMITS, safeFileName, truncate } from './limits.js';

/** A file attached to a message; an embed shows it with `image: { url: 'attachment://' + name }` (Discord: "Uploading Files"). */
export interface ViewFile {
  /** Letters, digits, `-`, `_` and `.` only. */
  name: string;
  data: Uint8Array;
  contentType: 'image/png' | 'application/json';
  /** Alt text, at most 1,024 characters. */
  description?: string;
  /** An image card's: the text it stands for, put back when it is not shown ({@link withoutCardImages}). */
  text?: CardText;
}

/**
 * What an image card stands for, shown wherever the card is not: a description in place of its embed's, fields after its
 * embed's own, and embeds after its embed.
 */
export interface CardText {
  description?: string;
  fields?: APIEmbedField[];
  embeds?: APIEmbed[];
  /** Custom IDs of buttons that only make sense beside the card (its "Full scoreboard"): taken out with it. */
  components?: string[];
}

type Rows = APIActionRowComponent<APIComponentInMessageActionRow>[];

/** `components` without the buttons and menus of `customIds`, and without the rows that leaves empty. */
function withoutComponents(components: Rows, customIds: ReadonlySet<string>): Rows {
  if (customIds.size === 0) return components;
  return components
    .map((row) => ({ ...row, components: row.components.filter((c) => !('custom_id' in c && customIds.has(c.custom_id))) }))
    .filter((row) => row.components.length > 0);
}

/**
 * `message` without the cards of `gone` (their `attachment://` URL → the text they stand for): each card's text in its
 * place ({@link withoutImages}), and the buttons that only go with a card taken out.
 */
export function withoutCardImages<M extends { embeds?: APIEmbed[]; components?: Rows }>(message: M, gone: ReadonlyMap<string, CardText | undefined>): M {
  const buttons = new Set([...gone.values()].flatMap((t) => t?.components ?? []));
  return {
    ...message,
    ...(message.embeds ? { embeds: withoutImages(message.embeds, gone) } : {}),
    ...(message.components ? { components: withoutComponents(message.components, buttons) } : {}),
  };
}

export interface View {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  ephemeral?: boolean;
  /** Role ids a message may ping (feeds); nothing else is pinged. */
  allowedRoleIds?: string[];
  /** Users the content may ping (Discord: at most 100); nobody else is pinged. */
  allowedUserIds?: string[];
  /** Set by the router on error views (the CLI exits non-zero for them); never sent to Discord. */
  isError?: boolean;
  /** At most 10 and 8 MB in all. */
  files?: ViewFile[];
  /** Drawn by the runtime's chart pool after the handler returns; an embed image of one not drawn in time is dropped. */
  charts?: ViewChart[];
  /**
   * A newer version of this answer as more of it arrives (a scout's profiles as they are read): the runtime edits the reply
   * with it, then with its own `next`, until one has none or resolves null. Never rejects; the handler bounds its own time.
   */
  next?: () => Promise<View | null>;
}

/** `view`'s last version ({@link View.next} followed until none): the answer as complete as it gets, for a reader that shows it once. */
export async function lastVersion(view: View): Promise<View> {
  for (let later = await view.next?.(); later; later = await later.next?.()) view = later;
  return view;
}

/** Drawn from `spec` as the PNG file `name`, `description` its alt text. */
export interface ViewChart {
  name: string;
  spec: ChartSpec;
  description: string;
  /** An image card's: the text it stands for, shown instead of it when it is not drawn or not wanted. */
  text?: CardText;
}

const ERROR_COLOUR = 0xed4245;

/** An ephemeral red embed showing `message` (markdown, escaped where it echoes input). */
export function errorMessageView(message: string): View {
  return { ephemeral: true, isError: true, embeds: [{ color: ERROR_COLOUR, description: message }] };
}

/**
 * The exact payload for Discord ("Create Message" JSON params), within every limit. `files` are never JSON:
 * they go as multipart parts `files[n]` beside `payload_json` ({@link splitFiles}); `attachments[].id` is the index.
 */
export interface MessagePayload {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIComponentInMessageActionRow>[];
  flags: number;
  allowed_mentions: { parse: []; roles?: string[]; users?: string[] };
  /** `url`, `size` (bytes) and `content_type` only on a posted message (the playground's, as Discord's attachment object); never sent. */
  attachments?: { id: number; filename: string; description?: string; url?: string; size?: number; content_type?: string }[];
  files?: ViewFile[];
}

export function splitFiles<P extends { files?: ViewFile[] }>(payload: P): { json: Omit<P, 'files'>; files: ViewFile[] } {
  const { files, ...json } = payload;
  return { json, files: files ?? [] };
}

/** The payload without files or the embed images showing them: sent when Discord refuses the upload. */
export function withoutFiles<P extends MessagePayload>(payload: P): P {
  const { files, attachments: _attachments, ...rest } = payload;
  const gone = new Map((files ?? []).map((f) => [`attachment://${f.name}`, f.text]));
  const embeds = rest.embeds.map((e) => (e.image?.url.startsWith('attachment://') && !gone.has(e.image.url) ? { ...e, image: undefined } : e));
  return withoutCardImages({ ...rest, embeds }, gone) as P;
}

/**
 * `embeds` without the images in `gone` (by `attachment://` URL), each embed that showed one given back the text its
 * card stood for: its fields, then its embeds (past Discord's limits they are dropped when the payload is fitted).
 */
function withoutImages(embeds: APIEmbed[], gone: ReadonlyMap<string, CardText | undefined>): APIEmbed[] {
  return embeds.flatMap((e) => {
    if (!e.image || !gone.has(e.image.url)) return [e];
    const { image, ...rest } = e;
    const text = gone.get(image.url);
    const described = text?.description === undefined ? rest : { ...rest, description: text.description };
    const fields = text?.fields?.length ? { ...described, fields: [...(described.fields ?? []), ...text.fields] } : described;
    return [fields, ...(text?.embeds ?? [])];
  });
}

export function toMessagePayload(view: View): MessagePayload {
  const fitted = fitView(view);
  return {
    content: fitted.content ?? '',
    embeds: fitted.embeds ?? [],
    components: fitted.components ?? [],
    flags: fitted.ephemeral ? MessageFlags.Ephemeral : 0,
    allowed_mentions: {
      parse: [],
      ...(fitted.allowedRoleIds?.length ? { roles: fitted.allowedRoleIds } : {}),
      ...(fitted.allowedUserIds?.length ? { users: fitted.allowedUserIds.slice(0, 100) } : {}),
    },
    ...(fitted.files?.length
      ? {
          attachments: fitted.files.map((f, id) => ({ id, filename: f.name, ...(f.description ? { description: f.description } : {}) })),
          files: fitted.files,
        }
      : {}),
  };
}

/** Fields past 25 dropped; empty field texts become a zero-width space, as Discord refuses them. */
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

/** Shrinks embeds until their total fits: descriptions first (last embed first), then trailing fields, then footers. */
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

/** At most {@link LIMITS.files} within {@link LIMITS.fileBytes}, in order; names made safe and unique. */
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

/** The view within every Discord limit ({@link LIMITS}); a file over it is left out with its embed image. Never throws. */
export function fitView(view: View): View {
  const out: View = { ...view };
  if (out.files) {
    const kept = fitFiles(out.files);
    const names = new Set(kept.map((f) => f.name));
    // An image of a file not sent would show a broken link; names were made safe, so match them the same way.
    const imageOf = (url: string) => (url.startsWith('attachment://') ? safeFileName(url.slice('attachment://'.length)) : undefined);
    if (out.embeds && kept.length !== out.files.length) {
      out.embeds = out.embeds.map((e) => {
        const file = e.image && imageOf(e.image.url);
        return file !== undefined && !names.has(file) ? { ...e, image: undefined } : e;
      });
    }
    if (out.embeds)
      out.embeds = out.embeds.map((e) =>
        e.image && imageOf(e.image.url) !== undefined ? { ...e, image: { ...e.image, url: `attachment://${imageOf(e.image.url)}` } } : e,
      );
    out.files = kept.length > 0 ? kept : undefined;
  }
  if (out.content !== undefined) out.content = truncate(out.content, LIMITS.content);
  if (out.embeds) out.embeds = fitTotal(out.embeds.slice(0, LIMITS.embeds).map(fitEmbed));
  if (out.components)
    out.components = out.components
      .filter((r) => r.components.length > 0)
      .slice(0, LIMITS.actionRows)
      .map(fitRow);
  return out;
}
