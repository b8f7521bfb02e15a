/**
 * The patch-note poller (STYLE.md, src/feeds): every `FEED_POLL_SECONDS` it reads the first page of
 * patch notes, balance posts, dev diaries and game versions (fresh, at the rate limiter's background
 * priority), finds posts not seen before, and fans each out to every subscribed channel exactly once.
 *
 * - First run of a feed: what exists is recorded, nothing is posted (no flood of history).
 * - A post found is stored as pending with the time it was found, and stays pending until its
 *   fan-out finished, so a crash in the middle of a fan-out resumes on restart (claims skip the
 *   channels already done) instead of dropping the rest.
 * - A channel receives posts found after it was set, plus the backfill its admin asked for.
 * - Only the leader polls (one process among several sharing Redis).
 */
import PQueue from 'p-queue';
import type Keyv from 'keyv';
import { z } from 'zod';
import type { RivalsApi } from '../api/client.js';
import type { Logger } from '../logger.js';
import { toMessagePayload } from '../render/view.js';
import { FEED_TYPES, type FeedType, type GuildSettingsRepository } from '../store/guild-settings.js';
import type { DeliveryLedger } from './delivery.js';
import type { Leadership } from './leadership.js';
import { feedPostView, type FeedPost } from './render.js';

/** Posts remembered per feed, to tell new from old (far more than a first page holds). */
const SEEN_LIMIT = 200;
/** Channels posted to at once during a fan-out (discord.js's REST queue keeps each route within its rate limit). */
export const FAN_OUT_CONCURRENCY = 8;

const postSchema = z.object({ id: z.string(), title: z.string(), date: z.string().nullable(), overview: z.string().nullable(), image: z.string().nullable() });
const feedState = z.object({
  v: z.literal(1),
  seen: z.array(z.string()),
  /** Found but not yet fanned out to every channel. */
  pending: z.array(z.object({ post: postSchema, foundAt: z.number() })),
});
type FeedState = z.output<typeof feedState>;

/** A guild's subscription to one feed. */
type Subscription = { guildId: string; sub: NonNullable<Awaited<ReturnType<GuildSettingsRepository['get']>>['feeds'][FeedType]> };

/** Reads the first page of one feed, fresh from the API at background priority, newest first. */
export async function fetchFeed(api: RivalsApi, type: FeedType): Promise<FeedPost[]> {
  const options = { fresh: true, priority: 'background' as const };
  const page = { page: 1, limit: 10 };
  if (type === 'gameVersions') {
    const versions = (await api.gameVersions(page, options)).data.entries;
    return versions.map((v) => ({ id: v.version, title: `Game version ${v.version}`, date: v.release, overview: v.release ? `Released ${v.release}.` : null, image: null }));
  }
  const fetched = type === 'patchNotes' ? await api.patchNotes(page, options) : type === 'balances' ? await api.balances(page, options) : await api.devDiaries(page, options);
  return fetched.data.entries.map((p) => ({ id: p.id, title: p.title ?? p.id, date: p.date, overview: p.overview, image: p.image }));
}

export interface FeedPollerOptions {
  api: RivalsApi;
  state: Keyv;
  settings: GuildSettingsRepository;
  ledger: DeliveryLedger;
  leadership: Leadership;
  logger: Logger;
  /** Seconds between polls. */
  intervalSeconds: number;
  now?: () => number;
}

