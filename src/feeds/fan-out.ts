/** Fans a feed's posts out to subscribed channels, each exactly once through the delivery ledger: posts, threads, digests, backfills, correction edits. */
import PQueue from 'p-queue';
import type { Logger } from '../core/logger.js';
import { classifyError } from '../core/discord-errors.js';
import { pickLocale, runInLocale, SOURCE_LOCALE, type Locale } from '../i18n/index.js';
import { truncate } from '../render/limits.js';
import { toMessagePayload } from '../render/view.js';
import type { FeedDigestsRepository } from '../store/feed-digests.js';
import type { FeedPostsRepository } from '../store/feed-posts.js';
import type { FeedStateRepository } from '../store/feed-state.js';
import type { FeedSubscription, FeedType, GuildSettingsRepository, GuildSubscription } from '../store/guild-settings.js';
import { EDIT_CONCURRENCY, type CorrectionEditor } from './corrections.js';
import type { DeliveryLedger } from './delivery.js';
import { digestPeriod, digestPostId, digestView } from './digest.js';
import { feedPostView, threadPartViews, type FeedPost } from './render.js';
import { localTime, quietNow } from './schedule.js';

/** The ledger key (post id) marking a post's thread as complete in a channel. */
const threadKey = (postId: string) => `${postId}#thread`;
/** How long after a post was found its thread is still tried, ms. */
const THREAD_GIVE_UP_MS = 24 * 60 * 60_000;

/** Channels posted to at once during a fan-out (discord.js's REST queue keeps each route within its rate limit). */
export const FAN_OUT_CONCURRENCY = 8;

/** Whether a subscription takes `post`: a hero-filtered balances feed only posts changing its heroes; unknown heroes pass (better too many than missed). */
export function passesFilter(type: FeedType, sub: FeedSubscription, post: FeedPost): boolean {
  if (type !== 'balances' || !sub.heroes?.length || post.heroes === undefined) return true;
  return post.heroes.some((h) => sub.heroes!.includes(h));
}

export interface FanOutOptions {
  ledger: DeliveryLedger;
  settings: GuildSettingsRepository;
  feedState: FeedStateRepository;
  feedPosts: FeedPostsRepository;
  editor: CorrectionEditor;
  digests: FeedDigestsRepository;
  logger: Logger;
  now: () => number;
  /** A guild's Discord language (`preferred_locale`), for servers that did not choose one; absent: English. */
  preferredLocale?: ((guildId: string) => string | null | undefined) | undefined;
  /** Whether the poller is stopping: channels not yet started stay in the pending fan-out, for the next leader. */
  stopped: () => boolean;
}

/** One poller's fan-out. {@link beginPoll} starts each poll; {@link wakeIn} is read at its end. */
export class FanOut {
  readonly #o: FanOutOptions;
  /** During a poll: ms until the earliest quiet hours holding a post, or the next digest moment. */
  #wakeIn = Number.POSITIVE_INFINITY;
  /** Subscriptions (`guild:feed`) marked broken during the current feed's poll, skipped by its backfill. */
  readonly #broken = new Set<string>();

  constructor(options: FanOutOptions) {
    this.#o = options;
  }

  /** Starts a poll of every feed: forgets when the last one wanted to wake. */
  beginPoll(): void {
    this.#wakeIn = Number.POSITIVE_INFINITY;
  }

  /** Starts the fan-outs of one feed's poll. */
  beginFeed(): void {
    this.#broken.clear();
  }

  /** ms until a held post or a digest is due, or Infinity. */
  get wakeIn(): number {
    return this.#wakeIn;
  }

