/** Rank score changes are rounded to one decimal, halves away from zero, on the number as the API wrote it. */
import { describe, expect, it } from 'vitest';
import { rankScoreChange, roundScoreChange, scoreChangeArrow } from '../../src/game/ranks.js';
import { runInLocale } from '../../src/i18n/index.js';

describe('rank score changes', () => {
  it('rounds, never cuts: −18.770 reads −18.8', () => {
    expect(rankScoreChange(-18.77)).toBe('−18.8');
    expect(rankScoreChange(-18.770000457763672)).toBe('−18.8');
    expect(rankScoreChange(37.97801726959824)).toBe('+38.0');
    expect(rankScoreChange(-18.508490887553307)).toBe('−18.5');
    expect(rankScoreChange(19.44)).toBe('+19.4');
  });

  it('rounds a half away from zero, as the number is written (18.65 is not read as the binary 18.6499…)', () => {
    expect(rankScoreChange(18.75)).toBe('+18.8');
    expect(rankScoreChange(-18.75)).toBe('−18.8');
    expect(rankScoreChange(18.65)).toBe('+18.7');
    expect(rankScoreChange(0.05)).toBe('+0.1');
    expect(rankScoreChange(-0.05)).toBe('−0.1');
    expect([18.75, -18.75, 18.65, 0.15, -0.15, 2.25].map(roundScoreChange)).toEqual([18.8, -18.8, 18.7, 0.2, -0.2, 2.3]);
  });

  it('a change that rounds to nothing reads ±0, and its arrow agrees with its text', () => {
    expect(rankScoreChange(0)).toBe('±0');
    expect(rankScoreChange(0.04)).toBe('±0');
    expect(rankScoreChange(-0.049)).toBe('±0');
    expect(Object.is(roundScoreChange(-0.04), 0)).toBe(true);
    expect([0.04, -0.04, 0.05, -0.05, 12.5].map(scoreChangeArrow)).toEqual(['▬', '▬', '▲', '▼', '▲']);
    expect(rankScoreChange(null)).toBe('—');
    expect(rankScoreChange(Number.NaN)).toBe('—');
  });

  it('in the member’s digits', () => {
    expect(runInLocale('de', () => rankScoreChange(-18.77))).toBe('−18,8');
    expect(runInLocale('fr', () => rankScoreChange(18.75))).toBe('+18,8');
    expect(runInLocale('ja', () => rankScoreChange(1234.56))).toBe('+1,234.6');
  });
});
