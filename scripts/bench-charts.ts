/**
 * `npm run bench:charts` (tsx scripts/bench-charts.ts [--runs 20] [--burst 100] [--threads 1]):
 * what the chart renderer costs and whether it keeps the main event loop free (issue 13).
 *
 * 1. Render time through the pool (src/charts/renderer.ts), per chart kind, after a warm-up: min,
 *    median, p99 and max over `--runs` renders one after another, in milliseconds from `render()` to
 *    the PNG on the main thread.
 * 2. A burst: `--burst` charts (the golden specs in turn) asked for at once while
 *    `perf_hooks.monitorEventLoopDelay` watches the main event loop: its p50, p99 and max delay in
 *    milliseconds (goal: p99 under 20 ms), the burst's wall time, and the process's RSS.
 * 3. The baseline, in the same run: the same burst drawn with `drawChart` on the main thread, as a
 *    bot without the pool would.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { drawChart } from '../src/charts/draw.js';
import { createChartRenderer } from '../src/charts/renderer.js';
import type { ChartSpec } from '../src/charts/specs.js';
import { goldenSpecs } from '../test/charts/sample-specs.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    burst: { type: 'string', default: '100' },
    threads: { type: 'string', default: '1' },
  },
});
const runs = Number(values.runs);
const burst = Number(values.burst);
const threads = Number(values.threads);

const specs = goldenSpecs();
const kinds = Object.entries(specs);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (n: number) => n.toFixed(1).padStart(7);

/** The value at quantile `q` (0..1) of sorted `xs`. */
function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** Runs `work` while watching the event loop; the loop delay's p50, p99 and max in ms, and the wall time. */
async function watchLoop(work: () => Promise<unknown>): Promise<{ p50: number; p99: number; max: number; wall: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const started = performance.now();
  await work();
  const wall = performance.now() - started;
  histogram.disable();
  return { p50: histogram.percentile(50) / 1e6, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6, wall };
}

const burstSpecs: ChartSpec[] = Array.from({ length: burst }, (_, i) => kinds[i % kinds.length]![1]);

const rssIdle = process.memoryUsage().rss;
const renderer = createChartRenderer({ maxThreads: threads });
try {
  process.stdout.write(`chart renderer benchmark: ${runs} runs per kind, burst of ${burst}, ${threads} worker thread(s), node ${process.version}\n\n`);
  const coldStart = performance.now();
  await renderer.render(specs['no-data']!);
  process.stdout.write(`first render (thread start, fonts, chart.js load): ${(performance.now() - coldStart).toFixed(0)} ms\n\n`);
  for (const [, spec] of kinds) await renderer.render(spec);

  process.stdout.write(`render time through the pool, ms     min  median     p99     max   PNG bytes\n`);
  for (const [name, spec] of kinds) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      bytes = (await renderer.render(spec)).byteLength;
      times.push(performance.now() - t);
    }
    process.stdout.write(`  ${name.padEnd(30)} ${ms(Math.min(...times))} ${ms(quantile(times, 0.5))} ${ms(quantile(times, 0.99))} ${ms(Math.max(...times))}   ${bytes}\n`);
  }

  const pooled = await watchLoop(() => Promise.all(burstSpecs.map((s) => renderer.render(s))));
  const rssPool = process.memoryUsage().rss;
  const inline = await watchLoop(async () => {
    for (const s of burstSpecs) await drawChart(s);
  });

  process.stdout.write(`\nmain event loop delay while ${burst} charts render, ms    p50     p99     max   wall ms   charts/s\n`);
  for (const [label, r] of [
    ['pool (the bot)', pooled],
    ['main thread (baseline)', inline],
  ] as const) {
    process.stdout.write(`  ${label.padEnd(44)} ${ms(r.p50)} ${ms(r.p99)} ${ms(r.max)} ${ms(r.wall).padStart(9)} ${ms((burst / r.wall) * 1000).padStart(10)}\n`);
  }
  process.stdout.write(`\ngoal: p99 loop delay under 20 ms with the pool: ${pooled.p99 < 20 ? 'met' : 'NOT met'} (${pooled.p99.toFixed(1)} ms)\n`);
  process.stdout.write(`RSS: ${mb(rssIdle)} before the pool, ${mb(rssPool)} after the pooled burst (with ${renderer.threads} thread(s) alive), ${mb(process.memoryUsage().rss)} after the baseline\n`);
} finally {
  await renderer.close();
}
