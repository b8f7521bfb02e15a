/** Posts waiting for a channel's next digest, keyed by (guild, feed, post) so a fan-out repeated after a crash adds nothing twice. */
import type { Db } from './database.js';
import { storedPostSchema, type StoredPost } from './feed-state.js';

export interface DigestItem {
  post: StoredPost;
  /** Epoch ms. */
  foundAt: number;
}

/** Off the reply path: no deadlines; errors propagate to the poller. */
export class FeedDigestsRepository {
  constructor(private readonly db: Db) {}

  async add(guildId: string, feed: string, post: StoredPost, foundAt: number): Promise<void> {
    await this.db
      .insertInto('digest_items')
      .values({ guild_id: guildId, feed, post_id: post.id, post: JSON.stringify(post), found_at: foundAt })
      .onConflict((oc) => oc.columns(['guild_id', 'feed', 'post_id']).doNothing())
      .execute();
  }

  /** Oldest first. */
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

  /** `foundUpTo` in ms. */
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
