/** Migration 0009: locales. Released: never edited (src/store/migrations/index.ts). */
import { sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('guild_settings').addColumn('locale', 'text').execute();
    // Only guilds that chose a language: the poller reads them all at each poll.
    await db.schema
      .createIndex('guild_settings_locale')
      .on('guild_settings')
      .columns(['guild_id', 'locale'])
      .where(sql.ref('locale'), 'is not', null)
      .execute();
    await db.schema
      .createTable('member_settings')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('locale', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
