/** Migration 0012: link verification. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('account_links').addColumn('verified_at', 'bigint').execute();
    await db.schema
      .createTable('link_verifications')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('icon_from', 'text')
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('next_check_at', 'bigint', (c) => c.notNull())
      .addColumn('checked_at', 'bigint')
      .addPrimaryKeyConstraint('link_verifications_pk', ['user_id', 'uid'])
      .execute();
    await db.schema.createIndex('link_verifications_due').on('link_verifications').columns(['next_check_at']).execute();
    // Tracking asks who links an account.
    await db.schema.createIndex('account_links_uid').on('account_links').columns(['uid']).execute();
  },
};
