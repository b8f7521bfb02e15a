/** Migration 0022: match store. Released: never edited (src/store/migrations/index.ts). */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // A match detail never changes once the API has it (api-spec.md endpoint 20): kept for good, one row a match.
    await db.schema
      .createTable('matches')
      .addColumn('match_uid', 'text', (c) => c.primaryKey())
      .addColumn('map_id', 'text')
      .addColumn('map_name', 'text')
      .addColumn('mode_id', 'double precision')
      .addColumn('mode_name', 'text')
      .addColumn('replay_id', 'text')
      .addColumn('mvp_uid', 'text')
      .addColumn('svp_uid', 'text')
      .addColumn('mvp_hero_id', 'text')
      .addColumn('svp_hero_id', 'text')
      .addColumn('stored_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('match_players')
      .addColumn('match_uid', 'text', (c) => c.notNull())
      .addColumn('slot', 'integer', (c) => c.notNull())
      .addColumn('player_uid', 'text', (c) => c.notNull())
      .addColumn('nick_name', 'text')
      .addColumn('player_icon', 'text')
      .addColumn('player_icon_id', 'text')
      .addColumn('camp', 'double precision')
      .addColumn('cur_hero_id', 'text')
      .addColumn('cur_hero_icon', 'text')
      .addColumn('result', 'text')
      .addColumn('kills', 'double precision', (c) => c.notNull())
      .addColumn('deaths', 'double precision', (c) => c.notNull())
      .addColumn('assists', 'double precision', (c) => c.notNull())
      .addColumn('hero_damage', 'double precision', (c) => c.notNull())
      .addColumn('hero_heal', 'double precision', (c) => c.notNull())
      .addColumn('damage_taken', 'double precision', (c) => c.notNull())
      .addColumn('badges', 'text')
      .addPrimaryKeyConstraint('match_players_pk', ['match_uid', 'slot'])
      .execute();
    // Who played with whom: a member's matches, then the others in each.
    await db.schema.createIndex('match_players_player').on('match_players').columns(['player_uid', 'match_uid']).execute();
    await db.schema
      .createTable('match_player_heroes')
      .addColumn('match_uid', 'text', (c) => c.notNull())
      .addColumn('slot', 'integer', (c) => c.notNull())
      .addColumn('hero_slot', 'integer', (c) => c.notNull())
      .addColumn('hero_id', 'text')
      .addColumn('hero_icon', 'text')
      .addColumn('play_time', 'double precision')
      .addColumn('kills', 'double precision', (c) => c.notNull())
      .addColumn('deaths', 'double precision', (c) => c.notNull())
      .addColumn('assists', 'double precision', (c) => c.notNull())
      .addColumn('hit_rate', 'double precision')
      .addPrimaryKeyConstraint('match_player_heroes_pk', ['match_uid', 'slot', 'hero_slot'])
      .execute();
  },
};
