/**
 * The drawing thread started by the entry point (src/index.ts) before the composition root loads, so that the thread's
 * own start (about 170 ms on a 2-core machine) runs beside the main thread's instead of after it: a restarted bot's first
 * card then waits for the card alone. The services take it over ({@link takeChartRenderer}); a process that draws
 * nothing (the cluster manager) closes it ({@link dropPrestartedCharts}). Without either, the idle thread exits by itself.
 */
import { createChartRenderer, type ChartRendererOptions, type PooledChartRenderer } from './renderer.js';

interface Prestarted {
  renderer: PooledChartRenderer;
  /** Where the pool's errors go once the services take it over; before that they are dropped, as with no `onError`. */
  onError?: (err: unknown) => void;
}

let prestarted: Prestarted | undefined;

/** How a renderer is made: {@link createChartRenderer}, or a test's. */
type MakeRenderer = (options: Pick<ChartRendererOptions, 'onError'>) => PooledChartRenderer;

/** Creates the process's chart renderer now and warms its thread ({@link PooledChartRenderer.warm}). Idempotent; never throws. */
export function prestartCharts(make: MakeRenderer = createChartRenderer): void {
  if (prestarted) return;
  const started: Prestarted = { renderer: make({ onError: (err) => started.onError?.(err) }) };
  prestarted = started;
  started.renderer.warm?.();
}

/**
 * The prestarted renderer, now reporting to `options.onError`, or a new one with `options` when none was prestarted.
 * Hands the prestarted one out once: a second call makes a new renderer.
 * @throws RangeError as {@link createChartRenderer} does, for a new renderer's `options`.
 */
export function takeChartRenderer(options: Pick<ChartRendererOptions, 'onError'> = {}, make: MakeRenderer = createChartRenderer): PooledChartRenderer {
  const taken = prestarted;
  if (!taken) return make(options);
  prestarted = undefined;
  taken.onError = options.onError;
  return taken.renderer;
}

/** Closes the prestarted renderer, if it was not taken: for a process that will draw nothing. */
export async function dropPrestartedCharts(): Promise<void> {
  const dropped = prestarted;
  prestarted = undefined;
  await dropped?.renderer.close();
}
