/**
 * Draws a chart spec to a PNG with chart.js on an @napi-rs/canvas canvas. CPU-bound (tens of
 * milliseconds): the bot calls it only inside the chart worker (src/charts/worker.ts), through the
 * pool of src/charts/renderer.ts, never on its main event loop.
 */
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
import { heroPerformanceConfig } from './heroes.js';
import { metaScatterConfig } from './meta.js';
import { compareRankConfig, rankHistoryConfig } from './rank.js';
import { parseChartSpec, type ChartSpec } from './specs.js';
import { chartText } from './strings.js';
import { COLORS, FONT, FONT_STACK, LIMITS, SIZE, font } from './theme.js';

let ready = false;
let canvas: Canvas | undefined;

/**
 * The one canvas of this thread, drawn over by every chart. A canvas's pixels and Skia surface live
 * outside V8's heap, so canvases made per chart pile up until a garbage collection V8 sees no reason
 * to run (measured: 100 charts took a worker from about 100 MB to 370 MB of RSS). Safe because
 * `drawChart` draws and encodes without yielding, and every chart paints its whole background first.
 */
function sharedCanvas(): Canvas {
  if (!canvas) {
    canvas = createCanvas(SIZE.width, SIZE.height);
    cacheTextWidths(canvas.getContext('2d'));
  }
  return canvas;
}

/** Once per thread: Inter, the chart.js parts the charts use, and chart.js defaults for the theme. */
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
 * The chart.js configuration `drawChart` draws for `spec` (any value: checked with {@link parseChartSpec}),
 * with the words it writes itself (axis titles, legends) in the spec's `locale`, whatever the current
 * one; null when it has nothing to draw. The header's subtitle is written while the chart is drawn.
 * @throws {ChartSpecError} when `spec` is not a valid chart spec.
 */
export function chartConfig(spec: ChartSpec): ChartConfiguration<'line' | 'bar' | 'scatter'> | null {
  const valid = parseChartSpec(spec);
  return runInLocale(valid.locale ?? 'en', () => configOf(valid));
}

/** The chart.js configuration of a spec in the current locale; null when it has nothing to draw. */
function configOf(spec: ChartSpec): ChartConfiguration<'line' | 'bar' | 'scatter'> | null {
  switch (spec.kind) {
    case 'rank-history':
      return rankHistoryConfig(spec);
    case 'compare-rank':
      return compareRankConfig(spec);
    case 'hero-performance':
      return heroPerformanceConfig(spec);
    case 'meta-scatter':
      return metaScatterConfig(spec);
  }
}

/**
 * Draws `spec` as a PNG of {@link SIZE} (800 × 450 px): dark theme, Inter (Japanese text in Noto Sans
 * JP, registered the first time a spec needs it), title at the top left.
 * A spec with nothing to draw (no points, no heroes) gives a chart that says so, under its title.
 * The words the chart adds (src/charts/strings.ts) are in the spec's `locale`, English without one.
 * @param spec any value: it is checked with {@link parseChartSpec} first.
 * @returns the PNG's bytes (at most 1,600 × 900 px and 8 MB, {@link LIMITS}).
 * @throws {ChartSpecError} when `spec` is not a valid chart spec.
 * @throws Error when the PNG breaks the limits (a bug: the sizes are fixed), or when a font file is
 *   missing (src/charts/fonts.ts).
 */
export async function drawChart(spec: ChartSpec): Promise<Buffer> {
  const valid = parseChartSpec(spec);
  // chart.js calls back into the plugins (subtitles, labels) while it draws, all synchronously: the
  // whole draw runs in the spec's locale.
  return runInLocale(valid.locale ?? 'en', () => drawValid(valid));
}

/** {@link drawChart} of a checked spec, in the current locale. */
function drawValid(valid: ChartSpec): Buffer {
  setUp();
  // Before anything is measured: text widths are cached by font string and text (cacheTextWidths).
  if (needsJapaneseFont(valid)) registerJapaneseFonts();
  const canvas = sharedCanvas();
  // Whatever the last chart left (a transform, a clip, a save without its restore) goes. Text is
  // shaped in the spec's language whatever the host's, so charts look the same on every machine.
  const ctx = canvas.getContext('2d');
  ctx.reset();
  ctx.lang = valid.locale ?? 'en';
  const config = configOf(valid);
  let png: Buffer;
  if (config) {
    const chart = new Chart(canvas, config);
    try {
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

/**
 * The canvas as PNG bytes, encoded on the calling thread. The async `encode` would run on libuv's
 * thread pool, which the process shares with the main thread's file, DNS and zlib work; the chart
 * worker has nothing else to do meanwhile, and encoding here is also faster (about 43 ms against 55 ms
 * measured at 1,000 × 560, the size the charts had then).
 */
function encodePng(canvas: Canvas): Buffer {
  return canvas.encodeSync('png');
}

/** The chart of a spec with nothing to draw: background, the header as charts have it, the message in a faint empty frame. */
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
