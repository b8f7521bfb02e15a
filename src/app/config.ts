import * as z from 'zod';
import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_MAX_ENTRIES } from '../cache/memory-level.js';
import { RESOURCES, type Resource } from '../cache/ttl.js';
import { DEFAULT_MATCH_SHARE } from '../jobs/tracker.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Never echoed in an error message. */
const SECRET_VARIABLES = new Set(['DISCORD_TOKEN', 'RIVALS_API_KEY', 'REDIS_URL', 'DATABASE_URL', 'DISCORD_CLIENT_SECRET', 'WEB_SESSION_SECRET']);

/** A conservative rate for a personal key: the spec does not state the tiers. */
export const DEFAULT_RIVALS_API_RPM = 60;

/** Shards one cluster process runs (docs/operations.md, "Sharding across machines"). */
export const DEFAULT_SHARDS_PER_CLUSTER = 4;

const optionalText = z.string().trim().min(1).optional();
const url = (fallback?: string) => {
  const schema = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
  return fallback === undefined ? schema.optional() : schema.default(fallback);
};
/**
 * A whole number from `min` to `max`: every refusal names the range, for the value not a number too (the `(got …)`
 * beside it is added where the error is written).
 */
const wholeIn = (min: number, max: number, note = '') => {
  const range = `must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}${note}`;
  return z.coerce.number({ error: range }).int(range).min(min, range).max(max, range);
};
const positiveInt = (fallback: number) =>
  z.coerce.number({ error: 'must be a whole number from 1' }).int('must be a whole number from 1').positive('must be a whole number from 1').default(fallback);
/** Seconds above zero (fractions allowed: tests set them small). */
const positiveSeconds = (fallback: number) =>
  z.coerce.number({ error: 'must be a number of seconds above 0' }).positive('must be a number of seconds above 0').default(fallback);

/** Comma-separated whole numbers from 0 (shard or cluster IDs), sorted, without repeats. */
const idList = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (!raw?.trim()) return undefined;
    const ids = raw.split(',').map((s) => s.trim());
    if (ids.some((id) => !/^\d+$/.test(id))) {
      ctx.addIssue({ code: 'custom', message: 'must be whole numbers from 0, separated by commas (e.g. "0,1")' });
      return z.NEVER;
    }
    return [...new Set(ids.map(Number))].sort((a, b) => a - b);
  });

/** `CACHE_TTL`: `resource=seconds` pairs over the TTL table (src/cache/ttl.ts), e.g. `player=120,heroes=3600`; `forever` never expires. */
const ttlOverrides = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const out: Partial<Record<Resource, number>> = {};
    if (!raw?.trim()) return out;
    for (const pair of raw.split(',')) {
      const [name, value] = pair.split('=').map((s) => s.trim());
      if (!name || !(RESOURCES as readonly string[]).includes(name)) {
        ctx.addIssue({ code: 'custom', message: `unknown resource "${name ?? ''}" (known: ${RESOURCES.join(', ')})` });
        return z.NEVER;
      }
      const seconds = value === 'forever' ? Number.POSITIVE_INFINITY : Number(value);
      if (!(seconds > 0)) {
        ctx.addIssue({ code: 'custom', message: `"${name}" needs a positive number of seconds or "forever"` });
        return z.NEVER;
      }
      out[name as Resource] = seconds * 1000;
    }
    return out;
  });

