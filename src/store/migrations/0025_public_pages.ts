/** Migration 0025: servers' public pages. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // One row a server whose public page is on; its address is the token, replaced to revoke the old one.
    await db.schema
      .createTable('public_pages')
      .addColumn('guild_id', 'text', (c) => c.primaryKey())
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('published_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
