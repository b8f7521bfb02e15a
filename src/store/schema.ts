/**
 * Row types and versioned migrations, one schema for both engines: booleans are 0/1 integers and times
 * are epoch ms in 64-bit integers, so a row reads the same from SQLite and PostgreSQL.
 */
import { sql, type Generated, type Kysely, type Migration, type MigrationProvider } from 'kysely';

export interface GuildSettingsTable {
  guild_id: string;
  /** `pc`, `ps` or `xbox`. */
  leaderboard_platform: string;
  ephemeral_by_default: number;
  /** Bumped by every change to settings or subscriptions: optimistic concurrency. */
  version: number;
  alerts_channel_id?: string | null;
  /** Of feed posts and alerts; null: the server's Discord language. */
  locale?: string | null;
  /** How answers are shown to members who chose nothing (`/config display`): "embeds" for text alone; null or "cards": image cards. */
  display?: string | null;
  updated_at: number;
}

/** Indexed by feed, so a poll reads one feed's channels. */
export interface FeedSubscriptionsTable {
  guild_id: string;
  feed: string;
  channel_id: string;
  role_id: string | null;
  since: number;
  publish: number;
  /** Latest existing posts still to send once (0–10). */
  backfill: number;
  /** Set when deliveries fail for a reason retrying cannot fix. */
  broken_code: number | null;
  broken_reason: string | null;
  broken_at: number | null;
  last_post_id: string | null;
  last_delivered_at: number | null;
  /** The last correction edited here; `last_edit_error` null when it succeeded. */
  last_edit_post_id: string | null;
  last_edit_at: number | null;
  last_edit_error: string | null;
  /** JSON array of hero ids a balance post must change; null for every post. */
  heroes: string | null;
  /** Minutes since local midnight, both set or both null. */
  quiet_start?: number | null;
  quiet_end?: number | null;
  /** IANA zone; null for UTC. */
  time_zone?: string | null;
  /** `daily`, `weekly` or null. */
  digest_every: string | null;
  /** Minutes since local midnight. */
  digest_at: number | null;
  digest_period: string | null;
  threads: number | null;
}

/** The delivery ledger: the primary key (feed, post, channel) makes a claim an insert that succeeds once. */
export interface DeliveriesTable {
  feed: string;
  post_id: string;
  channel_id: string;
  state: 'claimed' | 'retry' | 'done' | 'failed';
  attempts: number;
  /** Last change; retention prunes by it. */
  at: number;
  message_id: string | null;
  /** `feed_posts.revision` the message shows; 0 when not known (a retried send). */
  revision: Generated<number>;
  edited_at: number | null;
  /** Why a correction's edit failed for good; null when it succeeded. */
  edit_error: string | null;
  edit_attempts: Generated<number>;
}

/** At most one row per user is the default. */
export interface AccountLinksTable {
  user_id: string;
  uid: string;
  name: string;
  linked_at: number;
  is_default: number;
  /** When the member proved they own the account (src/game/verification.ts); null: not proven. */
  verified_at?: number | null;
}

/** A proof of ownership under way: the account's player icon when it began, which the owner is asked to change. */
export interface LinkVerificationsTable {
  user_id: string;
  uid: string;
  icon_from: string | null;
  started_at: number;
  expires_at: number;
  next_check_at: number;
  checked_at: number | null;
}

/** A tracked player's standing in the current season (src/game/ladder.ts), rewritten at each tracking read. */
export interface PlayerStandingsTable {
  uid: string;
  season: number | null;
  tier: string | null;
  /** Unrounded rank score. */
  score: number | null;
  peak: number | null;
  matches: number;
  /** "Vanguard", "Duelist" or "Strategist". */
  role: string | null;
  week_delta: number | null;
  /** 1: the profile was private at the last read. */
  private: number;
  updated_at: number;
}

