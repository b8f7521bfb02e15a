/** Migration 0011: tracking. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('member_settings')
      .addColumn('tracking_off', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('tracked_players')
      .addColumn('uid', 'text', (c) => c.primaryKey())
      .addColumn('added_at', 'bigint', (c) => c.notNull())
      .addColumn('next_read_at', 'bigint', (c) => c.notNull())
      .addColumn('deadline_at', 'bigint', (c) => c.notNull())
      .addColumn('interval_ms', 'bigint', (c) => c.notNull())
      .addColumn('claimed_until', 'bigint')
      .addColumn('claim_token', 'text')
      .addColumn('last_read_at', 'bigint')
      .addColumn('last_change_at', 'bigint')
      .addColumn('last_match_at', 'bigint')
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // The claim reads due players in deadline order; the backlog counts by due time.
    await db.schema.createIndex('tracked_players_deadline').on('tracked_players').columns(['deadline_at']).execute();
    await db.schema.createIndex('tracked_players_due').on('tracked_players').columns(['next_read_at']).execute();
    await db.schema
      .createTable('rank_snapshots')
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('season', 'integer')
      .addColumn('tier', 'text')
      .addColumn('score', 'double precision')
      .addColumn('level', 'integer')
      .addColumn('matches', 'integer', (c) => c.notNull())
      .addColumn('wins', 'integer', (c) => c.notNull())
      .addColumn('ranked_matches', 'integer', (c) => c.notNull())
      .addColumn('ranked_wins', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('rank_snapshots_pk', ['uid', 'at'])
      .execute();
    // Retention thins old snapshots of every player at once.
    await db.schema.createIndex('rank_snapshots_at').on('rank_snapshots').columns(['at']).execute();
    await db.schema
      .createTable('tracked_matches')
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('match_uid', 'text', (c) => c.notNull())
      .addColumn('played_at', 'bigint', (c) => c.notNull())
      .addColumn('season', 'integer')
      .addColumn('mode_id', 'integer')
      .addColumn('ranked', 'integer', (c) => c.notNull())
      .addColumn('hero_id', 'text')
      .addColumn('won', 'integer')
      .addColumn('new_score', 'double precision')
      .addColumn('score_change', 'double precision')
      .addColumn('new_level', 'integer')
      .addColumn('kills', 'integer', (c) => c.notNull())
      .addColumn('deaths', 'integer', (c) => c.notNull())
      .addColumn('assists', 'integer', (c) => c.notNull())
      .addColumn('recorded_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('tracked_matches_pk', ['uid', 'match_uid'])
      .execute();
    await db.schema.createIndex('tracked_matches_played').on('tracked_matches').columns(['uid', 'played_at']).execute();
  },
};
