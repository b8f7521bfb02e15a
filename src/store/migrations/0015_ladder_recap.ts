/** Migration 0015: ladder recap. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('tracked_matches')
      .addColumn('mvp', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('rank_role_members')
      .addColumn('owned', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    for (const [column, type] of [
      ['recap_day', 'integer'],
      ['time_zone', 'text'],
      ['quiet_start', 'integer'],
      ['quiet_end', 'integer'],
      ['recap_sent_for', 'text'],
      ['recap_top', 'text'],
      ['moments_problem', 'text'],
    ] as const)
      await db.schema.alterTable('ladder_settings').addColumn(column, type).execute();
    await db.schema
      .alterTable('ladder_settings')
      .addColumn('recap_at', 'integer', (c) => c.notNull().defaultTo(18 * 60))
      .execute();
  },
};