const schema = z.object({
  DISCORD_TOKEN: optionalText,
  DISCORD_CLIENT_ID: optionalText,
  DISCORD_DEV_GUILD_ID: optionalText,
  DISCORD_API_URL: url('https://discord.com/api'),
  RIVALS_API_KEY: optionalText,
  RIVALS_API_BASE_URL: url('https://marvelrivalsapi.com'),
  RIVALS_IMAGE_BASE_URL: url(),
  RIVALS_API_RPM: positiveInt(DEFAULT_RIVALS_API_RPM),
  RIVALS_API_TIMEOUT_MS: positiveInt(10_000),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  CACHE_MAX_ENTRIES: positiveInt(DEFAULT_CACHE_MAX_ENTRIES),
  /** Measured by each answer's JSON length (src/cache/memory-level.ts). */
  CACHE_MAX_BYTES: positiveInt(DEFAULT_CACHE_MAX_BYTES),
  CACHE_TTL: ttlOverrides,
  DATA_DIR: z.string().trim().min(1).default('./data'),
  /** Bound of the image cards' images on disk (src/api/image-store.ts). */
  IMAGE_CACHE_MB: positiveInt(100),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  FEED_POLL_SECONDS: positiveSeconds(600),
  /** Between two reads of a tracked player who plays (src/game/tracking.ts); tests set seconds. */
  TRACKING_MIN_INTERVAL_SECONDS: positiveSeconds(1800),
  /** Between two reads of a tracked player whose profile stopped changing. */
  TRACKING_MAX_INTERVAL_SECONDS: positiveSeconds(86_400),
  /** The part of tracking reads that go to match details while profiles are due too (src/jobs/tracker.ts). */
  TRACKING_MATCH_SHARE: z.coerce
    .number({ error: 'must be a number from 0 to 1' })
    .min(0, 'must be a number from 0 to 1')
    .max(1, 'must be a number from 0 to 1')
    .default(DEFAULT_MATCH_SHARE),
  PORT: wholeIn(0, 65_535, ' (0: any free port)').default(3000),
  SHARD_COUNT: z
    .string()
    .trim()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      if (raw === 'auto') return 'auto' as const;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 1) {
        ctx.addIssue({ code: 'custom', message: 'must be "auto" or a whole number from 1' });
        return z.NEVER;
      }
      return n;
    }),
  SHARDS_PER_CLUSTER: positiveInt(DEFAULT_SHARDS_PER_CLUSTER),
  SHARD_IDS: idList,
  CLUSTER_IDS: idList,
  METRICS_PORT: wholeIn(0, 65_535, ' (0: any free port)').optional(),
  DISCORD_REST_PROXY: url(),
  // Discord keeps an interaction's token 15 minutes; the acknowledgement needs 2 s of it.
  INTERACTION_BUDGET_MS: wholeIn(3_000, 900_000, ' milliseconds (15 min)').default(10_000),
  /** Where /status sends members to report a problem (a support server's invite, an issue tracker). */
  SUPPORT_URL: url(),
  /** The web dashboard (src/web/): its port, the address Discord sends admins back to, the cookie's secret, the OAuth2 client secret. */
  WEB_PORT: wholeIn(0, 65_535, ' (0: any free port)').default(3001),
  WEB_PUBLIC_URL: url(),
  WEB_SESSION_SECRET: z.string().trim().min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
  DISCORD_CLIENT_SECRET: optionalText,
});

