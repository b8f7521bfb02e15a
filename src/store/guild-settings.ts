/**
 * Per-guild settings (issue: server setup with /config): feed channels with their ping roles, the
 * default leaderboard platform, and whether answers are ephemeral by default.
 *
 * Rows: `guild_settings` (one per guild, with a `version`) and `feed_subscriptions` (one per guild and
 * feed, indexed by feed). Every change bumps the guild's version inside one transaction, and an admin's
 * change applies only if the version it read is still current (else it is read again and re-applied),
 * so two admins changing different settings, or an admin and the feed poller, never undo each other.
 *
 * Reads on the reply path come from an in-process cache (bounded, short TTL, invalidated by every
 * change made through this repository and by {@link GuildSettingsRepository.invalidate} for changes
 * made by other processes), and every call has a deadline ({@link StoreUnavailableError}).
 */
import { LRUCache } from 'lru-cache';
import * as z from 'zod';
import { PLATFORMS, type Platform } from '../api/endpoints.js';
import { isLocale, LOCALES, type Locale } from '../i18n/index.js';
import { withDeadline, type Db } from './database.js';
import type { FeedSubscriptionsTable } from './schema.js';

/** Most heroes a balance-post feed can be filtered on. */
export const MAX_FILTER_HEROES = 10;

/** The feeds a channel can subscribe to. */
export const FEED_TYPES = ['patchNotes', 'balances', 'devDiaries', 'gameVersions'] as const;
export type FeedType = (typeof FEED_TYPES)[number];

const subscription = z.object({
  channelId: z.string(),
  /** Role pinged with each post; null for none. */
  roleId: z.string().nullable(),
  /**
   * When the channel was set, ms since the epoch: only posts seen after it are delivered. Also the
   * subscription's identity for the poller's marks ({@link SubscriptionRef}): `/config feed` run again
   * on the same channel moves it 1 ms on, so a mark from a poll in flight misses, while posts found
   * since the channel was set still reach it.
   */
  since: z.number(),
  /** Publish (crosspost) posts in announcement channels. */
  publish: z.boolean().default(false),
  /** How many of the latest existing posts to send once (0 to 10), as the admin last asked; 0 once sent. */
  backfill: z.number().int().min(0).max(10).default(0),
  /** Set when deliveries fail for a reason retrying cannot fix (missing access or permissions, channel gone). */
  broken: z.object({ code: z.number().nullable(), reason: z.string(), at: z.number() }).nullable().default(null),
  lastDelivered: z.object({ postId: z.string(), at: z.number() }).nullable().default(null),
  /** The last correction of a delivered post edited in this channel (src/feeds/corrections.ts); `error` says why the edit failed, null when it succeeded. */
  lastEdit: z.object({ postId: z.string(), at: z.number(), error: z.string().nullable() }).nullable().default(null),
  /** Balance posts only: deliver only posts that change one of these heroes (ids, at most {@link MAX_FILTER_HEROES}); absent or empty for every post. */
  heroes: z.array(z.string()).max(10).optional(),
  /** Quiet hours (src/feeds/schedule.ts): minutes since local midnight; posts found inside are held and delivered when the window ends. */
  quiet: z.object({ start: z.number().int().min(0).max(1439), end: z.number().int().min(0).max(1439) }).optional(),
  /** IANA time zone of the quiet hours and the digest; absent for UTC. */
  timeZone: z.string().optional(),
  /** One digest message a day or a week at a local time (minutes since midnight) instead of a message per post (src/feeds/digest.ts). */
  digest: z.object({ every: z.enum(['daily', 'weekly']), at: z.number().int().min(0).max(1439) }).optional(),
  /** The digest period last sent, or the one the digest was set in (src/feeds/digest.ts `digestPeriod`). */
  digestPeriod: z.string().optional(),
  /** Post the overview in the channel and the full text in a thread under it. */
  threads: z.boolean().optional(),
});
export type FeedSubscription = z.output<typeof subscription>;

