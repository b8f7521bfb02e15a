/**
 * A View: what a handler wants shown (STYLE.md principle 1). The runtime decides how to send it
 * (reply, defer then edit, update); the CLI and the playground print or render the same object.
 */
import { MessageFlags, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord-api-types/v10';
import { fitView } from './limits.js';

/**
 * A file attached to a message (a chart). An embed shows it with `image: { url: 'attachment://' + name }`
 * (Discord: "Uploading Files", "Using Attachments within Embeds").
 */
export interface ViewFile {
  /** The file name Discord shows and `attachment://` refers to: letters, digits, `-`, `_` and `.` only. */
  name: string;
  /** The file's bytes. */
  data: Uint8Array;
  contentType: 'image/png';
  /** Alt text for screen readers, at most 1,024 characters. */
  description?: string;
}

/** A message to show. */
export interface View {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  /** Only the member who asked sees it. */
  ephemeral?: boolean;
  /** Role ids a message may ping (feeds); nothing else is ever pinged. */
  allowedRoleIds?: string[];
  /** Users the content may ping (an alert mentioning the members it concerns; Discord: at most 100); nobody else is pinged. */
  allowedUserIds?: string[];
  /** Set by the router on error views (the CLI exits non-zero for them); never sent to Discord. */
  isError?: boolean;
  /** Files uploaded with the message (charts), at most 10 and 8 MB in all (src/render/limits.ts). */
  files?: ViewFile[];
}

/** Colour of error embeds (Discord red). */
const ERROR_COLOUR = 0xed4245;

/** The ephemeral error View showing `message` (markdown, already escaped where it echoes input) in a red embed. */
export function errorMessageView(message: string): View {
  return { ephemeral: true, isError: true, embeds: [{ color: ERROR_COLOUR, description: message }] };
}

/**
 * The exact message payload sent to Discord for a view (Discord: "Create Message" JSON params):
 * `{content, embeds, components, flags, allowed_mentions}`, within every limit. `flags` is 64
 * (EPHEMERAL) for an ephemeral view, else 0. Mentions are parsed for nothing but the allowed roles.
 * A view with files also has `attachments` (`{id, filename, description}`, id = the file's index) and
 * `files`, which are never JSON: a transport sends them as the multipart parts `files[n]` beside a
 * `payload_json` part holding the rest ({@link splitFiles}).
 */
export interface MessagePayload {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIComponentInMessageActionRow>[];
  flags: number;
  allowed_mentions: { parse: []; roles?: string[]; users?: string[] };
  /** `url` only on a posted message (the playground's, src/playground/messages.ts); never sent. */
  attachments?: { id: number; filename: string; description?: string; url?: string }[];
  files?: ViewFile[];
}

/** A payload's JSON part (everything but `files`) and its files ([] without any). */
export function splitFiles<P extends { files?: ViewFile[] }>(payload: P): { json: Omit<P, 'files'>; files: ViewFile[] } {
  const { files, ...json } = payload;
  return { json, files: files ?? [] };
}

/**
 * The payload without its files: no `attachments`, and no embed image that showed one
 * (`attachment://…`). What is sent when Discord refuses the upload, so the answer still arrives.
 */
export function withoutFiles<P extends MessagePayload>(payload: P): P {
  const { files: _files, attachments: _attachments, ...rest } = payload;
  const embeds = rest.embeds.map((e) => (e.image?.url.startsWith('attachment://') ? { ...e, image: undefined } : e));
  return { ...rest, embeds } as P;
}

/** Builds the {@link MessagePayload} of a view, applying {@link fitView}. */
export function toMessagePayload(view: View): MessagePayload {
  const fitted = fitView(view);
  return {
    content: fitted.content ?? '',
    embeds: fitted.embeds ?? [],
    components: fitted.components ?? [],
    flags: fitted.ephemeral ? MessageFlags.Ephemeral : 0,
    allowed_mentions: { parse: [], ...(fitted.allowedRoleIds?.length ? { roles: fitted.allowedRoleIds } : {}), ...(fitted.allowedUserIds?.length ? { users: fitted.allowedUserIds.slice(0, 100) } : {}) },
    ...(fitted.files?.length
      ? {
          attachments: fitted.files.map((f, id) => ({ id, filename: f.name, ...(f.description ? { description: f.description } : {}) })),
          files: fitted.files,
        }
      : {}),
  };
}
