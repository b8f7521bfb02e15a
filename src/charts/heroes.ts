/** The hero-performance chart: top heroes by play time as bars, coloured by role, labelled with win rate and KDA. */
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import type { CardReport } from './cards.js';
import { durationTick, kdaText, percentText, playTimeUnit } from './format.js';
import { textWidth } from './header.js';
import { frame, valueTicks } from './options.js';
import { HERO_PERFORMANCE_TOP, type HeroPerformance, type HeroPerformanceChart } from './specs.js';
import { chartText } from './words.js';
import { COLORS, FONT, OTHER_ROLE_COLOR, ROLE_COLORS, ROLE_ORDER, SIZE, font, knownRole, roleColor } from './theme.js';

/**
 * The widest a hero's name is set on one line, px: every real hero's name fits at the label size ("Jeff the Land Shark"
 * is 226 px); a wider one is set smaller, then broken at its spaces. Within the half of the width chart.js leaves an axis
 * at most, so never cut at the canvas's edge.
 */
const NAME_WIDTH = SIZE.width * 0.4;
/** The smallest a hero's name is set before it breaks into lines, px: as small as a card sets a figure. */
const NAME_FLOOR = 16;

/**
 * `name` whole, never cut nor shortened, as the axis draws it: at `size` px (600) when it fits `maxWidth`, else set
 * smaller down to {@link NAME_FLOOR}, else broken at its spaces into the fewest lines that fit at that size (a single
 * word wider keeps a line of its own; chart.js draws an array as lines).
 */
export function heroNameLabel(name: string, maxWidth: number, size: number = FONT.label): { label: string | string[]; size: number } {
  let s = size;
  while (s > NAME_FLOOR && textWidth(name, font(s, 600)) > maxWidth) s--;
  const fontSpec = font(s, 600);
  if (textWidth(name, fontSpec) <= maxWidth) return { label: name, size: s };
  const lines: string[] = [];
  for (const word of name.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && textWidth(`${last} ${word}`, fontSpec) <= maxWidth) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return { label: lines.length === 1 ? lines[0]! : lines, size: s };
}

export function topHeroes(heroes: HeroPerformance[]): HeroPerformance[] {
  return heroes
    .filter((h) => h.playTimeSeconds > 0)
    .sort((a, b) => b.playTimeSeconds - a.playTimeSeconds || a.name.localeCompare(b.name))
    .slice(0, HERO_PERFORMANCE_TOP);
}

export function heroBarLabel(hero: Pick<HeroPerformance, 'winRate' | 'kda'>): string {
  return chartText.heroBar(hero.winRate === null ? null : percentText(hero.winRate), hero.kda === null ? null : kdaText(hero.kda));
}

/** Null when no hero has play time. */
export function heroPerformanceConfig(spec: HeroPerformanceChart): ChartConfiguration<'bar'> | null {
  const heroes = topHeroes(spec.heroes);
  if (heroes.length === 0) return null;
  const total = spec.heroes.filter((h) => h.playTimeSeconds > 0).length;
  const unit = playTimeUnit(heroes[0]!.playTimeSeconds);
  const perUnit = unit === 'h' ? 3_600 : 60;
  const colors = heroes.map((h) => roleColor(h.role));
  // Whole names, the axis as wide as the widest: a hero's name is never cut nor shortened.
  const names = heroes.map((h) => heroNameLabel(h.name, NAME_WIDTH));
  const roles = [...ROLE_ORDER.filter((r) => heroes.some((h) => knownRole(h.role) === r)), ...(heroes.some((h) => knownRole(h.role) === null) ? [null] : [])];
  const legend = roles.map((role) => ({
    label: role ? chartText.role(role) : chartText.otherRole(),
    color: role === null ? OTHER_ROLE_COLOR : ROLE_COLORS[role]!,
  }));
  const { options, plugins } = frame(spec.title, chartText.topHeroes(heroes.length, total), legend);
  return {
    type: 'bar',
    data: {
      labels: heroes.map((h) => h.name),
      datasets: [
        {
          label: chartText.playTimeAxis(),
          data: heroes.map((h) => h.playTimeSeconds / perUnit),
          backgroundColor: colors,
          borderRadius: 6,
          borderSkipped: 'start',
          // Thick enough for a label inside.
          barPercentage: 0.86,
          maxBarThickness: 40,
          categoryPercentage: 1,
        },
      ],
    },
    options: {
      ...options,
      indexAxis: 'y',
      scales: {
        x: {
          type: 'linear',
          beginAtZero: true,
          grid: { color: COLORS.grid, drawTicks: false },
          border: { display: false },
          ticks: valueTicks((value) => durationTick(value, unit)),
        },
        y: {
          type: 'category',
          grid: { display: false },
          border: { color: COLORS.axis },
          ticks: {
            color: COLORS.heading,
            // Each name at its own size: only a name too wide for its line is set smaller.
            font: (c) => ({ size: names[c.index]?.size ?? FONT.label, weight: 600 }),
            padding: 8,
            autoSkip: false,
            callback: (_value, index) => names[index]?.label ?? '',
          },
        },
      },
    },
    plugins: [...(plugins as Plugin<'bar'>[]), barLabelsPlugin(heroes.map(heroBarLabel))],
  };
}

/**
 * Writes each bar's label at its end: inside in dark text when the bar is long and thick enough, else
 * just beyond it in light text (one of the two always fits: a label is narrower than half the plot).
 */
function barLabelsPlugin(labels: string[]): Plugin<'bar'> {
  return {
    id: 'rivalsBarLabels',
    afterDatasetsDraw(chart) {
      const { ctx, chartArea: area } = chart;
      const bars = chart.getDatasetMeta(0).data;
      ctx.save();
      ctx.font = font(FONT.label, 600);
      ctx.textBaseline = 'middle';
      bars.forEach((bar, i) => {
        const text = labels[i];
        if (!text) return;
        const { x, y, base, height } = bar.getProps(['x', 'y', 'base', 'height'], true) as { x: number; y: number; base: number; height: number };
        const width: number = ctx.measureText(text).width;
        if (x - base >= width + 24 && height >= FONT.label) {
          ctx.textAlign = 'right';
          ctx.fillStyle = COLORS.labelBackground;
          ctx.fillText(text, x - 12, y + 1);
        } else {
          ctx.textAlign = 'left';
          ctx.fillStyle = COLORS.text;
          ctx.fillText(text, Math.min(x + 10, area.right - width), y + 1);
        }
      });
      ctx.restore();
    },
  };
}

/**
 * Tells `report` where the chart drew each hero's name (the y axis's labels as chart.js laid them out): `onBox` of each
 * name's box, `onCut` of a name not drawn whole (its lines, joined, are not the spec's name) or not wholly on the canvas.
 */
export function reportHeroNames(chart: Chart, spec: HeroPerformanceChart, report: CardReport): void {
  const heroes = topHeroes(spec.heroes);
  const scale = chart.scales['y'];
  if (!scale) return;
  const { ctx } = chart;
  ctx.save();
  scale.getLabelItems().forEach((item, i) => {
    const hero = heroes[i];
    if (!hero) return;
    const field = `heroes[${spec.heroes.indexOf(hero)}].name`;
    const lines = Array.isArray(item.label) ? item.label : [item.label];
    // As chart.js draws them: each line middled on its place, a line height apart (resolved to px by its `toFont`).
    ctx.font = item.font.string;
    ctx.textBaseline = 'middle';
    const [x, y] = item.options.translation ?? [0, 0];
    const lineHeight = Number(item.font.lineHeight);
    const measured = lines.map((line, l) => ({ m: ctx.measureText(line), middle: y + item.textOffset + l * lineHeight }));
    const w = Math.max(0, ...measured.map(({ m }) => m.width as number));
    const top = Math.min(...measured.map(({ m, middle }) => middle - (m.actualBoundingBoxAscent as number)));
    const bottom = Math.max(...measured.map(({ m, middle }) => middle + (m.actualBoundingBoxDescent as number)));
    const align = item.options.textAlign ?? 'left';
    const left = align === 'right' || align === 'end' ? x - w : align === 'center' ? x - w / 2 : x;
    report.onBox?.({ field, kind: 'text', box: { x: left, y: top, w, h: bottom - top } });
    const shown = lines.join(' ');
    if (shown !== hero.name.trim().replace(/\s+/g, ' ') || left < 0 || left + w > chart.width) report.onCut?.({ field, text: hero.name, shown });
  });
  ctx.restore();
}
