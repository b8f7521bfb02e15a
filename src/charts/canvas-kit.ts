/** Drawing helpers shared by the chart plugins; canvas 2D calls only. */
import type { Chart, Plugin } from 'chart.js';
import { COLORS, FONT } from './theme.js';

export type Ctx = Chart['ctx'];

/** Canvas pixels. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Square pixels. */
export function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Square pixels. */
export function outside(r: Rect, bounds: Rect): number {
  return r.w * r.h - overlap(r, bounds);
}

const MAX_CACHED_WIDTHS = 4_096;

/** The fields of a text's measure that anything reads: its width, and how far its glyphs reach above and below the baseline set. */
type TextMeasure = Pick<ReturnType<Ctx['measureText']>, 'width' | 'actualBoundingBoxAscent' | 'actualBoundingBoxDescent'>;

/**
 * Caches `measureText` answers: each native call keeps some memory for the thread's life, and the same labels
 * are measured on every chart. The answer has `width` and the glyphs' `actualBoundingBoxAscent` and `…Descent` only,
 * the fields anything reads; they depend on the font and the text baseline, both part of the key.
 */
export function cacheTextWidths(ctx: Ctx): void {
  const measure = ctx.measureText.bind(ctx);
  const widths = new Map<string, TextMeasure>();
  ctx.measureText = (text: string) => {
    const key = `${ctx.font}\u0000${ctx.textBaseline}\u0000${text}`;
    let known = widths.get(key);
    if (known === undefined) {
      if (widths.size >= MAX_CACHED_WIDTHS) widths.clear();
      const m = measure(text);
      known = { width: m.width, actualBoundingBoxAscent: m.actualBoundingBoxAscent, actualBoundingBoxDescent: m.actualBoundingBoxDescent };
      widths.set(key, known);
    }
    return known as ReturnType<Ctx['measureText']>;
  };
}

/** A PNG is transparent otherwise. */
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

const BOX_PAD = { x: 10, y: 5 };

/** Pixels, in the context's current font. */
export function labelBoxSize(ctx: Ctx, text: string, size: number = FONT.label): { w: number; h: number } {
  const width: number = ctx.measureText(text).width;
  return { w: width + BOX_PAD.x * 2, h: size + BOX_PAD.y * 2 };
}

/** `(x, y)` is the top-left corner; set the font first. */
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

/** Ringed in the background colour, so it reads on any line or band. */
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
