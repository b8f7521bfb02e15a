/** Migration 0019: rank role backoff. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('rank_role_members')
      .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('rank_role_members').addColumn('retry_at', 'bigint').execute();
    await db.schema.alterTable('rank_role_members').addColumn('failure_detail', 'text').execute();
  },
};
