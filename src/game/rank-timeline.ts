/**
 * Rank timeline from recent matches, `rank_history` and each season's last change. A `rank_history` entry
 * names no season: it belongs to the first season whose last change is at or after it. Each point is dated by when
 * its rank was reached (a match's time, a season's `update_time`), never by when the bot read it (docs/data.md).
 */
import type { PlayerProfile } from '../api/schemas.js';
import { rankSummary, seasonRanks } from './profile.js';
import { matchRankPoints, sortTimeline, type RankTimelinePoint } from './rank-points.js';
import { levelOfTier, tierOf } from './ranks.js';
import type { Season } from './seasons.js';

export { matchRankPoints, sortTimeline, type RankTimelinePoint } from './rank-points.js';

/**
 * The rank the profile's header shows ({@link rankSummary}) as a point: its score, its tier's level, its season, at the
 * time it was reached (`reachedAt`). Null when the header has no score or nothing dates it.
 */
export function currentRankPoint(p: PlayerProfile): RankTimelinePoint | null {
  const rank = rankSummary(p);
  if (rank.score === null || rank.reachedAt === null) return null;
  return { time: rank.reachedAt, score: rank.score, change: null, level: levelOfTier(rank.tier), levelFrom: null, season: rank.season, source: 'season' };
}

/** Whether two points show one rank: one season, one score, one tier by the header's rule. */
function sameRank(a: RankTimelinePoint, b: RankTimelinePoint): boolean {
  return a.season?.index === b.season?.index && Math.abs(a.score - b.score) < 1e-6 && tierOf(a.level, a.score) === tierOf(b.level, b.score);
}

/**
 * Oldest first ({@link sortTimeline}: by season, then time), each time once (match beats `rank_history` beats season beats
 * snapshot); `extra` adds a history page's points or the bot's own records. A snapshot that repeats the score before it
 * in its season adds nothing and is left out. The newest point is always the header's rank ({@link currentRankPoint}):
 * a point dated after it (a record of a read newer than the profile shown) or of a later season is left out.
 */
export function rankTimeline(p: PlayerProfile, extra: readonly RankTimelinePoint[] = []): RankTimelinePoint[] {
  const seasons = seasonRanks(p).filter((s) => s.updatedAt !== null && s.score !== null);
  const byLastChange = [...seasons].sort((a, b) => a.updatedAt! - b.updatedAt!);
  const fromMatches = [...matchRankPoints(p.recent_matches, 'profile'), ...extra.filter((x) => x.source !== 'snapshot')];
  const snapshots = extra.filter((x) => x.source === 'snapshot');
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
  for (const point of [...fromMatches, ...fromHistory, ...fromSeasons, ...snapshots]) if (!byTime.has(point.time)) byTime.set(point.time, point);
  const lastScore = new Map<number | null, number>();
  const points = sortTimeline([...byTime.values()]).filter((point) => {
    const key = point.season?.index ?? null;
    const repeats = point.source === 'snapshot' && lastScore.has(key) && Math.abs(lastScore.get(key)! - point.score) < 0.5;
    lastScore.set(key, point.score);
    return !repeats;
  });
  const current = currentRankPoint(p);
  if (!current) return points;
  const upTo = points.filter(
    (x) =>
      (x.time < current.time || (x.time === current.time && sameRank(x, current))) &&
      (x.season === null || current.season === null || x.season.index <= current.season.index),
  );
  const last = upTo.at(-1);
  return last && sameRank(last, current) ? upTo : [...upTo, current];
}
