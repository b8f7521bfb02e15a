/** Migration 0004: feed hero filter. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('feed_subscriptions').addColumn('heroes', 'text').execute();
  },
};