/** Every variable read, in schema order: compose.yaml, .env.example and docs/configuration.md list each (test/deployment.test.ts). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

/** The validated configuration. Durations are in milliseconds. */
export interface Config {
  discord: { token?: string; clientId?: string; devGuildId?: string; apiUrl: string };
  rivals: {
    /** Absent: the bot runs offline on the in-process replica. */
    apiKey?: string;
    baseUrl: string;
    /** Base against which image paths are resolved; defaults to `<API host>/rivals`. */
    imageBaseUrl: string;
    requestsPerMinute: number;
    timeoutMs: number;
  };
  redisUrl?: string;
  /** PostgreSQL for durable state; absent: SQLite under `dataDir`. */
  databaseUrl?: string;
  /** `maxBytes`: bound of the in-memory response cache in bytes (its entries' JSON length); `maxEntries`: its entry bound. */
  cache: { maxEntries: number; maxBytes: number; ttlOverrides: Partial<Record<Resource, number>> };
  dataDir: string;
  /** Bytes. */
  imageCacheBytes: number;
  /** Seconds between two polls of the patch-note feeds (small values are honoured, for tests). */
  feedPollSeconds: number;
  /** The shortest and longest interval between two reads of a tracked player, ms; `matchShare` the part of reads for match details (0–1). */
  tracking: { minIntervalMs: number; maxIntervalMs: number; matchShare: number };
  logLevel: (typeof LOG_LEVELS)[number];
  port: number;
  /** Total time an interaction may take from its creation to its final answer (src/core/deadline.ts). */
  interactionBudgetMs: number;
  /**
   * docs/operations.md, "Sharding across machines"; absent without `SHARD_COUNT` (one shard). `shardCount`: `auto` (`GET /gateway/bot`) or the total across
   * machines; `shardIds` or `clusterIds` (at most one): the part this machine runs, absent for all.
   */
  sharding?: { shardCount: number | 'auto'; shardsPerCluster: number; shardIds?: number[]; clusterIds?: number[] };
  /** Port of `GET /healthz` and `GET /metrics` (src/app/ops); absent: not served. 0 picks a free port. */
  metricsPort?: number;
  /** A Discord REST proxy every process sends through (`npm run rest-proxy`, @discordjs/proxy); absent: straight to `discord.apiUrl`. */
  discordRestProxy?: string;
  /** Where /status sends members to report a problem; absent: the application's owner on Discord. */
  supportUrl?: string;
  /**
   * The web dashboard (src/web/, docs/operations.md "The dashboard"): `port` (0 picks a free one); `publicUrl` the address
   * admins open, without a trailing slash, where Discord sends them back after signing in; `sessionSecret` signs the session
   * cookie (absent: a random one per start); `clientSecret` the application's OAuth2 secret.
   */
  web: { port: number; publicUrl?: string; sessionSecret?: string; clientSecret?: string };
}

