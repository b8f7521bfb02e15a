/**
 * The chart parts that are plain functions: spec validation, tier bands (against src/game/ranks.ts),
 * time-axis ticks, number formats, axis ranges, hero selection and label placement.
 */
import { describe, expect, it } from 'vitest';
import { overlap } from '../../src/charts/canvas-kit.js';
import { durationTick, percentText, playTimeUnit, scoreText, timeTicks } from '../../src/charts/format.js';
import { runInLocale } from '../../src/i18n/index.js';
import { heroBarLabel, topHeroes } from '../../src/charts/heroes.js';
import { placeLabels, placeLabelsWhereTheyFit } from '../../src/charts/label-placement.js';
import { registerChartFonts } from '../../src/charts/fonts.js';
import { fitHeroName } from '../../src/charts/header.js';
import { FONT, font } from '../../src/charts/theme.js';
import { scatterRanges } from '../../src/charts/meta.js';
import { scoreRange } from '../../src/charts/rank.js';
import { ChartSpecError, parseChartSpec } from '../../src/charts/specs.js';
import { TIER_BANDS, bandOf, bandsWithin } from '../../src/charts/tiers.js';
import { levelOfScore, tierOfLevel } from '../../src/game/ranks.js';
import { goldenSpecs } from './sample-specs.js';

const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) / 1000;

describe('parseChartSpec', () => {
  it('accepts every golden spec as it is', () => {
    for (const spec of Object.values(goldenSpecs())) expect(parseChartSpec(spec)).toEqual(spec);
  });

  it.each([
    ['an unknown kind', { kind: 'pie', title: 'x' }, /kind "pie"/],
    ['a missing kind', { title: 'x' }, /kind missing/],
    [
      'milliseconds for seconds',
      { kind: 'rank-history', title: 'x', seasons: [{ name: 'S', points: [{ time: 1_741_000_000_000, score: 3000 }] }] },
      /seasons\[0\]\.points\[0\]\.time.*|Unix seconds/,
    ],
    [
      'a win rate in percent',
      { kind: 'hero-performance', title: 'x', heroes: [{ name: 'Hulk', role: null, playTimeSeconds: 1, winRate: 54.2, kda: 1 }] },
      /heroes\[0\]\.winRate/,
    ],
    [
      'a score that is not a number',
      {
        kind: 'compare-rank',
        title: 'x',
        players: [
          { name: 'A', points: [{ time: 1, score: '3,752' }] },
          { name: 'B', points: [] },
        ],
      },
      /players\[0\]\.points\[0\]\.score/,
    ],
    ['one player to compare', { kind: 'compare-rank', title: 'x', players: [{ name: 'A', points: [] }] }, /exactly 2 players/],
    ['an unknown key', { kind: 'meta-scatter', title: 'x', heroes: [], colour: 'red' }, /colour/],
    [
      'a NaN pick share',
      { kind: 'meta-scatter', title: 'x', heroes: [{ name: 'Hulk', role: null, winRate: 0.5, pickShare: Number.NaN }] },
      /heroes\[0\]\.pickShare/,
    ],
  ])('rejects %s with a clear message', (_what, spec, message) => {
    expect(() => parseChartSpec(spec)).toThrow(ChartSpecError);
    expect(() => parseChartSpec(spec)).toThrow(message);
  });
});

describe('tier bands', () => {
  it('agree with src/game/ranks.ts at both edges of every band', () => {
    for (const band of TIER_BANDS) {
      expect(tierOfLevel(levelOfScore(band.from))!.startsWith(band.tier)).toBe(true);
      if (Number.isFinite(band.to)) expect(tierOfLevel(levelOfScore(band.to - 0.01))!.startsWith(band.tier)).toBe(true);
    }
    // Bronze III starts at 3,000; Eternity at 5,100, labelled with One Above All.
    expect(TIER_BANDS[0]).toMatchObject({ tier: 'Bronze', from: 3000, to: 3300 });
    expect(TIER_BANDS.at(-1)).toMatchObject({ tier: 'Eternity', label: 'Eternity / One Above All', from: 5100, to: Infinity });
    expect(tierOfLevel(levelOfScore(5099.99))).toBe('Celestial I');
    expect(levelOfScore(2999.99)).toBeNull();
  });

  it('are clipped to the visible range, and none below 3,000', () => {
    expect(bandsWithin(3650, 4050).map((b) => [b.tier, b.from, b.to])).toEqual([
      ['Gold', 3650, 3900],
      ['Platinum', 3900, 4050],
    ]);
    expect(bandsWithin(2500, 2900)).toEqual([]);
    expect(bandOf(3752)?.tier).toBe('Gold');
    expect(bandOf(6000)?.tier).toBe('Eternity');
    expect(bandOf(2999)).toBeNull();
  });
});

