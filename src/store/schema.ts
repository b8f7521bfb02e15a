/**
 * The relational schema of durable state (STYLE.md principle 8): the row types Kysely checks every
 * query against, and the versioned migrations that create them. One schema for both engines:
 * booleans are 0/1 integers and times are milliseconds since the epoch in 64-bit integers, so a row
 * reads the same from SQLite and PostgreSQL.
 */
import { sql, type Generated, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/** `guild_settings`: one row per guild that ran `/config`. */
export interface GuildSettingsTable {
  guild_id: string;
  /** `pc`, `ps` or `xbox` (src/api/endpoints.ts PLATFORMS). */
  leaderboard_platform: string;
  /** 0 or 1. */
  ephemeral_by_default: number;
  /** Bumped by every change to the guild's settings or subscriptions: optimistic concurrency. */
  version: number;
  /** Where "your heroes changed" alerts are posted (src/feeds/alerts.ts); null: none in this guild. */
  alerts_channel_id?: string | null;
  /** The language of feed posts and alerts (`/config language`, one of src/i18n LOCALES); null: the server's Discord language. */
  locale?: string | null;
  /** ms since the epoch. */
  updated_at: number;
}

/** `feed_subscriptions`: a guild's channel for one feed; indexed by feed so a poll reads one feed's channels. */
export interface FeedSubscriptionsTable {
  guild_id: string;
  /** A {@link FeedType}. */
  feed: string;
  channel_id: string;
  role_id: string | null;
  /** When the channel was set, ms since the epoch. */
  since: number;
  /** 0 or 1. */
  publish: number;
  /** Latest existing posts still to send once (0–10). */
  backfill: number;
  /** Set (with reason and time) when deliveries fail for a reason retrying cannot fix. */
  broken_code: number | null;
  broken_reason: string | null;
  broken_at: number | null;
  last_post_id: string | null;
  last_delivered_at: number | null;
  /** The last correction of a delivered post in this channel (src/feeds/corrections.ts): its post, time, and why it failed (null: edited). */
  last_edit_post_id: string | null;
  last_edit_at: number | null;
  last_edit_error: string | null;
  /** Balance posts only: the hero ids a post must change to be delivered, as a JSON array; null for every post. */
  heroes: string | null;
  /** Quiet hours, minutes since local midnight (both set, or both null): posts found then are held until the end. */
  quiet_start: number | null;
  quiet_end: number | null;
  /** IANA time zone of the quiet hours and the digest; null for UTC. */
  time_zone: string | null;
  /** Digest instead of one message per post: `daily` or `weekly` (src/feeds/digest.ts); null for none. */
  digest_every: string | null;
  /** Local time of the digest, minutes since midnight. */
  digest_at: number | null;
  /** The digest period last sent (or started, when the digest was set). */
  digest_period: string | null;
  /** 1: each post's full text goes in a thread under its message (src/feeds/render.ts `threadPartViews`). */
  threads: number | null;
}

/** `deliveries`: the delivery ledger; the primary key (feed, post, channel) makes a claim an insert that succeeds once. */
export interface DeliveriesTable {
  feed: string;
  post_id: string;
  channel_id: string;
  /** `claimed` (an attempt is sending), `retry` (waiting to retry after a temporary failure), `done` or `failed` (given up). */
  state: 'claimed' | 'retry' | 'done' | 'failed';
  attempts: number;
  /** Time of the last change, ms since the epoch; retention prunes by it. */
  at: number;
  message_id: string | null;
  /** The post's revision the message shows (`feed_posts.revision`); 0 when not known (a retried send). */
  revision: Generated<number>;
  /** Last edit of the message for a correction, ms since the epoch; null if never edited. */
  edited_at: number | null;
  /** Why that edit failed for good (message deleted, …); null when it succeeded. */
  edit_error: string | null;
  /** Temporary failures of the pending edit so far. */
  edit_attempts: Generated<number>;
}

/** `account_links`: a Discord user's linked game accounts; at most one row per user is the default. */
export interface AccountLinksTable {
  user_id: string;
  uid: string;
  name: string;
  linked_at: number;
  /** 0 or 1. */
  is_default: number;
}

/** `member_settings`: a member's own choices, kept with their account links (`/settings`). */
export interface MemberSettingsTable {
  user_id: string;
  /** The language of the bot's answers to them (one of src/i18n LOCALES); null: their Discord client's. */
  locale: string | null;
  /** ms since the epoch. */
  updated_at: number;
}

/** `feed_state`: per feed, the ids of the posts already seen (JSON array, newest first, bounded). */
export interface FeedStateTable {
  feed: string;
  seen: string;
  updated_at: number;
}

/** `fan_outs`: posts found by the poller; pending until every subscribed channel is settled. */
export interface FanOutsTable {
  feed: string;
  post_id: string;
  /** The post as JSON ({@link FeedPost}). */
  post: string;
  found_at: number;
  /** Null while pending; retention prunes finished rows. */
  finished_at: number | null;
}

/** `meta`: one-off markers. */
export interface MetaTable {
  key: string;
  value: string;
}

/**
 * `balance_history`: what one balance post or patch note did to one hero (src/game/balance.ts), keyed
 * by (hero, kind, post); indexed by hero and post date for a hero's history, newest first.
 */
export interface BalanceHistoryTable {
  hero_id: string;
  /** `balance` (api-spec.md endpoint 12) or `patch-note` (13). */
  kind: string;
  post_id: string;
  /** The post's date, ISO `YYYY-MM-DD` when the API's was readable; '' when it gave none (sorts last). */
  post_date: string;
  title: string;
  /** A `Verdict` (src/game/balance.ts): `buff`, `nerf`, `adjusted` or `fixed`. */
  verdict: string;
  /** The deciding lines as JSON: `[{text, verdict}]` (`ChangeLine`, src/game/balance.ts). */
  lines: string;
  /** ms since the epoch. */
  indexed_at: number;
}

/**
 * `balance_posts`: every post the balance indexer has read, with or without heroes in it, so a run
 * skips them; `signature` names the hero list and classifier it was read with (a post is read again
 * when either changes).
 */
export interface BalancePostsTable {
  kind: string;
  post_id: string;
  signature: string;
  /** Heroes the post changed (rows of `balance_history`). */
  heroes: number;
  indexed_at: number;
}

/**
 * `feed_posts`: each feed post as the poller last read it, with a hash of its title, overview and full
 * text and a revision raised by every change (src/store/feed-posts.ts): a changed post is a correction,
 * edited in place in the messages delivered for it.
 */
export interface FeedPostsTable {
  feed: string;
  post_id: string;
  /** {@link contentHash} of src/feeds/corrections.ts, hex. */
  hash: string;
  /** 1 when first read; +1 per correction. */
  revision: number;
  /** The post as JSON (a stored feed post). */
  post: string;
  /** 1 while messages of the current revision are still to be edited. */
  edits_pending: number;
  /** Last change, ms since the epoch. */
  updated_at: number;
}

/** `digest_items`: posts waiting for a channel's next digest (src/store/feed-digests.ts). */
export interface DigestItemsTable {
  guild_id: string;
  feed: string;
  post_id: string;
  /** The post as JSON (a stored feed post). */
  post: string;
  found_at: number;
}

/** `alert_members`: a member's alerts in a guild ('' for direct messages only): mains on, watched heroes, by DM or not. */
export interface AlertMembersTable {
  user_id: string;
  guild_id: string;
  /** 1: alerts for the member's mains (top 3 heroes by play time on their default linked account). */
  mains: number;
  /** Watched hero ids as a JSON array (at most 10). */
  heroes: string;
  /** 1: by direct message instead of the guild's alerts channel. */
  dm: number;
  updated_at: number;
}

/** `member_mains`: a member's mains as last read from their default linked account, refreshed at most daily. */
export interface MemberMainsTable {
  user_id: string;
  uid: string;
  /** Hero ids as a JSON array, most play time first (at most 3). */
  heroes: string;
  refreshed_at: number;
}

/** `alert_plans`: a post whose alert messages have been worked out (once). */
export interface AlertPlansTable {
  feed: string;
  post_id: string;
  planned_at: number;
}

/** `alert_messages`: the alert messages of a post, one per target and part, sent through the delivery ledger. */
export interface AlertMessagesTable {
  feed: string;
  post_id: string;
  /** A channel id, or `dm:<user id>`. */
  target: string;
  part: number;
  /** The message payload as JSON. */
  body: string;
  /** When its delivery was settled (sent, or given up); null while pending. */
  settled_at: number | null;
}

/**
 * `hero_meta_snapshots`: the latest hero meta gathered (src/game/meta.ts), so that a restart serves it
 * at once. One row per snapshot kind (`latest`); its rows as JSON, read whole by `/meta`.
 */
export interface HeroMetaSnapshotsTable {
  /** Which snapshot: `latest`. */
  id: string;
  /** The meta rows as JSON (`MetaRow[]` of src/game/meta.ts). */
  rows: string;
  /** Display names of the heroes left out, as a JSON array. */
  missing: string;
  answered: number;
  total: number;
  /** 0 or 1: some statistics came stale from the cache. */
  stale: number;
  /** When its oldest statistics were fetched, ms since the epoch. */
  gathered_at: number;
  /** When the gathering finished, ms since the epoch. */
  completed_at: number;
}

/** Every table, for `Kysely<Tables>`. */
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
}

/** Migrations in order; a name is never reused or edited once released. */
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
};

/** Serves {@link MIGRATIONS} to Kysely's Migrator (no directory scanning: STYLE.md principle 6). */
export const migrationProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };
