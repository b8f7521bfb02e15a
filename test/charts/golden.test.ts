/**
 * Golden images: each chart kind, drawn from real sample profiles (and hand-written specs where no
 * sample has the data) through the real worker pool, compared pixel by pixel with the PNGs committed in
 * test/fixtures/charts/. Redraw those with `npm run charts:golden` after a deliberate change of look.
 * On a mismatch the drawn image and a diff (differing pixels in red) go to test-artifacts/charts/.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createChartRenderer } from '../../src/charts/renderer.js';
import { LIMITS } from '../../src/charts/theme.js';
import { diffPngs, pngSize } from './png.js';
import { goldenSpecs } from './sample-specs.js';

const GOLDEN_DIR = join(import.meta.dirname, '..', 'fixtures', 'charts');
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'charts');
/** Share of pixels allowed to differ (font rasterising or skia versions may move a few edge pixels). */
const MAX_DIFFERING = 0.005;

const renderer = createChartRenderer();
afterAll(() => renderer.close());

const specs = goldenSpecs();
/** Each spec drawn once, for both checks. */
const drawn = new Map<string, Promise<Buffer>>();
const draw = (name: string) => drawn.get(name) ?? (drawn.set(name, renderer.render(specs[name]!)), drawn.get(name)!);

describe('golden images', () => {
  it('has a golden image for every spec, and every spec kind is covered', () => {
    const missing = Object.keys(specs).filter((name) => !existsSync(join(GOLDEN_DIR, `${name}.png`)));
    expect(missing, 'redraw them with npm run charts:golden').toEqual([]);
    expect(new Set(Object.values(specs).map((s) => s.kind))).toEqual(new Set(['rank-history', 'hero-performance', 'meta-scatter', 'compare-rank']));
  });

  it.each(Object.keys(specs))('%s matches its golden image', async (name) => {
    const png = await draw(name);
    const golden = readFileSync(join(GOLDEN_DIR, `${name}.png`));
    const diff = await diffPngs(png, golden);
    if (!diff.sameSize || diff.ratio >= MAX_DIFFERING) {
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, `${name}.actual.png`), png);
      writeFileSync(join(ARTIFACTS, `${name}.diff.png`), await diff.image());
    }
    expect(diff.sameSize, `${name}: drawn ${diff.width}×${diff.height}, golden ${JSON.stringify(pngSize(golden))}`).toBe(true);
    expect(diff.ratio, `${name}: ${diff.differing} pixels differ (see test-artifacts/charts/${name}.diff.png)`).toBeLessThan(MAX_DIFFERING);
  });

  it.each(Object.keys(specs))('%s is within 1,600 × 900 px and under 8 MB', async (name) => {
    const png = await draw(name);
    const { width, height } = pngSize(png);
    expect(width).toBeLessThanOrEqual(LIMITS.width);
    expect(height).toBeLessThanOrEqual(LIMITS.height);
    expect(png.byteLength).toBeLessThan(LIMITS.bytes);
    // Readable at phone width: the image is at least 1,000 px wide (fonts are sized for that).
    expect(width).toBeGreaterThanOrEqual(1000);
  });
});

describe('the pixel diff', () => {
  it('finds no difference between an image and itself, and a large one between two charts', async () => {
    const a = readFileSync(join(GOLDEN_DIR, 'hero-performance.png'));
    const b = readFileSync(join(GOLDEN_DIR, 'meta-scatter.png'));
    expect((await diffPngs(a, a)).differing).toBe(0);
    expect((await diffPngs(a, b)).ratio).toBeGreaterThan(0.02);
  });

  it('counts a small change: a 20 × 20 square of other colour is 400 pixels', async () => {
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const golden = readFileSync(join(GOLDEN_DIR, 'no-data.png'));
    const image = await loadImage(golden);
    const canvas = createCanvas(image.width, image.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    ctx.fillStyle = '#ff00ff';
    ctx.fillRect(500, 500, 20, 20);
    const diff = await diffPngs(await canvas.encode('png'), golden);
    expect(diff.differing).toBe(400);
  });
});
