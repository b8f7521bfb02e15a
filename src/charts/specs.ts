/**
 * Chart specifications: what a chart shows, as plain data. A spec crosses the worker boundary of the
 * chart renderer (src/charts/renderer.ts), so it holds only structured-cloneable values (objects,
 * arrays, strings, finite numbers, null) and no functions, dates or class instances.
 *
 * Specs are validated with {@link parseChartSpec} where they enter the renderer: the types say what the
 * program builds, the schemas check it (strictly: an unknown key is a mistake, not API drift).
 *
 * The words of a spec's own (`title`, series names) come already in the member's language; the words
 * the chart adds (axis titles, legends, subtitles) are written by the worker in the spec's `locale`
 * (src/charts/strings.ts), since the worker thread does not share the main thread's current locale.
 */
import * as z from 'zod';
import { LOCALES, type Locale } from '../i18n/locales.js';

/** Latest time accepted, in Unix seconds (year 2286): a larger value is almost surely milliseconds. */
const MAX_UNIX_SECONDS = 9_999_999_999;
/** Bounds that keep one chart's work small (a worker renders one chart at a time). */
export const SPEC_LIMITS = {
  titleLength: 200,
  nameLength: 100,
  seasons: 30,
  /** Points in one series (one season, one player). */
  points: 2_000,
  /** Heroes listed in a hero-performance spec (the chart shows the top {@link HERO_PERFORMANCE_TOP}). */
  heroes: 200,
  /** Heroes in a meta scatter (the most picked {@link SCATTER_LABELS} are named). */
  scatterHeroes: 100,
} as const;

/** How many heroes (most play time first) a hero-performance chart shows. */
export const HERO_PERFORMANCE_TOP = 10;
/** How many points of a meta scatter are named (the most picked): the whole roster of 2025 and some. */
export const SCATTER_LABELS = 45;

/** One point of a rank-score series. */
export interface RankPoint {
  /** Unix seconds (UTC). */
  time: number;
  /** Rank score, unrounded (Bronze III starts at 3,000). */
  score: number;
}

/**
 * Rank score over time, one line per season, with the tier bands shaded behind.
 * `current` marks the player's tier and score now, on the last point of the latest season.
 */
export interface RankHistoryChart {
  kind: 'rank-history';
  /** The language of the words the chart adds (axis titles, legends, subtitles); English when absent. */
  locale?: Locale;
  /** Shown at the top, e.g. "Sir_Final · rank history". */
  title: string;
  /** Oldest first is not required: series are drawn by their points' times. */
  seasons: {
    /** "Season 1.5". */
    name: string;
    points: RankPoint[];
  }[];
  current?: {
    /** "Gold II". */
    tier: string;
    /** Rank score, unrounded (shown cut toward zero, as the game shows it). */
    score: number;
  };
}

/** A hero of a {@link HeroPerformanceChart}. */
export interface HeroPerformance {
  /** Display name ("Cloak & Dagger"). */
  name: string;
  /** 'Vanguard' | 'Duelist' | 'Strategist'; any other text or null is drawn grey as "Other". */
  role: string | null;
  /** Seconds played. */
  playTimeSeconds: number;
  /** 0..1; null when unknown. */
  winRate: number | null;
  /** (kills + assists) / deaths; null when unknown. */
  kda: number | null;
}

/** Play time of a player's top heroes (at most {@link HERO_PERFORMANCE_TOP}) as horizontal bars, coloured by role, labelled with win rate and KDA. */
export interface HeroPerformanceChart {
  kind: 'hero-performance';
  /** As {@link RankHistoryChart.locale}. */
  locale?: Locale;
  title: string;
  /** Any order; the chart keeps the heroes with the most play time. */
  heroes: HeroPerformance[];
}

/** A hero of a {@link MetaScatterChart}. */
export interface MetaHero {
  name: string;
  role: string | null;
  /** 0..1. */
  winRate: number;
  /** Share of picks, 0..1. */
  pickShare: number;
}

