/** Migration 0001: initial. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('guild_settings')
      .addColumn('guild_id', 'text', (c) => c.primaryKey())
      .addColumn('leaderboard_platform', 'text', (c) => c.notNull().defaultTo('pc'))
      .addColumn('ephemeral_by_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('feed_subscriptions')
      .addColumn('guild_id', 'text', (c) => c.notNull())
      .addColumn('feed', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('role_id', 'text')
      .addColumn('since', 'bigint', (c) => c.notNull())
      .addColumn('publish', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('backfill', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('broken_code', 'integer')
      .addColumn('broken_reason', 'text')
      .addColumn('broken_at', 'bigint')
      .addColumn('last_post_id', 'text')
      .addColumn('last_delivered_at', 'bigint')
      .addPrimaryKeyConstraint('feed_subscriptions_pk', ['guild_id', 'feed'])
      .execute();
    await db.schema.createIndex('feed_subscriptions_by_feed').on('feed_subscriptions').columns(['feed', 'broken_at']).execute();
    await db.schema
      .createTable('deliveries')
      .addColumn('feed', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('message_id', 'text')
      .addPrimaryKeyConstraint('deliveries_pk', ['feed', 'post_id', 'channel_id'])
      .execute();
    await db.schema.createIndex('deliveries_by_time').on('deliveries').column('at').execute();
    await db.schema
      .createTable('account_links')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('linked_at', 'bigint', (c) => c.notNull())
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('account_links_pk', ['user_id', 'uid'])
      .execute();
    await db.schema
      .createTable('feed_state')
      .addColumn('feed', 'text', (c) => c.primaryKey())
      .addColumn('seen', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('fan_outs')
      .addColumn('feed', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('post', 'text', (c) => c.notNull())
      .addColumn('found_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .addPrimaryKeyConstraint('fan_outs_pk', ['feed', 'post_id'])
      .execute();
    await db.schema.createIndex('fan_outs_by_finish').on('fan_outs').columns(['finished_at']).execute();
    await db.schema
      .createTable('meta')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
