/**
 * The hero meta's gathering: {@link HeroMeta} keeps the latest snapshot (src/game/meta.ts) in memory and
 * in the store, and refreshes it in the background at `bulk` priority on the rate limiter, or at
 * `gathering` priority while there is no snapshot to serve.
 */
import type { RivalsApi } from '../api/client.js';
import { BULK_SHARE, GATHERING_SHARE, shareCap, type Priority } from '../api/rate-limiter.js';
import type { Hero } from '../api/schemas.js';
import { runWithoutDeadline } from '../core/deadline.js';
import { heroDisplayName, type HeroDirectory } from '../catalog/hero-directory.js';
import type { Logger } from '../core/logger.js';
import {
  META_REFRESH_MS,
  META_CONCURRENCY,
  META_DEFAULT_RPM,
  metaEtaMs,
  metaRows,
  type MetaHeroRef,
  type MetaStats,
  type MetaSnapshot,
  type MetaSnapshotStore,
  type MetaProgress,
} from '../game/meta.js';

/** Options of {@link HeroMeta}. */
export interface HeroMetaOptions {
  api: RivalsApi;
  heroes: HeroDirectory;
  logger: Logger;
  /** Clock, ms since the Unix epoch; default `Date.now`. */
  now?: () => number;
  /** Statistics requests in flight at most; default {@link META_CONCURRENCY}. */
  concurrency?: number;
  /** The key's rate (`RIVALS_API_RPM`), requests a minute, for {@link HeroMeta.progress}; default {@link META_DEFAULT_RPM}. */
  requestsPerMinute?: number;
  /** Keeps the latest snapshot across restarts; absent: memory only. */
  store?: MetaSnapshotStore;
}

/** The end of a refresh that {@link HeroMeta.stop} stopped: nothing went wrong, and the previous snapshot is kept. */
export class MetaStoppedError extends Error {
  override name = 'MetaStoppedError';
  constructor() {
    super('the hero meta refresh was stopped');
  }
}

const isStopped = (err: unknown) => err instanceof MetaStoppedError;

/**
 * The hero meta of the whole roster, kept in memory and refreshed in the background.
 *
 * A refresh asks for the hero list (through the directory, usually a cache hit) and then every hero's
 * statistics with `priority: 'bulk'` (after members' commands and the feeds, within the bulk share of
 * the rate), or `gathering` while there is no snapshot to serve (two thirds of the key's rate, still
 * after members' commands and the feeds), at most {@link HeroMetaOptions.concurrency} at a time and outside any
 * interaction's deadline (a member's command may start it, but it does not end with their answer). A
 * hero whose statistics fail is left out, counted in {@link MetaSnapshot.missing} and logged. Each
 * snapshot is saved to the store, and {@link restore} reads the last one back after a restart.
 */
export class HeroMeta {
  readonly #api: RivalsApi;
  readonly #heroes: HeroDirectory;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #concurrency: number;
  readonly #rpm: number;
  readonly #store: MetaSnapshotStore | undefined;
  #snapshot: MetaSnapshot | undefined;
  #running: Promise<MetaSnapshot> | undefined;
  /** Aborts the gathering under way ({@link stop}). */
  #gathering: AbortController | undefined;
  /** The gathering under way: heroes back so far, heroes asked for, and its rate. */
  #progress: { done: number; total: number | undefined; fullRate: boolean } | undefined;
  /** The one read of the stored snapshot ({@link restore}). */
  #restoring: Promise<MetaSnapshot | undefined> | undefined;
  /** The save of the latest snapshot under way, which {@link stop} lets finish. */
  #saving: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** The first refresh of {@link start} when a restored snapshot is not due yet. */
  #firstRun: NodeJS.Timeout | undefined;
  /** Bumped by {@link start} and {@link stop}: a start whose restore ends after them schedules nothing. */
  #generation = 0;

  constructor(options: HeroMetaOptions) {
    this.#api = options.api;
    this.#heroes = options.heroes;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    this.#concurrency = Math.max(1, Math.floor(options.concurrency ?? META_CONCURRENCY));
    this.#rpm = Math.max(1, options.requestsPerMinute ?? META_DEFAULT_RPM);
    this.#store = options.store;
  }

