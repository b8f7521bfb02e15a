/** The HTTP transport: GET over undici with keep-alive, timeouts and a body cap; every failure an {@link ApiError} (api-spec.md "Authentication", "Errors"). */
import { Agent, request, type Dispatcher } from 'undici';
import { noteJsonSize } from '../cache/memory-level.js';
import type { Logger } from '../core/logger.js';
import { NO_METRICS, type Metrics, type UpstreamStatus } from '../core/metrics.js';
import { ApiError, isErrorEnvelope, kindFromStatus, parseRetryAfter, parseRetryAfterHeader, upstreamMessageOf } from '../core/api-errors.js';

/** Durations in ms. */
export interface HttpTransportOptions {
  /** e.g. `https://marvelrivalsapi.com`; paths are appended to it. */
  baseUrl: string;
  /** Sent as `x-api-key`; never logged. */
  apiKey?: string;
  /** Default: a keep-alive {@link Agent} built from the timeouts. */
  dispatcher?: Dispatcher;
  /** For headers, body inactivity and the whole request; default 10 000. */
  timeoutMs?: number;
  /** Default min(5 000, timeoutMs). */
  connectTimeoutMs?: number;
  /** Bytes; default 16 MiB. */
  maxBodyBytes?: number;
  logger?: Logger;
  /** For `Retry-After` dates. */
  now?: () => number;
  metrics?: Metrics;
}

/** A pooled keep-alive agent with connect, headers and body timeouts; close it on shutdown. */
export function createDispatcher(timeoutMs = 10_000, connectTimeoutMs = Math.min(5_000, timeoutMs)): Agent {
  return new Agent({
    connections: 32,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    connect: { timeout: connectTimeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class HttpTransport {
  readonly baseUrl: string;
  readonly #apiKey?: string;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeoutMs: number;
  readonly #maxBodyBytes: number;
  readonly #logger?: Logger;
  readonly #now: () => number;
  readonly #metrics: Metrics;

  constructor(options: HttpTransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? createDispatcher(this.#timeoutMs, options.connectTimeoutMs);
    this.#maxBodyBytes = options.maxBodyBytes ?? 16 * 1024 * 1024;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    this.#metrics = options.metrics ?? NO_METRICS;
  }

  /**
   * GETs `pathAndQuery` (encoded, starting with `/`) and returns the parsed JSON body; `endpoint` names it in errors and logs.
   * @throws {ApiError} `timeout`, `unavailable` (network, 5xx), `bad_response` (not JSON, too large), or the kind of the status and body.
   */
  async get(endpoint: string, pathAndQuery: string, signal?: AbortSignal): Promise<unknown> {
    const started = performance.now();
    const deadline = AbortSignal.timeout(this.#timeoutMs * 2);
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
    if (this.#apiKey) headers['x-api-key'] = this.#apiKey;
    let status = 0;
    let ended: UpstreamStatus = 'network';
    try {
      const res = await request(`${this.baseUrl}${pathAndQuery}`, {
        method: 'GET',
        headers,
        dispatcher: this.#dispatcher,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
      status = res.statusCode;
      ended = status;
      const text = await this.#readBody(endpoint, res);
      let body: unknown;
      let parsed = true;
      try {
        body = text === '' ? undefined : JSON.parse(text);
        // The cache sizes entries by JSON length: this body's is known.
        noteJsonSize(body, text.length);
      } catch {
        parsed = false;
        body = text;
      }
      this.#logger?.debug({ endpoint, path: pathAndQuery, status, ms: Math.round(performance.now() - started) }, 'api request');
      if (status >= 200 && status < 300) {
        if (body === undefined) throw new ApiError({ kind: 'bad_response', endpoint, status, upstreamMessage: 'empty body', wellFormed: true });
        if (!parsed) throw new ApiError({ kind: 'bad_response', endpoint, status, upstreamMessage: 'body is not JSON' });
        if (isErrorEnvelope(body)) throw this.#errorFromBody(endpoint, statusOfEnvelope(body), res.headers['retry-after'], body);
        return body;
      }
      throw this.#errorFromBody(endpoint, status, res.headers['retry-after'], body);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const failure = this.#networkError(endpoint, err, status, signal);
      ended = failure.kind === 'timeout' ? 'timeout' : 'network';
      throw failure;
    } finally {
      this.#metrics.upstream(endpoint, ended);
    }
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async #readBody(endpoint: string, res: Dispatcher.ResponseData): Promise<string> {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.#maxBodyBytes) {
      res.body.destroy();
      throw new ApiError({ kind: 'bad_response', endpoint, status: res.statusCode, upstreamMessage: `body of ${declared} bytes exceeds the limit` });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > this.#maxBodyBytes) {
        res.body.destroy();
        throw new ApiError({ kind: 'bad_response', endpoint, status: res.statusCode, upstreamMessage: 'body exceeds the size limit' });
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  #errorFromBody(endpoint: string, status: number, retryAfter: string | string[] | undefined, body: unknown): ApiError {
    const upstreamMessage = upstreamMessageOf(body);
    const kind = kindFromStatus(status, upstreamMessage);
    if (kind !== 'rate_limited') return new ApiError({ kind, endpoint, status, upstreamMessage });
    const fromHeader = parseRetryAfterHeader(retryAfter, this.#now());
    // No delay given at all: a minute is the window of a per-minute limit.
    const retryAfterMs = fromHeader ?? parseRetryAfter(undefined, upstreamMessage, this.#now()) ?? 60_000;
    return new ApiError({ kind, endpoint, status, retryAfterMs, retryAfterFromHeader: fromHeader !== undefined, upstreamMessage });
  }

  #networkError(endpoint: string, err: unknown, status: number, callerSignal?: AbortSignal): ApiError {
    const e = err as { code?: string; name?: string; message?: string };
    const timedOut = TIMEOUT_CODES.has(e.code ?? '') || e.name === 'TimeoutError' || (e.name === 'AbortError' && !callerSignal?.aborted);
    return new ApiError({
      kind: timedOut ? 'timeout' : 'unavailable',
      endpoint,
      status: status || undefined,
      upstreamMessage: e.code ?? e.name ?? 'network error',
      cause: err,
    });
  }
}

/** An error envelope in a 2xx: its numeric `status`, else one guessed from its message. */
function statusOfEnvelope(body: unknown): number {
  const b = body as Record<string, unknown>;
  const status = Number(b.status);
  if (Number.isInteger(status) && status >= 400 && status < 600) return status;
  const message = upstreamMessageOf(body) ?? '';
  if (/api key/i.test(message)) return 401;
  if (/not found|no .* found|does not match/i.test(message)) return 404;
  if (/invalid|missing/i.test(message)) return 400;
  return 500;
}
