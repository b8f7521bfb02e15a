/** Migration 0003: feed corrections. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('feed_posts')
      .addColumn('feed', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('post', 'text', (c) => c.notNull())
      .addColumn('edits_pending', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('feed_posts_pk', ['feed', 'post_id'])
      .execute();
    await db.schema.createIndex('feed_posts_pending').on('feed_posts').columns(['feed', 'edits_pending']).execute();
    await db.schema
      .alterTable('deliveries')
      .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('deliveries').addColumn('edited_at', 'bigint').execute();
    await db.schema.alterTable('deliveries').addColumn('edit_error', 'text').execute();
    await db.schema
      .alterTable('deliveries')
      .addColumn('edit_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('feed_subscriptions').addColumn('last_edit_post_id', 'text').execute();
    await db.schema.alterTable('feed_subscriptions').addColumn('last_edit_at', 'bigint').execute();
    await db.schema.alterTable('feed_subscriptions').addColumn('last_edit_error', 'text').execute();
  },
};