const settingsV1 = z.object({
  v: z.literal(1),
  feeds: z.partialRecord(z.enum(FEED_TYPES), subscription).default({}),
  leaderboardPlatform: z.enum(PLATFORMS).default('pc'),
  ephemeralByDefault: z.boolean().default(false),
  /** Where alerts of members' heroes are posted (`/config alerts`); absent: no alerts channel. */
  alertsChannelId: z.string().optional(),
  /** The language of feed posts and alerts (`/config language`, one of src/i18n LOCALES); absent: the server's Discord language. */
  locale: z.enum(LOCALES).optional(),
});
/** A guild's settings. */
export type GuildSettings = z.output<typeof settingsV1>;
/** Parses a settings record of the former key-value design (`guild:<id>`, v1), which `npm run bench:store` measures beside this one. */
export const parseLegacySettings = (raw: unknown): GuildSettings | undefined => settingsV1.safeParse(raw).data;

/** Settings of a guild that never ran /config. */
export const DEFAULT_SETTINGS: GuildSettings = { v: 1, feeds: {}, leaderboardPlatform: 'pc', ephemeralByDefault: false };

/** Which subscription the poller worked on: its channel and when an admin set it ({@link FeedSubscription} `since`). */
export type SubscriptionRef = Pick<FeedSubscription, 'channelId' | 'since'>;

/** A guild's subscription to one feed, as the poller reads it. */
export interface GuildSubscription {
  guildId: string;
  sub: FeedSubscription;
  /** The guild's language for feed posts (`/config language`); absent: its Discord language. */
  locale?: Locale;
}

export interface GuildSettingsOptions {
  /** Deadline of a read, ms (default 1,500). */
  readDeadlineMs?: number;
  /** Deadline of a change, ms (default 3,000). */
  writeDeadlineMs?: number;
  /** How long a cached guild is trusted without invalidation, ms (default 30 s): bounds staleness across processes without Redis. */
  cacheTtlMs?: number;
  /** Guilds cached (default 10,000). */
  cacheMax?: number;
  now?: () => number;
}

/** Thrown inside a change transaction when another writer got there first. */
class VersionConflict extends Error {}
/** Thrown inside a mark's transaction to roll it back when the subscription changed since the poller read it. */
class NotCurrent extends Error {}
const MAX_ATTEMPTS = 8;

type Loaded = { settings: GuildSettings; version: number | null };

/** Reads and writes guild settings and feed subscriptions. */
export class GuildSettingsRepository {
  readonly #cache: LRUCache<string, Loaded>;
  readonly #o: Required<GuildSettingsOptions>;
  /** Told of every change made here (guild id), to tell other processes (src/store/settings-sync.ts). */
  onChange: ((guildId: string) => void) | undefined;

  constructor(
    private readonly db: Db,
    options: GuildSettingsOptions = {},
  ) {
    this.#o = { readDeadlineMs: 1_500, writeDeadlineMs: 3_000, cacheTtlMs: 30_000, cacheMax: 10_000, now: Date.now, ...options };
    this.#cache = new LRUCache({ max: this.#o.cacheMax, ttl: this.#o.cacheTtlMs });
  }

