/**
 * The chart.js options every chart shares: fixed size with no animation or events (server-side,
 * one frame), and room at the top for the header (src/charts/header.ts), which draws the title,
 * subtitle and legend itself.
 */
import type { Plugin } from 'chart.js';
import { backgroundPlugin } from './canvas-kit.js';
import { headerLayout, headerPlugin, MARGIN, type LegendItem } from './header.js';

/** Padding around the plot, in pixels; `right` makes room for labels beside the plot. */
export interface Padding {
  right?: number;
  bottom?: number;
  left?: number;
}

/**
 * Options for one static frame: `responsive: false` (the canvas's own size), no animation, no events,
 * device pixel ratio 1 (the canvas is already about twice Discord's display size), the plot below the
 * header; and the plugins that paint the background and draw the header. `header` is the layout the
 * header plugin draws when the chart is done: a plugin may change its subtitle before then (no wider).
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