/** Win rate (y) against pick share (x) of heroes, coloured by role, each point named (up to {@link SCATTER_LABELS}), with a 50 % line. */
export interface MetaScatterChart {
  kind: 'meta-scatter';
  /** As {@link RankHistoryChart.locale}. */
  locale?: Locale;
  title: string;
  heroes: MetaHero[];
}

/** Two players' rank score over time on one axis, with the tier bands. */
export interface CompareRankChart {
  kind: 'compare-rank';
  /** As {@link RankHistoryChart.locale}. */
  locale?: Locale;
  title: string;
  /** Exactly two players. */
  players: { name: string; points: RankPoint[] }[];
}

/** Any chart the renderer draws. */
export type ChartSpec = RankHistoryChart | HeroPerformanceChart | MetaScatterChart | CompareRankChart;
/** The `kind` of a {@link ChartSpec}. */
export type ChartKind = ChartSpec['kind'];

/** A spec that does not have its kind's shape; `message` lists each problem with its path. */
export class ChartSpecError extends Error {
  override name = 'ChartSpecError';
  constructor(
    message: string,
    /** The issues as zod reports them (path and message each). */
    readonly issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ) {
    super(message);
  }
}

const title = z.string().max(SPEC_LIMITS.titleLength);
const locale = z.enum(LOCALES).optional();
const name = z.string().min(1).max(SPEC_LIMITS.nameLength);
const unixSeconds = z
  .number()
  .min(0)
  .max(MAX_UNIX_SECONDS, { error: `must be Unix seconds (at most ${MAX_UNIX_SECONDS}); milliseconds?` });
const score = z.number().min(0);
const fraction = z.number().min(0).max(1);
const role = z.string().max(SPEC_LIMITS.nameLength).nullable();
const points = z.array(z.strictObject({ time: unixSeconds, score })).max(SPEC_LIMITS.points);

const rankHistory = z.strictObject({
  kind: z.literal('rank-history'),
  locale,
  title,
  seasons: z.array(z.strictObject({ name, points })).max(SPEC_LIMITS.seasons),
  current: z.strictObject({ tier: z.string().max(SPEC_LIMITS.nameLength), score }).optional(),
}) satisfies z.ZodType<RankHistoryChart>;

const heroPerformance = z.strictObject({
  kind: z.literal('hero-performance'),
  locale,
  title,
  heroes: z
    .array(
      z.strictObject({
        name,
        role,
        playTimeSeconds: z.number().min(0),
        winRate: fraction.nullable(),
        kda: z.number().min(0).nullable(),
      }),
    )
    .max(SPEC_LIMITS.heroes),
}) satisfies z.ZodType<HeroPerformanceChart>;

const metaScatter = z.strictObject({
  kind: z.literal('meta-scatter'),
  locale,
  title,
  heroes: z.array(z.strictObject({ name, role, winRate: fraction, pickShare: fraction })).max(SPEC_LIMITS.scatterHeroes),
}) satisfies z.ZodType<MetaScatterChart>;

const compareRank = z.strictObject({
  kind: z.literal('compare-rank'),
  locale,
  title,
  players: z.array(z.strictObject({ name, points })).length(2, { error: 'a comparison has exactly 2 players' }),
}) satisfies z.ZodType<CompareRankChart>;

const chartSpec = z.discriminatedUnion('kind', [rankHistory, heroPerformance, metaScatter, compareRank]);

/**
 * The spec `input` is, checked against its kind's schema.
 * @returns a copy holding only the spec's own fields.
 * @throws {ChartSpecError} naming the kind and every problem with its path, e.g.
 *   `invalid chart spec (kind "meta-scatter"): ✖ Too big: expected number to be <=1 → at heroes[2].winRate`.
 */
export function parseChartSpec(input: unknown): ChartSpec {
  const result = chartSpec.safeParse(input);
  if (result.success) return result.data;
  const kind = typeof input === 'object' && input !== null && 'kind' in input ? JSON.stringify(input.kind) : 'missing';
  const issues = result.error.issues.map((i) => ({ path: i.path, message: i.message }));
  throw new ChartSpecError(`invalid chart spec (kind ${kind}): ${z.prettifyError(result.error).replaceAll('\n', ' ')}`, issues);
}
