/**
 * Charts in answers: the chart specs of a profile's sections, built from the parsed API
 * data (src/charts/specs.ts says what each chart shows), and their PNGs as files of a View, drawn by
 * the worker pool (src/charts/renderer.ts) and kept in a small byte-bounded cache so that paging
 * through a section does not draw the same chart again.
 *
 * The specs carry the current locale (src/i18n): their titles and series names are written here, in the
 * member's language, and the worker writes the chart's own words (axes, legends) in the same one.
 *
 * A chart is never what an answer waits on to exist: without a renderer (tests), past the
 * interaction's deadline, or when the render fails, the answer goes out without it and the log says why.
 */
import { SPEC_LIMITS, type ChartSpec, type HeroPerformanceChart, type RankHistoryChart, type RankPoint } from '../charts/specs.js';
import { currentLocale, tr } from '../i18n/index.js';
import type { RankTimelinePoint } from '../game/rank-timeline.js';
import type { Season } from '../game/seasons.js';
import type { HeroTotals } from '../game/profile.js';
import { truncate } from './limits.js';
import type { View, ViewChart } from './view.js';

/**
 * Rank score over time from a player's rank timeline (src/game/rank-timeline.ts: the score after each
 * competitive match, the profile's `rank_history` and its seasons' last changes), one line per season,
 * each point in its own season. Points no source places in a season go under `fallbackSeason`.
 * `current` is the tier and score shown now, in the season `current.season`: it ends that season's line,
 * so the chart ends where the answer's header does. The title and season names are in the current
 * locale ("Sir Final · rank history", "Season 1.5").
 */
export function rankHistorySpec(
  name: string,
  timeline: readonly RankTimelinePoint[],
  current: { tier: string | null; score: number | null; season: Season | null; time: number | null },
  fallbackSeason: string,
): RankHistoryChart {
  const label = (season: Season | null) => (season ? truncate(tr('charts:season', { number: season.number }), SPEC_LIMITS.nameLength) : fallbackSeason);
  const bySeason = new Map<string, RankPoint[]>();
  const add = (season: Season | null, point: RankPoint) => bySeason.set(label(season), [...(bySeason.get(label(season)) ?? []), point]);
  for (const point of timeline) add(point.season, { time: point.time, score: point.score });
  if (current.score !== null && current.season && current.time !== null) {
    const line = bySeason.get(label(current.season)) ?? [];
    const last = line.reduce<RankPoint | null>((a, b) => (!a || b.time > a.time ? b : a), null);
    if (!last || (current.time > last.time && Math.abs(last.score - current.score) > 0.5)) add(current.season, { time: current.time, score: current.score });
  }
  return {
    kind: 'rank-history',
    locale: currentLocale(),
    title: truncate(tr('charts:titles.rankHistory', { name }), SPEC_LIMITS.titleLength),
    seasons: [...bySeason].map(([season, points]) => ({ name: season, points: points.sort((a, b) => a.time - b.time) })),
    ...(current.tier && current.score !== null ? { current: { tier: current.tier, score: current.score } } : {}),
  };
}

/** What a hero-performance chart needs of a hero's totals (a profile's hero lists, src/game/profile.ts HeroTotals). */
type HeroRecord = Pick<HeroTotals, 'matches' | 'wins' | 'kills' | 'deaths' | 'assists' | 'play_time'>;

/**
 * Play time, win rate (wins / matches) and KDA ((kills + assists) / deaths, deaths at least 1, as the
 * text answers show it) of a player's heroes, named and given roles by `hero`; the chart keeps the ten
 * most played. Heroes with no play time are left out. `title` is already in the current locale (cut to
 * the spec's limit here); the chart's own words follow that locale.
 */
export function heroPerformanceSpec<H extends HeroRecord>(
  title: string,
  heroes: H[],
  hero: (h: H) => { name: string; role: string | null },
): HeroPerformanceChart {
  return {
    kind: 'hero-performance',
    locale: currentLocale(),
    title: truncate(title, SPEC_LIMITS.titleLength),
    heroes: heroes
      .filter((h) => h.play_time !== null && h.play_time > 0)
      .map((h) => ({
        ...hero(h),
        playTimeSeconds: h.play_time,
        winRate: h.matches > 0 ? Math.min(1, h.wins / h.matches) : null,
        kda: h.kills + h.deaths + h.assists > 0 ? (h.kills + h.assists) / Math.max(1, h.deaths) : null,
      })),
  };
}

/** Whether a spec has anything to draw: a chart of nothing is left out of the answer. */
export function hasData(spec: ChartSpec): boolean {
  switch (spec.kind) {
    case 'rank-history':
      return spec.seasons.some((s) => s.points.length > 0);
    case 'hero-performance':
    case 'meta-scatter':
      return spec.heroes.length > 0;
    case 'compare-rank':
      return spec.players.some((p) => p.points.length > 0);
  }
}

/**
 * The chart `spec` as a View asks for it (the file `name`, `description` its alt text), or undefined
 * when it has nothing to draw ({@link hasData}).
 */
export function chartOf(spec: ChartSpec, name: string, description: string): ViewChart | undefined {
  return hasData(spec) ? { name, spec, description } : undefined;
}

/** `view` with `chart` attached and shown as the image of its embed at `embedIndex`; unchanged without a chart. */
export function withChart(view: View, chart: ViewChart | undefined, embedIndex = 0): View {
  if (!chart) return view;
  const embeds = (view.embeds ?? []).map((e, i) => (i === embedIndex ? { ...e, image: { url: `attachment://${chart.name}` } } : e));
  return { ...view, embeds, charts: [...(view.charts ?? []), chart] };
}