describe('time ticks', () => {
  it('use midnights with "3 Mar" labels for a few weeks', () => {
    const ticks = timeTicks(utc(2025, 2, 20, 6), utc(2025, 3, 26, 20), 7);
    expect(ticks.length).toBeLessThanOrEqual(7);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    for (const t of ticks) expect(t.value % 86_400).toBe(0);
    expect(ticks[0]!.label).toMatch(/^\d{1,2} (Feb|Mar)$/);
  });

  it('use firsts of months over several months, the year under the first and under each January', () => {
    const ticks = timeTicks(utc(2025, 1, 10), utc(2025, 9, 1), 7);
    expect(ticks[0]!.label).toEqual(['Mar', '2025']);
    expect(ticks[1]!.label).toBe('May');
    for (const t of ticks) expect(new Date(t.value * 1000).getUTCDate()).toBe(1);
    const across = timeTicks(utc(2025, 10, 10), utc(2026, 3, 1), 7);
    expect(across.map((t) => t.label)).toEqual([['Nov', '2025'], 'Dec', ['Jan', '2026'], 'Feb', 'Mar']);
  });

  it('use hours within a day, the date under the first', () => {
    const ticks = timeTicks(utc(2025, 3, 3, 17), utc(2025, 3, 3, 23), 7);
    expect(ticks[0]!.label).toEqual(['17:00', '3 Mar']);
    expect(ticks[1]!.label).toBe('18:00');
  });

  it('stay within the range and the count for any range', () => {
    for (const [from, span] of [
      [utc(2024, 12, 31, 23), 3_600 * 5],
      [utc(2025, 6, 1), 86_400 * 400],
      [utc(2025, 6, 1), 86_400 * 3_000],
    ] as const) {
      const ticks = timeTicks(from, from + span, 6);
      expect(ticks.length).toBeLessThanOrEqual(6);
      for (const t of ticks) expect(t.value >= from && t.value <= from + span).toBe(true);
    }
  });
});

describe('formats and ranges', () => {
  it('write numbers the way the charts show them', () => {
    expect(scoreText(3752.94)).toBe('3,752');
    expect(percentText(0.5421)).toBe('54.2 %');
    expect(percentText(0.5, 0)).toBe('50 %');
    expect(heroBarLabel({ winRate: 0.5421, kda: 3.14 })).toBe('54.2 % · KDA 3.1');
    expect(heroBarLabel({ winRate: null, kda: 3.14 })).toBe('KDA 3.1');
    expect(heroBarLabel({ winRate: null, kda: null })).toBe('');
    expect(playTimeUnit(7_200)).toBe('h');
    expect(playTimeUnit(7_199)).toBe('min');
    expect(durationTick(12, 'h')).toBe('12 h');
    expect(durationTick(2.5, 'h')).toBe('2.5 h');
    expect(durationTick(45, 'min')).toBe('45 min');
  });

  it('write play-time ticks with the locale’s units, as the text answers do', () => {
    expect(runInLocale('de', () => [durationTick(12, 'h'), durationTick(2.5, 'h'), durationTick(45, 'min')])).toEqual(['12 Std.', '2,5 Std.', '45 Min.']);
    expect(runInLocale('ja', () => [durationTick(12, 'h'), durationTick(45, 'min')])).toEqual(['12時間', '45分']);
    expect(runInLocale('fr', () => durationTick(2.5, 'h'))).toBe('2,5 h');
  });

  it('give rank charts whole divisions with room, at least a tier tall', () => {
    expect(scoreRange([3752])).toEqual({ min: 3600, max: 3900 });
    expect(scoreRange([4463, 5032])).toEqual({ min: 4400, max: 5100 });
  });

  it('keep 50 % on the meta scatter and room past the largest pick share', () => {
    const r = scatterRanges([
      { winRate: 0.53, pickShare: 0.069 },
      { winRate: 0.55, pickShare: 0.01 },
    ]);
    expect(r.yMin).toBeLessThanOrEqual(0.5);
    expect(r.yMax).toBeGreaterThanOrEqual(0.56);
    expect(r.xMax).toBeGreaterThan(0.069);
  });

  it('keep the ten heroes with the most play time, none without', () => {
    const heroes = Array.from({ length: 14 }, (_, i) => ({ name: `H${i}`, role: null, playTimeSeconds: i * 100, winRate: null, kda: null }));
    const top = topHeroes(heroes);
    expect(top.map((h) => h.name)).toEqual(['H13', 'H12', 'H11', 'H10', 'H9', 'H8', 'H7', 'H6', 'H5', 'H4']);
    expect(topHeroes(heroes.slice(0, 1))).toEqual([]);
  });
});

