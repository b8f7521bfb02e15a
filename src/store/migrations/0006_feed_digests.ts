/** Migration 0006: feed digests. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('feed_subscriptions').addColumn('digest_every', 'text').execute();
    await db.schema.alterTable('feed_subscriptions').addColumn('digest_at', 'integer').execute();
    await db.schema.alterTable('feed_subscriptions').addColumn('digest_period', 'text').execute();
    await db.schema
      .createTable('digest_items')
      .addColumn('guild_id', 'text', (c) => c.notNull())
      .addColumn('feed', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('post', 'text', (c) => c.notNull())
      .addColumn('found_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('digest_items_pk', ['guild_id', 'feed', 'post_id'])
      .execute();
  },
};
