/** Migration 0018: guild display. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('guild_settings').addColumn('display', 'text').execute();
  },
};