describe('label placement', () => {
  const area = { x: 0, y: 0, w: 800, h: 400 };

  it('keeps labels of spread points beside their points, inside the plot, apart from each other', () => {
    const requests = [
      { x: 100, y: 100, radius: 8, w: 120, h: 24 },
      { x: 400, y: 200, radius: 8, w: 120, h: 24 },
      { x: 790, y: 300, radius: 8, w: 120, h: 24 },
    ];
    const placed = placeLabels(requests, area);
    expect(placed.map((p) => p.far)).toEqual([false, false, false]);
    // The point at the right edge gets its label on its left.
    expect(placed[2]!.rect.x + placed[2]!.rect.w).toBeLessThanOrEqual(790);
    for (const p of placed) expect(p.rect.x >= 0 && p.rect.x + p.rect.w <= 800).toBe(true);
  });

  it('untangles a cluster: no two labels overlap where there is room', () => {
    const requests = Array.from({ length: 6 }, (_, i) => ({ x: 400 + (i % 3) * 12, y: 200 + Math.floor(i / 3) * 12, radius: 8, w: 110, h: 24 }));
    const placed = placeLabels(requests, area);
    for (let i = 0; i < placed.length; i++) {
      for (let j = i + 1; j < placed.length; j++) expect(overlap(placed[i]!.rect, placed[j]!.rect)).toBe(0);
    }
  });
});

describe('labels at phone width', () => {
  it('names a hero in full where it fits, else by its short name, else cut', () => {
    registerChartFonts();
    const bold = font(FONT.label, 600);
    expect(fitHeroName('Hela', bold, 200)).toBe('Hela');
    expect(fitHeroName('Invisible Woman', bold, 200)).toBe('Invisible Woman');
    expect(fitHeroName('Jeff the Land Shark', bold, 200)).toBe('Jeff');
    expect(fitHeroName('Cloak & Dagger', bold, 180, true)).toBe('C&D');
    expect(fitHeroName('An Entirely Unknown Hero Name', bold, 200)).toMatch(/…$/);
  });

  it('leaves out the labels that have no room, never overlapping, the first ones kept', () => {
    const area = { x: 0, y: 0, w: 400, h: 200 };
    const requests = Array.from({ length: 30 }, (_, i) => ({ x: 150 + (i % 6) * 20, y: 80 + Math.floor(i / 6) * 10, radius: 8, w: 110, h: 26 }));
    const placed = placeLabelsWhereTheyFit(requests, area);
    expect(placed[0]).not.toBeNull();
    const kept = placed.filter((p) => p !== null);
    expect(kept.length).toBeLessThan(requests.length);
    for (let i = 0; i < kept.length; i++) {
      expect(kept[i]!.rect.x >= 0 && kept[i]!.rect.x + kept[i]!.rect.w <= 400).toBe(true);
      for (let j = i + 1; j < kept.length; j++) expect(overlap(kept[i]!.rect, kept[j]!.rect)).toBe(0);
    }
  });
});
