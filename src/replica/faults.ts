/** The replica's fault injection, set from the environment or the loopback admin route `PUT /__replica/faults`. */
import * as z from 'zod';

/** The active faults. All optional; the empty object means a healthy replica. */
export interface Faults {
  /** Added latency in ms: a fixed value, or `[min, max]` drawn uniformly per request. */
  latencyMs?: number | [number, number];
  /** Share of requests (0 to 1) answered with `errorStatus` instead. */
  errorRate?: number;
  /** Default 500. */
  errorStatus?: number;
  /** Every request is answered with this status (429, 500, 503...) and the endpoint's error body. */
  forceStatus?: number;
  /** `Retry-After` seconds sent with 429 and 503 answers. */
  retryAfterSeconds?: number;
  /** Answer 200 with a truncated, unparseable JSON body. */
  malformed?: boolean;
  /** Answer 200 with well-formed JSON of a form no endpoint has (`{"result": {"unexpected": true}}`): the API's drift. */
  wrongShape?: boolean;
  /** Never answer: the connection stays open with no status line. */
  hang?: boolean;
  /** Send status and headers, then stall forever in the middle of the body. */
  hangBody?: boolean;
  /** With a `?`, matched against path and query (`/api/v1/player/1?season`). */
  pathPrefix?: string;
  /** Not a failure: the player update's cooldown in seconds, so a test can shorten it; `pathPrefix` does not limit it. */
  updateCooldownSeconds?: number;
}

const latency = z.union([
  z.number().min(0).max(120_000),
  z.tuple([z.number().min(0).max(120_000), z.number().min(0).max(120_000)]).refine(([a, b]) => a <= b, 'min must not exceed max'),
]);

export const faultsSchema = z
  .object({
    latencyMs: latency.optional(),
    errorRate: z.number().min(0).max(1).optional(),
    errorStatus: z.number().int().min(400).max(599).optional(),
    forceStatus: z.number().int().min(400).max(599).optional(),
    retryAfterSeconds: z.number().min(0).max(86_400).optional(),
    malformed: z.boolean().optional(),
    wrongShape: z.boolean().optional(),
    hang: z.boolean().optional(),
    hangBody: z.boolean().optional(),
    pathPrefix: z.string().startsWith('/').optional(),
    updateCooldownSeconds: z
      .number()
      .min(0)
      .max(7 * 86_400)
      .optional(),
  })
  .strict();

/**
 * From `REPLICA_*`: `LATENCY_MS` ("200" or "50-300"), `ERROR_RATE` (0 to 1), `ERROR_STATUS`, `FORCE_STATUS`,
 * `RETRY_AFTER` (s), `MALFORMED`, `WRONG_SHAPE`, `HANG`, `HANG_BODY` (`1`/`true`), `FAULT_PATH`, `UPDATE_COOLDOWN_S`.
 * @throws {Error} naming the variable when a value is invalid.
 */
export function faultsFromEnv(env: Record<string, string | undefined>): Faults {
  const raw: Record<string, unknown> = {};
  const flag = (v: string | undefined) => v !== undefined && /^(1|true|yes)$/i.test(v.trim());
  const number = (name: string) => {
    const v = env[name];
    if (v === undefined || v.trim() === '') return undefined;
    const n = Number(v);
    if (!Number.isFinite(n)) throw new Error(`${name} must be a number (got "${v}")`);
    return n;
  };
  const lat = env.REPLICA_LATENCY_MS?.trim();
  if (lat) {
    const m = lat.match(/^(\d+(?:\.\d+)?)(?:\s*-\s*(\d+(?:\.\d+)?))?$/);
    if (!m) throw new Error(`REPLICA_LATENCY_MS must be "ms" or "min-max" (got "${lat}")`);
    raw.latencyMs = m[2] === undefined ? Number(m[1]) : [Number(m[1]), Number(m[2])];
  }
  raw.errorRate = number('REPLICA_ERROR_RATE');
  raw.errorStatus = number('REPLICA_ERROR_STATUS');
  raw.forceStatus = number('REPLICA_FORCE_STATUS');
  raw.retryAfterSeconds = number('REPLICA_RETRY_AFTER');
  raw.updateCooldownSeconds = number('REPLICA_UPDATE_COOLDOWN_S');
  if (flag(env.REPLICA_MALFORMED)) raw.malformed = true;
  if (flag(env.REPLICA_WRONG_SHAPE)) raw.wrongShape = true;
  if (flag(env.REPLICA_HANG)) raw.hang = true;
  if (flag(env.REPLICA_HANG_BODY)) raw.hangBody = true;
  if (env.REPLICA_FAULT_PATH?.trim()) raw.pathPrefix = env.REPLICA_FAULT_PATH.trim();
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- drops unset keys of a local copy before parsing
  for (const key of Object.keys(raw)) if (raw[key] === undefined) delete raw[key];
  const parsed = faultsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`replica fault setting ${String(issue.path[0])}: ${issue.message}`);
  }
  return parsed.data;
}

/** Ms. */
export function drawLatency(faults: Faults, random: () => number = Math.random): number {
  const l = faults.latencyMs;
  if (l === undefined) return 0;
  if (typeof l === 'number') return l;
  return l[0] + (l[1] - l[0]) * random();
}
