/** A tracked account's standing for the ladder's tests: season 9, a Duelist with 10 matches, its peak its score. */
import type { Standing } from '../../src/game/ladder.js';

export const standing = (tier: string, score: number, extra: Partial<Standing> = {}): Standing => ({
  season: 9,
  tier,
  score,
  peak: score,
  matches: 10,
  role: 'Duelist',
  weekDelta: null,
  private: false,
  ...extra,
});
