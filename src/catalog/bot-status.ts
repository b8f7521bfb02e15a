/**
 * What /status tells: whether the game API answers now, how fresh the bot's data is, and the shard serving the server,
 * read within {@link STATUS_WAIT_MS} so that the answer comes when the API or the store does not.
 */
import type { RivalsApi } from '../api/client.js';
import { ApiError } from '../core/api-errors.js';
import { settleWithin } from '../core/deadline.js';
import type { Logger } from '../core/logger.js';
import type { ApiState, BotStatus, Freshness, ShardInfo } from '../render/status.js';

export type { ApiState, BotStatus, Freshness, ShardInfo };

/** The bot's own state, for /status (built in src/app/background.ts over the runtime and the store; `CommandContext.status`). */
export interface BotStatusSource {
  /** When this process started serving, ms since the epoch. */
  startedAt: number;
  /** The shard serving `guildId` (DMs and a member's own install: shard 0); null without a gateway (the playground, the CLI). */
  shard(guildId: string | null): ShardInfo | null;
  /** Where members report a problem: `SUPPORT_URL`, else the application's owner (a user id), else neither. */
  reportTo(): { url?: string; ownerId?: string };
  /** When the feed poller last read the feeds, ms; null before the first poll. @throws the store's error. */
  lastFeedRead(): Promise<number | null>;
  /** When the tracker last read a tracked player, ms; null before the first. @throws the store's error. */
  lastTrackingRead(): Promise<number | null>;
}

/** How long the API gets to answer the probe, and the store each of its reads, ms: /status answers within a second. */
export const STATUS_WAIT_MS = 700;
/** An answer from the API this recent (ms) says it answers: no probe is sent. */
export const RECENT_ANSWER_MS = 60_000;

/** What the API's state is now: what this process's requests last met when recent, else a probe of {@link STATUS_WAIT_MS}. */
async function apiState(api: RivalsApi, now: () => number): Promise<ApiState> {
  const health = api.health();
  if (health.pausedMs > 0) return { state: 'held', by: 'api', forMs: health.pausedMs };
  // A probe would wait for the key's rate past the wait: what it would find is that the bot's share is used up.
  if (health.queuedMs > STATUS_WAIT_MS) return { state: 'held', by: 'budget', forMs: health.queuedMs };
  const answered = health.answeredAt;
  if (answered !== null && now() - answered < RECENT_ANSWER_MS && (health.failedAt === null || health.failedAt < answered))
    return { state: 'answering', at: answered };
  const started = performance.now();
  try {
    await api.probe(STATUS_WAIT_MS);
    return { state: 'answering', at: now(), tookMs: Math.round(performance.now() - started) };
  } catch (err) {
    if (err instanceof ApiError) {
      if (err.kind === 'rate_limited') return { state: 'held', by: err.status === 429 ? 'api' : 'budget', forMs: err.retryAfterMs ?? 0 };
      // It answered, if not as asked: a 404 or a shape the bot did not expect still says it is up.
      if (err.kind !== 'unavailable' && err.kind !== 'timeout') return { state: 'answering', at: now(), tookMs: Math.round(performance.now() - started) };
      // An `unavailable` without a status never reached the API (refused, reset, no such host); with one, it answered a 5xx.
      const why = err.kind === 'unavailable' && err.status === undefined ? 'unreachable' : err.kind;
      return { state: 'down', why, lastAnswerAt: api.health().answeredAt };
    }
    // The probe's own time ran out (an AbortError): no answer.
    return { state: 'down', why: 'timeout', lastAnswerAt: api.health().answeredAt };
  }
}

/** A store read within {@link STATUS_WAIT_MS}; `unknown` when it fails or is late (logged). */
async function freshness(read: (() => Promise<number | null>) | undefined, what: string, logger: Logger): Promise<Freshness | undefined> {
  if (!read) return undefined;
  try {
    return await settleWithin(read(), STATUS_WAIT_MS, () => 'unknown' as const);
  } catch (err) {
    logger.warn({ err, what }, 'could not read the last time for /status');
    return 'unknown';
  }
}

/** Everything /status shows, within about {@link STATUS_WAIT_MS}; never rejects. `guildId` the server asked from (null: a DM). */
export async function readBotStatus(
  ctx: { api: RivalsApi; status?: BotStatusSource; logger: Logger; now: () => number },
  guildId: string | null,
): Promise<BotStatus> {
  const { api, status, logger, now } = ctx;
  const [apiNow, feedsReadAt, trackingReadAt] = await Promise.all([
    apiState(api, now),
    freshness(status && (() => status.lastFeedRead()), 'feeds', logger),
    freshness(status && (() => status.lastTrackingRead()), 'tracking', logger),
  ]);
  return {
    now: now(),
    startedAt: status?.startedAt ?? null,
    shard: status?.shard(guildId) ?? null,
    api: apiNow,
    rateLimitedAt: api.health().rateLimitedAt,
    feedsReadAt,
    trackingReadAt,
    reportTo: status?.reportTo() ?? {},
  };
}
