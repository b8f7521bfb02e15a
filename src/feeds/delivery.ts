/**
 * Exactly-once delivery of a feed post to a channel: claimed in `deliveries` before the send (a unique insert, or a compare-and-set for a
 * retry) and marked done after. A crash between send and mark leaves the claim, taken over once its lease has passed. Each send carries a
 * deterministic `nonce` with `enforce_nonce` (Discord: "Create Message"), so a send repeated within Discord's nonce window returns the
 * message already created; a takeover comes after that window may have closed, so it first looks for the message in the channel.
 */
import { createHash } from 'node:crypto';
import { classifyError } from '../core/discord-errors.js';
import type { Db } from '../store/database.js';
import type { Logger } from '../core/logger.js';
import type { MessagePayload } from '../render/view.js';
import { NO_METRICS, type Metrics } from '../core/metrics.js';

/** Sends messages to Discord channels (discord.js REST in production, a fake in tests). */
export interface FeedTransport {
  /** POST /channels/{id}/messages; resolves with the message id. Rejects with the REST error (with `code` and `status`). */
  send(channelId: string, body: MessagePayload & { nonce: string; enforce_nonce: true }): Promise<{ id: string }>;
  /** POST /channels/{id}/messages/{message}/crosspost (announcement channels). */
  crosspost(channelId: string, messageId: string): Promise<void>;
  /** PATCH /channels/{id}/messages/{message} (Discord: "Edit Message"). Rejects with the REST error (10008 Unknown Message when it was deleted). */
  edit(channelId: string, messageId: string, body: Pick<MessagePayload, 'embeds' | 'components' | 'allowed_mentions'>): Promise<void>;
  /** POST /channels/{id}/messages/{message}/threads: the thread's id (the message's), also when it exists already (160004). Rejects with the REST error. */
  startThread(channelId: string, messageId: string, name: string): Promise<{ id: string }>;
  /** POST /users/@me/channels (Discord: "Create DM"): the DM channel with a user, the same one each time. Rejects with the REST error. */
  openDm(userId: string): Promise<{ id: string }>;
  /**
   * The bot's own messages among the first 100 of the channel created after `afterMs` (ms since the epoch): GET
   * /channels/{id}/messages with `after` the snowflake of that time and `limit` 100 (Discord: "Get Channel Messages", which needs
   * View Channel and Read Message History). Rejects with the REST error.
   */
  ownMessagesAfter(channelId: string, afterMs: number): Promise<SentMessage[]>;
}

/** One of the bot's messages in a channel, as Discord returns it (Discord: "Message Object"). */
export interface SentMessage {
  id: string;
  /** "Used for validating a message was sent": Discord returns it for a recently created message only. */
  nonce?: string | number | null;
  content?: string;
  embeds?: { title?: string; description?: string }[];
}

/** Attempts before a delivery that keeps failing for a temporary reason is given up. */
export const MAX_ATTEMPTS = 5;
/** Wait before retry number `attempts + 1` after a temporary failure, ms: none after the first attempt, then 30 s doubling up to 30 min. */
export function retryDelayMs(attempts: number): number {
  return attempts <= 1 ? 0 : Math.min(30_000 * 2 ** (attempts - 2), 30 * 60_000);
}

/**
 * How long a claim keeps other processes off the delivery, ms; a claim left by a crash is taken over after it. Not shorter than
 * Discord's nonce window (unspecified: "the past few minutes"), which would not make the nonce a guarantee either, as a live process's
 * send can wait in the REST queue: a takeover looks in the channel instead ({@link DeliveryLedger.deliver}).
 */
export const CLAIM_LEASE_MS = 5 * 60_000;

/** How long before a taken-over claim a message of it is looked for, ms: room for Discord's clock behind ours. */
export const TAKEOVER_LOOK_BACK_MS = 60_000;

/** A delivery's stored record. */
export interface DeliveryRecord {
  /** `claimed`: sending, or crashed while sending; `retry`: backing off after a temporary failure; `failed`: given up or broken. */
  state: 'claimed' | 'retry' | 'done' | 'failed';
  attempts: number;
  /** Time of the last change, ms since the epoch. */
  at: number;
  messageId: string | null;
}

/** A delivery's identity: which post of which feed to which channel. */
export interface DeliveryKey {
  feed: string;
  postId: string;
  channelId: string;
}

const rowKey = (k: DeliveryKey) => ({ feed: k.feed, post_id: k.postId, channel_id: k.channelId });

/** The Discord message nonce of a delivery: at most 25 characters, the same on every retry. */
export function deliveryNonce(k: DeliveryKey): string {
  return createHash('sha256').update(`${k.feed}\u0000${k.postId}\u0000${k.channelId}`).digest('base64url').slice(0, 25);
}

