/**
 * Per-guild settings and feed subscriptions. Every change bumps the guild's version in one transaction and
 * applies only if the version it read is current, so two admins, or an admin and the poller, never undo each other.
 */
import { LRUCache } from 'lru-cache';
import * as z from 'zod';
import { isPlatform, PLATFORMS } from '../api/endpoints.js';
import { isLocale, LOCALES, type Locale } from '../i18n/index.js';
import { withDeadline, type Db } from './database.js';
import type { FeedSubscriptionsTable } from './schema.js';
import { DISPLAYS } from './account-links.js';

export const MAX_FILTER_HEROES = 10;

export const FEED_TYPES = ['patchNotes', 'balances', 'devDiaries', 'gameVersions'] as const;
export type FeedType = (typeof FEED_TYPES)[number];

const subscription = z.object({
  channelId: z.string(),
  roleId: z.string().nullable(),
  /**
   * Epoch ms; only posts seen after it are delivered. Also the identity for the poller's marks: setting the
   * same channel again moves it 1 ms on, so a mark from a poll in flight misses.
   */
  since: z.number(),
  /** Crosspost in announcement channels. */
  publish: z.boolean().default(false),
  /** Latest existing posts to send once; 0 once sent. */
  backfill: z.number().int().min(0).max(10).default(0),
  /** Set when deliveries fail for a reason retrying cannot fix. */
  broken: z.object({ code: z.number().nullable(), reason: z.string(), at: z.number() }).nullable().default(null),
  lastDelivered: z.object({ postId: z.string(), at: z.number() }).nullable().default(null),
  /** `error` null when the correction's edit succeeded. */
  lastEdit: z.object({ postId: z.string(), at: z.number(), error: z.string().nullable() }).nullable().default(null),
  /** Balance posts only: hero ids a post must change; absent for every post. */
  heroes: z.array(z.string()).max(10).optional(),
  /** Minutes since local midnight; posts found inside are held until the window ends. */
  quiet: z.object({ start: z.number().int().min(0).max(1439), end: z.number().int().min(0).max(1439) }).optional(),
  /** IANA zone; absent for UTC. */
  timeZone: z.string().optional(),
  /** `at` in minutes since local midnight. */
  digest: z.object({ every: z.enum(['daily', 'weekly']), at: z.number().int().min(0).max(1439) }).optional(),
  digestPeriod: z.string().optional(),
  /** The full text goes in a thread under the message. */
  threads: z.boolean().optional(),
});
export type FeedSubscription = z.output<typeof subscription>;

const settingsV1 = z.object({
  v: z.literal(1),
  feeds: z.partialRecord(z.enum(FEED_TYPES), subscription).default({}),
  leaderboardPlatform: z.enum(PLATFORMS).default('pc'),
  ephemeralByDefault: z.boolean().default(false),
  alertsChannelId: z.string().optional(),
  /** Of feed posts and alerts; absent: the server's Discord language. */
  locale: z.enum(LOCALES).optional(),
  /** How answers are shown to members who chose nothing themselves (`/config display`); absent: image cards. */
  display: z.enum(DISPLAYS).optional(),
});
export type GuildSettings = z.output<typeof settingsV1>;
/** For `npm run bench:store`, which measures a key-value design beside this one. */
export const parseLegacySettings = (raw: unknown): GuildSettings | undefined => settingsV1.safeParse(raw).data;

export const DEFAULT_SETTINGS: GuildSettings = { v: 1, feeds: {}, leaderboardPlatform: 'pc', ephemeralByDefault: false };

/** Which subscription the poller worked on. */
export type SubscriptionRef = Pick<FeedSubscription, 'channelId' | 'since'>;

export interface GuildSubscription {
  guildId: string;
  sub: FeedSubscription;
  /** Absent: the guild's Discord language. */
  locale?: Locale;
}

export interface GuildSettingsOptions {
  /** Ms, as all durations here. */
  readDeadlineMs?: number;
  writeDeadlineMs?: number;
  /** Bounds staleness across processes without Redis. */
  cacheTtlMs?: number;
  cacheMax?: number;
  now?: () => number;
}

class VersionConflict extends Error {}
/** Rolls a mark back when the subscription changed since the poller read it. */
class NotCurrent extends Error {}
const MAX_ATTEMPTS = 8;

type Loaded = { settings: GuildSettings; version: number | null };

/** Reply-path reads come from a bounded, short-TTL cache; other processes' changes arrive through {@link GuildSettingsRepository.invalidate}. */
export class GuildSettingsRepository {
  readonly #cache: LRUCache<string, Loaded>;
  readonly #o: Required<GuildSettingsOptions>;
  /** Told of every change made here, to tell other processes. */
  onChange: ((guildId: string) => void) | undefined;

  constructor(
    private readonly db: Db,
    options: GuildSettingsOptions = {},
  ) {
    this.#o = { readDeadlineMs: 1_500, writeDeadlineMs: 3_000, cacheTtlMs: 30_000, cacheMax: 10_000, now: Date.now, ...options };
    this.#cache = new LRUCache({ max: this.#o.cacheMax, ttl: this.#o.cacheTtlMs });
  }

