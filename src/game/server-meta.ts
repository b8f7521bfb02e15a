/**
 * A server's own meta: what its ladder members' recorded ranked matches say of each hero (src/store/server-matches.ts), one
 * match a member, their own hero. Each win rate carries its 95 % Wilson score interval, and a hero with fewer than
 * {@link MIN_SAMPLE} matches is listed as such, never ranked: a server's sample is small, and a raw rate would crown a
 * hero two lucky games made.
 */
import { sortMetaRows, type MetaHeroRef, type MetaRow, type MetaSort } from './meta.js';
import { TIER_NAMES, type TierName } from './ranks.js';

/**
 * One group of a server's recorded ranked matches (src/store/server-matches.ts): `season` the season index, `recent` whether
 * played from the recent period's start on, `heroId` the member's hero, `bracket` the index in {@link BRACKETS} of the score
 * before the match (null: no score), `won` 1 a win, 0 a loss, 2 a draw, `matches` how many; kills, deaths and assists summed.
 */
export interface HeroCount {
  season: number | null;
  recent: boolean;
  heroId: string | null;
  bracket: number | null;
  won: 0 | 1 | 2;
  matches: number;
  kills: number;
  deaths: number;
  assists: number;
}

/** The brackets a match is counted in, by the tier group of the member's score before it: index = {@link HeroCount.bracket}. */
export const BRACKETS = TIER_NAMES.slice(0, 8) as readonly TierName[];

export const SERVER_META_PERIODS = ['season', '30d'] as const;
/** `all`: every count, whatever its season or time (the bot's own meta, whose stored details have neither). */
export type ServerMetaPeriod = (typeof SERVER_META_PERIODS)[number] | 'all';

/** The recent period's length (ms). */
export const RECENT_MS = 30 * 24 * 60 * 60_000;

/** Matches below which a hero is marked and never ranked. */
export const MIN_SAMPLE = 10;

/** The normal quantile of a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of `wins` in `n` trials (Wilson 1927), 0..1 both; null when `n` is 0 or the counts are not
 * counts. Unlike the normal approximation it stays within 0..1 and is honest at 0 or all wins.
 */
export function wilsonInterval(wins: number, n: number, z = Z95): { low: number; high: number } | null {
  if (!Number.isFinite(wins) || !Number.isFinite(n) || n <= 0 || wins < 0 || wins > n) return null;
  const p = wins / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** A hero's line of the server meta: a {@link MetaRow} (draws count as matches, not wins) with its counts and interval. */
export interface ServerMetaRow extends MetaRow {
  wins: number;
  interval: { low: number; high: number } | null;
  /** At least {@link MIN_SAMPLE} matches: ranked. */
  enough: boolean;
}

export interface ServerMeta {
  /** The season counted (the latest any member's recorded match has); null for the recent period or none recorded. */
  season: number | null;
  /** Matches counted, every hero together. */
  matches: number;
  /** In no order; heroes with no match counted are left out. */
  rows: ServerMetaRow[];
}

/**
 * The server meta of `counts` over `period` (`season`: the latest season in them; `30d`: those flagged recent; `all`), for the
 * bracket index `bracket` (null: all; a match with no score counts only there). Heroes are named by `heroes`, an unknown id
 * by itself.
 */
export function serverMeta(counts: readonly HeroCount[], period: ServerMetaPeriod, bracket: number | null, heroes: readonly MetaHeroRef[]): ServerMeta {
  const season =
    period === 'season' ? counts.reduce<number | null>((max, c) => (c.season !== null && (max === null || c.season > max) ? c.season : max), null) : null;
  const counted = counts.filter(
    (c) => (period === 'all' || (period === 'season' ? season !== null && c.season === season : c.recent)) && (bracket === null || c.bracket === bracket),
  );
  const byHero = new Map<string, { matches: number; wins: number; kills: number; deaths: number; assists: number }>();
  for (const c of counted) {
    const id = c.heroId ?? '';
    const h = byHero.get(id) ?? { matches: 0, wins: 0, kills: 0, deaths: 0, assists: 0 };
    h.matches += c.matches;
    if (c.won === 1) h.wins += c.matches;
    h.kills += c.kills;
    h.deaths += c.deaths;
    h.assists += c.assists;
    byHero.set(id, h);
  }
  const total = [...byHero.values()].reduce((n, h) => n + h.matches, 0);
  const named = new Map(heroes.map((h) => [h.id, h]));
  const rows = [...byHero].map(([id, h]): ServerMetaRow => {
    const ref = named.get(id);
    return {
      heroId: id,
      name: ref?.name ?? id,
      role: ref?.role ?? null,
      matches: h.matches,
      wins: h.wins,
      winRate: h.matches > 0 ? h.wins / h.matches : null,
      pickShare: total > 0 ? h.matches / total : null,
      kda: h.matches > 0 ? (h.kills + h.assists) / Math.max(h.deaths, 1) : null,
      interval: wilsonInterval(h.wins, h.matches),
      enough: h.matches >= MIN_SAMPLE,
    };
  });
  return { season, matches: total, rows };
}

/** Ranked heroes by `sort` (highest first, ties by name), then those below the sample, by matches; `rows` is not changed. */
export function rankServerRows(rows: readonly ServerMetaRow[], sort: MetaSort): ServerMetaRow[] {
  const ranked = sortMetaRows(
    rows.filter((r) => r.enough),
    sort,
  ) as ServerMetaRow[];
  const few = rows.filter((r) => !r.enough).sort((a, b) => b.matches - a.matches || a.name.localeCompare(b.name));
  return [...ranked, ...few];
}
