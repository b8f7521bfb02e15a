/** Rank points of matches, apart from the timeline so that profile.ts can read them without a cycle. */
import type { MatchSummary } from '../api/schemas.js';
import { matchMode } from './modes.js';
import { seasonOfHistoryEntry, type HistorySource, type Season } from './seasons.js';

/** `time` in Unix seconds, when the rank was reached (never when the bot read it); `score` unrounded; `level` as in ranks.ts. */
export interface RankTimelinePoint {
  time: number;
  score: number;
  change: number | null;
  level: number | null;
  levelFrom: number | null;
  season: Season | null;
  /** `snapshot`: the bot's own read of the profile (src/game/tracking.ts). */
  source: 'match' | 'rank-history' | 'season' | 'snapshot';
  matchUid?: string;
}

/** Competitive matches only: Quick Play rows carry a `new_score` on another scale. */
export function matchRankPoints(matches: readonly MatchSummary[], source: HistorySource): RankTimelinePoint[] {
  return matches.flatMap((m) =>
    matchMode(m.game_mode_id).ranked && m.time !== null && m.player.new_score !== null && Number.isFinite(m.player.new_score)
      ? [
          {
            time: m.time,
            score: m.player.new_score,
            change: m.player.score_change,
            level: m.player.new_level,
            levelFrom: m.player.level,
            season: seasonOfHistoryEntry(m.season, source),
            source: 'match' as const,
            matchUid: m.match_uid,
          },
        ]
      : [],
  );
}

/**
 * Oldest first: by season, then by time within a season, so that a point of an earlier season never follows one of a
 * later season whatever its time says. A point of no known season goes by its time among the rest. A new array.
 */
export function sortTimeline<P extends Pick<RankTimelinePoint, 'time' | 'season'>>(points: readonly P[]): P[] {
  const placed = points.filter((x) => x.season !== null).sort((a, b) => a.season!.index - b.season!.index || a.time - b.time);
  const unplaced = points.filter((x) => x.season === null).sort((a, b) => a.time - b.time);
  const out: P[] = [];
  let i = 0;
  for (const point of unplaced) {
    while (i < placed.length && placed[i]!.time <= point.time) out.push(placed[i++]!);
    out.push(point);
  }
  return [...out, ...placed.slice(i)];
}