/** Whether a server runs its own ladder, and where its moments are posted. */
export interface LadderSettingsTable {
  guild_id: string;
  enabled: number;
  /** Where rank changes and peaks are posted; null: not posted. */
  moments_channel_id: string | null;
  /** The kinds posted, comma-separated (`rank`, `peak`). */
  moment_kinds: Generated<string>;
  updated_at: number;
  /** The weekly recap: day (0 Sunday … 6 Saturday; null: off) and time (minutes after midnight), in `time_zone` (IANA; null: UTC). */
  recap_day?: number | null;
  recap_at: Generated<number>;
  time_zone: string | null;
  /** Quiet hours of the moments, minutes after local midnight; null: none. */
  quiet_start: number | null;
  quiet_end: number | null;
  /** The local date (YYYY-MM-DD) of the last recap settled. */
  recap_sent_for?: string | null;
  /** JSON of the user ids on top of the ladder at the last recap, to mark who is new there. */
  recap_top?: string | null;
  /** JSON of the last problem posting moments (a deleted channel, a permission), null: none. */
  moments_problem?: string | null;
}

/** A server's rank roles: `roles` the JSON of tier or division → role id; `generation` counts admins' changes (failed members are tried again after one). */
export interface RankRoleSettingsTable {
  guild_id: string;
  enabled: number;
  roles: string;
  generation: number;
  /** JSON of the last problem with the whole server's roles (a deleted role, no Manage Roles), null: none. */
  problem: string | null;
  /** The process syncing this server's roles, until when (ms): one at a time. */
  lease_by: string | null;
  lease_until: number | null;
  updated_at: number;
}

/** The rank role the bot gave a member (null: none now), and why it last could not change their roles. */
export interface RankRoleMembersTable {
  guild_id: string;
  user_id: string;
  role_id: string | null;
  /** 1 when the bot gave `role_id`; 0 when the member held it before (never taken back). */
  owned: Generated<number>;
  failure: string | null;
  failure_role_id: string | null;
  failed_at: number | null;
  /** The settings' `generation` at the failure: an admin's change since retries it. */
  failed_generation: number | null;
  /** Failures in a row for the same reason (0 in rows written before it was counted: read as 1). */
  failure_count: Generated<number>;
  /** When the member is tried again, ms; null in rows written before it was kept: a day after `failed_at`. */
  retry_at: number | null;
  /** JSON of what Discord answered (`RoleFailureDetail`, src/game/rank-roles.ts), for refusals and failures. */
  failure_detail: string | null;
}

/** A moment to post on a server's ladder channel: planned once by its id, then delivered through the ledger and settled. */
export interface LadderMomentsTable {
  guild_id: string;
  moment_id: string;
  user_id: string;
  channel_id: string;
  /** The {@link Moment} and the account's name, as JSON. */
  data: string;
  created_at: number;
  settled_at: number | null;
}

/**
 * A member on a server's ladder: their choices there, and a copy of what lists them, so that a page is read from one
 * index (`listed`, `score`) at any size: the account they are listed by (`uid`) and its standing's sort keys.
 */
export interface LadderMembersTable {
  guild_id: string;
  user_id: string;
  /** The linked account the member chose to represent them; null: their default, else their first verified. */
  chosen_uid: string | null;
  /** "pc", "ps" or "xbox", as the member states it: profiles do not say. */
  platform: string | null;
  /** 1: the member asked not to be listed. */
  opted_out: number;
  joined_at: number;
  /** The verified linked account that lists them; null: none is verified. */
  uid: string | null;
  score: number | null;
  week_delta: number | null;
  role: string | null;
  private: number;
  /** 1: shown on the ladder (not opted out, an account verified, a public profile with a rank score). */
  listed: number;
  /** 1: the member's moments name them without a mention. */
  mentions_off: Generated<number>;
}

export interface MemberSettingsTable {
  user_id: string;
  /** Null: their Discord client's. */
  locale: string | null;
  /** 1: the member turned tracking of their linked accounts off. */
  tracking_off?: Generated<number>;
  /** Their own default platform (`/settings platform`: pc, ps, xbox) where no server's applies; null: none chosen. */
  platform?: string | null;
  /** How profiles are shown to them (`/settings display`): "embeds" for text alone; null or "cards": image cards. */
  display?: string | null;
  updated_at: number;
}

/** `seen`: JSON array of post ids, newest first. */
export interface FeedStateTable {
  feed: string;
  seen: string;
  /** When the poller last read the feed (ms), for /status. */
  updated_at: number;
}