  /**
   * Defaults for a guild never configured.
   * @throws {StoreUnavailableError} when the store fails or misses the read deadline.
   */
  async get(guildId: string): Promise<GuildSettings> {
    const cached = this.#cache.get(guildId);
    if (cached) return structuredClone(cached.settings);
    const loaded = await withDeadline('read guild settings', this.#o.readDeadlineMs, () => this.#load(this.db, guildId));
    this.#cache.set(guildId, loaded);
    return structuredClone(loaded.settings);
  }

  /** Never touches the store: for the acknowledgement path. */
  peek(guildId: string): GuildSettings | undefined {
    return this.#cache.get(guildId)?.settings;
  }

  invalidate(guildId: string): void {
    this.#cache.delete(guildId);
  }

  /**
   * Re-applies `change` if another writer changed the guild meanwhile. Resolves once committed.
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

  /** @throws {StoreUnavailableError} */
  async reset(guildId: string): Promise<void> {
    await withDeadline('reset guild settings', this.#o.writeDeadlineMs, () =>
      this.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('guild_settings').where('guild_id', '=', guildId).execute();
        await trx.deleteFrom('feed_subscriptions').where('guild_id', '=', guildId).execute();
      }),
    );
    this.#changed(guildId, { settings: structuredClone(DEFAULT_SETTINGS), version: null });
  }

  /** Those not marked broken, by index. No deadline: the poller runs off the reply path. */
  async subscriptions(feed: FeedType): Promise<GuildSubscription[]> {
    const rows = await this.db.selectFrom('feed_subscriptions').selectAll().where('feed', '=', feed).where('broken_at', 'is', null).execute();
    // Through the partial index `guild_settings_locale`: a join would make PostgreSQL scan every guild.
    const chosen = await this.db.selectFrom('guild_settings').select(['guild_id', 'locale']).where('locale', 'is not', null).execute();
    const locales = new Map(chosen.flatMap((c) => (isLocale(c.locale) ? [[c.guild_id, c.locale] as const] : [])));
    return rows.map((r) => {
      const locale = locales.get(r.guild_id);
      return { guildId: r.guild_id, sub: subscriptionOf(r), ...(locale ? { locale } : {}) };
    });
  }

  /** The mark* calls are ignored if an admin set the feed again since `target` was read. */
  async markDelivered(guildId: string, feed: FeedType, target: SubscriptionRef, postId: string, at: number): Promise<void> {
    await this.#patchSubscription(guildId, feed, target, { last_post_id: postId, last_delivered_at: at });
  }

  async markEdited(guildId: string, feed: FeedType, target: SubscriptionRef, edit: { postId: string; at: number; error: string | null }): Promise<void> {
    await this.#patchSubscription(guildId, feed, target, { last_edit_post_id: edit.postId, last_edit_at: edit.at, last_edit_error: edit.error });
  }

  async markDigestPeriod(guildId: string, feed: FeedType, target: SubscriptionRef, period: string): Promise<void> {
    await this.#patchSubscription(guildId, feed, target, { digest_period: period });
  }

  /** The poller stops using the channel until an admin sets it again. */
  async markBroken(guildId: string, feed: FeedType, target: SubscriptionRef, broken: { code: number | null; reason: string; at: number }): Promise<void> {
    await this.#patchSubscription(guildId, feed, target, { broken_code: broken.code, broken_reason: broken.reason, broken_at: broken.at });
  }

  async clearBackfill(guildId: string, feed: FeedType, target: SubscriptionRef): Promise<void> {
    await this.#patchSubscription(guildId, feed, target, { backfill: 0 });
  }

  /** Applied only while it is still the subscription the poller read, so an admin's newer change is kept. */
  async #patchSubscription(guildId: string, feed: FeedType, target: SubscriptionRef, patch: Partial<FeedSubscriptionsTable>): Promise<void> {
    const changed = await this.db
      .transaction()
      .execute(async (trx) => {
        // The guild's row first, as #write takes it: opposite lock orders deadlock on PostgreSQL.
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
      .select(['g.leaderboard_platform', 'g.ephemeral_by_default', 'g.version', 'g.alerts_channel_id', 'g.locale', 'g.display'])
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
      leaderboardPlatform: isPlatform(first.leaderboard_platform) ? first.leaderboard_platform : 'pc',
      ephemeralByDefault: first.ephemeral_by_default === 1,
      ...(first.alerts_channel_id ? { alertsChannelId: first.alerts_channel_id } : {}),
      // A locale this version does not speak reads as none.
      ...(isLocale(first.locale) ? { locale: first.locale } : {}),
      ...(first.display === 'embeds' || first.display === 'cards' ? { display: first.display } : {}),
    };
    for (const r of rows) {
      if (r.feed === null || !(FEED_TYPES as readonly string[]).includes(r.feed)) continue;
      settings.feeds[r.feed as FeedType] = subscriptionOf(r as unknown as FeedSubscriptionsTable);
    }
    return { settings, version: Number(first.version) };
  }

  /** Changed feed rows only. @returns the new version. @throws {VersionConflict} */
  async #write(trx: Db, guildId: string, current: Loaded, next: GuildSettings): Promise<number> {
    const now = this.#o.now();
    const columns = {
      leaderboard_platform: next.leaderboardPlatform,
      ephemeral_by_default: next.ephemeralByDefault ? 1 : 0,
      alerts_channel_id: next.alertsChannelId ?? null,
      locale: next.locale ?? null,
      display: next.display ?? null,
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

/** Absent for none, or for anything but a JSON array of strings. */
function heroFilterOf(stored: string | null | undefined): { heroes?: string[] } {
  if (!stored) return {};
  try {
    const parsed = z.array(z.string()).safeParse(JSON.parse(stored));
    return parsed.success && parsed.data.length > 0 ? { heroes: parsed.data.slice(0, MAX_FILTER_HEROES) } : {};
  } catch {
    return {};
  }
}
