/**
 * The patch-note poller (STYLE.md, src/feeds): every `FEED_POLL_SECONDS` it reads the first page of
 * patch notes, balance posts, dev diaries and game versions (fresh, at the rate limiter's background
 * priority), finds posts not seen before, and fans each out to every subscribed channel exactly once.
 *
 * - First run of a feed: what exists is recorded, nothing is posted (no flood of history).
 * - A post found is stored as a pending fan-out with the time it was found, and stays pending until
 *   every channel is settled, so a crash in the middle of a fan-out resumes on restart (claims skip
 *   the channels already done) instead of dropping the rest.
 * - A channel receives posts found after it was set, plus the backfill its admin asked for.
 * - The channels of a feed come from one indexed query per feed and poll, never a scan.
 * - Only the leader polls (one process among several sharing Redis).
 * - A failing store or API only skips this poll: the next one catches up. Settled deliveries and
 *   finished fan-outs are pruned hourly (src/store/retention.ts).
 */
import PQueue from 'p-queue';
import type { RivalsApi } from '../api/client.js';
import { heroCatalog, heroChanges, type HeroCatalog } from '../game/balance.js';
import type { HeroDirectory } from '../catalog/hero-directory.js';
import type { Logger } from '../core/logger.js';
import { pickLocale, runInLocale, SOURCE_LOCALE, type Locale } from '../i18n/index.js';
import { truncate } from '../render/limits.js';
import { toMessagePayload, type MessagePayload } from '../render/view.js';
import type { Db } from '../store/database.js';
import type { AccountLinksRepository } from '../store/account-links.js';
import type { AlertsRepository } from '../store/alerts.js';
import type { FeedDigestsRepository } from '../store/feed-digests.js';
import type { FeedPostsRepository } from '../store/feed-posts.js';
import type { FeedStateRepository } from '../store/feed-state.js';
import { FEED_TYPES, type FeedSubscription, type FeedType, type GuildSettingsRepository, type GuildSubscription } from '../store/guild-settings.js';
import { PRUNE_INTERVAL_MS, pruneState, RETENTION_MS } from '../store/retention.js';
import { contentHash, EDIT_CONCURRENCY, isCredibleCorrection, type CorrectionEditor } from './corrections.js';
import { type DeliveryLedger } from './delivery.js';
import { classifyError } from '../core/discord-errors.js';
import { ALERT_FEEDS, planAlerts } from './alerts.js';
import { digestPeriod, digestPostId, digestView } from './digest.js';
import { localTime, quietNow } from './schedule.js';
import type { Leadership } from './leadership.js';
import type { Metrics } from '../core/metrics.js';
import { feedPostView, threadPartViews, type FeedPost } from './render.js';

/** The ledger key (post id) marking a post's thread as complete in a channel. */
const threadKey = (postId: string) => `${postId}#thread`;
/** How long after a post was found its thread is still tried, ms: a day. */
const THREAD_GIVE_UP_MS = 24 * 60 * 60_000;

/** Channels posted to at once during a fan-out (discord.js's REST queue keeps each route within its rate limit). */
export const FAN_OUT_CONCURRENCY = 8;

/** A post as the poller read it: what a feed message shows, and the {@link contentHash} of what a correction may change. */
export interface ReadPost {
  post: FeedPost;
  hash: string;
  /** Whether a change in this read counts as a correction ({@link isCredibleCorrection}). */
  credible: boolean;
}

/**
 * Whether a subscription takes `post`: a balance-post subscription with a hero filter takes only posts
 * that change one of its heroes; a post whose heroes could not be read goes through (better one post
 * too many than a change missed). Every other subscription takes every post.
 */
export function passesFilter(type: FeedType, sub: FeedSubscription, post: FeedPost): boolean {
  if (type !== 'balances' || !sub.heroes?.length || post.heroes === undefined) return true;
  return post.heroes.some((h) => sub.heroes!.includes(h));
}

/**
 * Reads the first page of one feed, fresh from the API at background priority, newest first. With a
 * hero `catalog`, balance posts and patch notes carry the ids of the heroes they change (src/game/balance.ts).
 * `signal` gives the read up (a shutdown: it may be waiting behind members' requests for the rate limit).
 * @throws {ApiError} when the API does not answer with the feed; the signal's reason when aborted.
 */
