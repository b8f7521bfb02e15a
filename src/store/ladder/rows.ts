/** Rows of the ladder's tables as the ladder reads them: numbers as numbers (PostgreSQL gives 64-bit integers as text), a standing whole. */
import type { Standing } from '../../game/ladder.js';
import { metaRole } from '../../game/meta.js';

/** A column's number, or null. */
export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A standing's columns as a query returns them (`player_standings`, or the same columns joined into a ladder page). */
export interface StandingColumns {
  season: number | string | null;
  tier: string | null;
  score: number | string | null;
  peak: number | string | null;
  matches: number | string;
  role: string | null;
  week_delta: number | string | null;
}

export function standingOfRow(r: StandingColumns & { private: number }): Standing {
  return {
    season: num(r.season),
    tier: r.tier,
    score: num(r.score),
    peak: num(r.peak),
    matches: Number(r.matches),
    role: metaRole(r.role),
    weekDelta: num(r.week_delta),
    private: r.private === 1,
  };
}