/** Thrown by {@link loadConfig}; its message names every bad variable and why, never a secret value. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n')}`);
  }
}

/**
 * Parses and validates the environment, reading only the object given; empty strings count as unset, as in most `.env` files.
 * @throws {ConfigError} naming each invalid variable.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value.trim() !== '') cleaned[key] = value;
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? 'environment');
        const got = SECRET_VARIABLES.has(variable) || cleaned[variable] === undefined ? '' : ` (got "${cleaned[variable]}")`;
        return { variable, message: `${issue.message}${got}` };
      }),
    );
  }
  const e = parsed.data;
  if (e.SHARD_IDS && e.CLUSTER_IDS) throw new ConfigError([{ variable: 'SHARD_IDS', message: 'set SHARD_IDS or CLUSTER_IDS, not both' }]);
  if ((e.SHARD_IDS || e.CLUSTER_IDS) && e.SHARD_COUNT === undefined) {
    throw new ConfigError([{ variable: e.SHARD_IDS ? 'SHARD_IDS' : 'CLUSTER_IDS', message: 'needs SHARD_COUNT (a number, or "auto")' }]);
  }
  if (typeof e.SHARD_COUNT === 'number') {
    const over = e.SHARD_IDS?.find((id) => id >= (e.SHARD_COUNT as number));
    if (over !== undefined) throw new ConfigError([{ variable: 'SHARD_IDS', message: `shard ${over} is not below SHARD_COUNT (${e.SHARD_COUNT})` }]);
    const clusters = Math.ceil(e.SHARD_COUNT / e.SHARDS_PER_CLUSTER);
    const overCluster = e.CLUSTER_IDS?.find((id) => id >= clusters);
    if (overCluster !== undefined) {
      throw new ConfigError([
        {
          variable: 'CLUSTER_IDS',
          message: `cluster ${overCluster} does not exist: ${e.SHARD_COUNT} shards at ${e.SHARDS_PER_CLUSTER} a cluster make ${clusters} clusters (0 to ${clusters - 1})`,
        },
      ]);
    }
  }
  if (e.TRACKING_MAX_INTERVAL_SECONDS < e.TRACKING_MIN_INTERVAL_SECONDS) {
    throw new ConfigError([
      {
        variable: 'TRACKING_MAX_INTERVAL_SECONDS',
        message: `must be at least TRACKING_MIN_INTERVAL_SECONDS (${e.TRACKING_MIN_INTERVAL_SECONDS}) (got "${e.TRACKING_MAX_INTERVAL_SECONDS}")`,
      },
    ]);
  }
  const baseUrl = (e.RIVALS_API_BASE_URL as string).replace(/\/+$/, '');
  return {
    discord: {
      token: e.DISCORD_TOKEN,
      clientId: e.DISCORD_CLIENT_ID,
      devGuildId: e.DISCORD_DEV_GUILD_ID,
      apiUrl: (e.DISCORD_API_URL as string).replace(/\/+$/, ''),
    },
    rivals: {
      apiKey: e.RIVALS_API_KEY,
      baseUrl,
      imageBaseUrl: (e.RIVALS_IMAGE_BASE_URL ?? `${new URL(baseUrl).origin}/rivals`).replace(/\/+$/, ''),
      requestsPerMinute: e.RIVALS_API_RPM,
      timeoutMs: e.RIVALS_API_TIMEOUT_MS,
    },
    redisUrl: e.REDIS_URL,
    databaseUrl: e.DATABASE_URL,
    cache: { maxEntries: e.CACHE_MAX_ENTRIES, maxBytes: e.CACHE_MAX_BYTES, ttlOverrides: e.CACHE_TTL },
    dataDir: e.DATA_DIR,
    imageCacheBytes: e.IMAGE_CACHE_MB * 1024 * 1024,
    feedPollSeconds: e.FEED_POLL_SECONDS,
    tracking: {
      minIntervalMs: e.TRACKING_MIN_INTERVAL_SECONDS * 1000,
      maxIntervalMs: e.TRACKING_MAX_INTERVAL_SECONDS * 1000,
      matchShare: e.TRACKING_MATCH_SHARE,
    },
    logLevel: e.LOG_LEVEL,
    port: e.PORT,
    interactionBudgetMs: e.INTERACTION_BUDGET_MS,
    sharding:
      e.SHARD_COUNT === undefined
        ? undefined
        : { shardCount: e.SHARD_COUNT, shardsPerCluster: e.SHARDS_PER_CLUSTER, shardIds: e.SHARD_IDS, clusterIds: e.CLUSTER_IDS },
    metricsPort: e.METRICS_PORT,
    discordRestProxy: e.DISCORD_REST_PROXY?.replace(/\/+$/, ''),
    supportUrl: e.SUPPORT_URL,
    web: {
      port: e.WEB_PORT,
      publicUrl: e.WEB_PUBLIC_URL?.replace(/\/+$/, ''),
      sessionSecret: e.WEB_SESSION_SECRET,
      clientSecret: e.DISCORD_CLIENT_SECRET,
    },
  };
}

/**
 * Why the dashboard cannot sign admins in with Discord, in one line naming the variables to set; null when it can.
 * It needs the application's id and OAuth2 secret, the bot's token (to read servers' channels, roles and members) and
 * the public address Discord redirects to.
 */
export function webProblem(config: Config): string | null {
  const missing = [
    ...(config.discord.token ? [] : ['DISCORD_TOKEN']),
    ...(config.discord.clientId ? [] : ['DISCORD_CLIENT_ID']),
    ...(config.web.clientSecret ? [] : ['DISCORD_CLIENT_SECRET']),
    ...(config.web.publicUrl ? [] : ['WEB_PUBLIC_URL']),
  ];
  if (missing.length === 0) return null;
  return `the web dashboard is off: set ${missing.join(', ')} (see .env.example and docs/operations.md, "The dashboard")`;
}