export async function fetchFeed(api: RivalsApi, type: FeedType, catalog?: HeroCatalog, signal?: AbortSignal): Promise<ReadPost[]> {
  const options = { fresh: true, priority: 'background' as const, ...(signal ? { signal } : {}) };
  const page = { page: 1, limit: 10 };
  if (type === 'gameVersions') {
    const versions = (await api.gameVersions(page, options)).data.entries;
    return versions.map((v) => {
      // Not shown (src/feeds/render.ts `feedPostText` writes a version's title and text in each server's
      // language): kept in English as stored and hashed since the first release, so no delivered post
      // reads as corrected.
      const post = { id: v.version, title: `Game version ${v.version}`, date: v.release, overview: v.release ? `Released ${v.release}.` : null, image: null };
      return { post, hash: contentHash({ title: post.title, overview: post.overview, content: null }), credible: Boolean(v.release) };
    });
  }
  const fetched =
    type === 'patchNotes' ? await api.patchNotes(page, options) : type === 'balances' ? await api.balances(page, options) : await api.devDiaries(page, options);
  return fetched.data.entries.map((p) => {
    const content = { title: p.title, overview: p.overview, content: p.full_content };
    const changes = catalog && p.full_content ? heroChanges(p.full_content, catalog) : undefined;
    const heroes = changes ? [...new Set(changes.map((c) => c.heroId))] : undefined;
    const verdicts = changes ? Object.fromEntries(changes.map((c) => [c.heroId, c.verdict])) : undefined;
    const post: FeedPost = {
      id: p.id,
      title: p.title ?? p.id,
      date: p.date,
      overview: p.overview,
      image: p.image,
      ...(heroes ? { heroes, verdicts } : {}),
      ...(p.full_content ? { content: p.full_content } : {}),
    };
    return { post, hash: contentHash(content), credible: isCredibleCorrection(content) };
  });
}

export interface FeedPollerOptions {
  api: RivalsApi;
  /** For retention. */
  db: Db;
  feedState: FeedStateRepository;
  settings: GuildSettingsRepository;
  ledger: DeliveryLedger;
  /** Content hashes and revisions of posts: a changed post is a correction. */
  feedPosts: FeedPostsRepository;
  /** Edits the delivered messages of corrected posts. */
  editor: CorrectionEditor;
  /** Posts waiting for each digest channel's next digest. */
  digests: FeedDigestsRepository;
  /** Members' hero alerts; without it no alert is sent. */
  alerts?: AlertsRepository;
  /**
   * Members' own languages (`/settings language`, kept with their account links), for their
   * direct-message alerts; absent: those are in their server's language.
   */
  links?: Pick<AccountLinksRepository, 'localesOf'>;
  /**
   * A guild's Discord language (`preferred_locale`, from the gateway's guild cache), for servers that
   * did not choose one with `/config language`; absent or undefined: English.
   */
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
  #timer: NodeJS.Timeout | undefined;
  /** A poll at the end of the earliest quiet hours holding a post, when that comes before the next regular poll. */
  #wakeTimer: NodeJS.Timeout | undefined;
  /** During a poll: ms until the earliest quiet hours holding a post end. */
  #wakeIn = Number.POSITIVE_INFINITY;
  #running: Promise<void> | undefined;
  #stopped = false;
  /** Aborted by {@link stop}: the feed reads waiting for the API give up, so a shutdown never waits for them. */
  readonly #stopping = new AbortController();
  #prunedAt = Number.NEGATIVE_INFINITY;
  /** Subscriptions (`guild:feed`) marked broken during the current poll, skipped by its backfill. */
  readonly #broken = new Set<string>();

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

