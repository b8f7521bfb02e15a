/** Migration 0010: hero meta snapshots. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('hero_meta_snapshots')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('rows', 'text', (c) => c.notNull())
      .addColumn('missing', 'text', (c) => c.notNull())
      .addColumn('answered', 'integer', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('stale', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('gathered_at', 'bigint', (c) => c.notNull())
      .addColumn('completed_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
