/**
 * The hero meta: every hero's win rate, pick share and KDA from the hero statistics
 * endpoint (api-spec.md "Hero statistics", endpoint 3), gathered for every hero of the hero list
 * (endpoint 1) in the background.
 *
 * The formulas, as pure functions (the gathering is src/jobs/hero-meta.ts):
 * - win rate = wins / matches, 0..1; null with no matches;
 * - pick share = matches / the sum of the matches of every hero that answered, 0..1: the share of all
 *   heroes' picks, which is what "how often is this hero played" means across heroes; null with no
 *   matches (the parsed statistics say 0 both for "no matches" and for a missing or unusable field,
 *   see `count()` in src/api/lenient.ts, so 0 is shown as unknown, never as 0 %);
 * - KDA = (k + a) / max(d, 1 / matches), where k, d and a are the API's averages per match. Over all
 *   of a hero's matches that is (kills + assists) / max(deaths, 1), the ratio the bot shows everywhere
 *   else (src/i18n/format.ts `kda`), with the same floor of one death in all; null when k, d or a is
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
import type { HeroStats } from '../api/schemas.js';

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
  const groups = [...META_ROLES, null].map((role) => ({
    role,
    rows: sortMetaRows(
      rows.filter((r) => metaRole(r.role) === role),
      sort,
    ),
  }));
  return groups.filter((g) => g.rows.length > 0);
}
