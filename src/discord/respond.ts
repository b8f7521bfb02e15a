/**
 * The acknowledgement policy, in one place and transport-free (STYLE.md principle 1). Discord
 * requires an answer to every interaction within 3 seconds (Discord: "Receiving and Responding" to
 * interactions): a View ready within {@link DEFAULT_ACK_DEADLINE_MS} is sent as the reply (or
 * message update); otherwise the interaction is deferred ("thinking") and the reply edited when
 * ready. The discord.js runtime and the playground each implement the responder ports below over
 * their own transport and call the same functions.
 */
import { MessageFlags, type APIApplicationCommandOptionChoice } from 'discord-api-types/v10';
import pTimeout from 'p-timeout';
import { toMessagePayload, type MessagePayload, type View } from '../render/view.js';
import type { ComponentResult } from './router.js';

/** A View ready within this many ms is sent directly; later ones are deferred first. Well inside 3 s. */
export const DEFAULT_ACK_DEADLINE_MS = 1_500;
/** Discord gives autocomplete 3 s and no way to defer: past this, an empty list is sent. */
export const AUTOCOMPLETE_DEADLINE_MS = 2_500;

/**
 * The responses Discord allows to a slash command (Discord: interaction response types 4 and 5,
 * then the webhook routes on the interaction token). `flags` in a payload is 64 for ephemeral.
 */
export interface CommandResponder {
  /** CHANNEL_MESSAGE_WITH_SOURCE (type 4). */
  reply(payload: MessagePayload): Promise<void>;
  /** DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (type 5): the "thinking" placeholder, ephemeral or not. */
  defer(ephemeral: boolean): Promise<void>;
  /** PATCH the original response (replaces the placeholder; its visibility stays as deferred, so `flags` is ignored). */
  edit(payload: MessagePayload): Promise<void>;
  /** DELETE the original response. */
  deleteReply(): Promise<void>;
  /** POST a follow-up message. */
  followUp(payload: MessagePayload): Promise<void>;
}

/** The responses Discord allows to a component interaction (types 4, 6 and 7, then the webhook routes). */
export interface ComponentResponder {
  /** UPDATE_MESSAGE (type 7): edit the message the component is on (`flags` is ignored). */
  update(payload: MessagePayload): Promise<void>;
  /** CHANNEL_MESSAGE_WITH_SOURCE (type 4): a new message (ephemeral when the payload says so). */
  reply(payload: MessagePayload): Promise<void>;
  /** DEFERRED_UPDATE_MESSAGE (type 6). */
  deferUpdate(): Promise<void>;
  /** DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (type 5), ephemeral: a private "thinking" placeholder. */
  deferEphemeralReply(): Promise<void>;
  /** PATCH the original response: the component's message after deferUpdate, the placeholder after deferEphemeralReply. */
  edit(payload: MessagePayload): Promise<void>;
  /** POST a follow-up message. */
  followUp(payload: MessagePayload): Promise<void>;
}

type Outcome<T> = { value: T } | { late: true };

function within<T>(work: Promise<T>, ms: number): Promise<Outcome<T>> {
  return pTimeout(work.then((value): Outcome<T> => ({ value })), { milliseconds: ms, fallback: (): Outcome<T> => ({ late: true }) });
}

/**
 * Answers a slash command with the View `work` resolves to: a reply if it is ready within
 * `deadlineMs`, else a deferral (ephemeral when `prefersPrivate()` says the server wants private
 * answers) and an edit. An answer that must be private (an error) after a public deferral replaces
 * the placeholder with an ephemeral follow-up. Rejects only if the responder does.
 */
export async function answerCommand(
  work: Promise<View>,
  responder: CommandResponder,
  options: { prefersPrivate: () => Promise<boolean>; deadlineMs?: number },
): Promise<void> {
  const first = await within(work, options.deadlineMs ?? DEFAULT_ACK_DEADLINE_MS);
  if ('value' in first) return responder.reply(toMessagePayload(first.value));
  const privately = await options.prefersPrivate();
  await responder.defer(privately);
  const view = await work;
  const payload = toMessagePayload(view);
  if (view.ephemeral && !privately) {
    await responder.deleteReply();
    await responder.followUp(payload);
  } else {
    await responder.edit(payload);
  }
}

/**
 * Answers a component interaction with the router's {@link ComponentResult}: within `deadlineMs`
 * an update or an ephemeral reply as the result says; later, a deferral decided by whose press it
 * is (`own`: the member who ran the command updates the message, anyone else gets a private
 * placeholder) and then an edit, or an ephemeral follow-up when the invoker's press answers privately.
 */
export async function answerComponent(work: Promise<ComponentResult>, own: boolean, responder: ComponentResponder, deadlineMs = DEFAULT_ACK_DEADLINE_MS): Promise<void> {
  const first = await within(work, deadlineMs);
  if ('value' in first) {
    const payload = toMessagePayload(first.value.view);
    return first.value.mode === 'update' ? responder.update(payload) : responder.reply(payload);
  }
  if (own) await responder.deferUpdate();
  else await responder.deferEphemeralReply();
  const result = await work;
  const payload = toMessagePayload(result.view);
  if (own && result.mode === 'reply') await responder.followUp({ ...payload, flags: MessageFlags.Ephemeral });
  else await responder.edit(payload);
}

/** Autocomplete choices from `work`, or [] past {@link AUTOCOMPLETE_DEADLINE_MS} (autocomplete cannot be deferred). */
export async function answerAutocomplete(work: Promise<APIApplicationCommandOptionChoice[]>, deadlineMs = AUTOCOMPLETE_DEADLINE_MS): Promise<APIApplicationCommandOptionChoice[]> {
  const first = await within(work, deadlineMs);
  return 'value' in first ? first.value : [];
}
