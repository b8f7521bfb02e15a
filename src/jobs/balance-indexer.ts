/**
 * The balance indexer: reads every page of the balance posts and patch notes (api-spec.md
 * endpoints 12 and 13) at the rate limiter's `bulk` priority (after members and the feeds), finds in each post the heroes it
 * changed (src/game/balance.ts), and stores them in the balance history (src/store/balance-history.ts)
 * for `/hero`'s "Balance history" section.
 *
 * - Incremental: a post already read (with the same hero list and classifier, its signature) is not
 *   read again; only the list pages are fetched, and posts are immutable once published, so a post is
 *   never fetched on its own. Running again changes nothing (idempotent).
 * - A page that fails is logged and the walk goes on where it can (the total is known); the page is
 *   read again by the next run. A post that cannot be read is logged and skipped. A store failure ends
 *   the run (logged); the next run starts over from what was stored.
 * - A run that read every page of both lists marks the history complete (`completedAt`), which `/hero`
 *   uses to tell "still being built" from "no post changed this hero".
 * - Single-flight: a run asked for while one is under way joins it. `start()` runs at once, then every
 *   interval after the previous run ended, on an unref'd timer (it never keeps the process alive).
 * - Runs outside any interaction's deadline (src/core/deadline.ts `runWithoutDeadline`).
 */
import { createHash } from 'node:crypto';
import type { Fetched, RivalsApi } from '../api/client.js';
import { ApiError } from '../core/api-errors.js';
import type { Page, Post } from '../api/schemas.js';
import type { HeroDirectory } from '../catalog/hero-directory.js';
import { BackgroundJob } from '../core/background-job.js';
import type { Logger } from '../core/logger.js';
import { POST_KINDS, type BalanceHistoryRepository, type PostKind } from '../store/balance-history.js';
import { heroCatalog, heroChanges, type CatalogHero, type HeroCatalog } from '../game/balance.js';

/** Default interval of {@link BalanceIndexer.start}: an hour (new posts come weeks apart). */
export const BALANCE_INDEX_INTERVAL_MS = 60 * 60_000;

/** The API's default page size of the post lists (api-spec.md "Limits"), the same pages /patch-notes and the poller read (shared in the cache). */
export const BALANCE_INDEX_PAGE_SIZE = 10;

/** Bumped when src/game/balance.ts reads posts differently: every post is then read again once. */
export const CLASSIFIER_VERSION = 1;

/** Pages read per list at most (a list that never ends is an API fault, not a history). */
const MAX_PAGES = 1_000;

/** How long {@link BalanceIndexer.stop} waits for a run under way to end. */
const STOP_WAIT_MS = 5_000;

export interface BalanceIndexerOptions {
  api: RivalsApi;
  /** The hero list (api-spec.md endpoint 1), through its cache. */
  heroes: Pick<HeroDirectory, 'list'>;
  history: BalanceHistoryRepository;
  logger: Logger;
  now?: () => number;
  /** Posts asked for per page (default {@link BALANCE_INDEX_PAGE_SIZE}). */
  pageSize?: number;
}

/** What one run did. */
export interface IndexRun {
  /** List pages answered (empty ones included). */
  pages: number;
  /** List pages that failed (read again next run). */
  failedPages: number;
  /** Posts listed. */
  postsSeen: number;
  /** Posts read and stored this run (new, or read again for a new signature). */
  postsIndexed: number;
  /** Posts that could not be read (no text, or an error), not stored. */
  postsSkipped: number;
  /** History rows written (one per hero and post). */
  entries: number;
  /** Every page of both lists was read, and nothing stopped the run. */
  complete: boolean;
  /** ms since the epoch. */
  startedAt: number;
  finishedAt: number;
}

/** The signature of a reading: the classifier's version and the hero list's names. */
function signatureOf(heroes: readonly CatalogHero[]): string {
  const names = [...heroes]
    .map((h) => [h.id, h.name, (h.transformations ?? []).map((t) => t.name ?? ''), (h.abilities ?? []).map((a) => a.name ?? '').sort()])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return `${CLASSIFIER_VERSION}:${createHash('sha256').update(JSON.stringify(names)).digest('hex').slice(0, 16)}`;
}

/** Reads the balance posts and patch notes into the balance history. See the module's header. */
export class BalanceIndexer {
  readonly #o: BalanceIndexerOptions;
  readonly #now: () => number;
  readonly #pageSize: number;
  readonly #job = new BackgroundJob(() => this.#index());
  #abort = new AbortController();
  #last: IndexRun | undefined;

  constructor(options: BalanceIndexerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#pageSize = Math.max(1, Math.trunc(options.pageSize ?? BALANCE_INDEX_PAGE_SIZE));
  }

  /** Whether a run is under way. */
  get running(): boolean {
    return this.#job.running;
  }

  /** The last finished run of this process, if any. */
  get lastRun(): IndexRun | undefined {
    return this.#last;
  }

  /**
   * Runs the indexer once, or joins the run under way. Never rejects: failures are logged and leave
   * the run incomplete ({@link IndexRun.complete} false).
   */
  run(): Promise<IndexRun> {
    return this.#job.run();
  }

