/**
 * A player's rank timeline: the rank score after each competitive match, each point with its true
 * season and time, from every source the profile holds:
 * - its embedded recent matches: `player_performance.new_score` and `score_change` after each
 *   competitive match (one point per match, the densest source);
 * - its `rank_history` (0 or 1 entries on most real profiles);
 * - its ranked seasons (`rank_game_season`): the score at each season's last change (`update_time`).
 * A `rank_history` entry names no season. It belongs to the season whose last change is the first at
 * or after it: an earlier season ended before it, and its own season changed at it or later.
 */
import type { PlayerProfile } from '../api/schemas.js';
import { seasonRanks } from './profile.js';
import { matchRankPoints, type RankTimelinePoint } from './rank-points.js';
import type { Season } from './seasons.js';

export { matchRankPoints, type RankTimelinePoint } from './rank-points.js';

/**
 * The profile's rank timeline, oldest first, each time once (a match's own point wins over a
 * `rank_history` entry of the same time, which wins over a season's last change). `extra` adds points
 * the caller holds (a history page's matches).
 */
export function rankTimeline(p: PlayerProfile, extra: readonly RankTimelinePoint[] = []): RankTimelinePoint[] {
  const seasons = seasonRanks(p).filter((s) => s.updatedAt !== null && s.score !== null);
  const byLastChange = [...seasons].sort((a, b) => a.updatedAt! - b.updatedAt!);
  const fromMatches = [...matchRankPoints(p.recent_matches, 'profile'), ...extra];
  const matchSeason = new Map(fromMatches.filter((x) => x.season).map((x) => [x.time, x.season!]));
  const seasonAt = (time: number): Season | null => matchSeason.get(time) ?? byLastChange.find((s) => s.updatedAt! >= time)?.season ?? null;
  const fromHistory: RankTimelinePoint[] = p.rank_history.flatMap((r) =>
    r.time !== null && r.total_score !== null && Number.isFinite(r.time) && Number.isFinite(r.total_score)
      ? [
          {
            time: r.time,
            score: r.total_score,
            change: r.add_score,
            level: r.level_to,
            levelFrom: r.level_from,
            season: seasonAt(r.time),
            source: 'rank-history' as const,
          },
        ]
      : [],
  );
  // A season never played still lists its starting 3,000 with no win: no point of the timeline.
  const fromSeasons: RankTimelinePoint[] = seasons
    .filter((s) => !(s.wins === 0 && s.score === 3000))
    .map((s) => ({ time: s.updatedAt!, score: s.score!, change: null, level: s.level, levelFrom: null, season: s.season, source: 'season' as const }));
  const byTime = new Map<number, RankTimelinePoint>();
  for (const point of [...fromMatches, ...fromHistory, ...fromSeasons]) if (!byTime.has(point.time)) byTime.set(point.time, point);
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}
