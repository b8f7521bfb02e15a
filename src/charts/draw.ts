/** Draws a chart spec to a PNG with chart.js on @napi-rs/canvas. CPU-bound: only ever called in the chart worker. */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  ScatterController,
  type ChartConfiguration,
} from 'chart.js';
import { runInLocale } from '../i18n/index.js';
import { cacheTextWidths, type Ctx } from './canvas-kit.js';
import { needsJapaneseFont, registerChartFonts, registerJapaneseFonts } from './fonts.js';
import { drawHeader, headerLayout, MARGIN } from './header.js';
import { heroPerformanceConfig, reportHeroNames } from './heroes.js';
import { metaScatterConfig } from './meta.js';
import { compareRankConfig, ladderRankConfig, rankHistoryConfig } from './rank.js';
import { drawLadderCard, drawMatchCard, drawProfileCard, drawTableCard, matchCardLayout, type CardReport } from './cards.js';
import { parseChartSpec, type ChartSpec } from './specs.js';
import { chartText } from './words.js';
import { COLORS, FONT, FONT_STACK, LIMITS, SIZE, font } from './theme.js';

let ready = false;
let canvas: Canvas | undefined;

/**
 * One canvas per thread: canvas memory lives outside V8's heap, so per-chart canvases pile up unseen by the
 * GC. Safe because drawing never yields and every chart paints its whole background first.
 */
function sharedCanvas(): Canvas {
  if (!canvas) {
    canvas = createCanvas(SIZE.width, SIZE.height);
    cacheTextWidths(canvas.getContext('2d'));
  }
  return canvas;
}

function setUp(): void {
  if (ready) return;
  registerChartFonts();
  Chart.register(LineController, LineElement, PointElement, BarController, BarElement, ScatterController, LinearScale, CategoryScale);
  Chart.defaults.font.family = FONT_STACK;
  Chart.defaults.font.size = FONT.label;
  Chart.defaults.color = COLORS.text;
  Chart.defaults.borderColor = COLORS.grid;
  ready = true;
}

/**
 * In the spec's `locale`; null when there is nothing to draw. The subtitle is only written while drawing.
 * @throws {ChartSpecError} when `spec` is not a valid chart spec.
 */
export function chartConfig(spec: ChartSpec): ChartConfiguration<'line' | 'bar' | 'scatter'> | null {
  const valid = parseChartSpec(spec);
  return runInLocale(valid.locale ?? 'en', () => configOf(valid));
}

function configOf(spec: ChartSpec): ChartConfiguration<'line' | 'bar' | 'scatter'> | null {
  switch (spec.kind) {
    case 'profile-card':
    case 'match-card':
    case 'ladder-card':
    case 'table-card':
      return null;
    case 'rank-history':
      return rankHistoryConfig(spec);
    case 'compare-rank':
      return compareRankConfig(spec);
    case 'ladder-rank':
      return ladderRankConfig(spec);
    case 'hero-performance':
      return heroPerformanceConfig(spec);
    case 'meta-scatter':
      return metaScatterConfig(spec);
  }
}

/** Pixels: {@link SIZE}, but for a match card with more rows than fit in it (src/charts/cards.ts `matchCardLayout`). */
export function chartSize(spec: ChartSpec): { width: number; height: number } {
  return spec.kind === 'match-card' ? { width: SIZE.width, height: matchCardLayout(spec).height } : SIZE;
}

/**
 * A PNG of {@link chartSize}; a spec with nothing to draw gives a chart that says so.
 * @param spec any value: it is checked with {@link parseChartSpec} first.
 * @param report.onCut told of each figure, tier or hero name a card or the heroes chart had to cut (src/charts/cards.ts,
 * heroes.ts): none should be.
 * @param report.onBox told where each part of a card, or each hero's name on the heroes chart, went (src/charts/cards.ts
 * `CardBox`), for tests of their layout.
 * @returns the PNG's bytes, within {@link LIMITS}.
 * @throws {ChartSpecError} when `spec` is not a valid chart spec.
 * @throws Error when the PNG breaks the limits (a bug), or a font file is missing.
 */
export async function drawChart(spec: ChartSpec, report: CardReport = {}): Promise<Buffer> {
  const valid = parseChartSpec(spec);
  // Plugins write text from chart.js callbacks, synchronously: the whole draw runs in the locale.
  return runInLocale(valid.locale ?? 'en', () => drawValid(valid, report));
}

async function drawValid(valid: ChartSpec, report: CardReport): Promise<Buffer> {
  setUp();
  // Before anything is measured: text widths are cached by font string and text (cacheTextWidths).
  if (needsJapaneseFont(valid)) registerJapaneseFonts();
  const canvas = sharedCanvas();
  // The shared canvas takes each chart's size (resizing clears it); the context and its width cache stay.
  const { width, height } = chartSize(valid);
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  // Clear what the last chart left (transform, clip); shape text in the spec's language, not the host's.
  const ctx = canvas.getContext('2d');
  ctx.reset();
  ctx.lang = valid.locale ?? 'en';
  const config = configOf(valid);
  let png: Buffer;
  if (valid.kind === 'profile-card' || valid.kind === 'match-card' || valid.kind === 'ladder-card' || valid.kind === 'table-card') {
    // Cards draw themselves; nothing else draws on the shared canvas meanwhile (one render at a time per thread).
    if (valid.kind === 'ladder-card') drawLadderCard(ctx, valid, report);
    else if (valid.kind === 'table-card') drawTableCard(ctx, valid, report);
    else await (valid.kind === 'profile-card' ? drawProfileCard(ctx, valid, report) : drawMatchCard(ctx, valid, report));
    png = encodePng(canvas);
  } else if (config) {
    const chart = new Chart(canvas, config);
    try {
      if (valid.kind === 'hero-performance') reportHeroNames(chart, valid, report);
      png = encodePng(canvas);
    } finally {
      chart.destroy();
    }
  } else {
    drawNoData(ctx, valid.title);
    png = encodePng(canvas);
  }
  if (canvas.width > LIMITS.width || canvas.height > LIMITS.height || png.byteLength >= LIMITS.bytes) {
    throw new Error(`chart ${valid.kind} is ${canvas.width}×${canvas.height} px, ${png.byteLength} bytes: over the limits`);
  }
  return png;
}

/** Sync: the async `encode` would take libuv's pool, shared with the main thread's I/O, and the worker is idle anyway. */
function encodePng(canvas: Canvas): Buffer {
  return canvas.encodeSync('png');
}

function drawNoData(ctx: Ctx, title: string): void {
  const { width, height } = SIZE;
  ctx.fillStyle = COLORS.background;
  ctx.fillRect(0, 0, width, height);
  const header = headerLayout(title, '', []);
  drawHeader(ctx, header);
  const frame = { x: MARGIN + 20, y: header.height + 10, w: width - 2 * (MARGIN + 20), h: height - header.height - 40 };
  ctx.strokeStyle = COLORS.axis;
  ctx.lineWidth = 2;
  ctx.setLineDash([10, 10]);
  ctx.beginPath();
  ctx.roundRect(frame.x, frame.y, frame.w, frame.h, 12);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = COLORS.muted;
  ctx.font = font(FONT.message, 600);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(chartText.noData(), width / 2, frame.y + frame.h / 2);
}
