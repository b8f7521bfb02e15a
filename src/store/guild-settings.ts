/**
 * Per-guild settings (issue: server setup with /config): feed channels with their ping roles, the
 * default leaderboard platform, and whether answers are ephemeral by default. Stored under
 * `guild:<guildId>`; records are validated on read and older versions migrated.
 */
import type Keyv from 'keyv';
import { z } from 'zod';
import { PLATFORMS } from '../api/endpoints.js';

/** The feeds a channel can subscribe to. */
export const FEED_TYPES = ['patchNotes', 'balances', 'devDiaries', 'gameVersions'] as const;
export type FeedType = (typeof FEED_TYPES)[number];

const subscription = z.object({
  channelId: z.string(),
  /** Role pinged with each post; null for none. */
  roleId: z.string().nullable(),
  /** When the channel was set, ms since the epoch: only posts seen after it are delivered. */
  since: z.number(),
  /** Publish (crosspost) posts in announcement channels. */
  publish: z.boolean().default(false),
  /** How many of the latest existing posts to send once, when the channel was set (0 to 10). */
  backfill: z.number().int().min(0).max(10).default(0),
  /** Set when deliveries fail for a reason retrying cannot fix (missing access or permissions, channel gone). */
  broken: z.object({ code: z.number().nullable(), reason: z.string(), at: z.number() }).nullable().default(null),
  lastDelivered: z.object({ postId: z.string(), at: z.number() }).nullable().default(null),
});
export type FeedSubscription = z.output<typeof subscription>;

const settingsV1 = z.object({
  v: z.literal(1),
  feeds: z.partialRecord(z.enum(FEED_TYPES), subscription).default({}),
  leaderboardPlatform: z.enum(PLATFORMS).default('pc'),
  ephemeralByDefault: z.boolean().default(false),
});
/** A guild's settings. */
export type GuildSettings = z.output<typeof settingsV1>;

/** Settings of a guild that never ran /config. */
export const DEFAULT_SETTINGS: GuildSettings = { v: 1, feeds: {}, leaderboardPlatform: 'pc', ephemeralByDefault: false };

const key = (guildId: string) => `guild:${guildId}`;

/** Reads and writes guild settings. */
export class GuildSettingsRepository {
  constructor(private readonly store: Keyv) {}

  /** The guild's settings (defaults for a guild never configured or a record that no longer parses). */
  async get(guildId: string): Promise<GuildSettings> {
    const raw = await this.store.get(key(guildId));
    const parsed = settingsV1.safeParse(raw);
    return parsed.success ? parsed.data : structuredClone(DEFAULT_SETTINGS);
  }

  /**
   * Applies `change` to the guild's settings and stores the result; resolves once it is durable.
   * @returns the new settings.
   */
  async update(guildId: string, change: (current: GuildSettings) => GuildSettings | void): Promise<GuildSettings> {
    const current = await this.get(guildId);
    const next = settingsV1.parse(change(current) ?? current);
    await this.store.set(key(guildId), next);
    return next;
  }

  /** Forgets every setting of the guild. */
  async reset(guildId: string): Promise<void> {
    await this.store.delete(key(guildId));
  }
}
