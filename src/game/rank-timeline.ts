/**
 * Rank timeline from recent matches, `rank_history` and each season's last change. A `rank_history` entry
 * names no season: it belongs to the first season whose last change is at or after it.
 */
import type { PlayerProfile } from '../api/schemas.js';
import { seasonRanks } from './profile.js';
import { matchRankPoints, type RankTimelinePoint } from './rank-points.js';
import type { Season } from './seasons.js';

export { matchRankPoints, type RankTimelinePoint } from './rank-points.js';

/**
 * Oldest first, each time once (match beats `rank_history` beats season); `extra` adds a history page's points or the
 * bot's own records. A snapshot that repeats the score before it in its season adds nothing and is left out.
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
  const sorted = [...byTime.values()].sort((a, b) => a.time - b.time);
  const lastScore = new Map<number | null, number>();
  return sorted.filter((point) => {
    const key = point.season?.index ?? null;
    const repeats = point.source === 'snapshot' && lastScore.has(key) && Math.abs(lastScore.get(key)! - point.score) < 0.5;
    lastScore.set(key, point.score);
    return !repeats;
  });
}
