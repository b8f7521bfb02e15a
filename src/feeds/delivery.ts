/**
 * Exactly-once delivery of a feed post to a channel. A delivery is claimed in the store before it
 * is sent and marked done after. The one ambiguous case, a crash between the send and the mark, is
 * closed by Discord itself: every send carries a deterministic `nonce` with `enforce_nonce`
 * (Discord: "Create Message"), so a retried send returns the message already created instead of
 * posting it twice.
 */
import { createHash } from 'node:crypto';
import type Keyv from 'keyv';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { MessagePayload } from '../render/view.js';

/** Sends messages to Discord channels (discord.js REST in production, a fake in tests). */
export interface FeedTransport {
  /** POST /channels/{id}/messages; resolves with the message id. Rejects with the REST error (with `code` and `status`). */
  send(channelId: string, body: MessagePayload & { nonce: string; enforce_nonce: true }): Promise<{ id: string }>;
  /** POST /channels/{id}/messages/{message}/crosspost (announcement channels). */
  crosspost(channelId: string, messageId: string): Promise<void>;
}

/** Discord JSON error codes that no retry fixes (Discord: "JSON Error Codes"). */
export const PERMANENT_ERRORS: Record<number, string> = {
  10003: 'Unknown Channel: the channel was deleted',
  50001: 'Missing Access: the bot cannot see the channel',
  50013: 'Missing Permissions: the bot cannot post embeds in the channel',
};

/** How a failed send is treated: `broken` marks the subscription; `retry` tries again on a later poll. */
export function classifyError(err: unknown): { kind: 'broken'; code: number; reason: string } | { kind: 'retry'; reason: string } {
  const e = err as { code?: unknown; status?: unknown; message?: unknown };
  const code = typeof e.code === 'number' ? e.code : null;
  if (code !== null && PERMANENT_ERRORS[code]) return { kind: 'broken', code, reason: PERMANENT_ERRORS[code] };
  if (e.status === 404) return { kind: 'broken', code: code ?? 10003, reason: PERMANENT_ERRORS[10003]! };
  if (e.status === 403) return { kind: 'broken', code: code ?? 50013, reason: PERMANENT_ERRORS[50013]! };
  return { kind: 'retry', reason: typeof e.message === 'string' ? e.message : String(err) };
}

/** Attempts before a delivery that keeps failing for a temporary reason is given up. */
export const MAX_ATTEMPTS = 5;
/**
 * Wait before retry number `attempts + 1` after a temporary failure: none after the first attempt
 * (a claim left by a crash is retried at once), then 30 s doubling up to 30 min.
 */
export function retryDelayMs(attempts: number): number {
  return attempts <= 1 ? 0 : Math.min(30_000 * 2 ** (attempts - 2), 30 * 60_000);
}

/** Delivery records are kept this long, far past any retry. */
const LEDGER_TTL_MS = 30 * 24 * 60 * 60_000;

const record = z.object({
  v: z.literal(1),
  state: z.enum(['claimed', 'done', 'failed']),
  attempts: z.number(),
  at: z.number(),
  messageId: z.string().nullable(),
});
type DeliveryRecord = z.output<typeof record>;

/** A delivery's identity: which post of which feed to which channel. */
export interface DeliveryKey {
  feed: string;
  postId: string;
  channelId: string;
}

/** The Discord message nonce of a delivery: at most 25 characters, the same on every retry. */
export function deliveryNonce(k: DeliveryKey): string {
  return createHash('sha256').update(`${k.feed}\u0000${k.postId}\u0000${k.channelId}`).digest('base64url').slice(0, 25);
}

/** The result of one delivery attempt. */
export type DeliveryOutcome =
  | { status: 'sent'; messageId: string }
  | { status: 'skipped'; reason: 'done' | 'failed' }
  | { status: 'broken'; code: number; reason: string }
  | { status: 'retry'; reason: string };

/** Claims and records deliveries in the state store. */
export class DeliveryLedger {
  constructor(
    private readonly store: Keyv,
    private readonly transport: FeedTransport,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stored record of a delivery, if any. */
  async get(k: DeliveryKey): Promise<DeliveryRecord | undefined> {
    const parsed = record.safeParse(await this.store.get(this.#key(k)));
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * Delivers `payload` once: skipped when already done (or given up) or while backing off after a
   * temporary failure ({@link retryDelayMs}); otherwise claimed, sent with the
   * delivery's nonce, optionally published, then marked done. Never throws for a send error: it is
   * classified and reported in the outcome.
   */
  async deliver(k: DeliveryKey, payload: MessagePayload, publish: boolean): Promise<DeliveryOutcome> {
    const previous = await this.get(k);
    if (previous?.state === 'done') return { status: 'skipped', reason: 'done' };
    if (previous?.state === 'failed') return { status: 'skipped', reason: 'failed' };
    if (previous && this.now() < previous.at + retryDelayMs(previous.attempts)) return { status: 'retry', reason: 'backing off' };
    const attempts = (previous?.attempts ?? 0) + 1;
    await this.#write(k, { v: 1, state: 'claimed', attempts, at: this.now(), messageId: null });
    let messageId: string;
    try {
      messageId = (await this.transport.send(k.channelId, { ...payload, nonce: deliveryNonce(k), enforce_nonce: true })).id;
    } catch (err) {
      const c = classifyError(err);
      this.logger.warn({ err, delivery: k, attempts, kind: c.kind }, 'feed delivery failed');
      if (c.kind === 'broken') {
        await this.#write(k, { v: 1, state: 'failed', attempts, at: this.now(), messageId: null });
        return { status: 'broken', code: c.code, reason: c.reason };
      }
      if (attempts >= MAX_ATTEMPTS) await this.#write(k, { v: 1, state: 'failed', attempts, at: this.now(), messageId: null });
      return { status: 'retry', reason: c.reason };
    }
    if (publish) {
      // A failed publish leaves the post in the channel; it is not worth a second post.
      await this.transport.crosspost(k.channelId, messageId).catch((err: unknown) => this.logger.warn({ err, delivery: k }, 'could not publish the feed post'));
    }
    await this.#write(k, { v: 1, state: 'done', attempts, at: this.now(), messageId });
    return { status: 'sent', messageId };
  }

  #key(k: DeliveryKey): string {
    return `delivery:${k.feed}:${k.postId}:${k.channelId}`;
  }

  async #write(k: DeliveryKey, value: DeliveryRecord): Promise<void> {
    await this.store.set(this.#key(k), value, LEDGER_TTL_MS);
  }
}
