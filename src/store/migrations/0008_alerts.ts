/** Migration 0008: alerts. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('guild_settings').addColumn('alerts_channel_id', 'text').execute();
    await db.schema
      .createTable('alert_members')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('guild_id', 'text', (c) => c.notNull())
      .addColumn('mains', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('heroes', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('dm', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('alert_members_pk', ['user_id', 'guild_id'])
      .execute();
    await db.schema
      .createTable('member_mains')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('heroes', 'text', (c) => c.notNull())
      .addColumn('refreshed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('alert_plans')
      .addColumn('feed', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('planned_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('alert_plans_pk', ['feed', 'post_id'])
      .execute();
    await db.schema
      .createTable('alert_messages')
      .addColumn('feed', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('part', 'integer', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('settled_at', 'bigint')
      .addPrimaryKeyConstraint('alert_messages_pk', ['feed', 'post_id', 'target', 'part'])
      .execute();
    await db.schema.createIndex('alert_messages_pending').on('alert_messages').columns(['settled_at']).execute();
  },
};
