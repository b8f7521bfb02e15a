/**
 * Interaction initial responses (Discord: "Create Interaction Response") sent straight over an undici pool: the one request on the ack path
 * needs none of @discordjs/rest's queues, hashing or handlers (token-authorised, outside the global limit, sent once). Edits still use it.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Pool } from 'undici';
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

/** A part's header value as browsers write it (WHATWG HTML, "multipart/form-data encoding algorithm"): `"`, CR and LF escaped. */
const headerValue = (s: string): string => s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/**
 * A multipart/form-data body (RFC 7578) as Discord takes uploads ("Uploading Files"): the JSON in a `payload_json` part, then
 * a `files[n]` part per file. The parts are the files' own bytes between short headers, so a card already drawn is sent
 * without a copy; `length` is their total in bytes. (undici's FormData copies each file into a Blob and reads it back
 * through a web stream: for a 127 KB card, most of a cached answer's time; docs/benchmarks.md, "Node 24".)
 */
export function multipartParts(json: unknown, files: readonly ViewFile[]): { parts: Uint8Array[]; length: number; contentType: string } {
  // A random boundary cannot occur in the parts: RFC 2046 asks only that it does not.
  const boundary = `rivals-bot-${randomUUID()}`;
  const parts: Uint8Array[] = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(json)}\r\n`),
  ];
  files.forEach((f, n) => {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files[${n}]"; filename="${headerValue(f.name)}"\r\nContent-Type: ${f.contentType}\r\n\r\n`,
      ),
      f.data,
      CRLF,
    );
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { parts, length: parts.reduce((sum, part) => sum + part.byteLength, 0), contentType: `multipart/form-data; boundary=${boundary}` };
}

const CRLF = Buffer.from('\r\n');

/** {@link multipartParts} as one buffer, for a client that takes no list of parts (@discordjs/rest). */
export function multipartBody(json: unknown, files: readonly ViewFile[]): { body: Buffer; contentType: string } {
  const { parts, length, contentType } = multipartParts(json, files);
  return { body: Buffer.concat(parts, length), contentType };
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
    // With files, undici writes the parts one after another, with their length given: no chunked encoding, no copy.
    const form = files.length > 0 ? multipartParts(body, files) : undefined;
    const response = await this.#pool.request({
      path: `${this.#prefix}${id}/${token}/callback`,
      method: 'POST',
      headers: form
        ? { 'content-type': form.contentType, 'content-length': String(form.length), 'user-agent': USER_AGENT }
        : { 'content-type': 'application/json', 'user-agent': USER_AGENT },
      // undici's documentation (Dispatcher, `body`) takes an Iterable of chunks; its type declarations do not list it.
      body: form ? (form.parts as unknown as Readable) : JSON.stringify(body),
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
