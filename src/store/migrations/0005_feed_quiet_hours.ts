/** Migration 0005: feed quiet hours. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('feed_subscriptions').addColumn('quiet_start', 'integer').execute();
    await db.schema.alterTable('feed_subscriptions').addColumn('quiet_end', 'integer').execute();
    await db.schema.alterTable('feed_subscriptions').addColumn('time_zone', 'text').execute();
  },
};
