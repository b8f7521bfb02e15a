/**
 * Every chart's title, subtitle and legend, drawn by us rather than chart.js so the legend can share the
 * subtitle's row: on a short image every row counts.
 */
import { createCanvas } from '@napi-rs/canvas';
import type { Plugin } from 'chart.js';
import { cacheTextWidths, type Ctx } from './canvas-kit.js';
import { SHORT_HERO_NAMES } from './words.js';
import { COLORS, FONT, SIZE, font } from './theme.js';

export interface LegendItem {
  label: string;
  color: string;
}

/** Canvas pixels; `*Y` are middles; `height` is where the plot may start. */
export interface HeaderLayout {
  title: string;
  subtitle: string;
  legend: LegendItem[][];
  titleY: number;
  subtitleY: number;
  legendY: number;
  height: number;
}

/** Pixels, as the sizes below. */
export const MARGIN = 16;
const SWATCH_RADIUS = 7;
const SWATCH_GAP = 7;
const ITEM_GAP = 20;
const BESIDE_GAP = 28;
const TITLE_ROW = 38;
const ROW = 30;
const BELOW = 10;
export const MAX_LEGEND_ROWS = 2;

// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- Ctx is `any` without the DOM lib
let scratch: Ctx | undefined;

/** Pixels, on a scratch canvas; fonts must be registered first. */
export function textWidth(text: string, fontSpec: string): number {
  if (!scratch) {
    const ctx = createCanvas(1, 1).getContext('2d');
    ctx.lang = 'en';
    scratch = ctx;
    cacheTextWidths(scratch);
  }
  scratch.font = fontSpec;
  return scratch.measureText(text).width;
}

export function fitText(text: string, fontSpec: string, maxWidth: number): string {
  if (textWidth(text, fontSpec) <= maxWidth) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(`${text.slice(0, mid).trimEnd()}…`, fontSpec) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}

/** The full name if it fits (unless `preferShort`), else its short form, else cut with an ellipsis. */
export function fitHeroName(name: string, fontSpec: string, maxWidth: number, preferShort = false): string {
  const short = SHORT_HERO_NAMES[name.trim().toLowerCase()];
  if (!preferShort || !short) {
    if (textWidth(name, fontSpec) <= maxWidth) return name;
  }
  return fitText(short ?? name, fontSpec, maxWidth);
}

function rowWidth(items: LegendItem[], fontSpec: string): number {
  return items.reduce((sum, item, i) => sum + (i > 0 ? ITEM_GAP : 0) + SWATCH_RADIUS * 2 + SWATCH_GAP + textWidth(item.label, fontSpec), 0);
}

function legendRows(items: LegendItem[], fontSpec: string, width: number): LegendItem[][] {
  const rows: LegendItem[][] = [];
  // From the last item back: what is left out is the oldest season.
  for (const item of [...items].reverse()) {
    const row = rows.at(-1);
    if (row && rowWidth([item, ...row], fontSpec) <= width) row.unshift(item);
    else if (rows.length < MAX_LEGEND_ROWS) rows.push([item]);
    else break;
  }
  return rows.reverse();
}

/** The legend goes beside the subtitle when it fits, else on right-aligned rows; an empty title takes no row. */
export function headerLayout(title: string, subtitle: string, legend: LegendItem[]): HeaderLayout {
  const width = SIZE.width - 2 * MARGIN;
  const labelFont = font(FONT.label);
  const fitted = fitText(title.trim(), font(FONT.title, 600), width);
  const items = legend.map((item) => ({ ...item, label: fitText(item.label, labelFont, width / 3) }));
  let y = MARGIN;
  const titleY = y + TITLE_ROW / 2;
  if (fitted) y += TITLE_ROW;
  const beside = items.length > 0 && (!subtitle || textWidth(subtitle, font(FONT.subtitle)) + BESIDE_GAP + rowWidth(items, labelFont) <= width);
  const subtitleY = y + ROW / 2;
  if (subtitle || beside) y += ROW;
  const rows = beside ? [items] : legendRows(items, labelFont, width);
  const legendY = beside ? subtitleY : y + ROW / 2;
  if (!beside) y += rows.length * ROW;
  return { title: fitted, subtitle: fitText(subtitle, font(FONT.subtitle), width), legend: rows, titleY, subtitleY, legendY, height: y + BELOW };
}

export function drawHeader(ctx: Ctx, layout: HeaderLayout): void {
  ctx.save();
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.fillStyle = COLORS.heading;
  ctx.font = font(FONT.title, 600);
  if (layout.title) ctx.fillText(layout.title, MARGIN, layout.titleY);
  ctx.fillStyle = COLORS.muted;
  ctx.font = font(FONT.subtitle);
  if (layout.subtitle) ctx.fillText(layout.subtitle, MARGIN, layout.subtitleY);
  ctx.font = font(FONT.label);
  layout.legend.forEach((row, r) => {
    const y = layout.legendY + r * ROW;
    let x = SIZE.width - MARGIN - rowWidth(row, ctx.font);
    for (const item of row) {
      ctx.beginPath();
      ctx.arc(x + SWATCH_RADIUS, y, SWATCH_RADIUS, 0, Math.PI * 2);
      ctx.fillStyle = item.color;
      ctx.fill();
      x += SWATCH_RADIUS * 2 + SWATCH_GAP;
      ctx.fillStyle = COLORS.text;
      ctx.fillText(item.label, x, y + 1);
      const width: number = ctx.measureText(item.label).width;
      x += width + ITEM_GAP;
    }
  });
  ctx.restore();
}

export function headerPlugin(layout: HeaderLayout): Plugin {
  return {
    id: 'rivalsHeader',
    afterDraw(chart) {
      drawHeader(chart.ctx, layout);
    },
  };
}
