/** Migration 0014: rank roles. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rank_role_settings')
      .addColumn('guild_id', 'text', (c) => c.primaryKey())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('roles', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('problem', 'text')
      .addColumn('lease_by', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('rank_role_members')
      .addColumn('guild_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('role_id', 'text')
      .addColumn('failure', 'text')
      .addColumn('failure_role_id', 'text')
      .addColumn('failed_at', 'bigint')
      .addColumn('failed_generation', 'integer')
      .addPrimaryKeyConstraint('rank_role_members_pk', ['guild_id', 'user_id'])
      .execute();
    // A member's data is found and deleted by member.
    await db.schema.createIndex('rank_role_members_user').on('rank_role_members').columns(['user_id']).execute();
  },
};