/** Pending (`finished_at` null) until every subscribed channel is settled; `post` is JSON. */
export interface FanOutsTable {
  feed: string;
  post_id: string;
  post: string;
  found_at: number;
  finished_at: number | null;
}

export interface MetaTable {
  key: string;
  value: string;
}

/** What one post did to one hero, keyed by (hero, kind, post). */
export interface BalanceHistoryTable {
  hero_id: string;
  /** `balance` (api-spec.md endpoint 12) or `patch-note` (13). */
  kind: string;
  post_id: string;
  /** `YYYY-MM-DD`; '' when the API gave none (sorts last). */
  post_date: string;
  title: string;
  verdict: string;
  /** JSON `[{text, verdict}]`. */
  lines: string;
  indexed_at: number;
}

/** Every post the indexer has read; it is read again when its `signature` (hero list, classifier) changes. */
export interface BalancePostsTable {
  kind: string;
  post_id: string;
  signature: string;
  heroes: number;
  indexed_at: number;
}

/** Each feed post as last read; a changed hash is a correction, edited in place. `post` is JSON. */
export interface FeedPostsTable {
  feed: string;
  post_id: string;
  /** Hex. */
  hash: string;
  /** 1 when first read; +1 per correction. */
  revision: number;
  post: string;
  edits_pending: number;
  updated_at: number;
}

export interface DigestItemsTable {
  guild_id: string;
  feed: string;
  post_id: string;
  post: string;
  found_at: number;
}

/** `guild_id` '' for direct messages only; `heroes` a JSON array of watched hero ids. */
export interface AlertMembersTable {
  user_id: string;
  guild_id: string;
  mains: number;
  heroes: string;
  dm: number;
  updated_at: number;
}

/** Refreshed at most daily; `heroes` a JSON array, most play time first. */
export interface MemberMainsTable {
  user_id: string;
  uid: string;
  heroes: string;
  refreshed_at: number;
}

export interface AlertPlansTable {
  feed: string;
  post_id: string;
  planned_at: number;
}

/** One per target and part, sent through the delivery ledger; `body` is JSON. */
export interface AlertMessagesTable {
  feed: string;
  post_id: string;
  /** A channel id, or `dm:<user id>`. */
  target: string;
  part: number;
  body: string;
  /** Null while pending. */
  settled_at: number | null;
}

/** The latest hero meta (`id` `latest`), so a restart serves it at once; `rows` and `missing` are JSON. */
export interface HeroMetaSnapshotsTable {
  id: string;
  rows: string;
  missing: string;
  answered: number;
  total: number;
  stale: number;
  gathered_at: number;
  completed_at: number;
}

/**
 * A tracked player and its schedule. `deadline_at` (due time plus interval) orders the claims, so the
 * most active go first when reads cannot keep up; `claimed_until` and `claim_token` hold a read's lease.
 */
export interface TrackedPlayersTable {
  uid: string;
  added_at: number;
  next_read_at: number;
  deadline_at: number;
  /** 0 before the first read. */
  interval_ms: number;
  claimed_until?: number | null;
  claim_token?: string | null;
  last_read_at?: number | null;
  last_change_at?: number | null;
  /** Unix seconds. */
  last_match_at?: number | null;
  failures: number;
}

/** A tracking read that showed a change, `at` its read (epoch ms); `season` a season index, `score` the unrounded rank score. */
export interface RankSnapshotsTable {
  uid: string;
  at: number;
  season: number | null;
  tier: string | null;
  score: number | null;
  level: number | null;
  matches: number;
  wins: number;
  ranked_matches: number;
  ranked_wins: number;
  /** Unix seconds: when the rank it holds was reached (src/game/tracking.ts); null for snapshots recorded before it was kept. */
  reached_at?: number | null;
}

/** Every match a tracking read saw, once: `played_at` in Unix seconds, `new_score` the rank score after it (ranked only). */
export interface TrackedMatchesTable {
  uid: string;
  match_uid: string;
  played_at: number;
  season: number | null;
  mode_id: number | null;
  ranked: number;
  hero_id: string | null;
  /** 1 a win, 0 a loss, 2 a draw (0 for a draw recorded before draws were kept apart), null no result. */
  won: number | null;
  /** The map id of the match's history row; null when it named none or for matches recorded before it was kept. */
  map_id: string | null;
  new_score: number | null;
  score_change: number | null;
  new_level: number | null;
  kills: number;
  deaths: number;
  assists: number;
  /** 1 when the player was the match's MVP (src/game/tracking.ts); 0 for matches recorded before it was kept. */
  mvp: Generated<number>;
  recorded_at: number;
}

