/**
 * The poller's own state, per feed: the posts already seen (`feed_state`) and the fan-outs of posts
 * found but not yet delivered everywhere (`fan_outs`), so a crash in the middle of a fan-out
 * resumes on restart instead of dropping the rest.
 */
import * as z from 'zod';
import type { Db } from './database.js';

/** Posts remembered per feed, to tell new from old (far more than a first page holds). */
export const SEEN_LIMIT = 200;

/** A feed post as the poller keeps it (`fan_outs.post`, and the former key-value store's pending posts). */
export const storedPostSchema = z.object({
  id: z.string(),
  title: z.string(),
  date: z.string().nullable(),
  overview: z.string().nullable(),
  image: z.string().nullable(),
  /** Balance posts and patch notes: the ids of the heroes the post changes (src/game/balance.ts); absent when they could not be read (a hero filter then lets it through). */
  heroes: z.array(z.string()).optional(),
  /** The full text, for feeds posting it in a thread; absent for game versions. */
  content: z.string().optional(),
  /** Balance posts and patch notes: what the post does to each hero it changes (hero id → buff, nerf, adjusted or fixed; src/game/balance.ts), for alerts. */
  verdicts: z.record(z.string(), z.enum(['buff', 'nerf', 'adjusted', 'fixed'])).optional(),
});
export type StoredPost = z.output<typeof storedPostSchema>;

/** Reads and writes `feed_state` and `fan_outs`. Off the reply path: no deadlines, errors propagate to the poller. */
export class FeedStateRepository {
  constructor(private readonly db: Db) {}

  /** The ids seen for `feed`, newest first; undefined before the feed's first poll. */
  async seen(feed: string): Promise<string[] | undefined> {
    const row = await this.db.selectFrom('feed_state').select('seen').where('feed', '=', feed).executeTakeFirst();
    if (!row) return undefined;
    const parsed = z.array(z.string()).safeParse(JSON.parse(row.seen));
    return parsed.success ? parsed.data : [];
  }

  /**
   * Records posts: `found` (oldest first) become pending fan-outs found at `foundAt`, and `seen` (newest
   * first, bounded by {@link SEEN_LIMIT}) replaces the feed's seen list. One transaction.
   */
  async record(feed: string, seen: string[], found: StoredPost[], foundAt: number): Promise<void> {
    const ids = JSON.stringify(seen.slice(0, SEEN_LIMIT));
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('feed_state')
        .values({ feed, seen: ids, updated_at: foundAt })
        .onConflict((oc) => oc.column('feed').doUpdateSet({ seen: ids, updated_at: foundAt }))
        .execute();
      for (const post of found) {
        await trx
          .insertInto('fan_outs')
          .values({ feed, post_id: post.id, post: JSON.stringify(post), found_at: foundAt, finished_at: null })
          .onConflict((oc) => oc.columns(['feed', 'post_id']).doNothing())
          .execute();
      }
    });
  }

  /** Pending fan-outs of `feed`, oldest first. */
  async pending(feed: string): Promise<{ post: StoredPost; foundAt: number }[]> {
    const rows = await this.db
      .selectFrom('fan_outs')
      .select(['post', 'found_at'])
      .where('feed', '=', feed)
      .where('finished_at', 'is', null)
      .orderBy('found_at')
      .orderBy('post_id')
      .execute();
    const out: { post: StoredPost; foundAt: number }[] = [];
    for (const r of rows) {
      const post = storedPostSchema.safeParse(JSON.parse(r.post));
      if (post.success) out.push({ post: post.data, foundAt: Number(r.found_at) });
    }
    return out;
  }

  /** Whether the post's fan-out is still pending (some channel not settled). */
  async isPending(feed: string, postId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('fan_outs')
      .select('post_id')
      .where('feed', '=', feed)
      .where('post_id', '=', postId)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every channel of the fan-out is settled. */
  async finish(feed: string, postId: string, at: number): Promise<void> {
    await this.db
      .updateTable('fan_outs')
      .set({ finished_at: at })
      .where('feed', '=', feed)
      .where('post_id', '=', postId)
      .where('finished_at', 'is', null)
      .execute();
  }
}