  /** The latest gathering, complete or partial, or the one {@link restore} read from the store; undefined before either. */
  snapshot(): MetaSnapshot | undefined {
    return this.#snapshot;
  }

  /** Whether a refresh is under way. */
  get refreshing(): boolean {
    return this.#running !== undefined;
  }

  /**
   * How far the refresh under way has got and its estimated time left, at the rate it runs at
   * ({@link GATHERING_SHARE} of the key's rate for a first gathering, else {@link BULK_SHARE} of it);
   * undefined when no refresh is under way.
   */
  progress(): MetaProgress | undefined {
    const p = this.#progress;
    if (!p || !this.#running) return undefined;
    const rate = shareCap(this.#rpm, p.fullRate ? GATHERING_SHARE : BULK_SHARE);
    return { ...p, etaMs: p.total === undefined ? undefined : metaEtaMs(p.total - p.done, rate) };
  }

  /**
   * Reads the last snapshot saved to the store (once; later calls get the same read) and serves it
   * from now on, unless a gathering already gave a newer one. Never throws: a store failure is logged,
   * and the meta goes on without it.
   * @returns the snapshot served now, if any.
   */
  restore(): Promise<MetaSnapshot | undefined> {
    this.#restoring ??= this.#readStore();
    return this.#restoring;
  }

  /**
   * Gathers the meta anew and keeps it as the {@link snapshot}. Single-flight: while a refresh runs,
   * every call gets that refresh's promise. Runs without the caller's deadline (src/core/deadline.ts
   * `runWithoutDeadline`), so a caller that cannot wait may stop waiting and the refresh still ends.
   * @returns the new snapshot (partial when some heroes failed; `answered` of `total`).
   * @throws {ApiError} (src/core/api-errors.ts) when the hero list cannot be had, or when no hero's
   *   statistics answered (the first hero's error); the previous snapshot is then kept.
   */
  refresh(): Promise<MetaSnapshot> {
    if (!this.#running) {
      this.#running = runWithoutDeadline(() => this.#gather()).finally(() => {
        this.#running = undefined;
      });
    }
    return this.#running;
  }

