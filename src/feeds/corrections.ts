/**
 * Posts corrected in place: when the API changes a post already delivered (its title,
 * overview or full text), every message delivered for it within {@link EDIT_WINDOW_MS} is edited
 * (Discord: "Edit Message", PATCH /channels/{channel}/messages/{message}) instead of posted again.
 *
 * - Which text a message shows is the `revision` of its delivery (`deliveries.revision`); a correction
 *   raises the post's revision (src/store/feed-posts.ts) and the editor brings every message below it
 *   up to date. An edit is idempotent, so one repeated after a crash shows nothing twice.
 * - An edit Discord refuses for good (the message or channel was deleted, access or permission was
 *   taken away) is recorded with its reason and not retried; a temporary failure is retried on the
 *   next polls, {@link MAX_EDIT_ATTEMPTS} times at most.
 * - Messages older than the window are left as they are.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../core/logger.js';
import type { MessagePayload } from '../render/view.js';
import type { Db } from '../store/database.js';
import { type DeliveryKey, type FeedTransport } from './delivery.js';
import { classifyError, gaveUpReason } from '../core/discord-errors.js';

/** How long after its delivery a message is still corrected in place (ms): 14 days. */
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

/**
 * The content hash of a post: SHA-256 (hex) of its title, overview and full text, each trimmed, with
 * line endings and runs of spaces normalised, null read as empty: the API's formatting drift
 * (`\r\n` against `\n`, a trailing space, null against "") is not a correction.
 */
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

/**
 * Whether a changed read of a post may be taken as a correction: it still has a title and some text.
 * A read with the text missing (a partial or broken answer) is not, so it never blanks messages.
 */
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

/** The result of one edit. */
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

  /**
   * How many deliveries of the post are not settled for `revision`: messages still to edit, plus sends
   * still in progress or waiting to retry (they may settle showing an older text).
   */
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

  /**
   * Edits one message to show `revision` and records the outcome (only if the message still shows an
   * older revision, so two editors never undo each other). Never throws for a Discord error; store
   * errors propagate (the poller tries again next poll).
   */
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
