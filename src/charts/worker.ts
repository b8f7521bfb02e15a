/** The piscina worker's task (an entry point of its own in the build): only this thread loads chart.js and the canvas addon. */
import { move } from 'piscina';
import { drawChart } from './draw.js';
import { registerChartFonts } from './fonts.js';
import type { ChartSpec } from './specs.js';

registerChartFonts();

/**
 * @returns the PNG's bytes, transferred rather than copied.
 * @throws {ChartSpecError} when `spec` is invalid (the caller checks first, so only on a bug).
 */
export default async function renderChart(spec: ChartSpec): Promise<Uint8Array> {
  const png = await drawChart(spec);
  // postMessage cannot transfer the addon's own memory: copy once into an array that can be moved.
  const bytes = new Uint8Array(png.byteLength);
  bytes.set(png);
  return move(bytes) as Uint8Array;
}

/**
 * Loads what a first render needs (the canvas addon, fonts, chart.js, the encoder) by drawing the no-data chart and
 * throwing it away, so that a command's first chart after a start or an idle exit does not wait for it (piscina's
 * `name: 'warm'`).
 */
export async function warm(): Promise<void> {
  await drawChart({ kind: 'hero-performance', title: '', heroes: [] });
}