/** A message's text as compared with a payload's: its content, then each embed's title and description, trimmed. */
const textOf = (m: { content?: string | null; embeds?: readonly { title?: string | null; description?: string | null }[] | null }): string[] => [
  (m.content ?? '').trim(),
  ...(m.embeds ?? []).flatMap((e) => [(e.title ?? '').trim(), (e.description ?? '').trim()]),
];

/**
 * Whether `message` is the one a delivery sent with `nonce` and `payload`: its nonce, while Discord still returns it; else the same
 * text ({@link textOf}: content, each embed's title and description). A payload without text is matched by its nonce only.
 */
export function isMessageOf(message: SentMessage, nonce: string, payload: MessagePayload): boolean {
  if (message.nonce !== undefined && message.nonce !== null) return String(message.nonce) === nonce;
  const text = textOf(payload);
  if (text.every((t) => t === '')) return false;
  const got = textOf(message);
  return got.length === text.length && got.every((t, i) => t === text[i]);
}

export type DeliveryOutcome =
  | { status: 'sent'; messageId: string }
  | { status: 'skipped'; reason: 'done' | 'failed' }
  | { status: 'broken'; code: number; reason: string }
  | { status: 'retry'; reason: string };

/** Claims and records deliveries; `metrics` hears each one settled here (`delivered` or `failed`; a pending retry is neither). */
export class DeliveryLedger {
  constructor(
    private readonly db: Db,
    private readonly transport: FeedTransport,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    private readonly metrics: Metrics = NO_METRICS,
  ) {}

  /** The stored record of a delivery, if any. */
  async get(k: DeliveryKey): Promise<DeliveryRecord | undefined> {
    const row = await this.db
      .selectFrom('deliveries')
      .select(['state', 'attempts', 'at', 'message_id'])
      .where((eb) => eb.and(rowKey(k)))
      .executeTakeFirst();
    return row && { state: row.state, attempts: Number(row.attempts), at: Number(row.at), messageId: row.message_id };
  }

  /** Channels whose delivery of the post is settled (`done` or `failed`), in one query on the primary key's prefix, so a resumed fan-out skips them. */
  async settledChannels(feed: string, postId: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('deliveries')
      .select('channel_id')
      .where('feed', '=', feed)
      .where('post_id', '=', postId)
      .where('state', 'in', ['done', 'failed'])
      .execute();
    return new Set(rows.map((r) => r.channel_id));
  }

  /** Starts the thread under a delivered message ({@link FeedTransport.startThread}); rejects with the REST error. */
  startThread(channelId: string, messageId: string, name: string): Promise<{ id: string }> {
    return this.transport.startThread(channelId, messageId, name);
  }

  /** The DM channel with a user ({@link FeedTransport.openDm}); rejects with the REST error. */
  openDm(userId: string): Promise<{ id: string }> {
    return this.transport.openDm(userId);
  }

  /** Records a delivery as done without sending anything (the marker that a feed post's thread is complete). */
  async markDone(k: DeliveryKey): Promise<void> {
    const at = this.now();
    await this.db
      .insertInto('deliveries')
      .values({ ...rowKey(k), state: 'done', attempts: 1, at, message_id: null })
      .onConflict((oc) => oc.columns(['feed', 'post_id', 'channel_id']).doUpdateSet({ state: 'done', at }))
      .execute();
  }

  /**
   * Delivers `payload` once: skipped when settled or backing off ({@link retryDelayMs}), else claimed, sent with the nonce, published, and marked
   * done with `revision` (0 after a retry: the nonce may return an older text's message). A claim taken over from a process that died while
   * sending is first looked for in the channel ({@link FeedTransport.ownMessagesAfter}, {@link isMessageOf}): found, it is recorded as
   * delivered and not sent again. Send errors become the outcome; store errors propagate.
   */
  async deliver(k: DeliveryKey, payload: MessagePayload, publish: boolean, revision = 0): Promise<DeliveryOutcome> {
    const claim = await this.#claim(k);
    if (claim.status !== 'claimed') return claim.outcome;
    const { attempts } = claim;
    const found = claim.takenOverFrom === undefined ? undefined : await this.#alreadySent(k, payload, claim.takenOverFrom);
    if (found) return this.#delivered(k, found, publish, 0, attempts);
    let messageId: string;
    try {
      messageId = (await this.transport.send(k.channelId, { ...payload, nonce: deliveryNonce(k), enforce_nonce: true })).id;
    } catch (err) {
      const c = classifyError(err);
      this.logger.warn({ err, delivery: k, attempts, kind: c.kind }, 'feed delivery failed');
      if (c.kind === 'broken') {
        await this.#settle(k, 'failed', null);
        this.metrics.feedPosts('failed', k.feed);
        return { status: 'broken', code: c.code, reason: c.reason };
      }
      if (attempts >= MAX_ATTEMPTS) {
        await this.#settle(k, 'failed', null);
        this.metrics.feedPosts('failed', k.feed);
      } else {
        await this.#release(k, attempts);
      }
      return { status: 'retry', reason: c.reason };
    }
    return this.#delivered(k, messageId, publish, attempts === 1 ? revision : 0, attempts);
  }

