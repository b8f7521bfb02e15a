/**
 * The meta scatter: heroes' win rate (y) against pick share (x), one colour per role, each point
 * named, with a dashed line at 50 % win rate.
 */
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import { drawDot, overlap, type Rect } from './canvas-kit.js';
import { percentText } from './format.js';
import { fitHeroName, fitText, MARGIN, type HeaderLayout } from './header.js';
import { placeLabelsWhereTheyFit } from './label-placement.js';
import { frame } from './options.js';
import { SCATTER_LABELS, type MetaHero, type MetaScatterChart } from './specs.js';
import { chartText } from './strings.js';
import { COLORS, FONT, OTHER_ROLE_COLOR, ROLE_COLORS, ROLE_ORDER, SIZE, font, knownRole, withAlpha } from './theme.js';

/** Point radius in pixels. */
const RADIUS = 8;
/** Widest a hero's name may be drawn, in pixels (longer names take their short form or are cut). */
const MAX_LABEL_WIDTH = 180;

/** A point of the scatter with the hero it stands for. */
interface HeroPoint {
  x: number;
  y: number;
  /** Empty for a point left unnamed (beyond the most picked {@link SCATTER_LABELS}). */
  name: string;
}

/**
 * The axis ranges of a scatter, in shares (0..1): x from 0 to a little past the largest pick share;
 * y around the win rates with room for labels, always including 50 %, on whole steps of `yStep`.
 */
export function scatterRanges(heroes: Pick<MetaHero, 'winRate' | 'pickShare'>[]): { xMax: number; yMin: number; yMax: number; yStep: number; xDigits: number } {
  const maxPick = Math.max(...heroes.map((h) => h.pickShare));
  const xStep = maxPick <= 0.05 ? 0.01 : maxPick <= 0.2 ? 0.02 : maxPick <= 0.5 ? 0.05 : 0.1;
  const xMax = Math.min(1, Math.max(xStep, Math.ceil((maxPick * 1.08) / xStep) * xStep));
  const lo = Math.min(0.5, ...heroes.map((h) => h.winRate)) - 0.01;
  const hi = Math.max(0.5, ...heroes.map((h) => h.winRate)) + 0.01;
  const yStep = hi - lo <= 0.3 ? 0.02 : 0.05;
  const yMin = Math.max(0, Math.floor(lo / yStep) * yStep);
  const yMax = Math.min(1, Math.ceil(hi / yStep) * yStep);
  return { xMax, yMin, yMax, yStep, xDigits: xStep < 0.01 ? 1 : 0 };
}

