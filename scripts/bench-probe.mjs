/**
 * Memory probe of `npm run bench` (scripts/bench.ts), preloaded into each contestant with
 * `node --expose-gc --import scripts/bench-probe.mjs ...`. On SIGUSR2 it runs a full garbage collection
 * (twice, so that objects freed by finalizers of the first go too) and writes `process.memoryUsage()`
 * (bytes: rss, heapTotal, heapUsed, external, arrayBuffers) as one JSON line on stderr:
 * `{"benchProbe":{"rss":...,"heapUsed":...,"gc":true,"at":<ms since the epoch>}}`. `gc` is false when
 * node ran without `--expose-gc` (the figures are then taken without a collection).
 *
 * It does nothing else: no timers, no handles that keep the process alive, no import at all of the
 * contestant's code. The write is synchronous, so the line is out before the bench kills the process.
 */
import { writeSync } from 'node:fs';

process.on('SIGUSR2', () => {
  const gc = typeof globalThis.gc === 'function';
  if (gc) {
    globalThis.gc();
    globalThis.gc();
  }
  writeSync(2, `${JSON.stringify({ benchProbe: { ...process.memoryUsage(), gc, at: Date.now() } })}\n`);
});
