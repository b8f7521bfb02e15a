/** Migration 0017: member display. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('member_settings').addColumn('display', 'text').execute();
  },
};
