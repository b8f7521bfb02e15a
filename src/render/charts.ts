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
import { LRUCache } from 'lru-cache';
import type { ChartRenderer } from '../charts/renderer.js';
import { SPEC_LIMITS, type ChartSpec, type HeroPerformanceChart, type RankHistoryChart, type RankPoint } from '../charts/specs.js';
import { currentDeadline } from '../core/deadline.js';
import { currentLocale, tr } from '../i18n/index.js';
import type { Logger } from '../core/logger.js';
import type { RankTimelinePoint } from '../game/rank-timeline.js';
import type { Season } from '../game/seasons.js';
import type { HeroTotals } from '../game/profile.js';
import { truncate } from './limits.js';
import type { ViewFile } from './view.js';

/** Longest a chart may take when the answer has no deadline (the CLI), ms. */
export const CHART_TIMEOUT_MS = 10_000;
/** Time kept back from the answer's deadline for sending it once the chart is drawn, ms. */
const CHART_RESERVE_MS = 300;

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

/** Charts drawn lately, by spec, at most this many bytes of PNG. */
const CACHE_BYTES = 16 * 1024 * 1024;

/**
 * A renderer that keeps the PNGs it drew, by spec (JSON), up to {@link CACHE_BYTES}; concurrent
 * renders of one spec share one draw. Failures are not kept.
 */
export function cachedCharts(renderer: ChartRenderer, maxBytes = CACHE_BYTES): ChartRenderer {
  const drawn = new LRUCache<string, Buffer>({ maxSize: maxBytes, sizeCalculation: (png) => Math.max(1, png.byteLength) });
  const drawing = new Map<string, Promise<Buffer>>();
  return {
    get threads() {
      return renderer.threads;
    },
    close: () => renderer.close(),
    async render(spec, options) {
      const key = JSON.stringify(spec);
      const kept = drawn.get(key);
      if (kept) return kept;
      let pending = drawing.get(key);
      if (!pending) {
        pending = renderer
          .render(spec, options)
          .then((png) => {
            drawn.set(key, png);
            return png;
          })
          .finally(() => drawing.delete(key));
        drawing.set(key, pending);
      }
      return pending;
    },
  };
}

/**
 * The PNG of `spec` as the file `name` of a View, with `description` as its alt text; undefined when
 * there is no renderer, nothing to draw, or no PNG in time (by the interaction's deadline less a
 * moment to send, else {@link CHART_TIMEOUT_MS}), logged at warn with the reason. Never throws.
 */
export async function chartFile(
  charts: ChartRenderer | undefined,
  spec: ChartSpec,
  name: string,
  description: string,
  logger: Logger,
): Promise<ViewFile | undefined> {
  if (!charts || !hasData(spec)) return undefined;
  const deadline = currentDeadline();
  const ms = deadline === undefined ? CHART_TIMEOUT_MS : deadline - CHART_RESERVE_MS - Date.now();
  if (ms <= 0) {
    logger.warn({ chart: spec.kind }, 'no time left to draw a chart: answering without it');
    return undefined;
  }
  try {
    const png = await charts.render(spec, { signal: AbortSignal.timeout(ms) });
    return { name, data: png, contentType: 'image/png', description };
  } catch (err) {
    logger.warn({ err, chart: spec.kind }, 'chart not drawn: answering without it');
    return undefined;
  }
}
