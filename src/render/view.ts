/**
 * A View: what a handler wants shown (STYLE.md principle 1). The runtime decides how to send it
 * (reply, defer then edit, update); the CLI and the playground print or render the same object.
 */
import { MessageFlags, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord-api-types/v10';
import { fitView } from './limits.js';

/** A message to show. */
export interface View {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  /** Only the member who asked sees it. */
  ephemeral?: boolean;
  /** Role ids a message may ping (feeds); nothing else is ever pinged. */
  allowedRoleIds?: string[];
  /** Set by the router on error views (the CLI exits non-zero for them); never sent to Discord. */
  isError?: boolean;
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
 */
export interface MessagePayload {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIComponentInMessageActionRow>[];
  flags: number;
  allowed_mentions: { parse: []; roles?: string[] };
}

/** Builds the {@link MessagePayload} of a view, applying {@link fitView}. */
export function toMessagePayload(view: View): MessagePayload {
  const fitted = fitView(view);
  return {
    content: fitted.content ?? '',
    embeds: fitted.embeds ?? [],
    components: fitted.components ?? [],
    flags: fitted.ephemeral ? MessageFlags.Ephemeral : 0,
    allowed_mentions: fitted.allowedRoleIds?.length ? { parse: [], roles: fitted.allowedRoleIds } : { parse: [] },
  };
}
