/**
 * The chart worker as production runs it: dist/chart-worker.js from the build the test run makes
 * (test/setup/build.ts), loaded by piscina in a plain Node thread with no tsx, finding its fonts
 * (Inter in assets/fonts, Noto Sans JP through Node's module resolution from the source's place) and
 * drawing the same PNG as the TypeScript worker.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { afterAll, describe, expect, it } from 'vitest';
import { workerEntryFor } from '../../src/charts/renderer.js';
import { diffPngs, pngSize } from './png.js';
import { goldenSpecs } from './sample-specs.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** Where the renderer looks for the worker when it runs from a chunk of the build. */
const entry = workerEntryFor(pathToFileURL(join(ROOT, 'dist', 'index.js')).href);
const pool = new Piscina({ filename: entry.filename, minThreads: 0, maxThreads: 1, execArgv: [] });
afterAll(() => pool.close());

describe('dist/chart-worker.js', () => {
  it('is where the renderer looks for it in the build', () => {
    expect(entry.filename).toBe(join(ROOT, 'dist', 'chart-worker.js'));
    expect(existsSync(entry.filename)).toBe(true);
    // The entry turns on the thread's compile cache before it loads the task, which is bundled with chart.js into a
    // chunk of the worker's own, not left for the main bundle to load.
    const source = readFileSync(entry.filename, 'utf8');
    expect(source.indexOf('enableCompileCache()')).toBeGreaterThan(-1);
    const task = /await import\("\.\/([^"]+)"\)/.exec(source)?.[1];
    expect(source.indexOf('enableCompileCache()')).toBeLessThan(source.indexOf(`import("./${task}")`));
    expect(readFileSync(join(ROOT, 'dist', task!), 'utf8')).toContain('LineController=class');
    const withChartJs = readdirSync(join(ROOT, 'dist')).filter(
      (f) => f.endsWith('.js') && readFileSync(join(ROOT, 'dist', f), 'utf8').includes('LineController=class'),
    );
    expect(withChartJs).toEqual([task]);
  });

  it('draws a chart like the golden image, with the Inter font found from the build', async () => {
    const bytes = (await pool.run(goldenSpecs()['hero-performance'])) as Uint8Array;
    expect(pngSize(bytes)).toEqual({ width: 800, height: 450 });
    const golden = readFileSync(join(ROOT, 'test', 'fixtures', 'charts', 'hero-performance.png'));
    expect((await diffPngs(bytes, golden)).ratio).toBeLessThan(0.005);
  });

  it('draws a Japanese chart like the golden image, with Noto Sans JP found from the build', async () => {
    const bytes = (await pool.run(goldenSpecs()['hero-performance-ja'])) as Uint8Array;
    const golden = readFileSync(join(ROOT, 'test', 'fixtures', 'charts', 'hero-performance-ja.png'));
    expect((await diffPngs(bytes, golden)).ratio).toBeLessThan(0.005);
  });
});
