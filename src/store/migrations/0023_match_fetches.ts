/** Migration 0023: match fetches. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // One row a match a tracked member played and the store lacks: one read however many members played it.
    await db.schema
      .createTable('match_fetches')
      .addColumn('match_uid', 'text', (c) => c.primaryKey())
      .addColumn('added_at', 'bigint', (c) => c.notNull())
      .addColumn('due_at', 'bigint', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('claimed_until', 'bigint')
      .addColumn('claim_token', 'text')
      .addColumn('gave_up_at', 'bigint')
      .execute();
    await db.schema.createIndex('match_fetches_due').on('match_fetches').columns(['due_at']).execute();
  },
};
