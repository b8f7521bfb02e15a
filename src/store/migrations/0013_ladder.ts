/** Migration 0013: ladder. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('player_standings')
      .addColumn('uid', 'text', (c) => c.primaryKey())
      .addColumn('season', 'integer')
      .addColumn('tier', 'text')
      .addColumn('score', 'double precision')
      .addColumn('peak', 'double precision')
      .addColumn('matches', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('role', 'text')
      .addColumn('week_delta', 'double precision')
      .addColumn('private', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('ladder_settings')
      .addColumn('guild_id', 'text', (c) => c.primaryKey())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('moments_channel_id', 'text')
      .addColumn('moment_kinds', 'text', (c) => c.notNull().defaultTo('rank,peak'))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('ladder_moments')
      .addColumn('guild_id', 'text', (c) => c.notNull())
      .addColumn('moment_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('settled_at', 'bigint')
      .addPrimaryKeyConstraint('ladder_moments_pk', ['guild_id', 'moment_id'])
      .execute();
    await db.schema.createIndex('ladder_moments_pending').on('ladder_moments').columns(['settled_at', 'created_at']).execute();
    await db.schema
      .createTable('ladder_members')
      .addColumn('guild_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('chosen_uid', 'text')
      .addColumn('platform', 'text')
      .addColumn('opted_out', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('joined_at', 'bigint', (c) => c.notNull())
      .addColumn('uid', 'text')
      .addColumn('score', 'double precision')
      .addColumn('week_delta', 'double precision')
      .addColumn('role', 'text')
      .addColumn('private', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('listed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('mentions_off', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('ladder_members_pk', ['guild_id', 'user_id'])
      .execute();
    // A page walks the listed members of one server in score order, and counts those above the asking member.
    await db.schema.createIndex('ladder_members_rank').on('ladder_members').columns(['guild_id', 'listed', 'score', 'user_id']).execute();
    await db.schema.createIndex('ladder_members_week').on('ladder_members').columns(['guild_id', 'listed', 'week_delta']).execute();
    // A standing reaches every server's row of its account.
    await db.schema.createIndex('ladder_members_uid').on('ladder_members').columns(['uid']).execute();
    // A member's data is found and deleted by member.
    await db.schema.createIndex('ladder_members_user').on('ladder_members').columns(['user_id']).execute();
  },
};
