/**
 * Row types and the migrations' provider (the migrations: src/store/migrations/, one file each), one schema for both engines: booleans are 0/1 integers and times
 * are epoch ms in 64-bit integers, so a row reads the same from SQLite and PostgreSQL.
 */
import type { Generated, MigrationProvider } from 'kysely';
import { MIGRATIONS } from './migrations/index.js';

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

/** A match detail as the API gave it (src/api/schemas.ts `match`), one row a match, kept for good: a detail never changes. */
export interface MatchesTable {
  match_uid: string;
  map_id: string | null;
  map_name: string | null;
  mode_id: number | null;
  mode_name: string | null;
  replay_id: string | null;
  mvp_uid: string | null;
  svp_uid: string | null;
  mvp_hero_id: string | null;
  svp_hero_id: string | null;
  /** Epoch ms: when the bot first read it. */
  stored_at: number;
}

/** One player of a stored match, `slot` their place in the API's list (kept, so the scoreboard reads back in its order). */
export interface MatchPlayersTable {
  match_uid: string;
  slot: number;
  player_uid: string;
  nick_name: string | null;
  player_icon: string | null;
  player_icon_id: string | null;
  camp: number | null;
  cur_hero_id: string | null;
  cur_hero_icon: string | null;
  /** `win`, `loss`, `draw` or null. */
  result: string | null;
  kills: number;
  deaths: number;
  assists: number;
  hero_damage: number;
  hero_heal: number;
  damage_taken: number;
  /** JSON array of `{ name, count }`; null for none. */
  badges: string | null;
}

/** One hero a player of a stored match played, `hero_slot` its place in their list; `play_time` in seconds, `hit_rate` 0–1. */
export interface MatchPlayerHeroesTable {
  match_uid: string;
  slot: number;
  hero_slot: number;
  hero_id: string | null;
  hero_icon: string | null;
  play_time: number | null;
  kills: number;
  deaths: number;
  assists: number;
  hit_rate: number | null;
}

/**
 * A match a tracked member played whose detail the store lacks, waiting to be read (src/store/match-fetches.ts). Times in
 * epoch ms; `gave_up_at` set once the API gave no detail after the last attempt: the row stays so it is not queued again.
 */
/** One change of a server's settings (src/store/config-audit.ts); `user_id` null once that member deleted their data. */
export interface ConfigAuditTable {
  id: string;
  guild_id: string;
  user_id: string | null;
  /** `command` (/config) or `dashboard`. */
  source: string;
  /** The /config subcommand the change ran, e.g. `feed`, `ladder`. */
  action: string;
  /** The options it ran with, as JSON. */
  detail: string;
  /** Ms since the epoch. */
  at: number;
}

/** A server's public page (src/store/public-pages.ts); `published_at` ms since the epoch. */
export interface PublicPagesTable {
  guild_id: string;
  token: string;
  published_at: number;
}

export interface MatchFetchesTable {
  match_uid: string;
  added_at: number;
  due_at: number;
  attempts: Generated<number>;
  claimed_until: number | null;
  claim_token: string | null;
  gave_up_at: number | null;
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
  matches: MatchesTable;
  match_players: MatchPlayersTable;
  match_player_heroes: MatchPlayerHeroesTable;
  match_fetches: MatchFetchesTable;
  config_audit: ConfigAuditTable;
  public_pages: PublicPagesTable;
}

/** The migrations of src/store/migrations/, in order, for Kysely's Migrator. */
export const migrationProvider: MigrationProvider = { getMigrations: async () => ({ ...MIGRATIONS }) };
