/** The responder ports of the answer policy (./respond.ts) over an interaction's callback and its token's webhook routes. */
import { REST, type RequestData } from '@discordjs/rest';
import { InteractionResponseType, MessageFlags, Routes, type RESTPostAPIInteractionCallbackJSONBody } from 'discord-api-types/v10';
import type { Logger } from '../core/logger.js';
import { splitFiles, withoutFiles, type MessagePayload, type ViewFile } from '../render/view.js';
import { discordAgent } from './agent.js';
import { multipartBody, type InteractionCallbacks } from './interaction-callback.js';
import type { InteractionHead } from './interactions.js';
import type { CommandResponder, ComponentResponder } from './respond.js';
import { UNCOUNTED } from './rest-budget.js';

/** REST for an interaction token's routes: Discord exempts them from the global limit ("Receiving and Responding"), so @discordjs/rest's is lifted. */
export function interactionWebhookRest(apiUrl: string): REST {
  return new REST({ api: apiUrl, version: '10', globalRequestsPerSecond: UNCOUNTED, agent: discordAgent() });
}

/** An interaction's initial response (Discord: "Create Interaction Response"), with `files` as multipart parts. */
export type Callback = (body: RESTPostAPIInteractionCallbackJSONBody, files?: ViewFile[]) => Promise<void>;

/** {@link Callback} of one interaction, callable once (a second gets 40060). @throws InteractionCallbackError, e.g. 10062 past Discord's 3 s. */
export function callbackOf(callbacks: InteractionCallbacks, { id, token }: InteractionHead): Callback {
  return (body, files) => callbacks.send(id, token, body, files);
}

/** Discord's codes for an interaction that can no longer be answered this way: Unknown interaction, already acknowledged. */
const SPENT_INTERACTION_CODES = new Set([10062, 40060]);
/** Discord's JSON error code 50013. */
const MISSING_PERMISSIONS = 50013;

/**
 * Sends `payload`, and again without its files when Discord refuses them (400, 413, or 403 Missing Permissions: no Attach
 * Files where the answer goes), so the answer still arrives; a refusal for another reason comes back on the retry.
 * @throws what `send` throws else.
 */
async function sendWithFiles(
  payload: MessagePayload,
  send: (json: Omit<MessagePayload, 'files'>, files: ViewFile[]) => Promise<void>,
  logger: () => Logger,
): Promise<void> {
  const { json, files } = splitFiles(payload);
  if (files.length === 0) return send(json, files);
  try {
    await send(json, files);
  } catch (err) {
    const { status, code } = (err ?? {}) as { status?: unknown; code?: unknown };
    const refused = status === 400 || status === 413 || (status === 403 && code === MISSING_PERMISSIONS);
    if (!refused || SPENT_INTERACTION_CODES.has(code as number)) throw err;
    logger().warn({ err, files: files.map((f) => ({ name: f.name, bytes: f.data.byteLength })) }, 'Discord refused the attachments: answering without them');
    await send(splitFiles(withoutFiles(payload)).json, []);
  }
}

/** @discordjs/rest options for a message; files go as our own multipart body, as REST's own FormData is unreadable to this project's undici agent. */
function messageRequest(json: object, files: ViewFile[]): Pick<RequestData, 'body' | 'passThroughBody' | 'headers'> {
  if (files.length === 0) return { body: json };
  const { body, contentType } = multipartBody(json, files);
  return { body, passThroughBody: true, headers: { 'Content-Type': contentType } };
}

/** The webhook routes of one interaction's token over `rest` (no bot token: `auth: false`); `logger()` hears of refused attachments. */
export function webhookOf(rest: REST, { applicationId, token }: InteractionHead, logger: () => Logger) {
  const original = Routes.webhookMessage(applicationId, token, '@original');
  return {
    edit: (payload: MessagePayload) =>
      sendWithFiles(
        payload,
        async (json, files) => void (await rest.patch(original, { ...messageRequest(replacingFiles(withoutFlags(json)), files), auth: false })),
        logger,
      ),
    deleteReply: async () => void (await rest.delete(original, { auth: false })),
    followUp: (payload: MessagePayload) =>
      sendWithFiles(
        payload,
        async (json, files) => void (await rest.post(Routes.webhook(applicationId, token), { ...messageRequest(json, files), auth: false })),
        logger,
      ),
  };
}

/** A message's flags when none is set (what discord.js sends in a public deferral). */
const NO_FLAGS = 0 as MessageFlags;

/** {@link CommandResponder} over an interaction's callback (types 4 and 5) and its webhook routes. */
export function commandResponder(respond: Callback, webhook: ReturnType<typeof webhookOf>, logger: () => Logger): CommandResponder {
  return {
    reply: (payload) => sendWithFiles(payload, (data, files) => respond({ type: InteractionResponseType.ChannelMessageWithSource, data }, files), logger),
    defer: (ephemeral) =>
      respond({ type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: ephemeral ? MessageFlags.Ephemeral : NO_FLAGS } }),
    ...webhook,
  };
}

/** {@link ComponentResponder} over a component interaction's callback (types 4, 5, 6 and 7) and its webhook routes. */
export function componentResponder(respond: Callback, { edit, followUp }: ReturnType<typeof webhookOf>, logger: () => Logger): ComponentResponder {
  return {
    update: (payload) =>
      sendWithFiles(
        payload,
        (data, files) => respond({ type: InteractionResponseType.UpdateMessage, data: replacingFiles(withoutFlags(data)) }, files),
        logger,
      ),
    reply: (payload) => sendWithFiles(payload, (data, files) => respond({ type: InteractionResponseType.ChannelMessageWithSource, data }, files), logger),
    deferUpdate: () => respond({ type: InteractionResponseType.DeferredMessageUpdate }),
    deferEphemeralReply: () => respond({ type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: MessageFlags.Ephemeral } }),
    edit,
    followUp,
  };
}

/** Discord keeps a message's attachments through an edit that does not list them (shown below the message), so a file-less edit says `attachments: []`. */
function replacingFiles<T extends { attachments?: unknown[] }>(json: T): T {
  return json.attachments ? json : { ...json, attachments: [] };
}

function withoutFlags<T extends { flags?: unknown }>(options: T): Omit<T, 'flags'> {
  const { flags: _flags, ...rest } = options;
  return rest;
}
