/** Migration 0021: tracked match map. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // A match typed by id whose detail names no map takes it from a recorded row, found by the match's uid.
    await db.schema.alterTable('tracked_matches').addColumn('map_id', 'text').execute();
    await db.schema.createIndex('tracked_matches_match').on('tracked_matches').columns(['match_uid']).execute();
  },
};
