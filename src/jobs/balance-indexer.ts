/**
 * The balance indexer: reads every page of the balance posts and patch notes (api-spec.md endpoints 12, 13) at `bulk` priority,
 * finds the heroes each post changed (src/game/balance.ts) and stores them for `/hero`'s "Balance history". Incremental and
 * idempotent: posts are immutable, so a post read under the current signature is not read again; a failed page is read next run.
 * A run that read every page marks the history complete, which tells "still being built" from "no post changed this hero".
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

/** Default interval of {@link BalanceIndexer.start}, ms. */
export const BALANCE_INDEX_INTERVAL_MS = 60 * 60_000;

/** The API's default page size (api-spec.md "Limits"): the same pages /patch-notes and the poller read, shared in the cache. */
export const BALANCE_INDEX_PAGE_SIZE = 10;

/** Bumped when src/game/balance.ts reads posts differently: every post is then read again once. */
export const CLASSIFIER_VERSION = 1;

/** A list that never ends is an API fault, not a history. */
const MAX_PAGES = 1_000;

const STOP_WAIT_MS = 5_000;

export interface BalanceIndexerOptions {
  api: RivalsApi;
  /** The hero list (api-spec.md endpoint 1), through its cache. */
  heroes: Pick<HeroDirectory, 'list'>;
  history: BalanceHistoryRepository;
  logger: Logger;
  now?: () => number;
  /** Default {@link BALANCE_INDEX_PAGE_SIZE}. */
  pageSize?: number;
}

export interface IndexRun {
  /** Empty ones included. */
  pages: number;
  /** Read again next run. */
  failedPages: number;
  postsSeen: number;
  /** New, or read again for a new signature. */
  postsIndexed: number;
  /** No text, or an error; not stored. */
  postsSkipped: number;
  /** One per hero and post. */
  entries: number;
  /** Every page of both lists was read, and nothing stopped the run. */
  complete: boolean;
  /** ms since the epoch. */
  startedAt: number;
  finishedAt: number;
}

/** The classifier's version and the hero list's names: a new signature reads every post again. */
function signatureOf(heroes: readonly CatalogHero[]): string {
  const names = [...heroes]
    .map((h) => [h.id, h.name, (h.transformations ?? []).map((t) => t.name ?? ''), (h.abilities ?? []).map((a) => a.name ?? '').sort()])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return `${CLASSIFIER_VERSION}:${createHash('sha256').update(JSON.stringify(names)).digest('hex').slice(0, 16)}`;
}

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

  get running(): boolean {
    return this.#job.running;
  }

  /** The last finished run of this process, if any. */
  get lastRun(): IndexRun | undefined {
    return this.#last;
  }

  /** Runs once, or joins the run under way. Never rejects: failures are logged and leave {@link IndexRun.complete} false. */
  run(): Promise<IndexRun> {
    return this.#job.run();
  }

  /** Runs now, then `intervalMs` after each run ends; with `when`, only in the leading process, since the index is shared through the store. */
  start(intervalMs: number = BALANCE_INDEX_INTERVAL_MS, when?: () => Promise<boolean>): void {
    this.#job.start(
      intervalMs,
      (err) => this.#o.logger.warn({ err }, 'balance index turn skipped'),
      () => this.run(),
      when,
    );
  }

  /** Cancels a run's requests and waits for it to end, bounded. */
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
      // Default priority: members read the list too and may join this request.
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
      // Given up by stop(): no failure.
      if (!this.#abort.signal.aborted) log.warn({ err }, 'balance history: the run stopped early; the next run goes on from what is stored');
    }
    this.#last = run;
    const { startedAt: _s, finishedAt: _f, ...counts } = run;
    log.info({ ...counts, ms: run.finishedAt - run.startedAt }, 'balance history indexed');
    return run;
  }

  /** @returns whether every page was read. @throws on a store failure. */
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

  /** A post that cannot be read is logged and skipped. @throws on a store failure. */
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
