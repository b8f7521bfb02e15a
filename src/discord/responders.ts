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

/**
 * A REST client for the routes of an interaction's token (edit, delete, follow-ups). Discord does not
 * count them against the bot's global rate limit (Discord: "Receiving and Responding"), so the 50 a
 * second @discordjs/rest holds every route to is lifted; Discord's per-token limits are still honoured.
 */
export function interactionWebhookRest(apiUrl: string): REST {
  return new REST({ api: apiUrl, version: '10', globalRequestsPerSecond: UNCOUNTED, agent: discordAgent() });
}

/**
 * The initial response of one interaction: `POST /interactions/{id}/{token}/callback` (Discord:
 * "Create Interaction Response"), with `files` as multipart parts when there are any.
 */
export type Callback = (body: RESTPostAPIInteractionCallbackJSONBody, files?: ViewFile[]) => Promise<void>;

/**
 * {@link Callback} of one interaction. It can be called once: Discord answers a second initial
 * response with 40060 (Interaction has already been acknowledged).
 * @throws InteractionCallbackError: 10062 (Unknown interaction) past Discord's 3 s, or any other refusal.
 */
export function callbackOf(callbacks: InteractionCallbacks, { id, token }: InteractionHead): Callback {
  return (body, files) => callbacks.send(id, token, body, files);
}

/** Discord's codes for an interaction that can no longer be answered this way: Unknown interaction, already acknowledged. */
const SPENT_INTERACTION_CODES = new Set([10062, 40060]);

/**
 * Sends `payload` with `send`, its files as multipart parts. When Discord refuses a message with
 * files (400 or 413: a file too large, a type it will not take), the same message goes again without
 * them (src/render/view.ts, withoutFiles), so the member still gets the answer, without its chart.
 * @throws what `send` throws otherwise.
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
    if ((status !== 400 && status !== 413) || SPENT_INTERACTION_CODES.has(code as number)) throw err;
    logger().warn({ err, files: files.map((f) => ({ name: f.name, bytes: f.data.byteLength })) }, 'Discord refused the attachments: answering without them');
    await send(splitFiles(withoutFiles(payload)).json, []);
  }
}

/**
 * The request options of a message for @discordjs/rest: `{ body: json }`, or with files a multipart
 * body built here (./interaction-callback.ts, multipartBody) and passed through as it is. (The REST
 * client's own multipart path would hand its undici's FormData to this project's undici agent, which
 * cannot read it.)
 */
async function messageRequest(json: object, files: ViewFile[]): Promise<Pick<RequestData, 'body' | 'passThroughBody' | 'headers'>> {
  if (files.length === 0) return { body: json };
  const { body, contentType } = await multipartBody(json, files);
  return { body, passThroughBody: true, headers: { 'Content-Type': contentType } };
}

/** The webhook routes of one interaction's token over `rest` (no bot token: `auth: false`); `logger()` hears of refused attachments. */
export function webhookOf(rest: REST, { applicationId, token }: InteractionHead, logger: () => Logger) {
  const original = Routes.webhookMessage(applicationId, token, '@original');
  return {
    edit: (payload: MessagePayload) =>
      sendWithFiles(
        payload,
        async (json, files) => void (await rest.patch(original, { ...(await messageRequest(replacingFiles(withoutFlags(json)), files)), auth: false })),
        logger,
      ),
    deleteReply: async () => void (await rest.delete(original, { auth: false })),
    followUp: (payload: MessagePayload) =>
      sendWithFiles(
        payload,
        async (json, files) => void (await rest.post(Routes.webhook(applicationId, token), { ...(await messageRequest(json, files)), auth: false })),
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

/**
 * An edit that replaces the message's files: Discord keeps a message's attachments through an edit
 * that does not list them, and shows one no embed refers to below the message. So an edit without
 * files says `attachments: []` (a section without a chart after one with a chart shows none).
 */
function replacingFiles<T extends { attachments?: unknown[] }>(json: T): T {
  return json.attachments ? json : { ...json, attachments: [] };
}

function withoutFlags<T extends { flags?: unknown }>(options: T): Omit<T, 'flags'> {
  const { flags: _flags, ...rest } = options;
  return rest;
}