  /** The language of a guild's feed posts: its `/config language`, else its Discord language, else English. */
  localeOf(target: { guildId: string; locale?: Locale | undefined }): Locale {
    return target.locale ?? pickLocale(this.#o.preferredLocale?.(target.guildId));
  }

  /** Delivers one post to every channel subscribed before it was found. @returns whether every delivery is settled (sent, skipped or broken). */
  async post(type: FeedType, post: FeedPost, foundAt: number, all: GuildSubscription[], revision: number): Promise<boolean> {
    // Resumed poll after poll (a retry, quiet hours): the channels already settled, and whose thread is complete, are skipped.
    const settledAlready = await this.#o.ledger.settledChannels(type, post.id);
    const threadsDone = all.some((s) => s.sub.threads) ? await this.#o.ledger.settledChannels(type, threadKey(post.id)) : new Set<string>();
    const subs = all.filter(
      (s) =>
        s.sub.since <= foundAt &&
        passesFilter(type, s.sub, post) &&
        !(settledAlready.has(s.sub.channelId) && (!s.sub.threads || threadsDone.has(s.sub.channelId))),
    );
    const queue = new PQueue({ concurrency: FAN_OUT_CONCURRENCY });
    let settled = true;
    // Every delivery is waited for, even after one failed: a poll that returned never leaves sends running behind it.
    const results = await Promise.allSettled(
      subs.map((target) =>
        queue.add(async () => {
          const { guildId, sub } = target;
          if (this.#o.stopped()) {
            settled = false;
            return;
          }
          // A digest channel: the post waits in the database for the next digest.
          if (sub.digest) {
            await this.#o.digests.add(guildId, type, post, foundAt);
            return;
          }
          // Quiet hours: held in the pending fan-out, delivered by the first poll after the window, in the order found.
          if (this.#held(sub)) {
            settled = false;
            return;
          }
          // Delivered before (a crash, or a thread that failed for a while): only the thread is left.
          if (settledAlready.has(sub.channelId)) {
            const record = await this.#o.ledger.get({ feed: type, postId: post.id, channelId: sub.channelId });
            if ((await this.#thread(type, post, sub, this.localeOf(target), record?.messageId ?? null, foundAt)) === 'retry') settled = false;
            return;
          }
          if ((await this.#deliver(type, post, target, revision)) === 'retry') settled = false;
        }),
      ),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    return settled;
  }

  /** Sends the latest `backfill` posts to channels whose admin asked for them, then clears the request. */
  async backfill(type: FeedType, posts: FeedPost[], subs: GuildSubscription[], revisions: Map<string, number>): Promise<void> {
    for (const target of subs) {
      const { guildId, sub } = target;
      if (sub.backfill <= 0 || this.#broken.has(`${guildId}:${type}`)) continue;
      let broken = false;
      for (const post of posts
        .filter((p) => passesFilter(type, sub, p))
        .slice(0, sub.backfill)
        .reverse()) {
        if ((await this.#deliver(type, post, target, revisions.get(post.id) ?? 0)) === 'broken') {
          broken = true;
          break;
        }
      }
      // Cleared only while the subscription is still the one backfilled (the patch is conditional on it).
      if (!broken) await this.#o.settings.clearBackfill(guildId, type, sub);
    }
  }

  /** Sends each digest channel its digest once a due moment has passed, exactly once through the ledger, then removes the posts it listed. */
  async digests(type: FeedType, subs: GuildSubscription[]): Promise<void> {
    for (const target of subs) {
      const { guildId, sub } = target;
      if (!sub.digest) continue;
      const zone = sub.timeZone ?? 'UTC';
      const now = this.#o.now();
      const { minutes } = localTime(now, zone);
      this.#wakeIn = Math.min(this.#wakeIn, (((sub.digest.at - minutes + 1440) % 1440 || 1440) * 60 - (Math.floor(now / 1000) % 60)) * 1000);
      const period = digestPeriod(sub.digest, zone, now);
      if (sub.digestPeriod === period) continue;
      const items = sub.digestPeriod === undefined ? [] : await this.#o.digests.items(guildId, type);
      if (items.length === 0) {
        await this.#o.settings.markDigestPeriod(guildId, type, sub, period);
        continue;
      }
      const key = { feed: type, postId: digestPostId(period), channelId: sub.channelId };
      const digest = sub.digest;
      const payload = runInLocale(this.localeOf(target), () =>
        toMessagePayload(
          digestView(
            type,
            digest,
            zone,
            items.map((i) => i.post),
            sub.roleId,
          ),
        ),
      );
      const outcome = await this.#o.ledger.deliver(key, payload, sub.publish);
      if (outcome.status === 'sent') {
        await this.#o.digests.remove(guildId, type, { ids: items.map((i) => i.post.id) });
        await this.#o.settings.markDelivered(guildId, type, sub, key.postId, this.#o.now());
        await this.#o.settings.markDigestPeriod(guildId, type, sub, period);
        this.#o.logger.info({ guild: guildId, feed: type, period, posts: items.length }, 'feed digest delivered');
      } else if (outcome.status === 'skipped') {
        // Sent before a crash (done): remove what it listed, everything found up to its delivery. Given up (failed): the posts wait for the next one.
        if (outcome.reason === 'done') await this.#o.digests.remove(guildId, type, { foundUpTo: (await this.#o.ledger.get(key))?.at ?? now });
        await this.#o.settings.markDigestPeriod(guildId, type, sub, period);
      } else if (outcome.status === 'broken') {
        await this.#markBroken(guildId, type, sub, outcome);
      }
    }
  }

  /** Edits the delivered messages of the feed's corrected posts, recording outcomes for /config status; done once no delivery shows an older text. */
  async corrections(type: FeedType, subs: GuildSubscription[]): Promise<void> {
    const edits = await this.#o.feedPosts.pendingEdits(type);
    if (edits.length === 0) return;
    const byChannel = new Map(subs.map((s) => [s.sub.channelId, s]));
    for (const { post, revision } of edits) {
      const targets = await this.#o.editor.targets(type, post.id, revision);
      const queue = new PQueue({ concurrency: EDIT_CONCURRENCY });
      const counts = { edited: 0, failed: 0, retry: 0 };
      const results = await Promise.allSettled(
        targets.map((target) =>
          queue.add(async () => {
            const owner = byChannel.get(target.channelId);
            // A channel no longer subscribed: English, as its guild is not known here.
            const payload = runInLocale(owner ? this.localeOf(owner) : SOURCE_LOCALE, () =>
              toMessagePayload(feedPostView(type, post, owner?.sub.roleId ?? null, true)),
            );
            const outcome = await this.#o.editor.edit({ feed: type, postId: post.id, channelId: target.channelId }, target, payload, revision);
            counts[outcome.status]++;
            if (owner && outcome.status !== 'retry') {
              await this.#o.settings.markEdited(owner.guildId, type, owner.sub, {
                postId: post.id,
                at: this.#o.now(),
                error: outcome.status === 'failed' ? outcome.reason : null,
              });
            }
          }),
        ),
      );
      if (targets.length > 0) this.#o.logger.info({ feed: type, post: post.id, revision, ...counts }, 'corrected feed post edited in its messages');
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      if (!(await this.#o.feedState.isPending(type, post.id)) && (await this.#o.editor.unsettled(type, post.id, revision)) === 0) {
        await this.#o.feedPosts.finishEdits(type, post.id, revision);
      }
    }
  }

  /** Whether the subscription holds its posts now (quiet hours); notes when the hold ends. */
  #held(sub: FeedSubscription): boolean {
    if (!sub.quiet) return false;
    const q = quietNow(sub.quiet, sub.timeZone ?? 'UTC', this.#o.now());
    if (!q.quiet) return false;
    this.#wakeIn = Math.min(this.#wakeIn, q.endsInMs);
    return true;
  }

  /**
   * Posts the full text in a thread under the message: each part a ledger delivery (`<post>#thread-<n>`), then a `<post>#thread` marker. A thread
   * refused for good, or failing a day after the post was found, is given up (the post stays); `retry` leaves it to the next poll.
   */
  async #thread(type: FeedType, post: FeedPost, sub: FeedSubscription, locale: Locale, messageId: string | null, foundAt: number): Promise<'done' | 'retry'> {
    if (!sub.threads) return 'done';
    const marker = { feed: type, postId: threadKey(post.id), channelId: sub.channelId };
    const parts = runInLocale(locale, () => threadPartViews(type, post));
    const giveUp = async (reason: string, err?: unknown) => {
      this.#o.logger.warn(
        { err, feed: type, post: post.id, channel: sub.channelId, reason },
        'could not post the full text in a thread; the post stays delivered without it',
      );
      await this.#o.ledger.markDone(marker);
      return 'done' as const;
    };
    if (messageId === null || parts.length === 0) {
      await this.#o.ledger.markDone(marker);
      return 'done';
    }
    let threadId: string;
    try {
      threadId = (await this.#o.ledger.startThread(sub.channelId, messageId, truncate(post.title, 100))).id;
    } catch (err) {
      const c = classifyError(err);
      if (c.kind === 'broken' || this.#o.now() - foundAt > THREAD_GIVE_UP_MS) return giveUp(c.reason, err);
      this.#o.logger.warn({ err, feed: type, post: post.id, channel: sub.channelId }, 'could not start the thread of a feed post; tried again next poll');
      return 'retry';
    }
    for (const [i, part] of parts.entries()) {
      const outcome = await this.#o.ledger.deliver({ feed: type, postId: `${post.id}#thread-${i + 1}`, channelId: threadId }, toMessagePayload(part), false);
      if (outcome.status === 'broken') return giveUp(outcome.reason);
      if (outcome.status === 'retry') return this.#o.now() - foundAt > THREAD_GIVE_UP_MS ? giveUp(outcome.reason) : 'retry';
    }
    await this.#o.ledger.markDone(marker);
    return 'done';
  }

  /** Deliveries to the subscription's channel fail for good: it is marked (shown by /config status) and skipped by this poll's backfill. */
  async #markBroken(guildId: string, type: FeedType, sub: FeedSubscription, failure: { code: number; reason: string }): Promise<void> {
    this.#broken.add(`${guildId}:${type}`);
    await this.#o.settings.markBroken(guildId, type, sub, { code: failure.code, reason: failure.reason, at: this.#o.now() });
    this.#o.logger.warn({ guild: guildId, channel: sub.channelId, feed: type, code: failure.code }, 'feed subscription marked broken');
  }

  async #deliver(type: FeedType, post: FeedPost, target: GuildSubscription, revision: number): Promise<'done' | 'retry' | 'broken'> {
    const { guildId, sub } = target;
    const locale = this.localeOf(target);
    const payload = runInLocale(locale, () => toMessagePayload(feedPostView(type, post, sub.roleId, revision > 1)));
    const outcome = await this.#o.ledger.deliver({ feed: type, postId: post.id, channelId: sub.channelId }, payload, sub.publish, revision);
    if (outcome.status === 'sent') {
      await this.#o.settings.markDelivered(guildId, type, sub, post.id, this.#o.now());
      if (sub.threads && (await this.#thread(type, post, sub, locale, outcome.messageId, this.#o.now())) === 'retry') return 'retry';
    } else if (outcome.status === 'broken') {
      await this.#markBroken(guildId, type, sub, outcome);
      return 'broken';
    }
    return outcome.status === 'retry' ? 'retry' : 'done';
  }
}
