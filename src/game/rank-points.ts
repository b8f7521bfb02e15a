/** Rank points of matches, apart from the timeline so that profile.ts can read them without a cycle. */
import type { MatchSummary } from '../api/schemas.js';
import { matchMode } from './modes.js';
import { seasonOfHistoryEntry, type HistorySource, type Season } from './seasons.js';

/** `time` in Unix seconds; `score` unrounded; `level` as in ranks.ts. */
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
