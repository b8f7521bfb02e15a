/**
 * `npm run bench:charts` (tsx scripts/bench-charts.ts [--runs 20] [--burst 100] [--threads 1] [--memory 1000]):
 * what the chart renderer costs and whether it keeps the main event loop free.
 *
 * 1. Render time through the pool (src/charts/renderer.ts), per chart kind, after a warm-up: min,
 *    median, p99 and max over `--runs` renders one after another, in milliseconds from `render()` to
 *    the PNG on the main thread.
 * 2. A burst: `--burst` charts (the golden specs in turn) asked for at once while
 *    `perf_hooks.monitorEventLoopDelay` watches the main event loop: its p50, p99 and max delay in
 *    milliseconds beyond the monitor's 5 ms sampling interval (goal: p99 under 20 ms), the burst's
 *    wall time, and the process's RSS.
 * 3. The baseline, in the same run: the same burst drawn with `drawChart` on the main thread, as a
 *    bot without the pool would, giving the event loop a turn between charts.
 * 4. Memory (`--memory 1000` charts; 0 skips it): the process's RSS every 100 charts drawn one after
 *    another, in a fresh child process each, with the renderer's thread renewal (every 100 renders,
 *    the default) and without it (the baseline).
 */
import { spawnSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
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
    memory: { type: 'string', default: '1000' },
    /** Internal: run only the memory measure, with this `recycleAfter`, and print its figures as JSON. */
    'memory-child': { type: 'string' },
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

/** The monitor's sampling interval, ms: its samples include it, so it is taken off the figures. */
const RESOLUTION = 5;

/** Runs `work` while watching the event loop; the loop delay's p50, p99 and max in ms, and the wall time. */
async function watchLoop(work: () => Promise<unknown>): Promise<{ p50: number; p99: number; max: number; wall: number }> {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION });
  histogram.enable();
  const started = performance.now();
  await work();
  const wall = performance.now() - started;
  histogram.disable();
  const delay = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION);
  return { p50: delay(histogram.percentile(50)), p99: delay(histogram.percentile(99)), max: delay(histogram.max), wall };
}

/** The memory measure of one configuration: RSS in MB before, every 100 charts, and after close. */
async function memoryChild(charts: number, recycleAfter: number): Promise<void> {
  const r = createChartRenderer({ recycleAfter });
  const rss = () => Math.round(process.memoryUsage().rss / 1048576);
  const out = { before: rss(), every100: [] as number[], afterClose: 0, threadsStarted: 0 };
  for (let i = 1; i <= charts; i++) {
    await r.render(kinds[i % kinds.length]![1]);
    if (i % 100 === 0) out.every100.push(rss());
  }
  out.threadsStarted = r.threadsStarted;
  await r.close();
  out.afterClose = rss();
  process.stdout.write(JSON.stringify(out));
}

if (values['memory-child']) {
  await memoryChild(Number(values.memory), Number(values['memory-child']));
  process.exit(0);
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
    process.stdout.write(
      `  ${name.padEnd(30)} ${ms(Math.min(...times))} ${ms(quantile(times, 0.5))} ${ms(quantile(times, 0.99))} ${ms(Math.max(...times))}   ${bytes}\n`,
    );
  }

  const pooled = await watchLoop(() => Promise.all(burstSpecs.map((s) => renderer.render(s))));
  const rssPool = process.memoryUsage().rss;
  const inline = await watchLoop(async () => {
    for (const s of burstSpecs) {
      await drawChart(s);
      // A turn for the event loop (and the monitor) between charts, as a bot serving other events would give.
      await new Promise((resolve) => setImmediate(resolve));
    }
  });

  process.stdout.write(`\nmain event loop delay while ${burst} charts render, ms    p50     p99     max   wall ms   charts/s\n`);
  for (const [label, r] of [
    ['pool (the bot)', pooled],
    ['main thread (baseline)', inline],
  ] as const) {
    process.stdout.write(
      `  ${label.padEnd(44)} ${ms(r.p50)} ${ms(r.p99)} ${ms(r.max)} ${ms(r.wall).padStart(9)} ${ms((burst / r.wall) * 1000).padStart(10)}\n`,
    );
  }
  process.stdout.write(`\ngoal: p99 loop delay under 20 ms with the pool: ${pooled.p99 < 20 ? 'met' : 'NOT met'} (${pooled.p99.toFixed(1)} ms)\n`);
  process.stdout.write(
    `RSS: ${mb(rssIdle)} before the pool, ${mb(rssPool)} after the pooled burst (with ${renderer.threads} thread(s) alive), ${mb(process.memoryUsage().rss)} after the baseline\n`,
  );
} finally {
  await renderer.close();
}

const charts = Number(values.memory);
if (charts > 0) {
  process.stdout.write(`\nRSS (MB) drawing ${charts} charts one after another, each configuration in a fresh process:\n`);
  for (const [label, recycleAfter] of [
    ['threads renewed every 100 renders (the bot)', 100],
    ['one thread for all (baseline)', 1e9],
  ] as const) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--memory', String(charts), '--memory-child', String(recycleAfter)],
      { encoding: 'utf8' },
    );
    if (child.status !== 0) throw new Error(`memory measure failed: ${child.stderr}`);
    const m = JSON.parse(child.stdout) as { before: number; every100: number[]; afterClose: number; threadsStarted: number };
    process.stdout.write(
      `  ${label.padEnd(44)} before ${m.before}; every 100 charts: ${m.every100.join(' ')}; after close ${m.afterClose} (${m.threadsStarted} thread(s) started)\n`,
    );
  }
}
