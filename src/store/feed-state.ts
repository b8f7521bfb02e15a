/** The poller's state per feed: posts seen, and pending fan-outs, so a crash mid-fan-out resumes instead of dropping the rest. */
import * as z from 'zod';
import { latestTime, type Db } from './database.js';

/** Far more than a first page holds. */
export const SEEN_LIMIT = 200;

export const storedPostSchema = z.object({
  id: z.string(),
  title: z.string(),
  date: z.string().nullable(),
  overview: z.string().nullable(),
  image: z.string().nullable(),
  /** Hero ids a balance post changes; absent when unreadable (a hero filter then lets it through). */
  heroes: z.array(z.string()).optional(),
  /** Absent for game versions. */
  content: z.string().optional(),
  /** Hero id → verdict, for alerts. */
  verdicts: z.record(z.string(), z.enum(['buff', 'nerf', 'adjusted', 'fixed'])).optional(),
});
export type StoredPost = z.output<typeof storedPostSchema>;

/** Off the reply path: no deadlines, errors propagate to the poller. */
export class FeedStateRepository {
  constructor(private readonly db: Db) {}

  /** Newest first; undefined before the feed's first poll. */
  async seen(feed: string): Promise<string[] | undefined> {
    const row = await this.db.selectFrom('feed_state').select('seen').where('feed', '=', feed).executeTakeFirst();
    if (!row) return undefined;
    const parsed = z.array(z.string()).safeParse(JSON.parse(row.seen));
    return parsed.success ? parsed.data : [];
  }

  /** `found` (oldest first) become pending fan-outs; `seen` (newest first) replaces the list. One transaction. */
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

  /** Notes that the poller read `feed` at `at` (ms), for /status; a feed not yet initialised is left to {@link record}. */
  async touch(feed: string, at: number): Promise<void> {
    await this.db.updateTable('feed_state').set({ updated_at: at }).where('feed', '=', feed).execute();
  }

  /** When the poller last read any feed, ms; null before the first poll. */
  lastReadAt(): Promise<number | null> {
    return latestTime(this.db, 'feed_state', 'updated_at');
  }

  /** Oldest first. */
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