/** The chart.js configuration of a meta scatter; null without heroes (draw "No data" then). */
export function metaScatterConfig(spec: MetaScatterChart): ChartConfiguration<'scatter'> | null {
  if (spec.heroes.length === 0) return null;
  const r = scatterRanges(spec.heroes);
  const groups = [...ROLE_ORDER, null]
    .map((role) => ({ role, heroes: spec.heroes.filter((h) => knownRole(h.role) === role) }))
    .filter((g) => g.heroes.length > 0);
  const legend = groups.map((g) => ({
    label: g.role ? chartText.role(g.role) : chartText.otherRole(),
    color: g.role === null ? OTHER_ROLE_COLOR : ROLE_COLORS[g.role]!,
  }));
  const named = new Set([...spec.heroes].sort((a, b) => b.pickShare - a.pickShare).slice(0, SCATTER_LABELS));
  // The subtitle says how many names found room, known only once the labels are placed: the header is
  // laid out for the widest it may be, and the label plugin writes the count in.
  const n = spec.heroes.length;
  const { options, plugins, header } = frame(spec.title, chartText.metaHeroes(n, Math.min(named.size, n - 1)), legend);
  return {
    type: 'scatter',
    data: {
      datasets: groups.map((g) => {
        const color = g.role === null ? OTHER_ROLE_COLOR : ROLE_COLORS[g.role]!;
        return {
          label: g.role ? chartText.role(g.role) : chartText.otherRole(),
          data: g.heroes.map((h): HeroPoint => ({
            x: h.pickShare,
            y: h.winRate,
            name: named.has(h) ? fitHeroName(h.name, font(FONT.label, 600), MAX_LABEL_WIDTH, true) : '',
          })),
          backgroundColor: color,
          borderColor: COLORS.background,
          borderWidth: 2,
          pointRadius: RADIUS,
          pointStyle: 'circle',
        };
      }),
    },
    options: {
      ...options,
      parsing: false,
      scales: {
        x: {
          type: 'linear',
          min: 0,
          max: r.xMax,
          title: { display: true, text: chartText.pickShareAxis(), color: COLORS.muted, font: { size: FONT.label }, padding: { top: 2, bottom: 0 } },
          grid: { color: COLORS.grid, drawTicks: false },
          border: { color: COLORS.axis },
          ticks: {
            color: COLORS.text,
            font: { size: FONT.label },
            padding: 8,
            maxRotation: 0,
            maxTicksLimit: 6,
            callback: (value) => percentText(Number(value), r.xDigits),
          },
        },
        y: {
          type: 'linear',
          min: r.yMin,
          max: r.yMax,
          title: { display: true, text: chartText.winRateAxis(), color: COLORS.muted, font: { size: FONT.label }, padding: { top: 0, bottom: 4 } },
          grid: { color: COLORS.grid, drawTicks: false },
          border: { display: false },
          ticks: { color: COLORS.text, font: { size: FONT.label }, padding: 8, stepSize: r.yStep, callback: (value) => percentText(Number(value), 0) },
        },
      },
    },
    plugins: [...(plugins as Plugin<'scatter'>[]), evenLinePlugin, pointLabelsPlugin(header, n)],
  };
}

/**
 * The label of the 50 % line and where it goes: just above or below the line, at its right or left
 * end, wherever it covers the fewest dots (the right end above it when none is clear).
 */
function evenLineLabel(chart: Chart<'scatter'>): { text: string; rect: Rect } {
  const { ctx, chartArea: area } = chart;
  const text = chartText.evenLine(percentText(0.5, 0));
  ctx.save();
  ctx.font = font(FONT.label);
  const w = ctx.measureText(text).width;
  ctx.restore();
  const y = chart.scales.y!.getPixelForValue(0.5);
  const h = FONT.label + 2;
  const dots = chart.data.datasets.flatMap((_, di) => chart.getDatasetMeta(di).data.map((el) => el.getProps(['x', 'y'], true) as { x: number; y: number }));
  const covered = (r: Rect) => dots.filter((d) => overlap(r, { x: d.x - RADIUS - 2, y: d.y - RADIUS - 2, w: 2 * RADIUS + 4, h: 2 * RADIUS + 4 }) > 0).length;
  const candidates: Rect[] = [
    { x: area.right - w - 8, y: y - h - 6, w, h },
    { x: area.right - w - 8, y: y + 6, w, h },
    { x: area.left + 8, y: y - h - 6, w, h },
    { x: area.left + 8, y: y + 6, w, h },
  ].filter((r) => r.y >= area.top && r.y + r.h <= area.bottom);
  const rect = candidates.reduce<Rect | null>((best, r) => (best === null || covered(r) < covered(best) ? r : best), null) ?? {
    x: area.right - w - 8,
    y: y - h - 6,
    w,
    h,
  };
  return { text, rect };
}

/** The dashed 50 % win-rate line, with its label at the right end above it. */
const evenLinePlugin: Plugin<'scatter'> = {
  id: 'rivalsEvenLine',
  beforeDatasetsDraw(chart) {
    const { ctx, chartArea: area } = chart;
    const y = Math.round(chart.scales.y!.getPixelForValue(0.5)) + 0.5;
    ctx.save();
    ctx.strokeStyle = withAlpha(COLORS.text, 0.55);
    ctx.lineWidth = 2;
    ctx.setLineDash([10, 8]);
    ctx.beginPath();
    ctx.moveTo(area.left, y);
    ctx.lineTo(area.right, y);
    ctx.stroke();
    const label = evenLineLabel(chart);
    ctx.font = font(FONT.label);
    ctx.fillStyle = COLORS.muted;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(label.text, label.rect.x, label.rect.y + label.rect.h / 2 + 1);
    ctx.restore();
  },
};

/**
 * Names the points, most picked first, each where {@link placeLabelsWhereTheyFit} finds room clear of
 * the dots, of the names placed before it and of the 50 % line's label; a point with no such room stays
 * unnamed (a phone-width chart has room for about 20 names), and the subtitle says how many are named.
 * A label set away from its dot gets a leader line. The dots are drawn again on top.
 * @param header the chart's header, drawn after this plugin: its subtitle gets the count of names.
 * @param heroes how many heroes the chart has.
 */
function pointLabelsPlugin(header: HeaderLayout, heroes: number): Plugin<'scatter'> {
  return {
    id: 'rivalsPointLabels',
    afterDatasetsDraw(chart) {
      const { ctx, chartArea } = chart;
      const area: Rect = { x: chartArea.left, y: chartArea.top, w: chartArea.right - chartArea.left, h: chartArea.bottom - chartArea.top };
      const points = chart.data.datasets.flatMap((d, di) =>
        chart.getDatasetMeta(di).data.map((el, i) => {
          const { x, y } = el.getProps(['x', 'y'], true) as { x: number; y: number };
          const point = d.data[i] as unknown as HeroPoint;
          return { x, y, share: point.x, name: point.name, color: d.backgroundColor as string };
        }),
      );
      const dots = points.map((p) => ({ x: p.x, y: p.y, radius: RADIUS }));
      // Most picked first: they are named before the rest take what room is left.
      const wanted = points.filter((p) => p.name !== '').sort((a, b) => b.share - a.share || a.x - b.x);
      ctx.save();
      ctx.font = font(FONT.label, 600);
      const height = FONT.label + 2;
      const placed = placeLabelsWhereTheyFit(
        wanted.map((p) => ({ x: p.x, y: p.y, radius: RADIUS, w: ctx.measureText(p.name).width, h: height })),
        area,
        [evenLineLabel(chart).rect],
        dots,
      );
      const labelled = wanted.filter((_, i) => placed[i]);
      const labels = placed.filter((p) => p !== null);
      header.subtitle = fitText(chartText.metaHeroes(heroes, labelled.length), font(FONT.subtitle), SIZE.width - 2 * MARGIN);
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.lineJoin = 'round';
      labels.forEach(({ rect, far }, i) => {
        const p = labelled[i]!;
        if (far) {
          ctx.strokeStyle = withAlpha(COLORS.text, 0.4);
          ctx.lineWidth = 1.5;
          ctx.beginPath();
          ctx.moveTo(p.x, p.y);
          ctx.lineTo(Math.min(Math.max(p.x, rect.x), rect.x + rect.w), Math.min(Math.max(p.y, rect.y + 4), rect.y + rect.h - 4));
          ctx.stroke();
        }
      });
      labels.forEach(({ rect }, i) => {
        const p = labelled[i]!;
        // A dark outline keeps a name readable where it crosses grid lines, leader lines or the 50 % line.
        ctx.lineWidth = 5;
        ctx.strokeStyle = COLORS.background;
        ctx.strokeText(p.name, rect.x, rect.y + rect.h / 2 + 1);
        ctx.fillStyle = COLORS.text;
        ctx.fillText(p.name, rect.x, rect.y + rect.h / 2 + 1);
      });
      for (const p of points) drawDot(ctx, p.x, p.y, RADIUS, p.color);
      ctx.restore();
    },
  };
}
