/** The chart.js options every chart shares: one static server-side frame, with room at the top for the header. */
import type { Plugin } from 'chart.js';
import { backgroundPlugin } from './canvas-kit.js';
import { headerLayout, headerPlugin, MARGIN, type LegendItem } from './header.js';
import { COLORS, FONT } from './theme.js';

/** Pixels. */
export interface Padding {
  right?: number;
  bottom?: number;
  left?: number;
}

/**
 * Device pixel ratio 1, as the canvas is already twice Discord's display size. `header` is drawn when the
 * chart is done: a plugin may change its subtitle before then, no wider.
 */
export function frame(title: string, subtitle: string, legend: LegendItem[], padding: Padding = {}) {
  const header = headerLayout(title, subtitle, legend);
  const options = {
    responsive: false,
    maintainAspectRatio: false,
    animation: false as const,
    events: [],
    devicePixelRatio: 1,
    layout: { padding: { top: header.height, right: MARGIN + 8, bottom: 8, left: MARGIN - 4, ...padding } },
  };
  const plugins: Plugin[] = [backgroundPlugin, headerPlugin(header)];
  return { options, plugins, header };
}

/** The ticks of a value axis: at most 6, level, each labelled by `label` (the value in the axis's unit). */
export function valueTicks(label: (value: number) => string) {
  return {
    color: COLORS.text,
    font: { size: FONT.label },
    padding: 8,
    maxRotation: 0,
    maxTicksLimit: 6,
    callback: (value: number | string) => label(Number(value)),
  };
}
