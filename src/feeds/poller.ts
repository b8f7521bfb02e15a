/**
 * The feed poller: the leader reads each feed every `FEED_POLL_SECONDS`, records new posts and fans each out exactly once. A found post stays
 * pending until every channel settles, so a crash resumes; a feed's first read records what exists and posts nothing.
 */
import type { RivalsApi } from '../api/client.js';
import type { HeroDirectory } from '../catalog/hero-directory.js';
import type { Logger } from '../core/logger.js';
import type { Metrics } from '../core/metrics.js';
import type { Db } from '../store/database.js';
import type { AccountLinksRepository } from '../store/account-links.js';
import type { AlertsRepository } from '../store/alerts.js';
import type { FeedDigestsRepository } from '../store/feed-digests.js';
import type { FeedPostsRepository } from '../store/feed-posts.js';
import type { FeedStateRepository } from '../store/feed-state.js';
import { FEED_TYPES, type FeedType, type GuildSettingsRepository } from '../store/guild-settings.js';
import { PRUNE_INTERVAL_MS, pruneState, RETENTION_MS } from '../store/retention.js';
import { AlertDelivery } from './alert-delivery.js';
import type { CorrectionEditor } from './corrections.js';
import type { DeliveryLedger } from './delivery.js';
import { FanOut } from './fan-out.js';
import type { Leadership } from './leadership.js';
import { readFeed } from './read.js';

export interface FeedPollerOptions {
  api: RivalsApi;
  /** For retention. */
  db: Db;
  feedState: FeedStateRepository;
  settings: GuildSettingsRepository;
  ledger: DeliveryLedger;
  /** Content hashes and revisions of posts: a changed post is a correction. */
  feedPosts: FeedPostsRepository;
  editor: CorrectionEditor;
  /** Posts waiting for each digest channel's next digest. */
  digests: FeedDigestsRepository;
  /** Members' hero alerts; without it no alert is sent. */
  alerts?: AlertsRepository;
  /** Members' own languages (`/settings language`), for their direct-message alerts; absent: their server's. */
  links?: Pick<AccountLinksRepository, 'localesOf'>;
  /** A guild's Discord language (`preferred_locale`, from the gateway's guild cache), for servers without `/config language`; absent: English. */
  preferredLocale?: (guildId: string) => string | null | undefined;
  leadership: Leadership;
  logger: Logger;
  /** The heroes, to read which heroes a balance post changes (hero filters); without it every post passes every filter. */
  heroes?: HeroDirectory;
  /** Seconds between polls. */
  intervalSeconds: number;
  now?: () => number;
  /** How long settled deliveries and finished fan-outs are kept (ms, default {@link RETENTION_MS}). */
  retentionMs?: number;
  /** Hears the new posts each poll finds (`feedPosts('found', feed, count)`); default none. */
  metrics?: Metrics;
}

