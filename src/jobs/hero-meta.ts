/** The hero meta's gathering: the latest snapshot (src/game/meta.ts) in memory and the store, refreshed in the background at `bulk` priority. */
import type { RivalsApi } from '../api/client.js';
import { BULK_SHARE, GATHERING_SHARE, shareCap, type Priority } from '../api/rate-limiter.js';
import type { Hero } from '../api/schemas.js';
import { runWithoutDeadline } from '../core/deadline.js';
import { type HeroDirectory } from '../catalog/hero-directory.js';
import type { Logger } from '../core/logger.js';
import { heroDisplayName } from '../i18n/names.js';
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

export interface HeroMetaOptions {
  api: RivalsApi;
  heroes: HeroDirectory;
  logger: Logger;
  /** ms since the Unix epoch; default `Date.now`. */
  now?: () => number;
  /** Statistics requests in flight at most; default {@link META_CONCURRENCY}. */
  concurrency?: number;
  /** Requests a minute (`RIVALS_API_RPM`), for {@link HeroMeta.progress}'s estimate. */
  requestsPerMinute?: number;
  /** Keeps the latest snapshot across restarts; absent: memory only. */
  store?: MetaSnapshotStore;
}

/** A refresh ended by {@link HeroMeta.stop}: nothing went wrong, and the previous snapshot is kept. */
export class MetaStoppedError extends Error {
  override name = 'MetaStoppedError';
  constructor() {
    super('the hero meta refresh was stopped');
  }
}

const isStopped = (err: unknown) => err instanceof MetaStoppedError;

/**
 * The whole roster's hero meta. A refresh asks every hero's statistics at `bulk` priority, or `gathering` while there is no
 * snapshot to serve, outside any interaction's deadline; a hero that fails is left out and counted in {@link MetaSnapshot.missing}.
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
  #gathering: AbortController | undefined;
  /** Heroes back so far, heroes asked for, and the rate. */
  #progress: { done: number; total: number | undefined; fullRate: boolean } | undefined;
  #restoring: Promise<MetaSnapshot | undefined> | undefined;
  /** {@link stop} lets it finish. */
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

  /** The latest gathering, complete or partial, or the restored one. */
  snapshot(): MetaSnapshot | undefined {
    return this.#snapshot;
  }

  get refreshing(): boolean {
    return this.#running !== undefined;
  }

  /** Progress and estimated time left of the refresh under way, at the share of the key's rate it runs at. */
  progress(): MetaProgress | undefined {
    const p = this.#progress;
    if (!p || !this.#running) return undefined;
    const rate = shareCap(this.#rpm, p.fullRate ? GATHERING_SHARE : BULK_SHARE);
    return { ...p, etaMs: p.total === undefined ? undefined : metaEtaMs(p.total - p.done, rate) };
  }

  /** Reads the stored snapshot once and serves it unless a gathering gave a newer one; returns what is served. Never throws. */
  restore(): Promise<MetaSnapshot | undefined> {
    this.#restoring ??= this.#readStore();
    return this.#restoring;
  }

  /**
   * Gathers the meta anew, single-flight, outside the caller's deadline; returns the snapshot (partial if some heroes failed).
   * @throws {ApiError} when the hero list cannot be had or no hero answered; the previous snapshot is then kept.
   */
  refresh(): Promise<MetaSnapshot> {
    if (!this.#running) {
      this.#running = runWithoutDeadline(() => this.#gather()).finally(() => {
        this.#running = undefined;
      });
    }
    return this.#running;
  }

  /** Refreshes now, then every `intervalMs` (at least 1 s) on unref'd timers; a restored snapshot younger than that is served until due. */
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
      // A snapshot from before a restart is still fresh: asking again now would spend a full gathering for nothing.
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
   * Stops the timers and aborts the refresh under way (it ends with {@link MetaStoppedError}); resolves once it ended and the
   * last save is over, so a shutdown never waits on the API nor closes the store under the save.
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

  /** After any save under way; failures are logged, the snapshot still served from memory. */
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
    await this.restore();
    if (signal.aborted) throw new MetaStoppedError();
    const started = this.#now();
    // Nothing to serve: members would otherwise wait on the bulk share for their first /meta.
    const fullRate = this.#snapshot === undefined;
    const priority: Priority = fullRate ? 'gathering' : 'bulk';
    const progress = (this.#progress = { done: 0, total: undefined as number | undefined, fullRate });
    // Default priority: members read the list too and may join this request.
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
          const fetched = await this.#api.heroStats(hero.id, {}, { priority, signal });
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
