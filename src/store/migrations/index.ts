/**
 * The store's migrations, one file each, in the order they run (Kysely runs them by name). A released migration is never
 * renamed or edited: a change to the schema is a new file with the next number, added here.
 */
import type { Migration } from 'kysely';
import { migration as m0001 } from './0001_initial.js';
import { migration as m0002 } from './0002_balance_history.js';
import { migration as m0003 } from './0003_feed_corrections.js';
import { migration as m0004 } from './0004_feed_hero_filter.js';
import { migration as m0005 } from './0005_feed_quiet_hours.js';
import { migration as m0006 } from './0006_feed_digests.js';
import { migration as m0007 } from './0007_feed_threads.js';
import { migration as m0008 } from './0008_alerts.js';
import { migration as m0009 } from './0009_locales.js';
import { migration as m0010 } from './0010_hero_meta_snapshots.js';
import { migration as m0011 } from './0011_tracking.js';
import { migration as m0012 } from './0012_link_verification.js';
import { migration as m0013 } from './0013_ladder.js';
import { migration as m0014 } from './0014_rank_roles.js';
import { migration as m0015 } from './0015_ladder_recap.js';
import { migration as m0016 } from './0016_member_platform.js';
import { migration as m0017 } from './0017_member_display.js';
import { migration as m0018 } from './0018_guild_display.js';
import { migration as m0019 } from './0019_rank_role_backoff.js';
import { migration as m0020 } from './0020_snapshot_reached_at.js';
import { migration as m0021 } from './0021_tracked_match_map.js';
import { migration as m0022 } from './0022_match_store.js';
import { migration as m0023 } from './0023_match_fetches.js';
import { migration as m0024 } from './0024_config_audit.js';
import { migration as m0025 } from './0025_public_pages.js';

/** Every migration by its name. Listed, not found by scanning a directory: nothing runs at import time (STYLE.md principle 6). */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': m0001,
  '0002_balance_history': m0002,
  '0003_feed_corrections': m0003,
  '0004_feed_hero_filter': m0004,
  '0005_feed_quiet_hours': m0005,
  '0006_feed_digests': m0006,
  '0007_feed_threads': m0007,
  '0008_alerts': m0008,
  '0009_locales': m0009,
  '0010_hero_meta_snapshots': m0010,
  '0011_tracking': m0011,
  '0012_link_verification': m0012,
  '0013_ladder': m0013,
  '0014_rank_roles': m0014,
  '0015_ladder_recap': m0015,
  '0016_member_platform': m0016,
  '0017_member_display': m0017,
  '0018_guild_display': m0018,
  '0019_rank_role_backoff': m0019,
  '0020_snapshot_reached_at': m0020,
  '0021_tracked_match_map': m0021,
  '0022_match_store': m0022,
  '0023_match_fetches': m0023,
  '0024_config_audit': m0024,
  '0025_public_pages': m0025,
};