/** The poller. `start()` polls at once and then every interval; `tick()` runs one poll (tests); `pollNow()` one more, in turn. */
export class FeedPoller {
  readonly #o: FeedPollerOptions;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(options: FeedPollerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  start(): void {
    const loop = async () => {
      if (this.#stopped) return;
      await this.#serially();
      if (!this.#stopped) this.#timer = setTimeout(() => void loop(), this.#o.intervalSeconds * 1000);
    };
    void loop();
  }

  /** Polls once more now, after any poll in progress (the playground calls it when a post is added). */
  async pollNow(): Promise<void> {
    await this.#serially();
  }

  /** Runs a poll after the one in progress, so two polls never overlap in one process. */
  #serially(): Promise<void> {
    const next = (this.#running ?? Promise.resolve()).then(() => this.tick()).catch((err: unknown) => this.#o.logger.error({ err }, 'feed poll failed'));
    this.#running = next;
    return next;
  }

  /** Stops polling and waits for a poll in progress to finish its deliveries. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** One poll of every feed, if this process leads. */
  async tick(): Promise<void> {
    if (!(await this.#o.leadership.isLeader())) return;
    for (const type of FEED_TYPES) {
      try {
        await this.#pollFeed(type);
      } catch (err) {
        this.#o.logger.warn({ err, feed: type }, 'could not poll a feed');
      }
    }
  }

  async #pollFeed(type: FeedType): Promise<void> {
    const posts = await fetchFeed(this.#o.api, type);
    // One scan of the store per feed and poll, shared by every fan-out and the backfill.
    const subs = await this.#subscriptions(type);
    const key = `feed:${type}`;
    const parsed = feedState.safeParse(await this.#o.state.get(key));
    if (!parsed.success) {
      // First run: remember what exists, post nothing.
      await this.#o.state.set(key, { v: 1, seen: posts.map((p) => p.id), pending: [] } satisfies FeedState);
      this.#o.logger.info({ feed: type, posts: posts.length }, 'feed initialised; existing posts recorded, not posted');
    } else {
      const state = parsed.data;
      const seen = new Set(state.seen);
      const found = posts.filter((p) => !seen.has(p.id)).reverse(); // oldest first
      if (found.length > 0) {
        const foundAt = this.#now();
        state.pending.push(...found.map((post) => ({ post, foundAt })));
        state.seen = [...found.map((p) => p.id).reverse(), ...state.seen].slice(0, SEEN_LIMIT);
        await this.#o.state.set(key, state);
        this.#o.logger.info({ feed: type, posts: found.map((p) => p.id) }, 'new feed posts');
      }
      for (const item of [...state.pending]) {
        const complete = await this.#fanOut(type, item.post, item.foundAt, subs);
        if (complete) {
          state.pending = state.pending.filter((p) => p.post.id !== item.post.id);
          await this.#o.state.set(key, state);
        }
      }
    }
    await this.#backfill(type, posts, subs);
  }

  /** Subscriptions of a feed: guild id, and its subscription, for every guild that has one. */
  async #subscriptions(type: FeedType): Promise<Subscription[]> {
    const out: Subscription[] = [];
    const iterate = this.#o.state.iterator as unknown as (() => AsyncIterable<[string, unknown]>) | undefined;
    if (!iterate) return out;
    for await (const [rawKey] of iterate.call(this.#o.state)) {
      const guildId = String(rawKey).match(/(?:^|:)guild:([^:]+)$/)?.[1];
      if (!guildId) continue;
      const sub = (await this.#o.settings.get(guildId)).feeds[type];
      if (sub && !sub.broken) out.push({ guildId, sub });
    }
    return out;
  }

  /** Delivers one post to every channel subscribed before it was found. @returns whether every delivery is settled (sent, skipped or broken). */
  async #fanOut(type: FeedType, post: FeedPost, foundAt: number, all: Subscription[]): Promise<boolean> {
    const subs = all.filter((s) => s.sub.since <= foundAt);
    const queue = new PQueue({ concurrency: FAN_OUT_CONCURRENCY });
    let settled = true;
    await Promise.all(
      subs.map(({ guildId, sub }) =>
        queue.add(async () => {
          const outcome = await this.#deliver(type, post, guildId, sub);
          if (outcome === 'retry') settled = false;
        }),
      ),
    );
    return settled;
  }

  /** Sends the latest `backfill` posts to channels whose admin asked for them, then clears the request. */
  async #backfill(type: FeedType, posts: FeedPost[], subs: Subscription[]): Promise<void> {
    for (const { guildId, sub: seen } of subs) {
      if (seen.backfill <= 0) continue;
      // The fan-out may have marked it broken since the scan: read it again (rare: only pending backfills).
      const sub = (await this.#o.settings.get(guildId)).feeds[type];
      if (!sub || sub.broken || sub.channelId !== seen.channelId || sub.backfill <= 0) continue;
      for (const post of posts.slice(0, sub.backfill).reverse()) await this.#deliver(type, post, guildId, sub);
      await this.#o.settings.update(guildId, (s) => {
        const current = s.feeds[type];
        if (current && current.channelId === sub.channelId) current.backfill = 0;
      });
    }
  }

  async #deliver(type: FeedType, post: FeedPost, guildId: string, sub: { channelId: string; roleId: string | null; publish: boolean }): Promise<'done' | 'retry'> {
    const payload = toMessagePayload(feedPostView(type, post, sub.roleId));
    const outcome = await this.#o.ledger.deliver({ feed: type, postId: post.id, channelId: sub.channelId }, payload, sub.publish);
    if (outcome.status === 'sent') {
      await this.#o.settings.update(guildId, (s) => {
        const current = s.feeds[type];
        if (current?.channelId === sub.channelId) current.lastDelivered = { postId: post.id, at: this.#now() };
      });
    } else if (outcome.status === 'broken') {
      await this.#o.settings.update(guildId, (s) => {
        const current = s.feeds[type];
        if (current?.channelId === sub.channelId) current.broken = { code: outcome.code, reason: outcome.reason, at: this.#now() };
      });
      this.#o.logger.warn({ guild: guildId, channel: sub.channelId, feed: type, code: outcome.code }, 'feed subscription marked broken');
    }
    return outcome.status === 'retry' ? 'retry' : 'done';
  }
}
