/**
 * Japanese text in charts: Inter has no Japanese glyphs, so charts name Noto Sans JP after it
 * in their font string and register it the first time a spec has Japanese text. Drawn in this test's
 * own process (vitest runs each file in a fork of its own), so the font collection starts without
 * Noto Sans JP and the order of the tests below matters: English charts first, then Japanese ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { drawChart } from '../../src/charts/draw.js';
import { needsJapaneseFont, registerChartFonts } from '../../src/charts/fonts.js';
import type { ChartSpec } from '../../src/charts/specs.js';
import { FONT, JAPANESE_FONT_FAMILY, font } from '../../src/charts/theme.js';
import { diffPngs } from './png.js';
import { goldenSpecs } from './sample-specs.js';

const GOLDEN_DIR = join(import.meta.dirname, '..', 'fixtures', 'charts');
const specs = goldenSpecs();
const english = Object.keys(specs).filter((name) => specs[name]!.locale === undefined);

/** A chart with nothing to draw: its header's title, then the "No data" message, in `locale`. */
const noData = (title: string, locale?: 'ja'): ChartSpec => ({ kind: 'hero-performance', title, heroes: [], ...(locale ? { locale } : {}) });

/** Pixels of `png` in the rectangle, RGBA. */
async function region(png: Buffer, x: number, y: number, w: number, h: number): Promise<Uint8ClampedArray> {
  const { loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(x, y, w, h).data;
}

/** Pixels (of `a.length / 4`) whose colour differs by more than 3 in some channel. */
function differing(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    if ([0, 1, 2, 3].some((c) => Math.abs(a[i + c]! - b[i + c]!) > 3)) count++;
  }
  return count;
}

/** The title row of every chart (src/charts/header.ts: title 30 px, middle at y ≈ 27), left part. */
const TITLE = { x: 0, y: 0, w: 400, h: 50 };

describe('needsJapaneseFont', () => {
  it('is false for the English golden specs and for Latin, Greek and Cyrillic names', () => {
    for (const name of english) expect(needsJapaneseFont(specs[name]!), name).toBe(false);
    expect(needsJapaneseFont(noData('Señor Ñandú · Ζεύς · Дмитрий · Łódź · heroes'))).toBe(false);
  });

  it('is true for a Japanese spec, and for Japanese text anywhere in an English one', () => {
    expect(needsJapaneseFont(noData('Nobody · heroes', 'ja'))).toBe(true);
    expect(needsJapaneseFont(noData('たろう · heroes'))).toBe(true);
    expect(
      needsJapaneseFont({
        kind: 'compare-rank',
        title: 'A vs B',
        players: [
          { name: 'A', points: [] },
          { name: '山田', points: [] },
        ],
      }),
    ).toBe(true);
    expect(needsJapaneseFont({ kind: 'meta-scatter', title: 'Meta', heroes: [{ name: 'Hulk', role: 'タンク', winRate: 0.5, pickShare: 0.1 }] })).toBe(true);
    // Full-width forms only (the Japanese subtitles' parentheses): Inter has none of them either.
    expect(needsJapaneseFont(noData('（ＡＢＣ）'))).toBe(true);
  });
});

describe('registering Noto Sans JP only when needed', () => {
  it('draws every English chart without it', async () => {
    expect(GlobalFonts.has(JAPANESE_FONT_FAMILY), 'Noto Sans JP is already there: a system font?').toBe(false);
    for (const name of english) await drawChart(specs[name]!);
    expect(GlobalFonts.has(JAPANESE_FONT_FAMILY)).toBe(false);
  });

  it('registers it, Regular and SemiBold, for the first Japanese chart', async () => {
    await drawChart(noData('ランク履歴', 'ja'));
    const family = GlobalFonts.families.find((f) => f.family === JAPANESE_FONT_FAMILY);
    expect(family?.styles.map((s) => s.weight).sort()).toEqual([400, 600]);
  });
});

describe('Japanese text', () => {
  it('is drawn in its own glyphs: two titles of as many different characters differ (tofu boxes would not)', async () => {
    const a = await region(await drawChart(noData('ランク履歴', 'ja')), TITLE.x, TITLE.y, TITLE.w, TITLE.h);
    const b = await region(await drawChart(noData('勝率の推移', 'ja')), TITLE.x, TITLE.y, TITLE.w, TITLE.h);
    const none = await region(await drawChart(noData('', 'ja')), TITLE.x, TITLE.y, TITLE.w, TITLE.h);
    expect(differing(a, none), 'the title is drawn').toBeGreaterThan(500);
    expect(differing(a, b), 'two different titles look different').toBeGreaterThan(500);
  });

  it('is drawn unlike Inter alone, which draws a box for every character', () => {
    registerChartFonts();
    const draw = (fontSpec: string, text: string) => {
      const canvas = createCanvas(300, 50);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#000';
      ctx.fillRect(0, 0, 300, 50);
      ctx.fillStyle = '#fff';
      ctx.font = fontSpec;
      ctx.textBaseline = 'middle';
      ctx.fillText(text, 5, 25);
      return ctx.getImageData(0, 0, 300, 50).data;
    };
    const tofu = (text: string) => draw(`600 ${FONT.title}px Inter`, text);
    const stacked = (text: string) => draw(font(FONT.title, 600), text);
    // Inter alone: one box per character, whatever the character.
    expect(differing(tofu('ランク'), tofu('勝率の'))).toBe(0);
    expect(differing(stacked('ランク'), tofu('ランク'))).toBeGreaterThan(500);
  });

  it('leaves Latin text in Inter: "Rank" is the same pixels with or without Japanese after it', () => {
    const draw = (text: string) => {
      const canvas = createCanvas(300, 50);
      const ctx = canvas.getContext('2d');
      ctx.font = font(FONT.title, 600);
      ctx.fillStyle = '#fff';
      ctx.textBaseline = 'middle';
      ctx.fillText(text, 5, 25);
      const width = ctx.measureText('Rank').width;
      return { pixels: ctx.getImageData(0, 0, Math.ceil(5 + width), 50).data, width };
    };
    const mixed = draw('Rank 勝率');
    const latin = draw('Rank');
    expect(differing(mixed.pixels, latin.pixels)).toBe(0);
    const inter = createCanvas(1, 1).getContext('2d');
    inter.font = `600 ${FONT.title}px Inter`;
    expect(latin.width).toBe(inter.measureText('Rank').width);
  });
});

describe('English charts once Noto Sans JP is registered', () => {
  it.each(english)('%s still matches its golden image', async (name) => {
    expect(GlobalFonts.has(JAPANESE_FONT_FAMILY)).toBe(true);
    const golden = readFileSync(join(GOLDEN_DIR, `${name}.png`));
    const diff = await diffPngs(await drawChart(specs[name]!), golden);
    expect(diff.ratio).toBeLessThan(0.005);
  });
});
