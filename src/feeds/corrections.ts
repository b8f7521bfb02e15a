/**
 * Posts corrected at the source are edited in place (Discord: "Edit Message") in every message delivered within {@link EDIT_WINDOW_MS}. A
 * delivery's `revision` says which text it shows; edits are idempotent; a permanent refusal is recorded, a temporary one retried.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../core/logger.js';
import type { MessagePayload } from '../render/view.js';
import type { Db } from '../store/database.js';
import { type DeliveryKey, type FeedTransport } from './delivery.js';
import { classifyError, gaveUpReason } from '../core/discord-errors.js';

/** How long after its delivery a message is still corrected in place, ms. */
export const EDIT_WINDOW_MS = 14 * 24 * 60 * 60_000;
/** Temporary failures before an edit is given up. */
export const MAX_EDIT_ATTEMPTS = 5;
/** Messages edited at once per corrected post (discord.js's REST queue keeps each route within its rate limit). */
export const EDIT_CONCURRENCY = 8;

/** The parts of a post a correction can change (api-spec.md, "Post"): title, overview, full text. */
export interface CorrectableContent {
  title: string | null;
  overview: string | null;
  content: string | null;
}

/** SHA-256 (hex) of title, overview and full text, normalised so the API's formatting drift (`\r\n`, spaces, null against "") is not a correction. */
export function contentHash(c: CorrectableContent): string {
  const norm = (s: string | null) =>
    (s ?? '')
      .replace(/\r\n?/g, '\n')
      .replace(/[ \t\u00a0]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .trim();
  return createHash('sha256')
    .update(JSON.stringify([norm(c.title), norm(c.overview), norm(c.content)]))
    .digest('hex');
}

/** Whether a changed read counts as a correction: it keeps a title and some text, so a partial answer never blanks messages. */
export function isCredibleCorrection(c: CorrectableContent): boolean {
  return Boolean(c.title?.trim()) && Boolean(c.overview?.trim() || c.content?.trim());
}

/** A delivered message that shows an older revision of a corrected post. */
export interface EditTarget {
  channelId: string;
  messageId: string;
  /** The revision it shows (0: not known, e.g. a send that was retried). */
  revision: number;
  /** Temporary failures of edits to it so far. */
  editAttempts: number;
}

export type EditOutcome = { status: 'edited' } | { status: 'failed'; code: number | null; reason: string } | { status: 'retry'; reason: string };

/** The body of an edit: the embeds and buttons of `payload`; the content (a role ping) is left as delivered, and nobody is pinged again. */
export function editBody(payload: MessagePayload): Pick<MessagePayload, 'embeds' | 'components' | 'allowed_mentions'> {
  return { embeds: payload.embeds, components: payload.components, allowed_mentions: { parse: [] } };
}

/** Edits delivered messages of corrected posts, recording each outcome on its `deliveries` row. */
export class CorrectionEditor {
  constructor(
    private readonly db: Db,
    private readonly transport: FeedTransport,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Messages of the post delivered within the window that show a revision below `revision`. One query on the deliveries primary key. */
  async targets(feed: string, postId: string, revision: number): Promise<EditTarget[]> {
    const rows = await this.db
      .selectFrom('deliveries')
      .select(['channel_id', 'message_id', 'revision', 'edit_attempts'])
      .where('feed', '=', feed)
      .where('post_id', '=', postId)
      .where('state', '=', 'done')
      .where('message_id', 'is not', null)
      .where('revision', '<', revision)
      .where('at', '>=', this.now() - EDIT_WINDOW_MS)
      .execute();
    return rows.map((r) => ({ channelId: r.channel_id, messageId: r.message_id!, revision: Number(r.revision), editAttempts: Number(r.edit_attempts) }));
  }

  /** Deliveries of the post not settled for `revision`: messages to edit, plus sends in progress or retrying (they may settle on an older text). */
  async unsettled(feed: string, postId: string, revision: number): Promise<number> {
    const cutoff = this.now() - EDIT_WINDOW_MS;
    const row = await this.db
      .selectFrom('deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('feed', '=', feed)
      .where('post_id', '=', postId)
      .where((eb) =>
        eb.or([
          eb('state', 'in', ['claimed', 'retry']),
          eb.and([eb('state', '=', 'done'), eb('message_id', 'is not', null), eb('revision', '<', revision), eb('at', '>=', cutoff)]),
        ]),
      )
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Edits one message to `revision` and records the outcome, only over an older revision so editors never undo each other. Store errors propagate. */
  async edit(k: DeliveryKey, target: EditTarget, payload: MessagePayload, revision: number): Promise<EditOutcome> {
    let outcome: EditOutcome;
    try {
      await this.transport.edit(k.channelId, target.messageId, editBody(payload));
      outcome = { status: 'edited' };
    } catch (err) {
      const c = classifyError(err, 10008);
      outcome = c.kind === 'broken' ? { status: 'failed', code: c.code, reason: c.reason } : { status: 'retry', reason: c.reason };
      this.logger.warn({ err, delivery: k, revision, outcome: outcome.status }, 'could not edit a corrected feed post');
    }
    const at = this.now();
    const row = { feed: k.feed, post_id: k.postId, channel_id: k.channelId };
    if (outcome.status === 'retry' && target.editAttempts + 1 < MAX_EDIT_ATTEMPTS) {
      await this.db
        .updateTable('deliveries')
        .set({ edit_attempts: target.editAttempts + 1 })
        .where((eb) => eb.and(row))
        .where('revision', '<', revision)
        .execute();
      return outcome;
    }
    const error = outcome.status === 'edited' ? null : outcome.status === 'retry' ? gaveUpReason(MAX_EDIT_ATTEMPTS, outcome.reason) : outcome.reason;
    await this.db
      .updateTable('deliveries')
      .set({ revision, edited_at: at, edit_error: error, edit_attempts: 0 })
      .where((eb) => eb.and(row))
      .where('revision', '<', revision)
      .execute();
    if (outcome.status === 'retry') return { status: 'failed', code: null, reason: error! };
    return outcome;
  }
}