  /** `messageId` is the delivery's message: published when asked, and the delivery marked done. */
  async #delivered(k: DeliveryKey, messageId: string, publish: boolean, revision: number, attempts: number): Promise<DeliveryOutcome> {
    if (publish) {
      // A failed publish leaves the post in the channel; it is not worth a second post. A message found after a takeover may be published already.
      await this.transport
        .crosspost(k.channelId, messageId)
        .catch((err: unknown) => this.logger.warn({ err, delivery: k, attempts }, 'could not publish the feed post'));
    }
    await this.#settle(k, 'done', messageId, revision);
    this.metrics.feedPosts('delivered', k.feed);
    return { status: 'sent', messageId };
  }

  /**
   * The id of the delivery's message when the process that claimed it at `claimedAt` sent it before dying: the bot's own messages
   * created since then are read and compared ({@link isMessageOf}). Undefined when none is, or when they cannot be read (no Read Message
   * History, Discord down): the send then goes out with its nonce, which Discord checks only for a few minutes.
   */
  async #alreadySent(k: DeliveryKey, payload: MessagePayload, claimedAt: number): Promise<string | undefined> {
    try {
      const nonce = deliveryNonce(k);
      const messages = await this.transport.ownMessagesAfter(k.channelId, claimedAt - TAKEOVER_LOOK_BACK_MS);
      const found = messages.find((m) => isMessageOf(m, nonce, payload));
      if (found) this.logger.info({ delivery: k, messageId: found.id }, 'a delivery taken over was already in the channel: recorded, not sent again');
      return found?.id;
    } catch (err) {
      this.logger.warn({ err, delivery: k }, 'could not read the channel for a delivery taken over: sent again with its nonce');
      return undefined;
    }
  }

  /**
   * Takes the delivery for this attempt, or says why not; `takenOverFrom` is the time of the claim taken over from a process that did not
   * finish it (it may have sent the message).
   */
  async #claim(k: DeliveryKey): Promise<{ status: 'claimed'; attempts: number; takenOverFrom?: number } | { status: 'not'; outcome: DeliveryOutcome }> {
    const at = this.now();
    const inserted = await this.db
      .insertInto('deliveries')
      .values({ ...rowKey(k), state: 'claimed', attempts: 1, at, message_id: null })
      .onConflict((oc) => oc.columns(['feed', 'post_id', 'channel_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { status: 'claimed', attempts: 1 };
    const previous = await this.get(k);
    if (!previous) return { status: 'not', outcome: { status: 'retry', reason: 'claimed elsewhere' } };
    if (previous.state === 'done') return { status: 'not', outcome: { status: 'skipped', reason: 'done' } };
    if (previous.state === 'failed') return { status: 'not', outcome: { status: 'skipped', reason: 'failed' } };
    // Another process is sending it (or crashed while sending: taken over once the lease has passed).
    if (previous.state === 'claimed' && at < previous.at + Math.max(CLAIM_LEASE_MS, retryDelayMs(previous.attempts)))
      return { status: 'not', outcome: { status: 'retry', reason: 'claimed elsewhere' } };
    if (at < previous.at + retryDelayMs(previous.attempts)) return { status: 'not', outcome: { status: 'retry', reason: 'backing off' } };
    const attempts = previous.attempts + 1;
    const updated = await this.db
      .updateTable('deliveries')
      .set({ state: 'claimed', attempts, at })
      .where((eb) => eb.and(rowKey(k)))
      .where('state', '=', previous.state)
      .where('attempts', '=', previous.attempts)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return { status: 'not', outcome: { status: 'retry', reason: 'claimed elsewhere' } };
    return { status: 'claimed', attempts, ...(previous.state === 'claimed' ? { takenOverFrom: previous.at } : {}) };
  }

  /** The attempt failed for a temporary reason: the delivery waits for its back-off (unless another process took the claim over meanwhile). */
  async #release(k: DeliveryKey, attempts: number): Promise<void> {
    await this.db
      .updateTable('deliveries')
      .set({ state: 'retry', at: this.now() })
      .where((eb) => eb.and(rowKey(k)))
      .where('state', '=', 'claimed')
      .where('attempts', '=', attempts)
      .execute();
  }

  async #settle(k: DeliveryKey, state: 'done' | 'failed', messageId: string | null, revision = 0): Promise<void> {
    await this.db
      .updateTable('deliveries')
      .set({ state, at: this.now(), message_id: messageId, revision })
      .where((eb) => eb.and(rowKey(k)))
      .execute();
  }
}
