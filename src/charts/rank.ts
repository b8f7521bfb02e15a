/**
 * The two rank-score charts: a player's rank history (one line per season) and two players compared.
 * Both draw rank score over time on a linear axis of Unix seconds with the tier bands behind
 * (src/charts/tiers.ts) and their names in a gutter at the right.
 */
import type { ChartConfiguration, Plugin, Scale } from 'chart.js';
import { drawDot, drawLabelBox, labelBoxSize, type Ctx } from './canvas-kit.js';
import { scoreText, timeTicks, type TimeTick } from './format.js';
import { frame } from './options.js';
import type { CompareRankChart, RankHistoryChart, RankPoint } from './specs.js';
import { chartText } from './strings.js';
import { COLORS, COMPARE_COLORS, FONT, SERIES_COLORS, font, withAlpha } from './theme.js';
import { DIVISION_SCORE, bandOf, bandsWithin } from './tiers.js';

/** Width of the right gutter that holds the tier names, in pixels. */
const BAND_GUTTER = 168;
/** Most ticks on the time axis (its labels are about 80 px wide at 22 px). */
const MAX_TIME_TICKS = 7;
/** Least rank score the y axis spans (one tier), so a flat line still shows where it sits. */
const MIN_SCORE_SPAN = 300;

/** A line of a rank chart. */
interface Series {
  label: string;
  color: string;
  points: RankPoint[];
  /** Line width in pixels. */
  width: number;
}

/** A dot with a label box on a series' point. */
interface Marker {
  time: number;
  score: number;
  text: string;
  color: string;
  /** Whether the line arrives from below (the label then goes above it). */
  rising: boolean;
}

/**
 * The chart.js configuration of a rank history; null when no season has a point (draw "No data" then).
 * Seasons are ordered by their first point; the latest is drawn white and thickest, and `current`
 * marks the end of the latest season (at `current.score` when given).
 */
export function rankHistoryConfig(spec: RankHistoryChart): ChartConfiguration<'line'> | null {
  const seasons = spec.seasons
    .map((s) => ({ name: s.name, points: [...s.points].sort((a, b) => a.time - b.time) }))
    .filter((s) => s.points.length > 0)
    .sort((a, b) => a.points[0]!.time - b.points[0]!.time);
  if (seasons.length === 0) return null;
  const series: Series[] = seasons.map((s, i) => {
    const age = seasons.length - 1 - i;
    // White for the latest season only; the older ones cycle through the other colours.
    const color = age === 0 ? SERIES_COLORS[0] : SERIES_COLORS[1 + ((age - 1) % (SERIES_COLORS.length - 1))]!;
    return { label: s.name, color, points: s.points, width: age === 0 ? 4 : 3 };
  });
  const latest = seasons.at(-1)!.points;
  const last = latest.at(-1)!;
  const before = latest.at(-2);
  const score = spec.current?.score ?? last.score;
  const marker: Marker = {
    time: last.time,
    score,
    text: chartText.currentRank(spec.current?.tier ?? '', scoreText(score)),
    color: bandOf(score)?.color ?? COLORS.heading,
    rising: before === undefined || before.score <= score,
  };
  return rankConfig(spec.title, chartText.rankSeasons(seasons.length), series, [marker]);
}

/**
 * The chart.js configuration of a two-player comparison; null when neither player has a point.
 * Each line ends in a dot labelled with that player's last rank score.
 */
export function compareRankConfig(spec: CompareRankChart): ChartConfiguration<'line'> | null {
  const series: Series[] = spec.players.map((p, i) => ({
    label: p.name,
    color: COMPARE_COLORS[i % COMPARE_COLORS.length]!,
    points: [...p.points].sort((a, b) => a.time - b.time),
    width: 4,
  }));
  if (series.every((s) => s.points.length === 0)) return null;
  const markers = series.flatMap((s): Marker[] => {
    const last = s.points.at(-1);
    if (!last) return [];
    const before = s.points.at(-2);
    return [{ time: last.time, score: last.score, text: scoreText(last.score), color: s.color, rising: before === undefined || before.score <= last.score }];
  });
  // Two labels close together: the higher one goes above its line, the lower one below.
  if (markers.length === 2) {
    const [a, b] = markers as [Marker, Marker];
    a.rising = a.score >= b.score;
    b.rising = !a.rising;
  }
  return rankConfig(spec.title, chartText.compareRank(), series, markers);
}

