/**
 * Small drawing helpers shared by the chart plugins: the dark background, labels in rounded boxes,
 * and rectangles for label placement. Canvas 2D calls only (the context of @napi-rs/canvas).
 */
import type { Chart, Plugin } from 'chart.js';
import { COLORS, FONT } from './theme.js';

/** The 2D context chart.js hands to plugins. */
export type Ctx = Chart['ctx'];

/** An axis-aligned rectangle in canvas pixels. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The area two rectangles share, in square pixels (0 when apart). */
export function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The part of `r` outside `bounds`, in square pixels. */
export function outside(r: Rect, bounds: Rect): number {
  return r.w * r.h - overlap(r, bounds);
}

/** Most text widths {@link cacheTextWidths} keeps per context before it starts again. */
const MAX_CACHED_WIDTHS = 4_096;

/**
 * Makes `ctx.measureText` remember widths by font and text. chart.js and our plugins measure the
 * same labels on every chart, and each call of @napi-rs/canvas 1.1.1's `measureText` keeps about
 * 300 bytes of native memory for as long as the thread lives (measured on this machine). The cached
 * answer has `width` only, the one field chart.js and these charts read.
 */
export function cacheTextWidths(ctx: Ctx): void {
  const measure = ctx.measureText.bind(ctx) as (text: string) => { width: number };
  const widths = new Map<string, number>();
  ctx.measureText = (text: string) => {
    const key = `${ctx.font}\u0000${text}`;
    let width = widths.get(key);
    if (width === undefined) {
      if (widths.size >= MAX_CACHED_WIDTHS) widths.clear();
      width = measure(text).width;
      widths.set(key, width);
    }
    return { width } as ReturnType<Ctx['measureText']>;
  };
}

/** Fills the whole canvas with Discord's embed background before chart.js draws (a PNG is transparent otherwise). */
export const backgroundPlugin: Plugin = {
  id: 'rivalsBackground',
  beforeDraw(chart) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
};

/** Padding inside a label box, in pixels. */
const BOX_PAD = { x: 10, y: 5 };

/** The size of `text` in a box drawn by {@link drawLabelBox} with the context's current font. */
export function labelBoxSize(ctx: Ctx, text: string, size: number = FONT.label): { w: number; h: number } {
  const width: number = ctx.measureText(text).width;
  return { w: width + BOX_PAD.x * 2, h: size + BOX_PAD.y * 2 };
}

/**
 * Draws `text` in a rounded box whose top-left corner is `(x, y)`, in the context's current font
 * (set it first), with `color` for the text and border.
 */
export function drawLabelBox(ctx: Ctx, text: string, x: number, y: number, color: string, size: number = FONT.label): void {
  const { w, h } = labelBoxSize(ctx, text, size);
  ctx.save();
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, 6);
  ctx.fillStyle = COLORS.labelBackground;
  ctx.globalAlpha = 0.92;
  ctx.fill();
  ctx.globalAlpha = 1;
  ctx.lineWidth = 2;
  ctx.strokeStyle = color;
  ctx.stroke();
  ctx.fillStyle = color;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, x + BOX_PAD.x, y + h / 2 + 1);
  ctx.restore();
}

/** Draws a filled dot with a ring of the background colour around it, so it reads on any line or band. */
export function drawDot(ctx: Ctx, x: number, y: number, radius: number, color: string): void {
  ctx.save();
  ctx.beginPath();
  ctx.arc(x, y, radius + 3, 0, Math.PI * 2);
  ctx.fillStyle = COLORS.background;
  ctx.fill();
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, Math.PI * 2);
  ctx.fillStyle = color;
  ctx.fill();
  ctx.restore();
}
