/**
 * The drawing thread's entry point in the build (dist/chart-worker.js, src/charts/renderer.ts): turns on Node's module
 * compile cache for this thread too, then loads the task (./worker.ts). The main thread's cache (src/index.ts) does not
 * reach worker threads, and without its own the thread compiles chart.js at every start (after each idle exit).
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
const task = await import('./worker.js');

/** piscina's task: see ./worker.ts. */
export default task.default;
/** piscina's `name: 'warm'`: see ./worker.ts. */
export const warm = task.warm;
