/**
 * The hero meta (issue 13): every hero's win rate, pick share and KDA from the hero statistics
 * endpoint (api-spec.md "Hero statistics", endpoint 3), gathered for every hero of the hero list
 * (endpoint 1) in the background.
 *
 * The formulas (pure functions, below):
 * - win rate = wins / matches, 0..1; null with no matches;
 * - pick share = matches / the sum of the matches of every hero that answered, 0..1: the share of all
 *   heroes' picks, which is what "how often is this hero played" means across heroes; null with no
 *   matches (the parsed statistics say 0 both for "no matches" and for a missing or unusable field,
 *   see `count()` in src/api/lenient.ts, so 0 is shown as unknown, never as 0 %);
 * - KDA = (k + a) / max(d, 1 / matches), where k, d and a are the API's averages per match. Over all
 *   of a hero's matches that is (kills + assists) / max(deaths, 1), the ratio the bot shows everywhere
 *   else (src/render/format.ts `kda`), with the same floor of one death in all; null when k, d or a is
 *   missing or there are no matches.
 * Nothing here is ever NaN or infinite.
 *
 * {@link HeroMeta} keeps the latest gathering ({@link MetaSnapshot}) in memory and in the store
 * (src/store/hero-meta.ts), so a restart serves the last one at once. It refreshes it at `bulk`
 * priority on the rate limiter (src/api/rate-limiter.ts), two heroes at a time, so that its 37
 * requests never go in front of a member's command or a feed poll; the response cache keeps hero
 * statistics an hour (src/cache/ttl.ts), so a refresh within the hour asks the API for nothing.
 * With no snapshot to serve at all, members would wait minutes at the bulk share: that first
 * gathering runs at `gathering` priority instead, at two thirds of the key's rate (the last third stays
 * for members and feeds), still after both.
 */
import type { RivalsApi } from '../api/client.js';
import { BULK_SHARE, GATHERING_SHARE, shareCap, type Priority } from '../api/rate-limiter.js';
import type { Hero, HeroStats } from '../api/schemas.js';
import { runWithoutDeadline } from '../deadline.js';
import { heroDisplayName, type HeroDirectory } from '../hero-directory.js';
import type { Logger } from '../logger.js';

/** The three roles, in the order the meta lists them; heroes of any other role (or none) follow as "other". */
export const META_ROLES = ['Vanguard', 'Duelist', 'Strategist'] as const;
export type MetaRole = (typeof META_ROLES)[number];

/** What the meta can be sorted by (the `/meta sort` choices). */
export const META_SORTS = ['win-rate', 'pick-share', 'kda'] as const;
export type MetaSort = (typeof META_SORTS)[number];

/** Default interval of {@link HeroMeta.start}: an hour, the hero statistics' time in the cache. */
export const META_REFRESH_MS = 60 * 60_000;

/** Hero statistics requests a refresh has in flight at most. */
export const META_CONCURRENCY = 2;

/** Default of {@link HeroMetaOptions.requestsPerMinute}: the default `RIVALS_API_RPM`. */
export const META_DEFAULT_RPM = 60;

/** What a meta row needs of a hero: its id, display name and role. */
export interface MetaHeroRef {
  /** The hero id as text ("1011"). */
  id: string;
  /** Display name ("Jeff the Land Shark"). */
  name: string;
  /** "Vanguard", "Duelist", "Strategist", anything else the API says, or null. */
  role: string | null;
}

/** What a meta row needs of a hero's parsed statistics (src/api/schemas.ts `HeroStats`). */
export type MetaStats = Pick<HeroStats, 'matches' | 'wins' | 'k' | 'd' | 'a'>;

/** One hero of the meta. */
export interface MetaRow {
  heroId: string;
  /** Display name. */
  name: string;
  role: string | null;
  /** Matches played with the hero, as the API counts them (0 when it gave none). */
  matches: number;
  /** 0..1; null with no matches. */
  winRate: number | null;
  /** Share of all heroes' matches, 0..1; null with no matches. */
  pickShare: number | null;
  /** (k + a) / max(d, 1 / matches) from the per-match averages; null when unknown. */
  kda: number | null;
}

/** One gathering of the meta. Times are ms since the Unix epoch. */
export interface MetaSnapshot {
  /** One row per hero whose statistics answered, in hero-list order (by name). */
  rows: MetaRow[];
  /** When the refresh that built it finished. */
  completedAt: number;
  /**
   * When its oldest statistics were fetched from the API: cached answers can predate the refresh by
   * up to their time in the cache (an hour). This is "when it was gathered".
   */
  gatheredAt: number;
  /** Heroes whose statistics answered (the rows). */
  answered: number;
  /** Heroes asked for (the hero list). */
  total: number;
  /** Display names of the heroes whose statistics could not be had (left out of the rows). */
  missing: string[];
  /** Some statistics came stale from the cache because the API did not answer. */
  stale: boolean;
}

/** Where the latest snapshot is kept across restarts (src/store/hero-meta.ts `HeroMetaRepository`). */
export interface MetaSnapshotStore {
  /** The latest snapshot stored, or undefined; may throw (a store failure). */
  latest(): Promise<MetaSnapshot | undefined>;
  /** Keeps `snapshot` as the latest; may throw (a store failure). */
  save(snapshot: MetaSnapshot): Promise<void>;
}

