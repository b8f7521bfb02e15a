/**
 * What each feed post said when the poller last read it (`feed_posts`): a content hash and a revision
 * per post, so a post the API changes after it was delivered is told apart from a new one, and the
 * messages already delivered for it are edited instead of posted again ("posts corrected in
 * place"). A changed post is marked `edits_pending` in the same transaction that records its new
 * revision, and stays so until every message of it is settled: a crash in the middle of the edits
 * resumes on restart.
 *
 * Table and migration: src/store/schema.ts (`0003_feed_corrections`).
 */
import type { Db } from './database.js';
import { storedPostSchema, type StoredPost } from './feed-state.js';

/** A post as read from the API, with the hash of what a correction may change ({@link contentHash} in src/feeds/corrections.ts). */
export interface HashedPost {
  post: StoredPost;
  hash: string;
  /** Whether a change in this read may be taken as a correction (`isCredibleCorrection`): a read missing its text is not. */
  credible: boolean;
}

/** What {@link FeedPostsRepository.reconcile} found. */
export interface Reconciled {
  /** Every post read, with its current revision (1 for a post never seen before). */
  revisions: Map<string, number>;
  /** Posts whose content changed since they were last read, with their new revision. */
  corrected: { postId: string; revision: number }[];
}

/** A corrected post whose delivered messages are still to be edited. */
export interface PendingEdit {
  post: StoredPost;
  revision: number;
  /** When the correction was found, ms since the epoch. */
  at: number;
}

/** Reads and writes `feed_posts`. Off the reply path: no deadlines; errors propagate to the poller, which tries again next poll. */
export class FeedPostsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records what the API says of `posts` now, in one transaction: a post not known yet is stored at
   * revision 1 (never edited: it is new, or it was delivered before hashes were kept); a known post
   * whose hash changed in a credible read gets the next revision, its stored copy and any pending fan-out's copy are
   * replaced (channels not yet reached get the corrected text), and it is marked `edits_pending`.
   */
  async reconcile(feed: string, posts: HashedPost[], now: number): Promise<Reconciled> {
    const revisions = new Map<string, number>();
    const corrected: Reconciled['corrected'] = [];
    if (posts.length === 0) return { revisions, corrected };
    await this.db.transaction().execute(async (trx) => {
      const ids = posts.map((p) => p.post.id);
      const known = new Map(
        (await trx.selectFrom('feed_posts').select(['post_id', 'hash', 'revision']).where('feed', '=', feed).where('post_id', 'in', ids).execute()).map((r) => [
          r.post_id,
          r,
        ]),
      );
      for (const { post, hash, credible } of posts) {
        const row = known.get(post.id);
        const json = JSON.stringify(post);
        if (!row) {
          await trx
            .insertInto('feed_posts')
            .values({ feed, post_id: post.id, hash, revision: 1, post: json, edits_pending: 0, updated_at: now })
            .onConflict((oc) => oc.columns(['feed', 'post_id']).doNothing())
            .execute();
          revisions.set(post.id, 1);
          continue;
        }
        const revision = Number(row.revision);
        if (row.hash === hash || !credible) {
          revisions.set(post.id, revision);
          continue;
        }
        const next = revision + 1;
        await trx
          .updateTable('feed_posts')
          .set({ hash, revision: next, post: json, edits_pending: 1, updated_at: now })
          .where('feed', '=', feed)
          .where('post_id', '=', post.id)
          .where('revision', '=', revision)
          .execute();
        await trx
          .updateTable('fan_outs')
          .set({ post: json })
          .where('feed', '=', feed)
          .where('post_id', '=', post.id)
          .where('finished_at', 'is', null)
          .execute();
        revisions.set(post.id, next);
        corrected.push({ postId: post.id, revision: next });
      }
    });
    return { revisions, corrected };
  }

  /** The current revision of each of `ids` that is known (a post the poller never hashed is absent). */
  async revisions(feed: string, ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('feed_posts').select(['post_id', 'revision']).where('feed', '=', feed).where('post_id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.post_id, Number(r.revision)]));
  }

  /** Corrected posts of `feed` whose messages are still to be edited, oldest correction first. */
  async pendingEdits(feed: string): Promise<PendingEdit[]> {
    const rows = await this.db
      .selectFrom('feed_posts')
      .select(['post', 'revision', 'updated_at'])
      .where('feed', '=', feed)
      .where('edits_pending', '=', 1)
      .orderBy('updated_at')
      .execute();
    const out: PendingEdit[] = [];
    for (const r of rows) {
      const post = storedPostSchema.safeParse(JSON.parse(r.post));
      if (post.success) out.push({ post: post.data, revision: Number(r.revision), at: Number(r.updated_at) });
    }
    return out;
  }

  /** Every message of `revision` of the post is settled (unless the post changed again meanwhile). */
  async finishEdits(feed: string, postId: string, revision: number): Promise<void> {
    await this.db
      .updateTable('feed_posts')
      .set({ edits_pending: 0 })
      .where('feed', '=', feed)
      .where('post_id', '=', postId)
      .where('revision', '=', revision)
      .execute();
  }
}
