/**
 * Interaction initial responses (Discord: "Create Interaction Response",
 * `POST /interactions/{interaction.id}/{interaction.token}/callback`), sent straight over an undici pool.
 *
 * This is the one request on the acknowledgement path, so it skips @discordjs/rest's queues, route
 * hashing, per-route handlers and timeout signals: the route is authorised by the interaction's token,
 * needs no bot token, is outside the global rate limit, and is called once per interaction, so none of
 * that machinery has anything to do. In `npm run bench:burst` those layers were a fifth of the bot's
 * CPU while 10,000 acknowledgements were due. Everything after the acknowledgement (edits,
 * follow-ups) still goes through @discordjs/rest.
 */
import { FormData, Pool, Response } from 'undici';
import type { ViewFile } from '../render/view.js';
import type { RESTPostAPIInteractionCallbackJSONBody } from 'discord-api-types/v10';

/** Discord's refusal of an initial response. The interaction's token is never part of it. */
export class InteractionCallbackError extends Error {
  /**
   * @param status the HTTP status
   * @param code Discord's JSON error code (10062 Unknown interaction, 40060 already acknowledged), if the body had one
   */
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(`interaction callback refused: ${status}${code === undefined ? '' : ` (code ${code})`}: ${message}`);
    this.name = 'InteractionCallbackError';
  }
}

/**
 * A multipart/form-data body as Discord takes uploads ("Uploading Files"): `json` in the
 * `payload_json` part, and each file in a part `files[n]` (n its index, as the JSON's `attachments`
 * name it). Returned as bytes with its content type (and boundary), so that any HTTP client sends it
 * as it is (@discordjs/rest with `passThroughBody`, which brings its own undici).
 */
export async function multipartBody(json: unknown, files: ViewFile[]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(json));
  files.forEach((f, n) => form.append(`files[${n}]`, new Blob([f.data], { type: f.contentType }), f.name));
  const encoded = new Response(form);
  const contentType = encoded.headers.get('content-type');
  if (!contentType) throw new Error('multipart body without a content type');
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType };
}

/** How long one callback may take, ms: Discord drops an interaction not acknowledged within 3 s anyway. */
export const CALLBACK_TIMEOUT_MS = 10_000;

const USER_AGENT = 'DiscordBot (https://github.com/rivals-bot, 1.0)';

/** Sends initial responses to the REST API at `apiUrl` (DISCORD_API_URL, e.g. `https://discord.com/api`; version 10). */
export class InteractionCallbacks {
  readonly #pool: Pool;
  readonly #prefix: string;

  /**
   * @param apiUrl the REST API's base URL, without the version
   * @param connections most connections kept open to it
   */
  constructor(apiUrl: string, connections: number) {
    const url = new URL(apiUrl);
    this.#prefix = `${url.pathname.replace(/\/+$/, '')}/v10/interactions/`;
    this.#pool = new Pool(url.origin, {
      connections,
      headersTimeout: CALLBACK_TIMEOUT_MS,
      bodyTimeout: CALLBACK_TIMEOUT_MS,
      connect: { timeout: CALLBACK_TIMEOUT_MS },
    });
  }

  /**
   * Sends `body` as the initial response of interaction `id` with `token`: JSON, or with `files`
   * multipart/form-data with `body` in the `payload_json` part and each file in a part `files[n]`
   * (n its index, as `body.data.attachments` names it; Discord: "Uploading Files").
   * @throws InteractionCallbackError when Discord answers with an error status; undici's errors on
   *   a network failure or after {@link CALLBACK_TIMEOUT_MS}.
   */
  async send(id: string, token: string, body: RESTPostAPIInteractionCallbackJSONBody, files: ViewFile[] = []): Promise<void> {
    const { body: bytes, contentType } = files.length > 0 ? await multipartBody(body, files) : { body: JSON.stringify(body), contentType: 'application/json' };
    const response = await this.#pool.request({
      path: `${this.#prefix}${id}/${token}/callback`,
      method: 'POST',
      headers: { 'content-type': contentType, 'user-agent': USER_AGENT },
      body: bytes,
    });
    if (response.statusCode < 300) {
      await response.body.dump();
      return;
    }
    const text = await response.body.text();
    let parsed: { code?: unknown; message?: unknown } | undefined;
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      parsed = undefined;
    }
    const code = typeof parsed?.code === 'number' ? parsed.code : undefined;
    const message = typeof parsed?.message === 'string' ? parsed.message : text.slice(0, 200);
    throw new InteractionCallbackError(response.statusCode, code, message);
  }

  /** Closes the pool's connections once their requests end. */
  async close(): Promise<void> {
    await this.#pool.close();
  }
}
