/**
 * The top of every chart, drawn by us rather than by chart.js's title, subtitle and legend plugins so
 * the legend can share the subtitle's row when it fits (on a 450 px tall image every row counts):
 *
 *   Title (SemiBold 30 px)
 *   Subtitle (muted 24 px)                      ● Legend  ● items
 *
 * When the legend does not fit beside the subtitle it takes rows of its own, right-aligned (at most
 * {@link MAX_LEGEND_ROWS}: the last items are kept, as they are the latest seasons).
 */
import { createCanvas } from '@napi-rs/canvas';
import type { Plugin } from 'chart.js';
import { cacheTextWidths, type Ctx } from './canvas-kit.js';
import { SHORT_HERO_NAMES } from './strings.js';
import { COLORS, FONT, SIZE, font } from './theme.js';

/** An entry of the legend: a round swatch and its label. */
export interface LegendItem {
  label: string;
  color: string;
}

/** Where the header's parts go, in canvas pixels; `height` is where the plot may start. */
export interface HeaderLayout {
  title: string;
  subtitle: string;
  /** The legend's rows, top first. */
  legend: LegendItem[][];
  /** Middle y of the title, the subtitle and the legend's first row. */
  titleY: number;
  subtitleY: number;
  legendY: number;
  height: number;
}

/** Left and right margin of the header, in pixels. */
export const MARGIN = 16;
const SWATCH_RADIUS = 7;
const SWATCH_GAP = 7;
const ITEM_GAP = 20;
/** Least room between the subtitle and a legend beside it, in pixels. */
const BESIDE_GAP = 28;
/** Rows' heights: a little over the font size. */
const TITLE_ROW = 38;
const ROW = 30;
/** Room between the header and the plot, in pixels. */
const BELOW = 10;
/** Most rows the legend may take below the subtitle. */
export const MAX_LEGEND_ROWS = 2;

// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- Ctx is `any` without the DOM lib
let scratch: Ctx | undefined;

/** The width in pixels of `text` in the canvas font `fontSpec`, measured on a 1 × 1 scratch canvas (fonts must be registered). */
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

/** `text` cut with an ellipsis to fit `maxWidth` pixels in `fontSpec`. */
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

/**
 * A hero's name for a chart label at most `maxWidth` pixels wide in `fontSpec`: the full name when
 * it fits (and `preferShort` is false), else its short form ({@link SHORT_HERO_NAMES}: "Jeff",
 * "C&D"), else the name cut with an ellipsis.
 */
export function fitHeroName(name: string, fontSpec: string, maxWidth: number, preferShort = false): string {
  const short = SHORT_HERO_NAMES[name.trim().toLowerCase()];
  if (!preferShort || !short) {
    if (textWidth(name, fontSpec) <= maxWidth) return name;
  }
  return fitText(short ?? name, fontSpec, maxWidth);
}

/** The width of a legend row, in pixels. */
function rowWidth(items: LegendItem[], fontSpec: string): number {
  return items.reduce((sum, item, i) => sum + (i > 0 ? ITEM_GAP : 0) + SWATCH_RADIUS * 2 + SWATCH_GAP + textWidth(item.label, fontSpec), 0);
}

/** Legend items in rows of at most `width` pixels, in order; past {@link MAX_LEGEND_ROWS} rows the first items are left out. */
function legendRows(items: LegendItem[], fontSpec: string, width: number): LegendItem[][] {
  const rows: LegendItem[][] = [];
  // Filled from the last item back, so what is left out is the oldest.
  for (const item of [...items].reverse()) {
    const row = rows.at(-1);
    if (row && rowWidth([item, ...row], fontSpec) <= width) row.unshift(item);
    else if (rows.length < MAX_LEGEND_ROWS) rows.push([item]);
    else break;
  }
  return rows.reverse();
}

/**
 * Lays out a header: the title (cut to the width), the subtitle, and the legend beside the subtitle
 * when it fits there on one row, else on rows of its own (right-aligned). Each legend label is cut to
 * a third of the width. An empty title or subtitle takes no row.
 */
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

/** Draws a laid-out header on `ctx`. */
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

/** A chart.js plugin that draws the header after the chart. */
export function headerPlugin(layout: HeaderLayout): Plugin {
  return {
    id: 'rivalsHeader',
    afterDraw(chart) {
      drawHeader(chart.ctx, layout);
    },
  };
}