  /**
   * Refreshes now and then every `intervalMs` (default {@link META_REFRESH_MS}, at least 1 s) on unref'd
   * timers, which do not keep the process alive. A snapshot restored from the store ({@link restore})
   * younger than `intervalMs` is served meanwhile and refreshed once it is `intervalMs` old, then
   * every `intervalMs`. Failures are logged, never thrown. Calling it again restarts the timers.
   */
  start(intervalMs: number = META_REFRESH_MS): void {
    void this.stop();
    const generation = ++this.#generation;
    const every = Math.max(1_000, intervalMs);
    const run = () => {
      this.refresh().catch((err: unknown) => {
        if (!isStopped(err)) this.#logger.warn({ err }, 'hero meta refresh failed; keeping the previous one');
      });
    };
    const repeat = () => {
      this.#timer = setInterval(run, every);
      this.#timer.unref();
    };
    repeat();
    void this.restore().then((restored) => {
      if (generation !== this.#generation) return;
      const dueIn = restored ? restored.completedAt + every - this.#now() : 0;
      if (dueIn <= 0) return run();
      // A snapshot from before a restart is still fresh: asking again now would spend 37 requests for nothing.
      clearInterval(this.#timer);
      this.#firstRun = setTimeout(
        () => {
          repeat();
          run();
        },
        Math.min(dueIn, every),
      );
      this.#firstRun.unref();
    });
  }

  /**
   * Stops the timers of {@link start} and the refresh under way: its API requests are aborted, and it
   * ends with a {@link MetaStoppedError} (the previous snapshot is kept). Resolves once it has ended
   * and the last snapshot's save (bounded by the store's write deadline) is over, so that a shutdown
   * never waits for the API on its behalf and never closes the store under the save.
   */
  async stop(): Promise<void> {
    this.#generation++;
    clearInterval(this.#timer);
    clearTimeout(this.#firstRun);
    this.#timer = undefined;
    this.#firstRun = undefined;
    this.#gathering?.abort();
    await this.#running?.catch(() => undefined);
    await this.#saving;
  }

  async #readStore(): Promise<MetaSnapshot | undefined> {
    if (!this.#store) return this.#snapshot;
    try {
      const stored = await this.#store.latest();
      if (stored && (!this.#snapshot || this.#snapshot.completedAt < stored.completedAt)) {
        this.#snapshot = stored;
        this.#logger.info({ answered: stored.answered, total: stored.total, ageMs: this.#now() - stored.gatheredAt }, 'hero meta restored from the store');
      }
    } catch (err) {
      this.#logger.warn({ err }, 'could not read the stored hero meta; gathering it anew');
    }
    return this.#snapshot;
  }

  /** Saves `snapshot` to the store after any save under way; failures are logged (the snapshot is still served from memory). */
  #save(snapshot: MetaSnapshot): void {
    const store = this.#store;
    if (!store) return;
    const previous = this.#saving ?? Promise.resolve();
    const saving = previous.then(() =>
      store.save(snapshot).catch((err: unknown) => {
        this.#logger.warn({ err }, 'could not save the hero meta; a restart gathers it anew');
      }),
    );
    this.#saving = saving.finally(() => {
      if (this.#saving === saving) this.#saving = undefined;
    });
  }

  async #gather(): Promise<MetaSnapshot> {
    // Made before the store is read, so that a stop meanwhile gives this gathering up too.
    const gathering = (this.#gathering = new AbortController());
    const { signal } = gathering;
    // A snapshot saved before a restart is served instead of waiting for this gathering.
    await this.restore();
    if (signal.aborted) throw new MetaStoppedError();
    const started = this.#now();
    // Nothing to serve: members would otherwise wait minutes at the bulk share for their first /meta.
    const fullRate = this.#snapshot === undefined;
    const priority: Priority = fullRate ? 'gathering' : 'bulk';
    const progress = (this.#progress = { done: 0, total: undefined as number | undefined, fullRate });
    // The list at the default priority (members read it too and may join this request), but given up on stop.
    const heroes: Hero[] = await this.#heroes.list({ signal }).catch((err: unknown) => {
      throw signal.aborted ? new MetaStoppedError() : err;
    });
    progress.total = heroes.length;
    const answers = new Array<{ hero: MetaHeroRef; stats: MetaStats; fetchedAt: number; stale: boolean } | undefined>(heroes.length);
    const missing: string[] = [];
    let firstError: unknown;
    let next = 0;
    const worker = async () => {
      while (next < heroes.length && !signal.aborted) {
        const index = next++;
        const hero = heroes[index]!;
        const ref: MetaHeroRef = { id: hero.id, name: heroDisplayName(hero), role: hero.role };
        try {
          const fetched = await this.#api.heroStats(hero.id, { priority, signal });
          answers[index] = { hero: ref, stats: fetched.data, fetchedAt: fetched.fetchedAt, stale: fetched.stale };
        } catch (err) {
          if (signal.aborted) return;
          firstError ??= err;
          missing.push(ref.name);
          this.#logger.warn({ err, hero: hero.id }, 'hero statistics failed: the meta leaves the hero out');
        } finally {
          progress.done++;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, heroes.length) }, worker));
    if (signal.aborted) throw new MetaStoppedError();
    const got = answers.filter((a) => a !== undefined);
    if (got.length === 0 && heroes.length > 0) throw firstError;
    const completedAt = this.#now();
    const snapshot: MetaSnapshot = {
      rows: metaRows(got),
      completedAt,
      gatheredAt: got.reduce((oldest, a) => Math.min(oldest, a.fetchedAt), completedAt),
      answered: got.length,
      total: heroes.length,
      missing: missing.sort((a, b) => a.localeCompare(b)),
      stale: got.some((a) => a.stale),
    };
    this.#snapshot = snapshot;
    this.#save(snapshot);
    this.#logger.info({ answered: snapshot.answered, total: snapshot.total, ms: completedAt - started, fullRate }, 'hero meta gathered');
    return snapshot;
  }
}
