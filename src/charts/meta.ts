/** The meta scatter: win rate (y) against pick share (x), by role, with a dashed 50 % line. */
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import { drawDot, overlap, type Rect } from './canvas-kit.js';
import { percentText } from './format.js';
import { fitHeroName, fitText, MARGIN, type HeaderLayout } from './header.js';
import { placeLabelsWhereTheyFit } from './label-placement.js';
import { frame, valueTicks } from './options.js';
import { SCATTER_LABELS, type MetaHero, type MetaScatterChart } from './specs.js';
import { chartText } from './words.js';
import { COLORS, FONT, OTHER_ROLE_COLOR, ROLE_COLORS, ROLE_ORDER, SIZE, font, knownRole, withAlpha } from './theme.js';

/** Pixels, as below. */
const RADIUS = 8;
const MAX_LABEL_WIDTH = 180;

interface HeroPoint {
  x: number;
  y: number;
  /** Empty for a point left unnamed. */
  name: string;
}

/** Shares 0..1; y always includes 50 %. */
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

/** Null without heroes. */
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
  // How many names fit is known only once labels are placed: lay out for the widest, the plugin writes it.
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
          ticks: valueTicks((value) => percentText(value, r.xDigits)),
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

/** Above or below the line at either end, wherever it covers the fewest dots. */
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
 * Names the most picked points where there is room, then redraws the dots on top.
 * @param header drawn after this plugin: its subtitle gets the count of names.
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
        // A dark outline keeps a name readable across lines.
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