  /**
   * The guild's settings (defaults for a guild never configured), from the cache when it has them,
   * else one indexed read.
   * @throws {StoreUnavailableError} when the store fails or misses the read deadline.
   */
  async get(guildId: string): Promise<GuildSettings> {
    const cached = this.#cache.get(guildId);
    if (cached) return structuredClone(cached.settings);
    const loaded = await withDeadline('read guild settings', this.#o.readDeadlineMs, () => this.#load(this.db, guildId));
    this.#cache.set(guildId, loaded);
    return structuredClone(loaded.settings);
  }

  /** The cached settings, if any, without touching the store (the acknowledgement path). */
  peek(guildId: string): GuildSettings | undefined {
    return this.#cache.get(guildId)?.settings;
  }

  /** Forgets the cached settings of a guild (another process changed them). */
  invalidate(guildId: string): void {
    this.#cache.delete(guildId);
  }

  /**
   * Applies `change` to the guild's current settings and stores the result in one transaction,
   * re-reading and re-applying it if another writer changed the guild meanwhile. Resolves once committed.
   * @returns the new settings.
   * @throws {StoreUnavailableError} when the store fails or misses the deadline (nothing is half-written).
   */
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- `change` may mutate the draft and return nothing
  async update(guildId: string, change: (current: GuildSettings) => GuildSettings | void): Promise<GuildSettings> {
    const saved = await withDeadline('save guild settings', this.#o.writeDeadlineMs, async () => {
      for (let attempt = 1; ; attempt++) {
        const current = await this.#load(this.db, guildId);
        const draft = structuredClone(current.settings);
        const next = settingsV1.parse(change(draft) ?? draft);
        try {
          const version = await this.db.transaction().execute((trx) => this.#write(trx, guildId, current, next));
          return { settings: next, version };
        } catch (err) {
          if (!(err instanceof VersionConflict) || attempt >= MAX_ATTEMPTS) throw err;
        }
      }
    });
    this.#changed(guildId, saved);
    return structuredClone(saved.settings);
  }

  /**
   * Forgets every setting of the guild.
   * @throws {StoreUnavailableError}
   */
  async reset(guildId: string): Promise<void> {
    await withDeadline('reset guild settings', this.#o.writeDeadlineMs, () =>
      this.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('guild_settings').where('guild_id', '=', guildId).execute();
        await trx.deleteFrom('feed_subscriptions').where('guild_id', '=', guildId).execute();
      }),
    );
    this.#changed(guildId, { settings: structuredClone(DEFAULT_SETTINGS), version: null });
  }

  /**
   * The working subscriptions of one feed (not marked broken): one indexed query, never a scan.
   * No deadline: the poller runs off the reply path.
   */
  async subscriptions(feed: FeedType): Promise<GuildSubscription[]> {
    const rows = await this.db.selectFrom('feed_subscriptions').selectAll().where('feed', '=', feed).where('broken_at', 'is', null).execute();
    // The few guilds that chose a language, through the partial index `guild_settings_locale`: a join
    // would make PostgreSQL scan every guild's settings for each poll.
    const chosen = await this.db.selectFrom('guild_settings').select(['guild_id', 'locale']).where('locale', 'is not', null).execute();
    const locales = new Map(chosen.flatMap((c) => (isLocale(c.locale) ? [[c.guild_id, c.locale] as const] : [])));
    return rows.map((r) => {
      const locale = locales.get(r.guild_id);
      return { guildId: r.guild_id, sub: subscriptionOf(r), ...(locale ? { locale } : {}) };
    });
  }

  /** The poller sent `postId` to the subscription `target` (ignored if an admin set the feed again since). */
  async markDelivered(guildId: string, feed: FeedType, target: SubscriptionRef, postId: string, at: number): Promise<void> {
    await this.#patchSubscription(guildId, feed, target, { last_post_id: postId, last_delivered_at: at });
  }

  /** The poller edited (or could not edit, `error`) a message of a corrected post in the subscription's channel. */
  async markEdited(guildId: string, feed: FeedType, target: SubscriptionRef, edit: { postId: string; at: number; error: string | null }): Promise<void> {
    await this.#patchSubscription(guildId, feed, target, { last_edit_post_id: edit.postId, last_edit_at: edit.at, last_edit_error: edit.error });
  }

  /** The digest of `period` was delivered to the subscription's channel (or the period began with nothing to send). */
  async markDigestPeriod(guildId: string, feed: FeedType, target: SubscriptionRef, period: string): Promise<void> {
    await this.#patchSubscription(guildId, feed, target, { digest_period: period });
  }

  /** Deliveries to the channel fail for a reason retrying cannot fix: the poller stops using it until an admin sets it again. */
  async markBroken(guildId: string, feed: FeedType, target: SubscriptionRef, broken: { code: number | null; reason: string; at: number }): Promise<void> {
    await this.#patchSubscription(guildId, feed, target, { broken_code: broken.code, broken_reason: broken.reason, broken_at: broken.at });
  }

  /** The backfill asked for when the channel was set is done. */
  async clearBackfill(guildId: string, feed: FeedType, target: SubscriptionRef): Promise<void> {
    await this.#patchSubscription(guildId, feed, target, { backfill: 0 });
  }

  /**
   * A column-level change to one subscription, applied only while it is still the one the poller read
   * (same channel, set at the same time), bumping the guild's version. An admin who sets the feed again
   * meanwhile, even to the same channel (a new backfill, a fixed permission), keeps their change.
   */
  async #patchSubscription(guildId: string, feed: FeedType, target: SubscriptionRef, patch: Partial<FeedSubscriptionsTable>): Promise<void> {
    const changed = await this.db
      .transaction()
      .execute(async (trx) => {
        // The guild's row first, as every change takes it (#write): two transactions taking the same two
        // rows in opposite orders deadlock on PostgreSQL, which then aborts one of them.
        const g = await trx
          .updateTable('guild_settings')
          .set((eb) => ({ version: eb('version', '+', 1), updated_at: this.#o.now() }))
          .where('guild_id', '=', guildId)
          .executeTakeFirst();
        if (Number(g.numUpdatedRows) === 0) return false;
        const r = await trx
          .updateTable('feed_subscriptions')
          .set(patch)
          .where('guild_id', '=', guildId)
          .where('feed', '=', feed)
          .where('channel_id', '=', target.channelId)
          .where('since', '=', target.since)
          .executeTakeFirst();
        // Not the subscription the poller read: roll the version back too.
        if (Number(r.numUpdatedRows) === 0) throw new NotCurrent();
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof NotCurrent) return false;
        throw err;
      });
    if (changed) {
      this.#cache.delete(guildId);
      this.onChange?.(guildId);
    }
  }

  #changed(guildId: string, loaded: Loaded): void {
    this.#cache.set(guildId, loaded);
    this.onChange?.(guildId);
  }

  async #load(db: Db, guildId: string): Promise<Loaded> {
    const rows = await db
      .selectFrom('guild_settings as g')
      .leftJoin('feed_subscriptions as f', 'f.guild_id', 'g.guild_id')
      .select(['g.leaderboard_platform', 'g.ephemeral_by_default', 'g.version', 'g.alerts_channel_id', 'g.locale'])
      .select([
        'f.feed',
        'f.channel_id',
        'f.role_id',
        'f.since',
        'f.publish',
        'f.backfill',
        'f.broken_code',
        'f.broken_reason',
        'f.broken_at',
        'f.last_post_id',
        'f.last_delivered_at',
        'f.last_edit_post_id',
        'f.last_edit_at',
        'f.last_edit_error',
        'f.heroes',
        'f.quiet_start',
        'f.quiet_end',
        'f.time_zone',
        'f.digest_every',
        'f.digest_at',
        'f.digest_period',
        'f.threads',
      ])
      .where('g.guild_id', '=', guildId)
      .execute();
    const first = rows[0];
    if (!first) return { settings: structuredClone(DEFAULT_SETTINGS), version: null };
    const settings: GuildSettings = {
      v: 1,
      feeds: {},
      leaderboardPlatform: (PLATFORMS as readonly string[]).includes(first.leaderboard_platform) ? (first.leaderboard_platform as Platform) : 'pc',
      ephemeralByDefault: first.ephemeral_by_default === 1,
      ...(first.alerts_channel_id ? { alertsChannelId: first.alerts_channel_id } : {}),
      // A locale this version does not speak (written by a newer one, or removed since) reads as none.
      ...(isLocale(first.locale) ? { locale: first.locale } : {}),
    };
    for (const r of rows) {
      if (r.feed === null || !(FEED_TYPES as readonly string[]).includes(r.feed)) continue;
      settings.feeds[r.feed as FeedType] = subscriptionOf(r as unknown as FeedSubscriptionsTable);
    }
    return { settings, version: Number(first.version) };
  }

  /** Writes `next` over `current` (changed feed rows only). @returns the new version. @throws {VersionConflict} */
  async #write(trx: Db, guildId: string, current: Loaded, next: GuildSettings): Promise<number> {
    const now = this.#o.now();
    const columns = {
      leaderboard_platform: next.leaderboardPlatform,
      ephemeral_by_default: next.ephemeralByDefault ? 1 : 0,
      alerts_channel_id: next.alertsChannelId ?? null,
      locale: next.locale ?? null,
      updated_at: now,
    };
    if (current.version === null) {
      const r = await trx
        .insertInto('guild_settings')
        .values({ guild_id: guildId, ...columns, version: 1 })
        .onConflict((oc) => oc.column('guild_id').doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) throw new VersionConflict();
    } else {
      const r = await trx
        .updateTable('guild_settings')
        .set({ ...columns, version: current.version + 1 })
        .where('guild_id', '=', guildId)
        .where('version', '=', current.version)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw new VersionConflict();
    }
    for (const feed of FEED_TYPES) {
      const before = current.settings.feeds[feed];
      const after = next.feeds[feed];
      if (JSON.stringify(before) === JSON.stringify(after)) continue;
      if (!after) {
        await trx.deleteFrom('feed_subscriptions').where('guild_id', '=', guildId).where('feed', '=', feed).execute();
        continue;
      }
      const row = rowOf(guildId, feed, after);
      await trx
        .insertInto('feed_subscriptions')
        .values(row)
        .onConflict((oc) => oc.columns(['guild_id', 'feed']).doUpdateSet({ ...row }))
        .execute();
    }
    return (current.version ?? 0) + 1;
  }
}

