/** Typed errors of the game API client (api-spec.md "Errors"; the real 429 body in api-samples). */

/** What went wrong, in terms a caller can act on. */
export type ApiErrorKind = 'bad_request' | 'unauthorized' | 'not_found' | 'rate_limited' | 'unavailable' | 'timeout' | 'bad_response';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** Endpoint name from src/api/endpoints.ts, e.g. `player`. */
  endpoint: string;
  status?: number;
  /** For `rate_limited`: ms to wait, from `Retry-After` or the message. */
  retryAfterMs?: number;
  /** True when `retryAfterMs` came from `Retry-After`: a key-wide limit, not a per-resource cooldown. */
  retryAfterFromHeader?: boolean;
  /** For logs only: it may be in any language or shape. */
  upstreamMessage?: string;
  /**
   * For `bad_response`: true when the body was empty, or JSON of a shape the bot does not know (how the API answers for
   * something it keeps nothing of); false for text that is no JSON, or a body over the size limit (a fault of the moment).
   */
  wellFormed?: boolean;
  cause?: unknown;
}

/** The one error the client throws for a failed request; its message names endpoint and kind, never the key or URL secrets. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly endpoint: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly retryAfterFromHeader: boolean;
  readonly upstreamMessage?: string;
  readonly wellFormed: boolean;

  constructor(init: ApiErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.retryAfterFromHeader = init.retryAfterFromHeader ?? false;
    this.upstreamMessage = init.upstreamMessage;
    this.wellFormed = init.wellFormed ?? false;
  }

  /**
   * A 403 for a player's profile or history: the player keeps it private (public clients read the version 2 answers so,
   * docs/data.md "The API's other reads"); the key itself is refused with a 401 (api-spec.md "Errors").
   */
  get privateProfile(): boolean {
    return this.status === 403 && (this.endpoint === 'player' || this.endpoint.startsWith('matchHistory'));
  }

  /** True when a stale cached value beats failing: unavailable, timeout, 429, and bad_response (a broken answer today says nothing against yesterday's). */
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

/** Thrown before any request for an invalid argument; `argument` is the spec's parameter name (`page`, `platform`, `query`...). */
export class ApiArgumentError extends Error {
  override name = 'ApiArgumentError';
  /** English, for the log; members read {@link problem} in their language. */
  readonly reason: string;
  constructor(
    readonly endpoint: string,
    readonly argument: string,
    /** A message key under `messages:errors.argumentProblem`. */
    readonly problem: ArgumentProblem,
    /** `max` (characters) for `tooLong`, `choices` for `oneOf`. */
    readonly values: { max?: number; choices?: readonly string[] } = {},
  ) {
    const reason = ARGUMENT_PROBLEMS[problem].replace('{max}', String(values.max)).replace('{choices}', (values.choices ?? []).join(', '));
    super(`${endpoint}: invalid ${argument}: ${reason}`);
    this.reason = reason;
  }
}

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

export type ArgumentProblem = keyof typeof ARGUMENT_PROBLEMS;

const NOT_FOUND_MESSAGES = [/does not match any known hero/i, /\bnot found\b/i, /^no .* found/i];

/** The kind of an HTTP status; a 400 whose message says the hero is unknown is `not_found` (the spec answers an unknown hero with 400). */
export function kindFromStatus(status: number, message?: string): ApiErrorKind {
  if (status === 400 && message && NOT_FOUND_MESSAGES.some((re) => re.test(message))) return 'not_found';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  return 'bad_request';
}

/** The message of any spec error body: `{error: true, message, status}`, the player endpoint's `{error: "text"}` (400) and `{status: "error", message}`. */
export function upstreamMessageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.message === 'string') return b.message;
  if (typeof b.error === 'string') return b.error;
  if (typeof b.detail === 'string') return b.detail;
  return undefined;
}

/** True when a 2xx body is really an error envelope: `{error: true}`, `{status: "error"}`, or the player endpoint's bare `{error: "text"}`. */
export function isErrorEnvelope(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  if (b.error === true || b.status === 'error') return true;
  return typeof b.error === 'string' && Object.keys(b).length <= 3 && !('uid' in b) && !('name' in b);
}

/** ms to wait before retrying, from `Retry-After` or a message like the real 429's "You can request an update in 16 minutes."; `now` is ms since the epoch. */
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
