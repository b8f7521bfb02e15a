/** Chart specs of a profile's sections, in the member's locale. A chart never holds up an answer: without one, the answer goes out anyway. */
import { isCard, SPEC_LIMITS, type ChartSpec, type HeroPerformanceChart, type RankHistoryChart, type RankPoint } from '../charts/specs.js';
import { currentLocale, tr } from '../i18n/index.js';
import type { RankTimelinePoint } from '../game/rank-timeline.js';
import type { Season } from '../game/seasons.js';
import type { HeroTotals } from '../game/profile.js';
import { truncate } from './limits.js';
import { withoutCardImages, type View, type ViewChart } from './view.js';

/** Rank score over time, a line per season (unplaced points under `fallbackSeason`); `current` ends its line, as the answer's header does. */
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

type HeroRecord = Pick<HeroTotals, 'matches' | 'wins' | 'kills' | 'deaths' | 'assists' | 'play_time'>;

/** Play time (s), win rate (0..1) and KDA ((kills + assists) / max(1, deaths)) of each hero played; `title` is already localised. */
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

export function hasData(spec: ChartSpec): boolean {
  switch (spec.kind) {
    case 'rank-history':
      return spec.seasons.some((s) => s.points.length > 0);
    case 'hero-performance':
    case 'meta-scatter':
      return spec.heroes.length > 0;
    case 'compare-rank':
    case 'ladder-rank':
      return spec.players.some((p) => p.points.length > 0);
    case 'profile-card':
      return true;
    case 'match-card':
      return spec.teams.some((t) => t.players.length > 0);
    case 'ladder-card':
    case 'table-card':
      return spec.rows.length > 0;
  }
}

/** The chart as a View asks for it (`description` is its alt text); undefined when it has nothing to draw. */
export function chartOf(spec: ChartSpec, name: string, description: string): ViewChart | undefined {
  return hasData(spec) ? { name, spec, description } : undefined;
}

/** `view` with `chart` attached as the image of embed `embedIndex`; unchanged without a chart. */
export function withChart(view: View, chart: ViewChart | undefined, embedIndex = 0): View {
  if (!chart) return view;
  const embeds = (view.embeds ?? []).map((e, i) => (i === embedIndex ? { ...e, image: { url: `attachment://${chart.name}` } } : e));
  return { ...view, embeds, charts: [...(view.charts ?? []), chart] };
}

/** `view` without its image cards (a member who chose embeds): their charts go, and each embed shows the text its card stood for. */
export function withoutCards(view: View): View {
  const cards = (view.charts ?? []).filter((c) => isCard(c.spec));
  if (cards.length === 0) return view;
  const gone = new Map(cards.map((c) => [`attachment://${c.name}`, c.text]));
  const charts = view.charts!.filter((c) => !isCard(c.spec));
  return { ...withoutCardImages(view, gone), charts };
}
