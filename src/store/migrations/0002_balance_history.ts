/** Migration 0002: balance history. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('balance_history')
      .addColumn('hero_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('post_date', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('verdict', 'text', (c) => c.notNull())
      .addColumn('lines', 'text', (c) => c.notNull())
      .addColumn('indexed_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('balance_history_pk', ['hero_id', 'kind', 'post_id'])
      .execute();
    await db.schema.createIndex('balance_history_by_hero_date').on('balance_history').columns(['hero_id', 'post_date']).execute();
    // Replacing a post's rows (read again with a newer hero list) finds them by post.
    await db.schema.createIndex('balance_history_by_post').on('balance_history').columns(['kind', 'post_id']).execute();
    await db.schema
      .createTable('balance_posts')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('signature', 'text', (c) => c.notNull())
      .addColumn('heroes', 'integer', (c) => c.notNull())
      .addColumn('indexed_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('balance_posts_pk', ['kind', 'post_id'])
      .execute();
  },
};
