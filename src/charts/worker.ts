/**
 * The chart worker: the task function a piscina pool (src/charts/renderer.ts) runs in a worker thread.
 * Loading it registers Inter once for the thread; each task draws one spec with `drawChart`, which
 * registers Noto Sans JP the first time a spec has Japanese text (src/charts/fonts.ts).
 *
 * It is an entry point of its own: `dist/chart-worker.js` in the build (scripts/build.mjs), this file
 * under tsx and vitest. Only this thread loads chart.js and the canvas addon.
 */
import { move } from 'piscina';
import { drawChart } from './draw.js';
import { registerChartFonts } from './fonts.js';
import type { ChartSpec } from './specs.js';

registerChartFonts();

/**
 * Draws `spec` and hands the PNG to the calling thread without a copy (its memory is transferred).
 * @returns the PNG's bytes as a Uint8Array (the pool's caller turns it back into a Buffer).
 * @throws {ChartSpecError} when `spec` is invalid (the caller checks first, so only on a bug).
 */
export default async function renderChart(spec: ChartSpec): Promise<Uint8Array> {
  const png = await drawChart(spec);
  // The PNG is the addon's own memory, which postMessage copies rather than hands over: copy it once
  // here into an ordinary array, which is then moved without a second copy.
  const bytes = new Uint8Array(png.byteLength);
  bytes.set(png);
  return move(bytes) as Uint8Array;
}
