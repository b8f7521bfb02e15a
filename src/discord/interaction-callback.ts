/**
 * Interaction initial responses (Discord: "Create Interaction Response") sent straight over an undici pool: the one request on the ack path
 * needs none of @discordjs/rest's queues, hashing or handlers (token-authorised, outside the global limit, sent once). Edits still use it.
 */
import { FormData, Pool, Response } from 'undici';
import type { ViewFile } from '../render/view.js';
import type { RESTPostAPIInteractionCallbackJSONBody } from 'discord-api-types/v10';

/** Discord's refusal of an initial response. The interaction's token is never part of it. */
export class InteractionCallbackError extends Error {
  /** @param code Discord's JSON error code (10062 Unknown interaction, 40060 already acknowledged), if the body had one */
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(`interaction callback refused: ${status}${code === undefined ? '' : ` (code ${code})`}: ${message}`);
    this.name = 'InteractionCallbackError';
  }
}

/** The form of {@link multipartBody}, for a client that sends a FormData itself (undici). */
function multipartForm(json: unknown, files: ViewFile[]): FormData {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(json));
  files.forEach((f, n) => form.append(`files[${n}]`, new Blob([f.data], { type: f.contentType }), f.name));
  return form;
}

/** A multipart body as Discord takes uploads ("Uploading Files"): `payload_json` and `files[n]` parts, as bytes so any HTTP client sends it as is. */
export async function multipartBody(json: unknown, files: ViewFile[]): Promise<{ body: Buffer; contentType: string }> {
  const encoded = new Response(multipartForm(json, files));
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
   * Sends `body` as interaction `id`'s initial response: JSON, or multipart with `files` ({@link multipartBody}).
   * @throws InteractionCallbackError on an error status; undici's errors on a network failure or after {@link CALLBACK_TIMEOUT_MS}.
   */
  async send(id: string, token: string, body: RESTPostAPIInteractionCallbackJSONBody, files: ViewFile[] = []): Promise<void> {
    // A form goes to undici as it is: undici writes its parts (and their length) without first copying them into one buffer.
    const form = files.length > 0 ? multipartForm(body, files) : undefined;
    const response = await this.#pool.request({
      path: `${this.#prefix}${id}/${token}/callback`,
      method: 'POST',
      headers: form ? { 'user-agent': USER_AGENT } : { 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body: form ?? JSON.stringify(body),
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

  async close(): Promise<void> {
    await this.#pool.close();
  }
}
