/** Migration 0020: snapshot reached at. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // A snapshot is dated by when its rank was reached, not by when the tracker read it.
    await db.schema.alterTable('rank_snapshots').addColumn('reached_at', 'bigint').execute();
  },
};