export interface Tables {
  guild_settings: GuildSettingsTable;
  feed_subscriptions: FeedSubscriptionsTable;
  deliveries: DeliveriesTable;
  account_links: AccountLinksTable;
  member_settings: MemberSettingsTable;
  feed_state: FeedStateTable;
  fan_outs: FanOutsTable;
  meta: MetaTable;
  balance_history: BalanceHistoryTable;
  balance_posts: BalancePostsTable;
  feed_posts: FeedPostsTable;
  digest_items: DigestItemsTable;
  alert_members: AlertMembersTable;
  member_mains: MemberMainsTable;
  alert_plans: AlertPlansTable;
  alert_messages: AlertMessagesTable;
  hero_meta_snapshots: HeroMetaSnapshotsTable;
  tracked_players: TrackedPlayersTable;
  rank_snapshots: RankSnapshotsTable;
  tracked_matches: TrackedMatchesTable;
  link_verifications: LinkVerificationsTable;
  player_standings: PlayerStandingsTable;
  ladder_settings: LadderSettingsTable;
  ladder_members: LadderMembersTable;
  ladder_moments: LadderMomentsTable;
  rank_role_settings: RankRoleSettingsTable;
  rank_role_members: RankRoleMembersTable;
}

/** A name is never reused or edited once released. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': {
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
  },
  '0002_balance_history': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('balance_history')
        .addColumn('hero_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('post_id', 'text', (c) => c.notNull())
        .addColumn('post_date', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('verdict', 'text', (c) => c.notNull())
        .addColumn('lines', 'text', (c) => c.notNull())
        .addColumn('indexed_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('balance_history_pk', ['hero_id', 'kind', 'post_id'])
        .execute();
      await db.schema.createIndex('balance_history_by_hero_date').on('balance_history').columns(['hero_id', 'post_date']).execute();
      // Replacing a post's rows (read again with a newer hero list) finds them by post.
      await db.schema.createIndex('balance_history_by_post').on('balance_history').columns(['kind', 'post_id']).execute();
      await db.schema
        .createTable('balance_posts')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('post_id', 'text', (c) => c.notNull())
        .addColumn('signature', 'text', (c) => c.notNull())
        .addColumn('heroes', 'integer', (c) => c.notNull())
        .addColumn('indexed_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('balance_posts_pk', ['kind', 'post_id'])
        .execute();
    },
  },
  '0003_feed_corrections': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('feed_posts')
        .addColumn('feed', 'text', (c) => c.notNull())
        .addColumn('post_id', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('post', 'text', (c) => c.notNull())
        .addColumn('edits_pending', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('feed_posts_pk', ['feed', 'post_id'])
        .execute();
      await db.schema.createIndex('feed_posts_pending').on('feed_posts').columns(['feed', 'edits_pending']).execute();
      await db.schema
        .alterTable('deliveries')
        .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('deliveries').addColumn('edited_at', 'bigint').execute();
      await db.schema.alterTable('deliveries').addColumn('edit_error', 'text').execute();
      await db.schema
        .alterTable('deliveries')
        .addColumn('edit_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('feed_subscriptions').addColumn('last_edit_post_id', 'text').execute();
      await db.schema.alterTable('feed_subscriptions').addColumn('last_edit_at', 'bigint').execute();
      await db.schema.alterTable('feed_subscriptions').addColumn('last_edit_error', 'text').execute();
    },
  },
  '0004_feed_hero_filter': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('feed_subscriptions').addColumn('heroes', 'text').execute();
    },
  },
  '0005_feed_quiet_hours': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('feed_subscriptions').addColumn('quiet_start', 'integer').execute();
      await db.schema.alterTable('feed_subscriptions').addColumn('quiet_end', 'integer').execute();
      await db.schema.alterTable('feed_subscriptions').addColumn('time_zone', 'text').execute();
    },
  },
  '0006_feed_digests': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('feed_subscriptions').addColumn('digest_every', 'text').execute();
      await db.schema.alterTable('feed_subscriptions').addColumn('digest_at', 'integer').execute();
      await db.schema.alterTable('feed_subscriptions').addColumn('digest_period', 'text').execute();
      await db.schema
        .createTable('digest_items')
        .addColumn('guild_id', 'text', (c) => c.notNull())
        .addColumn('feed', 'text', (c) => c.notNull())
        .addColumn('post_id', 'text', (c) => c.notNull())
        .addColumn('post', 'text', (c) => c.notNull())
        .addColumn('found_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('digest_items_pk', ['guild_id', 'feed', 'post_id'])
        .execute();
    },
  },
  '0007_feed_threads': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('feed_subscriptions').addColumn('threads', 'integer').execute();
    },
  },
  '0008_alerts': {
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
  },
  '0009_locales': {
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
  },
  '0010_hero_meta_snapshots': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('hero_meta_snapshots')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('rows', 'text', (c) => c.notNull())
        .addColumn('missing', 'text', (c) => c.notNull())
        .addColumn('answered', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('stale', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('gathered_at', 'bigint', (c) => c.notNull())
        .addColumn('completed_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0011_tracking': {
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
  },
  '0012_link_verification': {
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
  },
  '0013_ladder': {
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
  },
  '0014_rank_roles': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rank_role_settings')
        .addColumn('guild_id', 'text', (c) => c.primaryKey())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('roles', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('problem', 'text')
        .addColumn('lease_by', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('rank_role_members')
        .addColumn('guild_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('role_id', 'text')
        .addColumn('failure', 'text')
        .addColumn('failure_role_id', 'text')
        .addColumn('failed_at', 'bigint')
        .addColumn('failed_generation', 'integer')
        .addPrimaryKeyConstraint('rank_role_members_pk', ['guild_id', 'user_id'])
        .execute();
      // A member's data is found and deleted by member.
      await db.schema.createIndex('rank_role_members_user').on('rank_role_members').columns(['user_id']).execute();
    },
  },
  '0015_ladder_recap': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('tracked_matches')
        .addColumn('mvp', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('rank_role_members')
        .addColumn('owned', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      for (const [column, type] of [
        ['recap_day', 'integer'],
        ['time_zone', 'text'],
        ['quiet_start', 'integer'],
        ['quiet_end', 'integer'],
        ['recap_sent_for', 'text'],
        ['recap_top', 'text'],
        ['moments_problem', 'text'],
      ] as const)
        await db.schema.alterTable('ladder_settings').addColumn(column, type).execute();
      await db.schema
        .alterTable('ladder_settings')
        .addColumn('recap_at', 'integer', (c) => c.notNull().defaultTo(18 * 60))
        .execute();
    },
  },
  '0016_member_platform': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('member_settings').addColumn('platform', 'text').execute();
    },
  },
  '0017_member_display': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('member_settings').addColumn('display', 'text').execute();
    },
  },
  '0018_guild_display': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('guild_settings').addColumn('display', 'text').execute();
    },
  },
  '0019_rank_role_backoff': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('rank_role_members')
        .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('rank_role_members').addColumn('retry_at', 'bigint').execute();
      await db.schema.alterTable('rank_role_members').addColumn('failure_detail', 'text').execute();
    },
  },
  '0020_snapshot_reached_at': {
    async up(db: Kysely<unknown>) {
      // A snapshot is dated by when its rank was reached, not by when the tracker read it.
      await db.schema.alterTable('rank_snapshots').addColumn('reached_at', 'bigint').execute();
    },
  },
  '0021_tracked_match_map': {
    async up(db: Kysely<unknown>) {
      // A match typed by id whose detail names no map takes it from a recorded row, found by the match's uid.
      await db.schema.alterTable('tracked_matches').addColumn('map_id', 'text').execute();
      await db.schema.createIndex('tracked_matches_match').on('tracked_matches').columns(['match_uid']).execute();
    },
  },
};

/** No directory scanning: nothing runs at import time (STYLE.md principle 6). */
export const migrationProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };
