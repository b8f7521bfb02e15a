/** The hero-performance chart: top heroes by play time as bars, coloured by role, labelled with win rate and KDA. */
import type { ChartConfiguration, Plugin } from 'chart.js';
import { durationTick, kdaText, percentText, playTimeUnit } from './format.js';
import { frame } from './options.js';
import { HERO_PERFORMANCE_TOP, type HeroPerformance, type HeroPerformanceChart } from './specs.js';
import { chartText } from './strings.js';
import { fitHeroName } from './header.js';
import { COLORS, FONT, OTHER_ROLE_COLOR, ROLE_COLORS, ROLE_ORDER, SIZE, font, knownRole, roleColor } from './theme.js';

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
  // Names wider than a quarter of the chart take their short form or are cut, so the bars keep their room.
  const names = heroes.map((h) => fitHeroName(h.name, font(FONT.label, 600), SIZE.width / 4));
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
          ticks: {
            color: COLORS.text,
            font: { size: FONT.label },
            padding: 8,
            maxRotation: 0,
            maxTicksLimit: 6,
            callback: (value) => durationTick(Number(value), unit),
          },
        },
        y: {
          type: 'category',
          grid: { display: false },
          border: { color: COLORS.axis },
          ticks: {
            color: COLORS.heading,
            font: { size: FONT.label, weight: 600 },
            padding: 8,
            autoSkip: false,
            callback: (_value, index) => names[index] ?? '',
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