/** How far the gathering under way has got, and how long it should still take. */
export interface MetaProgress {
  /** Heroes whose statistics have come back (answered or failed). */
  done: number;
  /** Heroes to ask for; undefined until the hero list is in. */
  total: number | undefined;
  /** True for a first gathering at the gathering share of the key's rate (nothing to serve meanwhile), false at the bulk share. */
  fullRate: boolean;
  /** Estimated ms until it ends ({@link metaEtaMs} of the heroes left); undefined until the hero list is in. */
  etaMs: number | undefined;
}

/**
 * Estimated ms that `requests` hero statistics requests take at `requestsPerMinute`: requests / rate
 * minutes (37 at 60 a minute: 37 000 ms), the pace of a window kept busy. The key's rolling window
 * lets a quiet minute's requests start at once, so a gathering often ends sooner. Pure.
 */
export function metaEtaMs(requests: number, requestsPerMinute: number): number {
  if (!(requests > 0) || !(requestsPerMinute > 0)) return 0;
  return Math.ceil((requests * 60_000) / requestsPerMinute);
}

/** `n` if it is a finite number, else null. */
const finite = (n: number | null | undefined): number | null => (n === null || n === undefined || !Number.isFinite(n) ? null : n);

/** Wins / matches as 0..1 (clamped, as drifted counts can disagree); null with no matches. */
export function metaWinRate(stats: Pick<MetaStats, 'matches' | 'wins'>): number | null {
  const matches = finite(stats.matches);
  const wins = finite(stats.wins);
  if (matches === null || matches <= 0 || wins === null) return null;
  return Math.min(1, Math.max(0, wins / matches));
}

/**
 * (k + a) / max(d, 1 / matches) from the per-match averages k, d and a: over the hero's matches that is
 * (kills + assists) / deaths with at least one death in all. Null when k, d or a is missing or
 * negative, or there are no matches.
 */
export function metaKda(stats: MetaStats): number | null {
  const matches = finite(stats.matches);
  const [k, d, a] = [finite(stats.k), finite(stats.d), finite(stats.a)];
  if (matches === null || matches <= 0 || k === null || d === null || a === null || k < 0 || d < 0 || a < 0) return null;
  return (k + a) / Math.max(d, 1 / matches);
}

/**
 * The meta rows of the heroes that answered: win rate ({@link metaWinRate}), pick share (matches over
 * the sum of every entry's matches) and KDA ({@link metaKda}), in the entries' order. A hero with no
 * matches is kept, with nulls. Pure.
 */
export function metaRows(entries: { hero: MetaHeroRef; stats: MetaStats }[]): MetaRow[] {
  const matchesOf = (s: MetaStats) => Math.max(0, finite(s.matches) ?? 0);
  const all = entries.reduce((sum, e) => sum + matchesOf(e.stats), 0);
  return entries.map(({ hero, stats }) => {
    const matches = matchesOf(stats);
    return {
      heroId: hero.id,
      name: hero.name,
      role: hero.role,
      matches,
      winRate: metaWinRate(stats),
      pickShare: matches > 0 && all > 0 ? matches / all : null,
      kda: metaKda(stats),
    };
  });
}

/** The role of `role` text among {@link META_ROLES} (any case), or null for another role or none. */
export function metaRole(role: string | null | undefined): MetaRole | null {
  const r = role?.trim().toLowerCase();
  return META_ROLES.find((m) => m.toLowerCase() === r) ?? null;
}

const SORT_KEY: Record<MetaSort, (r: MetaRow) => number | null> = {
  'win-rate': (r) => r.winRate,
  'pick-share': (r) => r.pickShare,
  kda: (r) => r.kda,
};

/** The rows sorted by `sort`, highest first, rows without the value last, ties by name. Pure; `rows` is not changed. */
export function sortMetaRows(rows: readonly MetaRow[], sort: MetaSort): MetaRow[] {
  const key = SORT_KEY[sort];
  return [...rows].sort((x, y) => {
    const a = key(x);
    const b = key(y);
    if (a !== b) {
      if (a === null) return 1;
      if (b === null) return -1;
      return b - a;
    }
    return x.name.localeCompare(y.name);
  });
}

/**
 * The rows grouped by role, in {@link META_ROLES} order, then one group of every other role (`role`
 * null), each group sorted by `sort` ({@link sortMetaRows}); empty groups are left out. Pure.
 */
export function groupMetaRows(rows: readonly MetaRow[], sort: MetaSort): { role: MetaRole | null; rows: MetaRow[] }[] {
  const groups = [...META_ROLES, null].map((role) => ({ role, rows: sortMetaRows(rows.filter((r) => metaRole(r.role) === role), sort) }));
  return groups.filter((g) => g.rows.length > 0);
}

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
   * every call gets that refresh's promise. Runs without the caller's deadline (src/deadline.ts
   * `runWithoutDeadline`), so a caller that cannot wait may stop waiting and the refresh still ends.
   * @returns the new snapshot (partial when some heroes failed; `answered` of `total`).
   * @throws {ApiError} (src/api/errors.ts) when the hero list cannot be had, or when no hero's
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
      this.#firstRun = setTimeout(() => {
        repeat();
        run();
      }, Math.min(dueIn, every));
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
    const answers: ({ hero: MetaHeroRef; stats: MetaStats; fetchedAt: number; stale: boolean } | undefined)[] = new Array(heroes.length);
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
