/**
 * The posts waiting for a channel's next digest (`digest_items`, src/feeds/digest.ts): added by the
 * fan-out instead of a message, removed once the digest listing them is delivered. Keyed by
 * (guild, feed, post), so a fan-out repeated after a crash adds nothing twice.
 *
 * Table and migration: src/store/schema.ts (`0006_feed_digests`).
 */
import type { Db } from './database.js';
import { storedPostSchema, type StoredPost } from './feed-state.js';

/** A post waiting for a digest. */
export interface DigestItem {
  post: StoredPost;
  /** When the poller found it, ms since the epoch. */
  foundAt: number;
}

/** Reads and writes `digest_items`. Off the reply path: no deadlines; errors propagate to the poller. */
export class FeedDigestsRepository {
  constructor(private readonly db: Db) {}

  /** Adds a post to the guild's next digest of `feed` (nothing if it is there already). */
  async add(guildId: string, feed: string, post: StoredPost, foundAt: number): Promise<void> {
    await this.db
      .insertInto('digest_items')
      .values({ guild_id: guildId, feed, post_id: post.id, post: JSON.stringify(post), found_at: foundAt })
      .onConflict((oc) => oc.columns(['guild_id', 'feed', 'post_id']).doNothing())
      .execute();
  }

  /** The posts waiting for the guild's next digest of `feed`, oldest first. */
  async items(guildId: string, feed: string): Promise<DigestItem[]> {
    const rows = await this.db
      .selectFrom('digest_items')
      .select(['post', 'found_at'])
      .where('guild_id', '=', guildId)
      .where('feed', '=', feed)
      .orderBy('found_at')
      .orderBy('post_id')
      .execute();
    const out: DigestItem[] = [];
    for (const r of rows) {
      const post = storedPostSchema.safeParse(JSON.parse(r.post));
      if (post.success) out.push({ post: post.data, foundAt: Number(r.found_at) });
    }
    return out;
  }

  /** Removes the posts a delivered digest listed: `ids`, or every post found up to `foundUpTo` (ms). */
  async remove(guildId: string, feed: string, which: { ids: string[] } | { foundUpTo: number }): Promise<void> {
    let q = this.db.deleteFrom('digest_items').where('guild_id', '=', guildId).where('feed', '=', feed);
    if ('ids' in which) {
      if (which.ids.length === 0) return;
      q = q.where('post_id', 'in', which.ids);
    } else {
      q = q.where('found_at', '<=', which.foundUpTo);
    }
    await q.execute();
  }
}