  /**
   * Polls once more now, after any poll in progress (the playground calls it when a post is added,
   * `/config feed` when a backfill is asked for). Only the leader polls, as in {@link tick}; a stopped
   * poller does nothing. Never rejects: a failed poll is logged, and the next one catches up.
   */
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
    this.#wakeIn = Number.POSITIVE_INFINITY;
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
      await this.#sendAlerts();
    } catch (err) {
      this.#o.logger.warn({ err }, 'could not send hero alerts; tried again next poll');
    }
    this.#scheduleWake();
    await this.prune();
  }

  /**
   * Works out the alerts of a post once (src/feeds/alerts.ts): who follows a hero it changes, where
   * each is told, in which language (a channel's in its guild's, a direct message in the member's own,
   * else their server's). Stored before any is sent.
   */
  async #planAlerts(type: FeedType, post: FeedPost): Promise<void> {
    const alerts = this.#o.alerts;
    if (!alerts || !ALERT_FEEDS.includes(type) || !post.verdicts || Object.keys(post.verdicts).length === 0) return;
    if (await alerts.planned(type, post.id)) return;
    const members = await alerts.allMembers();
    const mains = await alerts.mainsOf([...new Set(members.filter((m) => m.mains).map((m) => m.userId))]);
    const guilds = new Map<string, { alertsChannelId?: string; locale: Locale }>();
    for (const guildId of new Set(members.map((m) => m.guildId))) {
      if (guildId === '') continue;
      const s = await this.#o.settings.get(guildId);
      guilds.set(guildId, { alertsChannelId: s.alertsChannelId, locale: this.#localeOf({ guildId, locale: s.locale }) });
    }
    // The languages of the members who may get a direct message (the planner decides who does).
    const dmMembers = [...new Set(members.filter((m) => m.dm || m.guildId === '').map((m) => m.userId))];
    const memberLocales = this.#o.links && dmMembers.length > 0 ? await this.#o.links.localesOf(dmMembers) : new Map<string, Locale>();
    const names = (await this.#o.heroes?.displayNames({ signal: this.#stopping.signal })) ?? new Map<string, string>();
    // Stopped while the names were read: no plan is stored with heroes named by id (a stored plan is never redone).
    if (this.#stopped) return;
    const planned = planAlerts(type, post, {
      members,
      mains,
      alertsChannel: (g) => guilds.get(g)?.alertsChannelId,
      heroName: (id) => names.get(id) ?? id,
      localeOf: (g) => guilds.get(g)?.locale ?? this.#localeOf({ guildId: g }),
      memberLocale: (u) => memberLocales.get(u) ?? null,
    });
    const messages = planned.map((p) => ({ target: p.target, part: p.part, body: toMessagePayload(p.view) }));
    if (await alerts.plan(type, post.id, messages, this.#now()))
      this.#o.logger.info({ feed: type, post: post.id, messages: messages.length }, 'hero alerts planned');
  }

  /** Sends the planned alert messages not yet settled, each through the ledger (feed `alerts`): exactly once. */
  async #sendAlerts(): Promise<void> {
    const alerts = this.#o.alerts;
    if (!alerts) return;
    for (const m of await alerts.pending()) {
      let channelId = m.target;
      if (m.target.startsWith('dm:')) {
        try {
          channelId = (await this.#o.ledger.openDm(m.target.slice(3))).id;
        } catch (err) {
          const c = classifyError(err);
          this.#o.logger.warn({ err, target: m.target, kind: c.kind }, 'could not open a direct message for an alert');
          if (c.kind === 'broken') await alerts.settle(m, this.#now());
          continue;
        }
      }
      const outcome = await this.#o.ledger.deliver({ feed: 'alerts', postId: `${m.feed}:${m.postId}#${m.part}`, channelId }, m.body as MessagePayload, false);
      if (outcome.status !== 'retry') await alerts.settle(m, this.#now());
      if (outcome.status === 'broken') this.#o.logger.warn({ target: m.target, code: outcome.code }, 'an alert could not be delivered: ' + outcome.reason);
    }
  }

  /** Polls again when the earliest quiet hours holding a post end, if that is before the next regular poll (1 s after, so the window has ended). */
  #scheduleWake(): void {
    clearTimeout(this.#wakeTimer);
    if (this.#stopped || !Number.isFinite(this.#wakeIn) || this.#wakeIn >= this.#o.intervalSeconds * 1000) return;
    this.#wakeTimer = setTimeout(() => void this.#serially(), this.#wakeIn + 1_000);
    this.#wakeTimer.unref();
  }

  /** Whether the subscription holds its posts now (quiet hours); notes when the hold ends, for {@link #scheduleWake}. */
  #held(sub: FeedSubscription): boolean {
    if (!sub.quiet) return false;
    const q = quietNow(sub.quiet, sub.timeZone ?? 'UTC', this.#now());
    if (!q.quiet) return false;
    this.#wakeIn = Math.min(this.#wakeIn, q.endsInMs);
    return true;
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

  /** The hero catalog for balance posts and patch notes, or undefined (logged) when the heroes cannot be had now. */
  async #catalog(type: FeedType): Promise<HeroCatalog | undefined> {
    if (!this.#o.heroes || (type !== 'balances' && type !== 'patchNotes')) return undefined;
    try {
      // Given up on stop, also while it waits for the rate limit.
      return heroCatalog(await this.#o.heroes.list({ signal: this.#stopping.signal }));
    } catch (err) {
      // Stopping: the poll ends here, rather than record new posts without their heroes (the tick logs it at debug).
      if (this.#stopped) throw err;
      this.#o.logger.warn({ err, feed: type }, "could not read the heroes: hero filters let this poll's new posts through");
      return undefined;
    }
  }

  async #pollFeed(type: FeedType): Promise<void> {
    const read = await fetchFeed(this.#o.api, type, await this.#catalog(type), this.#stopping.signal);
    const posts = read.map((r) => r.post);
    this.#broken.clear();
    // One indexed query per feed and poll, shared by every fan-out, the edits and the backfill.
    const subs = await this.#o.settings.subscriptions(type);
    const seenBefore = await this.#o.feedState.seen(type);
    // Before the fan-outs, so a post corrected before every channel got it is sent corrected.
    const { revisions, corrected } = await this.#o.feedPosts.reconcile(type, read, this.#now());
    if (corrected.length > 0) this.#o.logger.info({ feed: type, posts: corrected }, 'feed posts corrected at the source; their messages will be edited');
    if (seenBefore === undefined) {
      // First run: remember what exists, post nothing.
      await this.#o.feedState.record(
        type,
        posts.map((p) => p.id),
        [],
        this.#now(),
      );
      this.#o.logger.info({ feed: type, posts: posts.length }, 'feed initialised; existing posts recorded, not posted');
    } else {
      const seen = new Set(seenBefore);
      const found = posts.filter((p) => !seen.has(p.id)).reverse(); // oldest first
      if (found.length > 0) {
        await this.#o.feedState.record(type, [...found.map((p) => p.id).reverse(), ...seenBefore], found, this.#now());
        this.#o.logger.info({ feed: type, posts: found.map((p) => p.id) }, 'new feed posts');
        this.#o.metrics?.feedPosts('found', type, found.length);
      }
      const pending = await this.#o.feedState.pending(type);
      for (const item of pending) await this.#planAlerts(type, item.post);
      const pendingRevisions = await this.#o.feedPosts.revisions(
        type,
        pending.map((p) => p.post.id),
      );
      for (const item of pending) {
        const complete = await this.#fanOut(type, item.post, item.foundAt, subs, pendingRevisions.get(item.post.id) ?? 0);
        if (complete) await this.#o.feedState.finish(type, item.post.id, this.#now());
      }
      await this.#correct(type, subs);
      await this.#sendDigests(type, subs);
    }
    await this.#backfill(type, posts, subs, revisions);
  }

  /**
   * Posts the full text of `post` in a thread under its message ("Threads"): the thread is
   * started (or found, after a crash: it has the message's id), each part is a ledger delivery of its
   * own (`<post>#thread-<n>`, exactly once), and a marker (`<post>#thread`) records the thread as
   * complete. A thread Discord refuses for good (no permission, the message deleted) is given up with a
   * log line, as is one still failing a day after the post was found; the post itself stays delivered.
   * @returns `retry` when a temporary failure leaves the thread to the next poll.
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
      if (c.kind === 'broken' || this.#now() - foundAt > THREAD_GIVE_UP_MS) return giveUp(c.reason, err);
      this.#o.logger.warn({ err, feed: type, post: post.id, channel: sub.channelId }, 'could not start the thread of a feed post; tried again next poll');
      return 'retry';
    }
    for (const [i, part] of parts.entries()) {
      const outcome = await this.#o.ledger.deliver({ feed: type, postId: `${post.id}#thread-${i + 1}`, channelId: threadId }, toMessagePayload(part), false);
      if (outcome.status === 'broken') return giveUp(outcome.reason);
      if (outcome.status === 'retry') return this.#now() - foundAt > THREAD_GIVE_UP_MS ? giveUp(outcome.reason) : 'retry';
    }
    await this.#o.ledger.markDone(marker);
    return 'done';
  }

  /**
   * Sends each digest channel its digest once a due moment has passed since the last one
   * (src/feeds/digest.ts): one message listing every waiting post, delivered through the ledger
   * (`digest:<period>`, exactly once), after which the posts it listed are removed. A digest just set
   * starts counting from its period; a period with nothing waiting sends nothing.
   */
  async #sendDigests(type: FeedType, subs: GuildSubscription[]): Promise<void> {
    for (const target of subs) {
      const { guildId, sub } = target;
      if (!sub.digest) continue;
      const zone = sub.timeZone ?? 'UTC';
      const now = this.#now();
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
      const payload = runInLocale(this.#localeOf(target), () =>
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
        await this.#o.settings.markDelivered(guildId, type, sub, key.postId, this.#now());
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

  /**
   * Edits the delivered messages of every corrected post of the feed (src/feeds/corrections.ts), and
   * records each outcome on the subscription of its channel for /config status. A post's edits are
   * finished once its fan-out is and no delivery of it shows an older text (within the edit window).
   */
  async #correct(type: FeedType, subs: GuildSubscription[]): Promise<void> {
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
            // In the language of the channel's guild; a channel no longer subscribed: English, as its guild is not known here.
            const payload = runInLocale(owner ? this.#localeOf(owner) : SOURCE_LOCALE, () =>
              toMessagePayload(feedPostView(type, post, owner?.sub.roleId ?? null, true)),
            );
            const outcome = await this.#o.editor.edit({ feed: type, postId: post.id, channelId: target.channelId }, target, payload, revision);
            counts[outcome.status]++;
            if (owner && outcome.status !== 'retry') {
              await this.#o.settings.markEdited(owner.guildId, type, owner.sub, {
                postId: post.id,
                at: this.#now(),
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

  /** Delivers one post to every channel subscribed before it was found. @returns whether every delivery is settled (sent, skipped or broken). */
  async #fanOut(type: FeedType, post: FeedPost, foundAt: number, all: GuildSubscription[], revision: number): Promise<boolean> {
    // A fan-out resumed poll after poll (a retry, quiet hours) skips the channels already settled (and, for threads, whose thread is complete).
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
    // Every delivery is waited for, even after one failed (the store went away): a poll that has
    // returned, or a stopped poller, never leaves sends running behind it.
    const results = await Promise.allSettled(
      subs.map((target) =>
        queue.add(async () => {
          const { guildId, sub } = target;
          // Stopping (shutdown): the channels not yet started stay in the pending fan-out, for the next leader.
          if (this.#stopped) {
            settled = false;
            return;
          }
          // A digest channel: the post waits in the database for the next digest.
          if (sub.digest) {
            await this.#o.digests.add(guildId, type, post, foundAt);
            return;
          }
          // Quiet hours: held in the pending fan-out (in the database), delivered by the first poll after the window, in the order found.
          if (this.#held(sub)) {
            settled = false;
            return;
          }
          // Delivered before (a crash, or a thread that failed for a while): only the thread is left.
          if (settledAlready.has(sub.channelId)) {
            const record = await this.#o.ledger.get({ feed: type, postId: post.id, channelId: sub.channelId });
            if ((await this.#thread(type, post, sub, this.#localeOf(target), record?.messageId ?? null, foundAt)) === 'retry') settled = false;
            return;
          }
          const outcome = await this.#deliver(type, post, target, revision);
          if (outcome === 'retry') settled = false;
        }),
      ),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    return settled;
  }

  /** Sends the latest `backfill` posts to channels whose admin asked for them, then clears the request. */
  async #backfill(type: FeedType, posts: FeedPost[], subs: GuildSubscription[], revisions: Map<string, number>): Promise<void> {
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

  /** The language of a guild's feed posts: its `/config language`, else its Discord language, else English. */
  #localeOf(target: { guildId: string; locale?: Locale }): Locale {
    return target.locale ?? pickLocale(this.#o.preferredLocale?.(target.guildId));
  }

  /** Deliveries to the subscription's channel fail for good: it is marked (shown by /config status) and skipped by this poll's backfill. */
  async #markBroken(guildId: string, type: FeedType, sub: FeedSubscription, failure: { code: number; reason: string }): Promise<void> {
    this.#broken.add(`${guildId}:${type}`);
    await this.#o.settings.markBroken(guildId, type, sub, { code: failure.code, reason: failure.reason, at: this.#now() });
    this.#o.logger.warn({ guild: guildId, channel: sub.channelId, feed: type, code: failure.code }, 'feed subscription marked broken');
  }

  async #deliver(type: FeedType, post: FeedPost, target: GuildSubscription, revision: number): Promise<'done' | 'retry' | 'broken'> {
    const { guildId, sub } = target;
    const locale = this.#localeOf(target);
    const payload = runInLocale(locale, () => toMessagePayload(feedPostView(type, post, sub.roleId, revision > 1)));
    const outcome = await this.#o.ledger.deliver({ feed: type, postId: post.id, channelId: sub.channelId }, payload, sub.publish, revision);
    if (outcome.status === 'sent') {
      await this.#o.settings.markDelivered(guildId, type, sub, post.id, this.#now());
      if (sub.threads && (await this.#thread(type, post, sub, locale, outcome.messageId, this.#now())) === 'retry') return 'retry';
    } else if (outcome.status === 'broken') {
      await this.#markBroken(guildId, type, sub, outcome);
      return 'broken';
    }
    return outcome.status === 'retry' ? 'retry' : 'done';
  }
}
