/** Rank history (a line per season) and two players compared: rank score over time on the tier bands. */
import type { ChartConfiguration, Plugin, Scale } from 'chart.js';
import { drawDot, drawLabelBox, labelBoxSize, outside, overlap, type Ctx, type Rect } from './canvas-kit.js';
import { scoreText, timeTicks, type TimeTick } from './format.js';
import { MARGIN, textWidth } from './header.js';
import { frame } from './options.js';
import type { CompareRankChart, LadderRankChart, RankHistoryChart, RankPoint } from './specs.js';
import { chartText } from './words.js';
import { COLORS, COMPARE_COLORS, FONT, SERIES_COLORS, SIZE, font, withAlpha } from './theme.js';
import { DIVISION_SCORE, bandOf, bandsWithin } from './tiers.js';

/** Pixels; a wider tier name breaks at " / ". */
const BAND_LABEL_WIDTH = 170;
const BAND_GAP = 12;
/** Keeps a label's width of room between time ticks. */
const MAX_TIME_TICKS = 5;
/** Pixels. */
const MIN_SCORE_TICK_GAP = 34;
/** One tier, so a flat line still shows where it sits. */
const MIN_SCORE_SPAN = 300;

interface Series {
  label: string;
  color: string;
  points: RankPoint[];
  width: number;
}

interface Marker {
  time: number;
  score: number;
  text: string;
  color: string;
  /** The line arrives from below: the label goes above. */
  rising: boolean;
}

/** Null when no season has a point. Seasons are ordered by their first point; `current` marks the latest's end. */
export function rankHistoryConfig(spec: RankHistoryChart): ChartConfiguration<'line'> | null {
  const seasons = spec.seasons
    .map((s) => ({ name: s.name, points: [...s.points].sort((a, b) => a.time - b.time) }))
    .filter((s) => s.points.length > 0)
    .sort((a, b) => a.points[0]!.time - b.points[0]!.time);
  if (seasons.length === 0) return null;
  const series: Series[] = seasons.map((s, i) => {
    const age = seasons.length - 1 - i;
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

/** One line per player in `colors` order, oldest point first, each last score marked; null when no player has a point. */
function playerLines(players: readonly { name: string; points: readonly RankPoint[] }[], colors: readonly string[], width: number) {
  const series: Series[] = players.map((p, i) => ({
    label: p.name,
    color: colors[i % colors.length]!,
    points: [...p.points].sort((a, b) => a.time - b.time),
    width,
  }));
  if (series.every((s) => s.points.length === 0)) return null;
  const markers = series.flatMap((s): Marker[] => {
    const last = s.points.at(-1);
    if (!last) return [];
    const before = s.points.at(-2);
    return [{ time: last.time, score: last.score, text: scoreText(last.score), color: s.color, rising: before === undefined || before.score <= last.score }];
  });
  return { series, markers };
}

/** Null when neither player has a point. */
export function compareRankConfig(spec: CompareRankChart): ChartConfiguration<'line'> | null {
  const lines = playerLines(spec.players, COMPARE_COLORS, 4);
  if (!lines) return null;
  const { series, markers } = lines;
  // Two labels close together: the higher one goes above its line, the lower one below.
  if (markers.length === 2) {
    const [a, b] = markers as [Marker, Marker];
    a.rising = a.score >= b.score;
    b.rising = !a.rising;
  }
  return rankConfig(spec.title, chartText.compareRank(), series, markers);
}

/** The top members of a ladder, each line in its own colour, the leader's first; their last scores marked. */
export function ladderRankConfig(spec: LadderRankChart): ChartConfiguration<'line'> | null {
  const lines = playerLines(spec.players, [...COMPARE_COLORS, ...SERIES_COLORS.slice(2)], 3);
  return lines && rankConfig(spec.title, chartText.ladderRank(), lines.series, lines.markers);
}

/** Not spread into Math.min: a spec may hold tens of thousands of points. */
function extent(values: number[]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** Whole divisions with some room, spanning at least {@link MIN_SCORE_SPAN}. */
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

/** Padded so end points and their dots are not clipped. */
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
  const bandLabels = bandsWithin(y.min, y.max).map((b) => bandLabelLines(b.label));
  const gutter = BAND_GAP + Math.max(0, ...bandLabels.flat().map((line) => Math.min(BAND_LABEL_WIDTH, textWidth(line, font(FONT.label, 600))))) + MARGIN;
  const { options, plugins, header } = frame(
    title,
    subtitle,
    series.map((s) => ({ label: s.label, color: s.color })),
    { right: gutter },
  );
  // 60: the time axis with two-line labels.
  const maxIntervals = Math.max(2, Math.floor((SIZE.height - header.height - 60) / MIN_SCORE_TICK_GAP));
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
          ticks: {
            color: COLORS.text,
            font: { size: FONT.label },
            padding: 8,
            maxRotation: 0,
            autoSkip: true,
            autoSkipPadding: 20,
            callback: (value) => labels.get(Number(value)) ?? '',
          },
        },
        y: {
          type: 'linear',
          min: y.min,
          max: y.max,
          grid: { color: COLORS.grid, drawTicks: false },
          border: { display: false },
          // Every division while there is room for its label, else every tier, else every other tier: on
          // multiples of the step, so ticks fall on tier edges (chart.js would spread a step over the range).
          afterBuildTicks: (scale: Scale) => {
            const step = [1, 3, 6].map((d) => d * DIVISION_SCORE).find((s) => span / s <= maxIntervals) ?? 6 * DIVISION_SCORE;
            scale.ticks = [];
            for (let v = Math.ceil(y.min / step) * step; v <= y.max; v += step) scale.ticks.push({ value: v });
          },
          ticks: {
            color: COLORS.text,
            font: { size: FONT.label },
            padding: 8,
            includeBounds: false,
            callback: (value) => scoreText(Number(value)),
          },
        },
      },
    },
    plugins: [...(plugins as Plugin<'line'>[]), tierBandsPlugin(), markersPlugin(markers), lineShadowPlugin],
  };
}

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
      drawBandLabels(
        ctx,
        bands.map((b) => ({ label: b.label, color: b.color, top: yScale.getPixelForValue(b.to), bottom: yScale.getPixelForValue(b.from) })),
        area.right + BAND_GAP,
        area.top,
        area.bottom,
      );
      ctx.restore();
    },
  };
}

