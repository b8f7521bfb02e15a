/**
 * The hero meta's formulas (api-spec.md "Hero statistics"); the gathering is src/jobs/hero-meta.ts. The
 * parsed statistics say 0 both for no matches and for a missing field, so 0 matches reads as unknown, never 0 %.
 */
import type { HeroStats } from '../api/schemas.js';

/** In listing order; heroes of any other role follow as "other". */
export const META_ROLES = ['Vanguard', 'Duelist', 'Strategist'] as const;
export type MetaRole = (typeof META_ROLES)[number];

export const META_SORTS = ['win-rate', 'pick-share', 'kda'] as const;
export type MetaSort = (typeof META_SORTS)[number];

/** An hour: the hero statistics' time in the cache, so a sooner refresh would ask the API for nothing. */
export const META_REFRESH_MS = 60 * 60_000;

export const META_CONCURRENCY = 2;

/** The default `RIVALS_API_RPM`. */
export const META_DEFAULT_RPM = 60;

export interface MetaHeroRef {
  /** "1011". */
  id: string;
  name: string;
  role: string | null;
}

export type MetaStats = Pick<HeroStats, 'matches' | 'wins' | 'k' | 'd' | 'a'>;

/** `winRate` and `pickShare` (of all heroes' matches) are 0..1, null with no matches; never NaN. */
export interface MetaRow {
  heroId: string;
  name: string;
  role: string | null;
  matches: number;
  winRate: number | null;
  pickShare: number | null;
  kda: number | null;
}

/** Times in epoch ms. Rows in hero-list order; `missing` holds the names of heroes left out. */
export interface MetaSnapshot {
  rows: MetaRow[];
  completedAt: number;
  /** When its oldest statistics were fetched: cached answers can predate the refresh. */
  gatheredAt: number;
  answered: number;
  total: number;
  missing: string[];
  stale: boolean;
}

/** Kept across restarts (src/store/hero-meta.ts); both methods may throw on a store failure. */
export interface MetaSnapshotStore {
  latest(): Promise<MetaSnapshot | undefined>;
  save(snapshot: MetaSnapshot): Promise<void>;
}

/** `total` and `etaMs` (ms) are undefined until the hero list is in; `fullRate` is a first gathering's share. */
export interface MetaProgress {
  done: number;
  total: number | undefined;
  fullRate: boolean;
  etaMs: number | undefined;
}

/** Ms at the pace of a busy window; the rolling window often lets a gathering end sooner. */
export function metaEtaMs(requests: number, requestsPerMinute: number): number {
  if (!(requests > 0) || !(requestsPerMinute > 0)) return 0;
  return Math.ceil((requests * 60_000) / requestsPerMinute);
}

const finite = (n: number | null | undefined): number | null => (n === null || n === undefined || !Number.isFinite(n) ? null : n);

/** 0..1, clamped as drifted counts can disagree; null with no matches. */
export function metaWinRate(stats: Pick<MetaStats, 'matches' | 'wins'>): number | null {
  const matches = finite(stats.matches);
  const wins = finite(stats.wins);
  if (matches === null || matches <= 0 || wins === null) return null;
  return Math.min(1, Math.max(0, wins / matches));
}

/**
 * (k + a) / max(d, 1 / matches) from per-match averages: over all matches, (kills + assists) / deaths
 * with at least one death in all, as elsewhere in the bot. Null when unknown or negative.
 */
export function metaKda(stats: MetaStats): number | null {
  const matches = finite(stats.matches);
  const [k, d, a] = [finite(stats.k), finite(stats.d), finite(stats.a)];
  if (matches === null || matches <= 0 || k === null || d === null || a === null || k < 0 || d < 0 || a < 0) return null;
  return (k + a) / Math.max(d, 1 / matches);
}

/** In the entries' order; a hero with no matches is kept, with nulls. */
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

export function metaRole(role: string | null | undefined): MetaRole | null {
  const r = role?.trim().toLowerCase();
  return META_ROLES.find((m) => m.toLowerCase() === r) ?? null;
}

const SORT_KEY: Record<MetaSort, (r: MetaRow) => number | null> = {
  'win-rate': (r) => r.winRate,
  'pick-share': (r) => r.pickShare,
  kda: (r) => r.kda,
};

/** Highest first, nulls last, ties by name; `rows` is not changed. */
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

/** In {@link META_ROLES} order, then other roles (`role` null); empty groups left out. */
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
