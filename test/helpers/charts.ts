/** A stand-in for the chart renderer (src/charts/renderer.ts) in handler tests: no worker thread, no drawing. */
import type { ChartRenderer } from '../../src/charts/renderer.js';
import { parseChartSpec, type ChartSpec } from '../../src/charts/specs.js';

/**
 * A chart renderer that checks each spec as the real one does (`parseChartSpec`, which throws on a
 * spec the worker would refuse), keeps it in `specs`, and answers the eight bytes of a PNG signature.
 */
export function recordingCharts(): ChartRenderer & { specs: ChartSpec[] } {
  const specs: ChartSpec[] = [];
  return {
    specs,
    threads: 0,
    close: async () => {},
    render: async (spec) => {
      specs.push(parseChartSpec(spec));
      return Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    },
  };
}