/** The least and greatest of `values` (not spread into Math.min: a spec may hold 60,000 points). */
function extent(values: number[]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** The y range `[min, max]` of rank scores: 40 RS of room, whole divisions, at least {@link MIN_SCORE_SPAN}. */
export function scoreRange(scores: number[]): { min: number; max: number } {
  const [lo, hi] = extent(scores);
  let min = Math.floor((lo - 40) / DIVISION_SCORE) * DIVISION_SCORE;
  let max = Math.ceil((hi + 40) / DIVISION_SCORE) * DIVISION_SCORE;
  if (max - min < MIN_SCORE_SPAN) {
    const grow = Math.ceil((MIN_SCORE_SPAN - (max - min)) / 2 / DIVISION_SCORE) * DIVISION_SCORE;
    min -= grow;
    max += grow;
  }
  min = Math.max(0, min);
  return { min, max };
}

/** The x range of times: 3 % of room each side (at least an hour), so end points and their dots are not clipped. */
function timeRange(times: number[]): { min: number; max: number } {
  const [lo, hi] = extent(times);
  const pad = Math.max(3_600, (hi - lo) * 0.03);
  return { min: lo - pad, max: hi + pad };
}

function rankConfig(title: string, subtitle: string, series: Series[], markers: Marker[]): ChartConfiguration<'line'> {
  const all = series.flatMap((s) => s.points);
  const y = scoreRange([...all.map((p) => p.score), ...markers.map((m) => m.score)]);
  const x = timeRange(all.map((p) => p.time));
  const ticks = timeTicks(x.min, x.max, MAX_TIME_TICKS);
  const labels = new Map<number, TimeTick['label']>(ticks.map((t) => [t.value, t.label]));
  const span = y.max - y.min;
  const { options, plugins } = frame(title, subtitle, series.map((s) => ({ label: s.label, color: s.color })), { right: BAND_GUTTER });
  return {
    type: 'line',
    data: {
      datasets: series.map((s) => {
        const radius = s.points.length === 1 ? 6 : s.points.length <= 40 ? 4 : s.points.length <= 150 ? 2 : 0;
        return {
          label: s.label,
          data: s.points.map((p) => ({ x: p.time, y: p.score })),
          borderColor: s.color,
          backgroundColor: s.color,
          borderWidth: s.width,
          pointRadius: radius,
          pointBorderWidth: 0,
          pointStyle: 'circle',
          tension: 0,
        };
      }),
    },
    options: {
      ...options,
      parsing: false,
      normalized: true,
      scales: {
        x: {
          type: 'linear',
          min: x.min,
          max: x.max,
          grid: { color: COLORS.grid, drawTicks: false },
          border: { color: COLORS.axis },
          afterBuildTicks: (scale: Scale) => {
            scale.ticks = ticks.map((t) => ({ value: t.value }));
          },
          ticks: { color: COLORS.text, font: { size: FONT.label }, padding: 10, maxRotation: 0, autoSkip: true, autoSkipPadding: 24, callback: (value) => labels.get(Number(value)) ?? '' },
        },
        y: {
          type: 'linear',
          min: y.min,
          max: y.max,
          grid: { color: COLORS.grid, drawTicks: false },
          border: { display: false },
          ticks: {
            color: COLORS.text,
            font: { size: FONT.label },
            padding: 10,
            // Every division while there is room for its label, else every tier.
            stepSize: span <= 1_000 ? DIVISION_SCORE : 3 * DIVISION_SCORE,
            includeBounds: false,
            callback: (value) => scoreText(Number(value)),
          },
        },
      },
    },
    plugins: [...(plugins as Plugin<'line'>[]), tierBandsPlugin(), markersPlugin(markers), lineShadowPlugin],
  };
}

/** Shades each tier band within the y range, draws its lower edge, and writes its name in the right gutter. */
function tierBandsPlugin(): Plugin<'line'> {
  return {
    id: 'rivalsTierBands',
    beforeDatasetsDraw(chart) {
      const { ctx, chartArea: area } = chart;
      const yScale = chart.scales.y!;
      const bands = bandsWithin(yScale.min, yScale.max);
      ctx.save();
      for (const band of bands) {
        const top = yScale.getPixelForValue(band.to);
        const bottom = yScale.getPixelForValue(band.from);
        ctx.fillStyle = withAlpha(band.color, 0.12);
        ctx.fillRect(area.left, top, area.right - area.left, bottom - top);
        if (band.from > yScale.min) {
          ctx.strokeStyle = withAlpha(band.color, 0.45);
          ctx.lineWidth = 1.5;
          ctx.beginPath();
          ctx.moveTo(area.left, Math.round(bottom) + 0.5);
          ctx.lineTo(area.right, Math.round(bottom) + 0.5);
          ctx.stroke();
        }
      }
      drawBandLabels(ctx, bands.map((b) => ({ label: b.label, color: b.color, top: yScale.getPixelForValue(b.to), bottom: yScale.getPixelForValue(b.from) })), area.right + 14, area.top, area.bottom);
      ctx.restore();
    },
  };
}

/**
 * Writes each band's name at the middle of its visible part, in its colour; a name too wide for the
 * gutter breaks at " / ". Names that would overlap are moved apart, as little as they can be, within
 * the plot's height.
 */
function drawBandLabels(ctx: Ctx, bands: { label: string; color: string; top: number; bottom: number }[], x: number, areaTop: number, areaBottom: number): void {
  ctx.font = font(FONT.label, 600);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const lineHeight = FONT.label + 4;
  const maxWidth = BAND_GUTTER - 20;
  const labels = bands
    // A sliver of a band at an edge of the plot is not worth a name.
    .filter((b) => b.bottom - b.top >= lineHeight * 0.8)
    .map((b) => {
      const lines = ctx.measureText(b.label).width <= maxWidth ? [b.label] : b.label.split(/(?<=\/)\s+/);
      const height = lines.length * lineHeight;
      return { color: b.color, lines, height, top: (b.top + b.bottom) / 2 - height / 2 };
    })
    // Top of the plot first.
    .sort((a, b) => a.top - b.top);
  // Down from the top: each label clear of the one above; then up from the bottom: each inside the plot
  // and clear of the one below.
  let floor = areaTop;
  for (const l of labels) {
    l.top = Math.max(l.top, floor);
    floor = l.top + l.height + 2;
  }
  let ceiling = areaBottom;
  for (const l of [...labels].reverse()) {
    l.top = Math.min(l.top, ceiling - l.height);
    ceiling = l.top - 2;
  }
  for (const l of labels) {
    ctx.fillStyle = l.color;
    l.lines.forEach((line, i) => ctx.fillText(line, x, l.top + lineHeight * (i + 0.5), maxWidth));
  }
}

/** Draws the markers (current rank, end scores): a dot on the point and a label box beside it, inside the plot. */
function markersPlugin(markers: Marker[]): Plugin<'line'> {
  return {
    id: 'rivalsMarkers',
    afterDatasetsDraw(chart) {
      const { ctx, chartArea: area } = chart;
      const xScale = chart.scales.x!;
      const yScale = chart.scales.y!;
      ctx.save();
      ctx.font = font(FONT.label, 600);
      for (const m of markers) {
        const px = xScale.getPixelForValue(m.time);
        const py = yScale.getPixelForValue(m.score);
        drawDot(ctx, px, py, 8, m.color);
        const { w, h } = labelBoxSize(ctx, m.text);
        // Left of the point (the line ends at the right), above it when the line comes from below.
        let bx = px - w - 10;
        let by = m.rising ? py - h - 14 : py + 14;
        if (by < area.top + 2) by = py + 14;
        if (by + h > area.bottom - 2) by = py - h - 14;
        if (bx < area.left + 2) bx = Math.min(px + 14, area.right - w - 2);
        drawLabelBox(ctx, m.text, bx, by, m.color);
      }
      ctx.restore();
    },
  };
}

/** A dark halo under each line, so lines stay distinct over the tinted bands and grid. */
const lineShadowPlugin: Plugin<'line'> = {
  id: 'rivalsLineShadow',
  beforeDatasetDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.shadowColor = 'rgba(0, 0, 0, 0.55)';
    ctx.shadowBlur = 6;
  },
  afterDatasetDraw(chart) {
    chart.ctx.restore();
  },
};
