/**
 * Golden images: each chart kind, drawn from real sample profiles (and hand-written specs where no
 * sample has the data) through the real worker pool, compared pixel by pixel with the PNGs committed in
 * test/fixtures/charts/. Redraw those with `npm run charts:golden` after a deliberate change of look.
 * On a mismatch the drawn image and a diff (differing pixels in red) go to test-artifacts/charts/.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chartSize } from '../../src/charts/draw.js';
import { createChartRenderer } from '../../src/charts/renderer.js';
import { FONT, LIMITS, MIN_LABEL_RATIO, SIZE } from '../../src/charts/theme.js';
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
    expect(new Set(Object.values(specs).map((s) => s.kind))).toEqual(
      new Set(['rank-history', 'hero-performance', 'meta-scatter', 'compare-rank', 'ladder-rank', 'profile-card', 'match-card', 'ladder-card', 'table-card']),
    );
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
    expect({ width, height }).toEqual(chartSize(specs[name]!));
  });

  it('draws a match card with a team of seven rows taller, and the charts drawn after it at their own size again', async () => {
    expect(chartSize(specs['match-card']!)).toEqual({ width: SIZE.width, height: 480 });
    expect(pngSize(await draw('match-card'))).toEqual(chartSize(specs['match-card']!));
    expect(pngSize(await renderer.render(specs['ladder-card']!))).toEqual(SIZE);
    expect(pngSize(await renderer.render(specs['rank-history-real']!))).toEqual(SIZE);
  });
});

describe('readable at phone width', () => {
  // Discord's mobile app shows an embed image about 360 CSS px wide: a font of s px on a canvas w px
  // wide comes out s × 360 / w CSS px. The figures are written out here, not read from theme.ts, so
  // that loosening the rule there fails this test.
  const cssPx = (size: number) => (size * 360) / SIZE.width;

  it('draws every label at least 2.9 % of the width (10.5 CSS px at 360 px)', () => {
    for (const size of [FONT.label, FONT.subtitle, FONT.message]) {
      expect(size / SIZE.width).toBeGreaterThanOrEqual(0.029);
      expect(cssPx(size)).toBeGreaterThanOrEqual(10.4);
    }
    expect(MIN_LABEL_RATIO).toBeGreaterThanOrEqual(0.029);
  });

  it('draws the title at least 13 CSS px at 360 px', () => {
    expect(cssPx(FONT.title)).toBeGreaterThanOrEqual(13);
  });

  it('keeps the canvas 16:9 and at least 720 px wide, sharp where Discord shows it 360 to 400 CSS px wide on a 2× screen', () => {
    expect(SIZE.width / SIZE.height).toBeCloseTo(16 / 9, 1);
    expect(SIZE.width).toBeGreaterThanOrEqual(720);
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
    ctx.fillRect(400, 300, 20, 20);
    const diff = await diffPngs(await canvas.encode('png'), golden);
    expect(diff.differing).toBe(400);
  });
});
