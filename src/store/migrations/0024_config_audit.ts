/** Migration 0024: the settings' audit log. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // One row a change of a server's settings, from /config or the dashboard; pruned after 90 days.
    await db.schema
      .createTable('config_audit')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('guild_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('config_audit_guild_at').on('config_audit').columns(['guild_id', 'at']).execute();
    await db.schema.createIndex('config_audit_user').on('config_audit').columns(['user_id']).execute();
  },
};