function bandLabelLines(label: string): string[] {
  return textWidth(label, font(FONT.label, 600)) <= BAND_LABEL_WIDTH ? [label] : label.split(/(?<=\/)\s+/);
}

/** Names that would overlap are moved apart as little as they can be, within the plot. */
function drawBandLabels(
  ctx: Ctx,
  bands: { label: string; color: string; top: number; bottom: number }[],
  x: number,
  areaTop: number,
  areaBottom: number,
): void {
  ctx.font = font(FONT.label, 600);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const lineHeight = FONT.label + 4;
  const maxWidth = BAND_LABEL_WIDTH;
  const labels = bands
    // A sliver of a band at an edge of the plot is not worth a name.
    .filter((b) => b.bottom - b.top >= lineHeight * 0.8)
    .map((b) => {
      const lines = bandLabelLines(b.label);
      const height = lines.length * lineHeight;
      return { color: b.color, lines, height, top: (b.top + b.bottom) / 2 - height / 2 };
    })
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

/** Each label goes where it covers least of the lines and other markers; first choice left, as lines end at the right. */
function markersPlugin(markers: Marker[]): Plugin<'line'> {
  return {
    id: 'rivalsMarkers',
    afterDatasetsDraw(chart) {
      const { ctx, chartArea: area } = chart;
      const xScale = chart.scales.x!;
      const yScale = chart.scales.y!;
      const plot: Rect = { x: area.left + 2, y: area.top + 2, w: area.right - area.left - 4, h: area.bottom - area.top - 4 };
      const segments = chart.data.datasets.flatMap((_, di) => {
        const els = chart.getDatasetMeta(di).data.map((el) => el.getProps(['x', 'y'], true) as { x: number; y: number });
        return els.map((a, i) => [a, els[i + 1] ?? a] as const);
      });
      const dots = markers.map((m) => ({ x: xScale.getPixelForValue(m.time), y: yScale.getPixelForValue(m.score) }));
      const taken: Rect[] = dots.map((d) => ({ x: d.x - 12, y: d.y - 12, w: 24, h: 24 }));
      ctx.save();
      ctx.font = font(FONT.label, 600);
      markers.forEach((m, i) => {
        const { x: px, y: py } = dots[i]!;
        drawDot(ctx, px, py, 8, m.color);
        const { w, h } = labelBoxSize(ctx, m.text);
        // Beside the point first, then farther up or down (with a leader line) where the lines leave room.
        const spots: Rect[] = [0, 30, 60].flatMap((reach) => {
          const above = py - h - 14 - reach;
          const below = py + 14 + reach;
          const [first, second] = m.rising ? [above, below] : [below, above];
          return [
            { x: px - w - 10, y: first, w, h },
            { x: px - w - 10, y: second, w, h },
            { x: px + 10, y: first, w, h },
            { x: px + 10, y: second, w, h },
            ...(reach === 0
              ? [
                  { x: px - w - 18, y: py - h / 2, w, h },
                  { x: px + 18, y: py - h / 2, w, h },
                ]
              : []),
          ];
        });
        const cost = (r: Rect, order: number) =>
          outside(r, plot) * 1_000 +
          taken.reduce((c, t) => c + overlap(r, t) * 10, 0) +
          segments.reduce((c, [a, b]) => c + (segmentCrosses(a, b, r) ? 200 : 0), 0) +
          order;
        let best = spots[0]!;
        let bestCost = Number.POSITIVE_INFINITY;
        spots.forEach((r, order) => {
          const c = cost(r, order);
          if (c < bestCost) [best, bestCost] = [r, c];
        });
        // Never outside the plot, whatever the cost.
        const bx = Math.min(Math.max(best.x, plot.x), plot.x + plot.w - w);
        const by = Math.min(Math.max(best.y, plot.y), plot.y + plot.h - h);
        taken.push({ x: bx, y: by, w, h });
        if (by > py + 20 || by + h < py - 20) {
          ctx.strokeStyle = m.color;
          ctx.lineWidth = 2;
          ctx.beginPath();
          ctx.moveTo(px, py);
          ctx.lineTo(Math.min(Math.max(px, bx + 8), bx + w - 8), by > py ? by : by + h);
          ctx.stroke();
        }
        drawLabelBox(ctx, m.text, bx, by, m.color);
      });
      ctx.restore();
    },
  };
}

/** Whether the segment from `a` to `b` passes through `r` (sampled every 4 px: enough for a label box or a dot). */
function segmentCrosses(a: { x: number; y: number }, b: { x: number; y: number }, r: Rect): boolean {
  if (Math.max(a.x, b.x) < r.x || Math.min(a.x, b.x) > r.x + r.w || Math.max(a.y, b.y) < r.y || Math.min(a.y, b.y) > r.y + r.h) return false;
  const steps = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / 4));
  for (let i = 0; i <= steps; i++) {
    const x = a.x + ((b.x - a.x) * i) / steps;
    const y = a.y + ((b.y - a.y) * i) / steps;
    if (x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h) return true;
  }
  return false;
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
