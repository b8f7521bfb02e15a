/**
 * Rank points: the rank score after a change, with its season and time. The points of competitive
 * matches are here, apart from the timeline (src/game/rank-timeline.ts), so that the profile's own
 * rank (src/game/profile.ts) reads the newest of them without the timeline.
 */
import type { MatchSummary } from '../api/schemas.js';
import { matchMode } from './modes.js';
import { seasonOfHistoryEntry, type HistorySource, type Season } from './seasons.js';

/** One point of a rank timeline. */
export interface RankTimelinePoint {
  /** Unix seconds. */
  time: number;
  /** Rank score after the change, unrounded. */
  score: number;
  /** The change that led here; null when the source does not say. */
  change: number | null;
  /** Level (tier index, src/game/ranks.ts) after the change; null when unknown. */
  level: number | null;
  /** Level before the change; null when unknown. */
  levelFrom: number | null;
  /** Null only when no source places the point in a season. */
  season: Season | null;
  source: 'match' | 'rank-history' | 'season';
  /** The match's UID, for points from a match. */
  matchUid?: string;
}

/**
 * Points from competitive matches that state their score after the match. Only competitive matches:
 * Quick Play rows carry a `new_score` of their own on another scale.
 */
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
