/**
 * Typed errors of the game API client. Source: api-spec.md, part "Errors" (common body
 * `{error, message, status}`, the player endpoint's own shapes) and the real 429 body in api-samples.
 */

/** What went wrong, in terms a caller can act on. */
export type ApiErrorKind = 'bad_request' | 'unauthorized' | 'not_found' | 'rate_limited' | 'unavailable' | 'timeout' | 'bad_response';

/** Fields of an {@link ApiError}. */
export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** Endpoint name from src/api/endpoints.ts, e.g. `player`. */
  endpoint: string;
  /** HTTP status, when a response arrived. */
  status?: number;
  /** For `rate_limited`: how long to wait, in milliseconds, from `Retry-After` or the message. */
  retryAfterMs?: number;
  /** True when `retryAfterMs` came from a `Retry-After` header: a key-wide limit, not a per-resource cooldown. */
  retryAfterFromHeader?: boolean;
  /** The upstream's own message, for logs only (it may be in any language or shape). */
  upstreamMessage?: string;
  cause?: unknown;
}

/**
 * The one error the client throws for a failed request. Its message is safe to log: it names the
 * endpoint and the kind, never the API key or the full URL's secrets.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly endpoint: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly retryAfterFromHeader: boolean;
  readonly upstreamMessage?: string;

  constructor(init: ApiErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.retryAfterFromHeader = init.retryAfterFromHeader ?? false;
    this.upstreamMessage = init.upstreamMessage;
  }

  /**
   * True for the failures where serving a stale cached value is better than failing: 5xx and
   * connection errors (`unavailable`), timeouts, 429, and malformed or unusable bodies
   * (`bad_response`: a broken answer today says nothing against yesterday's good one).
   */
  get isTransient(): boolean {
    return this.kind === 'unavailable' || this.kind === 'timeout' || this.kind === 'rate_limited' || this.kind === 'bad_response';
  }
}

/** The error of a call still unanswered when the interaction's budget ran out (src/core/deadline.ts): a `timeout`. */
export function budgetSpent(endpoint: string): ApiError {
  return new ApiError({ kind: 'timeout', endpoint, upstreamMessage: 'no answer within the interaction budget' });
}

function describe(init: ApiErrorInit): string {
  const status = init.status === undefined ? '' : ` (HTTP ${init.status})`;
  const retry = init.retryAfterMs === undefined ? '' : `, retry in ${Math.ceil(init.retryAfterMs / 1000)} s`;
  const upstream = init.upstreamMessage ? `: ${init.upstreamMessage}` : '';
  return `${init.endpoint}: ${init.kind}${status}${retry}${upstream}`;
}

/**
 * Thrown before any request when an argument is invalid (a page of 0, an unknown platform, an empty
 * hero name...). `argument` names the parameter as the spec does (`page`, `platform`, `query`...).
 */
export class ApiArgumentError extends Error {
  override name = 'ApiArgumentError';
  /** What is wrong, in English (for the log); members read {@link problem} in their language (src/render/strings.ts `badArgument`). */
  readonly reason: string;
  constructor(
    readonly endpoint: string,
    readonly argument: string,
    /** What is wrong, as a message key under `messages:errors.argumentProblem`. */
    readonly problem: ArgumentProblem,
    /** The values the problem's message names: `max` (characters) for `tooLong`, `choices` (a list) for `oneOf`. */
    readonly values: { max?: number; choices?: readonly string[] } = {},
  ) {
    const reason = ARGUMENT_PROBLEMS[problem].replace('{max}', String(values.max)).replace('{choices}', (values.choices ?? []).join(', '));
    super(`${endpoint}: invalid ${argument}: ${reason}`);
    this.reason = reason;
  }
}

/** What can be wrong with an argument of an API call, in English (src/api/endpoints.ts). */
const ARGUMENT_PROBLEMS = {
  notText: 'must be text',
  empty: 'must not be empty',
  dots: 'must not be "." or ".."',
  badCharacters: 'contains invalid characters',
  tooLong: 'must be at most {max} characters',
  notPositive: 'must be a positive whole number',
  negative: 'must be a whole number, 0 or more',
  season: 'must be a season number such as 1 or 1.5',
  oneOf: 'must be one of {choices}',
} as const;

/** What is wrong with an argument: see {@link ApiArgumentError}. */
export type ArgumentProblem = keyof typeof ARGUMENT_PROBLEMS;

/** The upstream messages of the spec's error table that mean "this thing does not exist", whatever the status. */
const NOT_FOUND_MESSAGES = [/does not match any known hero/i, /\bnot found\b/i, /^no .* found/i];

/**
 * Derives the error kind from an HTTP status and the body's message.
 * - 400 whose message says the hero is unknown (hero stats, hero costumes) is `not_found`: the spec
 *   answers an unknown hero with 400 there.
 * - 401/403 `unauthorized`; 404 `not_found`; 408 `timeout`; 429 `rate_limited`; 5xx `unavailable`.
 */
export function kindFromStatus(status: number, message?: string): ApiErrorKind {
  if (status === 400 && message && NOT_FOUND_MESSAGES.some((re) => re.test(message))) return 'not_found';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  return 'bad_request';
}

/**
 * Reads the message out of any of the spec's error bodies: the common `{error: true, message, status}`,
 * the player endpoint's `{error: "text"}` (400) and `{status: "error", message}` (401, 500).
 */
export function upstreamMessageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.message === 'string') return b.message;
  if (typeof b.error === 'string') return b.error;
  if (typeof b.detail === 'string') return b.detail;
  return undefined;
}

/**
 * True when a 2xx body is really an error envelope: `{error: true, ...}`, `{status: "error", ...}`,
 * or the player endpoint's `{error: "text"}` with nothing else of a profile in it.
 */
export function isErrorEnvelope(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  if (b.error === true || b.status === 'error') return true;
  return typeof b.error === 'string' && Object.keys(b).length <= 3 && !('uid' in b) && !('name' in b);
}

/**
 * Milliseconds to wait before retrying, from a `Retry-After` header (seconds or an HTTP date) or,
 * failing that, a message such as "You can request an update in 16 minutes." (the real 429 body).
 * @param now current time in ms since the epoch, for HTTP-date values.
 */
export function parseRetryAfter(header: string | string[] | undefined, message: string | undefined, now: number): number | undefined {
  return parseRetryAfterHeader(header, now) ?? parseRetryMessage(message);
}

/** Milliseconds from a `Retry-After` header: delay-seconds or an HTTP date (RFC 9110 10.2.3); undefined if absent or unparseable. */
export function parseRetryAfterHeader(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseRetryMessage(message: string | undefined): number | undefined {
  const match = message?.match(/in\s+(\d+(?:\.\d+)?)\s*(second|sec|s|minute|min|m|hour|h)\w*/i);
  if (match) {
    const amount = Number(match[1]);
    const unit = match[2]!.toLowerCase();
    const factor = unit.startsWith('h') ? 3_600_000 : unit.startsWith('m') ? 60_000 : 1000;
    return Math.round(amount * factor);
  }
  return undefined;
}