/** The poller. `start()` polls at once and then every interval; `tick()` runs one poll (tests); `pollNow()` one more, in turn. */
export class FeedPoller {
  readonly #o: FeedPollerOptions;
  readonly #now: () => number;
  readonly #fanOut: FanOut;
  readonly #alerts: AlertDelivery | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** A poll at the end of the earliest quiet hours holding a post, when that comes before the next regular poll. */
  #wakeTimer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;
  /** Aborted by {@link stop}: the feed reads waiting for the API give up, so a shutdown never waits for them. */
  readonly #stopping = new AbortController();
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(options: FeedPollerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    const { ledger, settings, feedState, feedPosts, editor, digests, logger } = options;
    this.#fanOut = new FanOut({
      ledger,
      settings,
      feedState,
      feedPosts,
      editor,
      digests,
      logger,
      now: this.#now,
      preferredLocale: options.preferredLocale,
      stopped: () => this.#stopped,
    });
    this.#alerts = options.alerts
      ? new AlertDelivery({
          alerts: options.alerts,
          settings,
          ledger,
          links: options.links,
          heroes: options.heroes,
          localeOf: (target) => this.#fanOut.localeOf(target),
          logger,
          now: this.#now,
          signal: this.#stopping.signal,
        })
      : undefined;
  }

  start(): void {
    const loop = async () => {
      if (this.#stopped) return;
      await this.#serially();
      if (!this.#stopped) this.#timer = setTimeout(() => void loop(), this.#o.intervalSeconds * 1000);
    };
    void loop();
  }

  /** Polls once more, after any poll in progress (a backfill just asked for); only the leader polls. Never rejects: a failed poll is logged. */
  async pollNow(): Promise<void> {
    if (this.#stopped) return;
    await this.#serially();
  }

  /** Runs a poll after the one in progress, so two polls never overlap in one process. */
  #serially(): Promise<void> {
    const next = (this.#running ?? Promise.resolve()).then(() => this.tick()).catch((err: unknown) => this.#o.logger.error({ err }, 'feed poll failed'));
    this.#running = next;
    return next;
  }

  /** Stops polling and waits for a poll in progress to finish its deliveries; its feed reads still waiting for the API are given up. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopping.abort();
    clearTimeout(this.#timer);
    clearTimeout(this.#wakeTimer);
    await this.#running;
  }

  /** One poll of every feed, if this process leads, then the hourly pruning. */
  async tick(): Promise<void> {
    if (!(await this.#o.leadership.isLeader())) return;
    this.#fanOut.beginPoll();
    for (const type of FEED_TYPES) {
      if (this.#stopped) break;
      try {
        await this.#pollFeed(type);
      } catch (err) {
        if (this.#stopped) this.#o.logger.debug({ err, feed: type }, 'feed poll given up: stopping');
        else this.#o.logger.warn({ err, feed: type }, 'could not poll a feed');
      }
    }
    try {
      await this.#alerts?.send();
    } catch (err) {
      this.#o.logger.warn({ err }, 'could not send hero alerts; tried again next poll');
    }
    this.#scheduleWake();
    await this.prune();
  }

  /** Polls again when the earliest held post or digest is due, if that is before the next regular poll (1 s after, so the window has ended). */
  #scheduleWake(): void {
    clearTimeout(this.#wakeTimer);
    const wakeIn = this.#fanOut.wakeIn;
    if (this.#stopped || !Number.isFinite(wakeIn) || wakeIn >= this.#o.intervalSeconds * 1000) return;
    this.#wakeTimer = setTimeout(() => void this.#serially(), wakeIn + 1_000);
    this.#wakeTimer.unref();
  }

  /** Prunes old settled deliveries and finished fan-outs, at most once per {@link PRUNE_INTERVAL_MS} unless `force`. */
  async prune(force = false): Promise<void> {
    const now = this.#now();
    if (!force && now - this.#prunedAt < PRUNE_INTERVAL_MS) return;
    try {
      const pruned = await pruneState(this.#o.db, now, this.#o.retentionMs ?? RETENTION_MS);
      this.#prunedAt = now;
      if (pruned.deliveries + pruned.fanOuts > 0) this.#o.logger.info(pruned, 'pruned old feed records');
    } catch (err) {
      this.#o.logger.warn({ err }, 'could not prune old feed records');
    }
  }

  async #pollFeed(type: FeedType): Promise<void> {
    const { settings, feedState, feedPosts, logger } = this.#o;
    const read = await readFeed(this.#o.api, type, { heroes: this.#o.heroes, signal: this.#stopping.signal, logger });
    const posts = read.map((r) => r.post);
    this.#fanOut.beginFeed();
    // One indexed query per feed and poll, shared by every fan-out, the edits and the backfill.
    const subs = await settings.subscriptions(type);
    const seenBefore = await feedState.seen(type);
    // Before the fan-outs, so a post corrected before every channel got it is sent corrected.
    const { revisions, corrected } = await feedPosts.reconcile(type, read, this.#now());
    if (corrected.length > 0) logger.info({ feed: type, posts: corrected }, 'feed posts corrected at the source; their messages will be edited');
    if (seenBefore === undefined) {
      await feedState.record(
        type,
        posts.map((p) => p.id),
        [],
        this.#now(),
      );
      logger.info({ feed: type, posts: posts.length }, 'feed initialised; existing posts recorded, not posted');
    } else {
      const seen = new Set(seenBefore);
      const found = posts.filter((p) => !seen.has(p.id)).reverse(); // oldest first
      if (found.length > 0) {
        await feedState.record(type, [...found.map((p) => p.id).reverse(), ...seenBefore], found, this.#now());
        logger.info({ feed: type, posts: found.map((p) => p.id) }, 'new feed posts');
        this.#o.metrics?.feedPosts('found', type, found.length);
      }
      const pending = await feedState.pending(type);
      if (this.#alerts) for (const item of pending) await this.#alerts.plan(type, item.post);
      const pendingRevisions = await feedPosts.revisions(
        type,
        pending.map((p) => p.post.id),
      );
      for (const item of pending) {
        const complete = await this.#fanOut.post(type, item.post, item.foundAt, subs, pendingRevisions.get(item.post.id) ?? 0);
        if (complete) await feedState.finish(type, item.post.id, this.#now());
      }
      await this.#fanOut.corrections(type, subs);
      await this.#fanOut.digests(type, subs);
      await feedState.touch(type, this.#now());
    }
    await this.#fanOut.backfill(type, posts, subs, revisions);
  }
}