/** A `feed_subscriptions` row from a subscription. */
export function rowOf(guildId: string, feed: FeedType, s: FeedSubscription): FeedSubscriptionsTable {
  return {
    guild_id: guildId,
    feed,
    channel_id: s.channelId,
    role_id: s.roleId,
    since: s.since,
    publish: s.publish ? 1 : 0,
    backfill: s.backfill,
    broken_code: s.broken?.code ?? null,
    broken_reason: s.broken?.reason ?? null,
    broken_at: s.broken?.at ?? null,
    last_post_id: s.lastDelivered?.postId ?? null,
    last_delivered_at: s.lastDelivered?.at ?? null,
    last_edit_post_id: s.lastEdit?.postId ?? null,
    last_edit_at: s.lastEdit?.at ?? null,
    last_edit_error: s.lastEdit?.error ?? null,
    heroes: s.heroes?.length ? JSON.stringify(s.heroes) : null,
    quiet_start: s.quiet?.start ?? null,
    quiet_end: s.quiet?.end ?? null,
    time_zone: s.timeZone ?? null,
    digest_every: s.digest?.every ?? null,
    digest_at: s.digest?.at ?? null,
    digest_period: s.digestPeriod ?? null,
    threads: s.threads ? 1 : null,
  };
}

function subscriptionOf(r: Omit<FeedSubscriptionsTable, 'guild_id' | 'feed'>): FeedSubscription {
  return {
    channelId: r.channel_id,
    roleId: r.role_id,
    since: Number(r.since),
    publish: r.publish === 1,
    backfill: r.backfill,
    broken: r.broken_at === null ? null : { code: r.broken_code, reason: r.broken_reason ?? '', at: Number(r.broken_at) },
    lastDelivered: r.last_post_id === null ? null : { postId: r.last_post_id, at: Number(r.last_delivered_at ?? 0) },
    lastEdit:
      r.last_edit_post_id === null || r.last_edit_post_id === undefined
        ? null
        : { postId: r.last_edit_post_id, at: Number(r.last_edit_at ?? 0), error: r.last_edit_error ?? null },
    ...heroFilterOf(r.heroes),
    ...(typeof r.quiet_start === 'number' && typeof r.quiet_end === 'number' ? { quiet: { start: Number(r.quiet_start), end: Number(r.quiet_end) } } : {}),
    ...(r.time_zone ? { timeZone: r.time_zone } : {}),
    ...((r.digest_every === 'daily' || r.digest_every === 'weekly') && typeof r.digest_at === 'number'
      ? { digest: { every: r.digest_every, at: Number(r.digest_at) } }
      : {}),
    ...(r.digest_period ? { digestPeriod: r.digest_period } : {}),
    ...(Number(r.threads) === 1 ? { threads: true } : {}),
  };
}

/** The hero filter stored in `feed_subscriptions.heroes`: absent for none, or for a value that is not a JSON array of strings. */
function heroFilterOf(stored: string | null | undefined): { heroes?: string[] } {
  if (!stored) return {};
  try {
    const parsed = z.array(z.string()).safeParse(JSON.parse(stored));
    return parsed.success && parsed.data.length > 0 ? { heroes: parsed.data.slice(0, MAX_FILTER_HEROES) } : {};
  } catch {
    return {};
  }
}
