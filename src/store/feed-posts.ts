/**
 * A hash and revision per feed post, so a post the API changes after delivery is edited in place. It is
 * marked `edits_pending` in the same transaction as its new revision, so a crash mid-edits resumes on restart.
 */
import type { Db } from './database.js';
import { storedPostSchema, type StoredPost } from './feed-state.js';

export interface HashedPost {
  post: StoredPost;
  hash: string;
  /** A read missing its text may not count as a correction. */
  credible: boolean;
}

export interface Reconciled {
  revisions: Map<string, number>;
  corrected: { postId: string; revision: number }[];
}

export interface PendingEdit {
  post: StoredPost;
  revision: number;
  /** Epoch ms the correction was found. */
  at: number;
}

/** Off the reply path: no deadlines; errors propagate to the poller, which tries again next poll. */
export class FeedPostsRepository {
  constructor(private readonly db: Db) {}

  /**
   * One transaction. An unknown post starts at revision 1, never edited. A credible change bumps the revision
   * and replaces a pending fan-out's copy too, so channels not yet reached get the corrected text.
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

  /** A post never hashed is absent. */
  async revisions(feed: string, ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('feed_posts').select(['post_id', 'revision']).where('feed', '=', feed).where('post_id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.post_id, Number(r.revision)]));
  }

  /** The stored posts of `feed` among `ids`, by id; a post never read (or unreadable) is absent. One indexed query. */
  async posts(feed: string, ids: readonly string[]): Promise<Map<string, StoredPost>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('feed_posts')
      .select(['post_id', 'post'])
      .where('feed', '=', feed)
      .where('post_id', 'in', [...ids])
      .execute();
    const out = new Map<string, StoredPost>();
    for (const r of rows) {
      const post = storedPostSchema.safeParse(JSON.parse(r.post));
      if (post.success) out.set(r.post_id, post.data);
    }
    return out;
  }

  /** Oldest correction first. */
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

  /** No-op if the post changed again meanwhile. */
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
