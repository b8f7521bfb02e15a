/**
 * The chart renderer's pool (src/charts/renderer.ts) with its real worker threads: lazy start, idle
 * exit, empty data, bad specs, aborts (which end the worker thread mid-render), and close.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChartRenderError, createChartRenderer, workerEntryFor, type PooledChartRenderer } from '../../src/charts/renderer.js';
import { ChartSpecError, SPEC_LIMITS, type ChartSpec } from '../../src/charts/specs.js';
import { SIZE } from '../../src/charts/theme.js';
import { diffPngs, pngSize } from './png.js';
import { goldenSpecs, syntheticRankHistory } from './sample-specs.js';
import { pollUntil } from '../helpers/until.js';

const open: PooledChartRenderer[] = [];
function renderer(options?: Parameters<typeof createChartRenderer>[0]): PooledChartRenderer {
  const r = createChartRenderer(options);
  open.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

describe('createChartRenderer', () => {
  it('starts no worker thread until the first render, and ends it after the idle timeout', async () => {
    const r = renderer({ idleTimeoutMs: 300 });
    expect(r.threads).toBe(0);
    const png = await r.render(goldenSpecs()['hero-performance']!);
    expect(pngSize(png)).toEqual(SIZE);
    expect(r.threads).toBe(1);
    await pollUntil(() => r.threads === 0, 'the idle thread to end', { context: () => `${r.threads} threads` });
    // And starts one again when needed.
    expect(pngSize(await r.render(goldenSpecs()['no-data']!))).toEqual(SIZE);
  });

  it('starts its thread ahead of a render when warmed, once, and the render then uses that thread', async () => {
    // recycleAfter 1: were the warm-up counted as a render, the render after it would need a thread of its own.
    const r = renderer({ recycleAfter: 1 });
    r.warm!();
    r.warm!();
    await pollUntil(() => r.threadsStarted === 1, 'the warmed thread to start');
    r.warm!();
    expect(r.threadsStarted).toBe(1);
    expect(pngSize(await r.render(goldenSpecs()['no-data']!))).toEqual(SIZE);
    expect(r.threadsStarted).toBe(1);
  });

  it('starts nothing when warmed after closing, and warns of nothing', async () => {
    const errors: unknown[] = [];
    const r = renderer({ onError: (err) => errors.push(err) });
    await r.close();
    r.warm!();
    await expect(r.render(goldenSpecs()['no-data']!)).rejects.toMatchObject({ reason: 'closed' });
    expect(r.threadsStarted).toBe(0);
    expect(errors).toEqual([]);
  });

  it('keeps to maxThreads while many renders wait', async () => {
    const r = renderer({ maxThreads: 1 });
    const spec = goldenSpecs()['compare-rank']!;
    let most = 0;
    const renders = Array.from({ length: 6 }, () => r.render(spec).finally(() => (most = Math.max(most, r.threads))));
    const pngs = await Promise.all(renders);
    expect(most).toBe(1);
    // The same spec gives the same bytes every time.
    expect(new Set(pngs.map((p) => p.toString('base64'))).size).toBe(1);
  });

  it('renews its threads every recycleAfter renders, failing none, one after another or all at once', async () => {
    const r = renderer({ recycleAfter: 2 });
    expect(r.threadsStarted).toBe(0);
    const spec = goldenSpecs()['no-data']!;
    for (let i = 0; i < 5; i++) expect(pngSize(await r.render(spec))).toEqual(SIZE);
    // Renders 1–2, 3–4 and 5: three pools, one thread each.
    expect(r.threadsStarted).toBe(3);
    const burst = await Promise.all(Array.from({ length: 6 }, () => r.render(spec)));
    expect(burst).toHaveLength(6);
    expect(r.threadsStarted).toBeGreaterThanOrEqual(5);
    // Retired pools close once their renders are done: at most the current pool's thread is left.
    await pollUntil(() => r.threads <= 1, 'the retired pools to close', { context: () => `${r.threads} threads` });
  });

  it('rejects bad options', () => {
    expect(() => createChartRenderer({ recycleAfter: 0 })).toThrow(RangeError);
    expect(() => createChartRenderer({ maxThreads: 0 })).toThrow(RangeError);
    expect(() => createChartRenderer({ maxThreads: 1.5 })).toThrow(RangeError);
    expect(() => createChartRenderer({ idleTimeoutMs: -1 })).toThrow(RangeError);
  });
});

describe('empty data', () => {
  const title = 'Empty';
  const empties: ChartSpec[] = [
    { kind: 'rank-history', title, seasons: [] },
    { kind: 'rank-history', title, seasons: [{ name: 'Season 3', points: [] }], current: { tier: 'Gold II', score: 3752 } },
    { kind: 'hero-performance', title, heroes: [] },
    { kind: 'hero-performance', title, heroes: [{ name: 'Hulk', role: 'Vanguard', playTimeSeconds: 0, winRate: null, kda: null }] },
    { kind: 'meta-scatter', title, heroes: [] },
    {
      kind: 'compare-rank',
      title,
      players: [
        { name: 'A', points: [] },
        { name: 'B', points: [] },
      ],
    },
  ];

  it('draws the same "No data" chart for every kind with nothing to draw', async () => {
    const r = renderer();
    const pngs = await Promise.all(empties.map((s) => r.render(s)));
    for (const png of pngs) expect(pngSize(png)).toEqual(SIZE);
    for (const png of pngs.slice(1)) expect((await diffPngs(png, pngs[0]!)).differing).toBe(0);
    // …and it is not a chart with data.
    const full = await r.render({ kind: 'hero-performance', title, heroes: [{ name: 'Hulk', role: 'Vanguard', playTimeSeconds: 3600, winRate: 0.5, kda: 2 }] });
    expect((await diffPngs(full, pngs[0]!)).ratio).toBeGreaterThan(0.02);
  });
});

describe('the largest specs allowed', () => {
  it("draw within the worker thread's memory limits", async () => {
    const r = renderer();
    const rank: ChartSpec = {
      kind: 'rank-history',
      title: 'Largest',
      seasons: Array.from({ length: SPEC_LIMITS.seasons }, (_, s) => ({
        name: `Season ${s}`,
        points: Array.from({ length: SPEC_LIMITS.points }, (_, i) => ({ time: 1.7e9 + s * 2e6 + i * 600, score: 3000 + ((i * 7 + s * 50) % 2400) })),
      })),
      current: { tier: 'Platinum III', score: 4043 },
    };
    const meta: ChartSpec = {
      kind: 'meta-scatter',
      title: 'Largest',
      heroes: Array.from({ length: SPEC_LIMITS.scatterHeroes }, (_, i) => ({
        name: `Hero ${i}`,
        role: null,
        winRate: 0.4 + ((i * 37) % 20) / 100,
        pickShare: ((i * 13) % 60) / 1000,
      })),
    };
    const heroes: ChartSpec = {
      kind: 'hero-performance',
      title: 'Largest',
      heroes: Array.from({ length: SPEC_LIMITS.heroes }, (_, i) => ({
        name: 'x'.repeat(SPEC_LIMITS.nameLength),
        role: 'Duelist',
        playTimeSeconds: i * 60,
        winRate: 0.5,
        kda: 2,
      })),
    };
    for (const spec of [rank, meta, heroes]) expect(pngSize(await r.render(spec))).toEqual(SIZE);
    // One render over the limits is refused before it reaches a thread.
    await expect(
      r.render({ ...meta, heroes: [...(meta as { heroes: unknown[] }).heroes, ...(meta as { heroes: unknown[] }).heroes] } as ChartSpec),
    ).rejects.toThrow(ChartSpecError);
  });
});

describe('bad specs', () => {
  it('rejects with a ChartSpecError naming the kind and the path, before any thread starts', async () => {
    const r = renderer();
    const bad = { kind: 'meta-scatter', title: 'Meta', heroes: [{ name: 'Hulk', role: 'Vanguard', winRate: 54, pickShare: 0.1 }] };
    const err = await r.render(bad as unknown as ChartSpec).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChartSpecError);
    expect((err as Error).message).toMatch(/^invalid chart spec \(kind "meta-scatter"\): .*heroes\[0\]\.winRate/);
    expect(r.threads).toBe(0);
  });

  it('rejects an unknown kind and a comparison of three players', async () => {
    const r = renderer();
    await expect(r.render({ kind: 'pie', title: 'x' } as unknown as ChartSpec)).rejects.toThrow(/invalid chart spec \(kind "pie"\)/);
    const three = { kind: 'compare-rank', title: 'x', players: [1, 2, 3].map((i) => ({ name: `P${i}`, points: [] })) };
    await expect(r.render(three as ChartSpec)).rejects.toThrow(/exactly 2 players/);
  });
});

describe('aborts and failures', () => {
  it('rejects at once when the signal is already aborted', async () => {
    const r = renderer();
    const err = await r.render(syntheticRankHistory(), { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChartRenderError);
    expect((err as ChartRenderError).reason).toBe('aborted');
    expect(r.threads).toBe(0);
  });

  it('ends a render aborted while it runs, and the pool draws the next one on a new thread', async () => {
    const r = renderer();
    // Warm the thread up, so the abort below lands while drawing rather than while loading.
    await r.render(goldenSpecs()['no-data']!);
    const controller = new AbortController();
    const running = r.render(syntheticRankHistory(), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('member left')), 15);
    const err = await running.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChartRenderError);
    expect((err as ChartRenderError).reason).toBe('aborted');
    expect((err as Error).message).toBe('chart render (rank-history) was aborted');
    const png = await r.render(syntheticRankHistory());
    expect(pngSize(png)).toEqual(SIZE);
  });

  it('drops a queued render that is aborted and still draws the one before it', async () => {
    const r = renderer({ maxThreads: 1 });
    const first = r.render(goldenSpecs()['meta-scatter']!);
    const controller = new AbortController();
    const queued = r.render(goldenSpecs()['hero-performance']!, { signal: controller.signal });
    controller.abort();
    await expect(queued).rejects.toMatchObject({ name: 'ChartRenderError', reason: 'aborted' });
    expect(pngSize(await first)).toEqual(SIZE);
  });
});

describe('close', () => {
  it('lets renders under way finish, then refuses new ones; twice is fine', async () => {
    const r = renderer();
    const running = r.render(goldenSpecs()['hero-performance']!);
    // Let the pool start before closing.
    await new Promise((res) => setTimeout(res, 20));
    await r.close();
    expect(pngSize(await running)).toEqual(SIZE);
    await expect(r.render(goldenSpecs()['hero-performance']!)).rejects.toMatchObject({ reason: 'closed' });
    await r.close();
    expect(r.threads).toBe(0);
  });

  it('closes a renderer that never rendered without starting anything', async () => {
    const r = renderer();
    await r.close();
    expect(r.threads).toBe(0);
    await expect(r.render(goldenSpecs()['no-data']!)).rejects.toBeInstanceOf(ChartRenderError);
  });
});

describe('workerEntryFor', () => {
  it('uses the built worker beside a bundle chunk, and the TypeScript worker with tsx beside the source', () => {
    expect(workerEntryFor('file:///srv/bot/dist/chunk-ABC123.js')).toEqual({ filename: '/srv/bot/dist/chart-worker.js' });
    const dev = workerEntryFor(new URL('../../src/charts/renderer.ts', import.meta.url).href);
    expect(dev.filename).toBe(new URL('../../src/charts/worker.ts', import.meta.url).pathname);
    expect(dev.execArgv?.[0]).toBe('--import');
    expect(dev.execArgv?.[1]).toMatch(/^file:\/\/.*\/node_modules\/tsx\/.*\.mjs$/);
  });
});
