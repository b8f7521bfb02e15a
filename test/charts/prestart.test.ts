import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dropPrestartedCharts, prestartCharts, takeChartRenderer } from '../../src/charts/prestart.js';
import type { ChartRendererOptions, PooledChartRenderer } from '../../src/charts/renderer.js';

/** Each renderer the module under test made, with the options it was made with. */
const made: { options: ChartRendererOptions; renderer: PooledChartRenderer; warm: ReturnType<typeof vi.fn>; close: ReturnType<typeof vi.fn> }[] = [];

/** A renderer factory that records what it made instead of starting threads. */
const make = (options: ChartRendererOptions = {}): PooledChartRenderer => {
  const warm = vi.fn();
  const close = vi.fn(async () => undefined);
  const renderer = { render: vi.fn(), warm, close, threads: 0, threadsStarted: 0 };
  made.push({ options, renderer, warm, close });
  return renderer;
};

beforeEach(async () => {
  await dropPrestartedCharts();
  made.length = 0;
});
// Nothing prestarted is left for the files that share this module after it.
afterAll(dropPrestartedCharts);

describe('the prestarted drawing thread', () => {
  it('is started once, warmed at once, and handed to the services once, its errors then going to their logger', () => {
    prestartCharts(make);
    prestartCharts(make);
    expect(made).toHaveLength(1);
    expect(made[0]!.warm).toHaveBeenCalledTimes(1);
    const onError = vi.fn();
    const taken = takeChartRenderer({ onError }, make);
    expect(taken).toBe(made[0]!.renderer);
    // An error of the pool before the hand-over had nowhere to go; after it, the services' logger hears it.
    made[0]!.options.onError?.(new Error('worker gone'));
    expect(onError).toHaveBeenCalledWith(new Error('worker gone'));
    // Handed out once: the next asker (another set of services, a test) gets a renderer of its own.
    expect(takeChartRenderer({}, make)).not.toBe(taken);
    expect(made).toHaveLength(2);
  });

  it('without a prestart, the services make their own, with their options, and nothing is warmed before a command', () => {
    const onError = vi.fn();
    takeChartRenderer({ onError }, make);
    expect(made).toHaveLength(1);
    expect(made[0]!.warm).not.toHaveBeenCalled();
    made[0]!.options.onError?.(new Error('x'));
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('is closed for a process that draws nothing, and then never handed out', async () => {
    prestartCharts(make);
    await dropPrestartedCharts();
    expect(made[0]!.close).toHaveBeenCalledTimes(1);
    expect(takeChartRenderer({}, make)).not.toBe(made[0]!.renderer);
  });
});