  /**
   * Runs now, then `intervalMs` after each run ends (default {@link BALANCE_INDEX_INTERVAL_MS}), on an
   * unref'd timer; with `when`, only the turns it answers true for (the leading process: the index is
   * shared through the store, so one process of a deployment keeps it). A `when` that fails is logged
   * and its turn skipped.
   */
  start(intervalMs: number = BALANCE_INDEX_INTERVAL_MS, when?: () => Promise<boolean>): void {
    this.#job.start(
      intervalMs,
      (err) => this.#o.logger.warn({ err }, 'balance index turn skipped'),
      () => this.run(),
      when,
    );
  }

  /** Stops the timer, cancels the requests of a run under way, and waits (at most 5 s) for it to end. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#job.stop(STOP_WAIT_MS);
  }

  async #index(): Promise<IndexRun> {
    this.#abort = new AbortController();
    const run: IndexRun = {
      pages: 0,
      failedPages: 0,
      postsSeen: 0,
      postsIndexed: 0,
      postsSkipped: 0,
      entries: 0,
      complete: false,
      startedAt: this.#now(),
      finishedAt: 0,
    };
    const log = this.#o.logger;
    try {
      // The list at the default priority (members read it too and may join this request), but given up on stop.
      const heroes = await this.#o.heroes.list({ signal: this.#abort.signal });
      const catalog = heroCatalog(heroes);
      const signature = signatureOf(heroes);
      let complete = true;
      for (const kind of POST_KINDS) {
        if (!(await this.#indexKind(kind, catalog, signature, run))) complete = false;
      }
      run.finishedAt = this.#now();
      if (complete && !this.#job.stopped) {
        await this.#o.history.markComplete(run.finishedAt);
        run.complete = true;
      }
    } catch (err) {
      run.finishedAt = this.#now();
      // Given up by stop() (the hero list's wait for the rate limit included): no failure.
      if (!this.#abort.signal.aborted) log.warn({ err }, 'balance history: the run stopped early; the next run goes on from what is stored');
    }
    this.#last = run;
    const { startedAt: _s, finishedAt: _f, ...counts } = run;
    log.info({ ...counts, ms: run.finishedAt - run.startedAt }, 'balance history indexed');
    return run;
  }

  /** Walks every page of one list. @returns whether every page was read. @throws on a store failure. */
  async #indexKind(kind: PostKind, catalog: HeroCatalog, signature: string, run: IndexRun): Promise<boolean> {
    const indexed = await this.#o.history.indexed(kind);
    const seen = new Set<string>();
    let total: number | null = null;
    let listed = 0;
    let everyPage = true;
    for (let page = 1; page <= MAX_PAGES; page++) {
      if (this.#job.stopped) return false;
      let fetched: Fetched<Page<Post>>;
      try {
        fetched = await this.#list(kind, page);
      } catch (err) {
        // Past the last page the API answers 404 (api-spec.md "Errors"): the list has ended.
        if (err instanceof ApiError && err.kind === 'not_found') break;
        if (this.#job.stopped) return false;
        run.failedPages++;
        everyPage = false;
        this.#o.logger.warn({ err, kind, page }, 'balance history: a list page failed; it is read again next run');
        // With the total known, the pages after it can still be read.
        if (total !== null && page * this.#pageSize < total) continue;
        break;
      }
      run.pages++;
      const posts = fetched.data.entries;
      total = Math.max(total ?? 0, fetched.data.total);
      // An empty page, or one that repeats posts already listed (an API that ignores `page`), ends the list.
      if (posts.length === 0 || posts.every((p) => seen.has(p.id))) break;
      for (const post of posts) {
        if (seen.has(post.id)) continue;
        seen.add(post.id);
        listed++;
        run.postsSeen++;
        if (indexed.get(post.id) === signature) continue;
        await this.#indexPost(kind, post, catalog, signature, run);
      }
      if (total !== null && listed >= total) break;
    }
    return everyPage;
  }

  /** Reads one post and stores it; a post that cannot be read is logged and skipped. @throws on a store failure. */
  async #indexPost(kind: PostKind, post: Post, catalog: HeroCatalog, signature: string, run: IndexRun): Promise<void> {
    let changes;
    try {
      const text = post.full_content ?? post.overview;
      if (!text?.trim()) {
        run.postsSkipped++;
        this.#o.logger.warn({ kind, post: post.id }, 'balance history: a post has no text; skipped (read again next run)');
        return;
      }
      changes = heroChanges(text, catalog);
    } catch (err) {
      run.postsSkipped++;
      this.#o.logger.warn({ err, kind, post: post.id }, 'balance history: could not read a post; skipped');
      return;
    }
    await this.#o.history.record({ kind, id: post.id, date: post.date, title: post.title ?? post.id }, changes, signature, this.#now());
    run.postsIndexed++;
    run.entries += changes.length;
  }

  #list(kind: PostKind, page: number): Promise<Fetched<Page<Post>>> {
    const options = { priority: 'bulk' as const, signal: this.#abort.signal };
    const params = { page, limit: this.#pageSize };
    return kind === 'balance' ? this.#o.api.balances(params, options) : this.#o.api.patchNotes(params, options);
  }
}
