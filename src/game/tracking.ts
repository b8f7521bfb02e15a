/**
 * What one tracking read of a profile records, and when the player is read next. A profile's
 * `rank_history` is nearly empty on real profiles; its embedded matches carry the rank score after
 * each one (`new_score`), so the bot keeps both a snapshot of the profile and every match once.
 */
import type { PlayerProfile } from '../api/schemas.js';
import { matchUidMapId } from './match-uid.js';
import { matchMode, type MapModeRow } from './modes.js';
import { currentSeason, rankSummary } from './profile.js';
import { sortTimeline, type RankTimelinePoint } from './rank-points.js';
import { levelOfTier, shownLevel, tierOf } from './ranks.js';
import { seasonFromIndex, seasonOfHistoryEntry } from './seasons.js';

/** Where a player stands at one read. `season` a season index; `score` unrounded; totals over all modes. */
export interface ProfileSnapshot {
  season: number | null;
  tier: string | null;
  score: number | null;
  /** The account level. */
  level: number | null;
  matches: number;
  wins: number;
  rankedMatches: number;
  rankedWins: number;
  /**
   * When the rank it holds was reached, Unix seconds (`RankSummary.reachedAt`: the match that produced it, else the
   * profile's own update time), not when it was read. Null: nothing said; absent: recorded before it was kept.
   */
  reachedAt?: number | null;
}

/** One embedded match as recorded: `time` in Unix seconds, `season` a season index, `newScore` the rank score after it. */
export interface RecordedMatch {
  matchUid: string;
  time: number;
  season: number | null;
  modeId: number | null;
  ranked: boolean;
  heroId: string | null;
  /** True a win, false a loss; null for a draw or no result. */
  won: boolean | null;
  /** A draw (docs/data.md "A draw is is_win.score 2"); absent for none, and for a draw recorded before draws were kept apart (then a loss). */
  drawn?: boolean;
  /** The map id of its history row; absent or null when the row named none, or for a match recorded before maps were kept. */
  mapId?: string | null;
  newScore: number | null;
  scoreChange: number | null;
  newLevel: number | null;
  kills: number;
  deaths: number;
  assists: number;
  /**
   * The player was the match's MVP (`mvp_uid`). On every sample match the MVP is on the winning side and the SVP
   * (`svp_uid`) on the losing one (34 of 34 and 26 of 26 rows), so this is the winners' MVP. Absent: not recorded.
   */
  mvp?: boolean;
}

export type TrackingRead =
  | { kind: 'private' }
  /** `reason` says which invariant the profile broke: nothing of it is recorded. */
  | { kind: 'malformed'; reason: string }
  | { kind: 'read'; snapshot: ProfileSnapshot; matches: RecordedMatch[]; lastMatchAt: number | null };

/** Rank scores seen run from 0 to about 6,000; far outside that is a misread, not a rank. */
const MAX_PLAUSIBLE_SCORE = 100_000;

/**
 * The snapshot and matches of a profile, checked against the profile's own invariants: wins never
 * above matches (overall and ranked), a score a finite number in range, a match time a Unix time.
 * A private profile (`isPrivate`) is never recorded.
 */
export function readForTracking(p: PlayerProfile): TrackingRead {
  if (p.is_private) return { kind: 'private' };
  const rank = rankSummary(p);
  const ranked = p.overall.ranked;
  const snapshot: ProfileSnapshot = {
    season: (rank.season ?? currentSeason(p))?.index ?? null,
    tier: rank.tier,
    score: rank.score,
    level: p.level,
    matches: p.overall.total_matches,
    wins: p.overall.total_wins,
    rankedMatches: ranked?.matches ?? 0,
    rankedWins: ranked?.wins ?? 0,
    reachedAt: rank.reachedAt,
  };
  if (snapshot.wins > snapshot.matches) return { kind: 'malformed', reason: `wins ${snapshot.wins} above matches ${snapshot.matches}` };
  if (snapshot.rankedWins > snapshot.rankedMatches)
    return { kind: 'malformed', reason: `ranked wins ${snapshot.rankedWins} above ranked matches ${snapshot.rankedMatches}` };
  if (snapshot.score !== null && !(Number.isFinite(snapshot.score) && snapshot.score >= 0 && snapshot.score < MAX_PLAUSIBLE_SCORE))
    return { kind: 'malformed', reason: `rank score ${snapshot.score}` };
  const matches: RecordedMatch[] = [];
  for (const m of p.recent_matches) {
    if (!m.match_uid || m.time === null || !Number.isFinite(m.time) || m.time <= 0) continue;
    const mode = matchMode(m.game_mode_id, m.play_mode_id);
    const newScore = mode.ranked ? m.player.new_score : null;
    if (newScore !== null && !(Number.isFinite(newScore) && newScore >= 0 && newScore < MAX_PLAUSIBLE_SCORE))
      return { kind: 'malformed', reason: `match ${m.match_uid}: rank score ${newScore}` };
    matches.push({
      matchUid: m.match_uid,
      time: m.time,
      season: seasonOfHistoryEntry(m.season, 'profile')?.index ?? null,
      modeId: mode.id,
      ranked: mode.ranked,
      heroId: m.player.hero_id,
      won: m.player.is_win,
      drawn: m.player.result === 'draw',
      mapId: m.map_id,
      newScore,
      // Quick Play rows carry a score change on another scale.
      scoreChange: mode.ranked ? m.player.score_change : null,
      newLevel: mode.ranked ? m.player.new_level : null,
      kills: m.player.kills,
      deaths: m.player.deaths,
      assists: m.player.assists,
      mvp: m.mvp_uid !== null && m.mvp_uid !== undefined && String(m.mvp_uid) === (m.player.uid ?? String(p.uid)),
    });
  }
  const lastMatchAt = matches.reduce<number | null>((latest, m) => (latest === null || m.time > latest ? m.time : latest), null);
  return { kind: 'read', snapshot, matches, lastMatchAt };
}

/**
 * `rows`, then each recorded match none of them holds, as a row for `modesByMap` (src/game/modes.ts): its map from its uid
 * (src/game/match-uid.ts: an older uid names none, and its match then says nothing of a map) and its recorded mode. A
 * recorded match keeps no `play_mode_id`, so the API's own row of a match, when there is one, is the one kept.
 */
export function withRecordedMatches(rows: readonly MapModeRow[], recorded: readonly RecordedMatch[]): MapModeRow[] {
  const known = new Set(rows.map((r) => r.match_uid));
  const more = recorded
    .filter((m) => !known.has(m.matchUid))
    .map((m): MapModeRow => ({ match_uid: m.matchUid, map_id: matchUidMapId(m.matchUid), game_mode_id: m.modeId, play_mode_id: null }));
  return [...rows, ...more];
}

/** Whether two snapshots say the same: a read that changes nothing stores no snapshot. */
export function sameSnapshot(a: ProfileSnapshot, b: ProfileSnapshot): boolean {
  return (
    a.season === b.season &&
    a.tier === b.tier &&
    a.score === b.score &&
    a.level === b.level &&
    a.matches === b.matches &&
    a.wins === b.wins &&
    a.rankedMatches === b.rankedMatches &&
    a.rankedWins === b.rankedWins
  );
}

export interface IntervalBounds {
  /** ms (`TRACKING_MIN_INTERVAL_SECONDS`). */
  minMs: number;
  /** ms (`TRACKING_MAX_INTERVAL_SECONDS`). */
  maxMs: number;
}

/**
 * ms until the next read. A player who played recently is read more often: a quarter of the time
 * since their last match. A read that showed no change doubles the interval, up to the longest.
 * `lastMatchAt` in Unix seconds (null: unknown), `now` in ms.
 */
export function nextInterval(
  read: { changed: boolean; previousMs: number | null; lastMatchAt: number | null; now: number },
  { minMs, maxMs }: IntervalBounds,
): number {
  const clamp = (ms: number) => Math.min(maxMs, Math.max(minMs, Math.round(ms)));
  const byActivity = read.lastMatchAt === null ? maxMs : clamp((read.now - read.lastMatchAt * 1000) / 4);
  if (read.changed || read.previousMs === null) return byActivity;
  return clamp(Math.max(read.previousMs * 2, byActivity));
}

/**
 * A tracked player's records as timeline points, oldest first ({@link sortTimeline}): every ranked match's score after it,
 * and each snapshot's score. A snapshot is dated by when its rank was reached (`reachedAt`), never later than its read;
 * one recorded before that was kept, by the recorded match of its season that left the same score, else by its read.
 */
export function trackedTimelinePoints(snapshots: readonly (ProfileSnapshot & { at: number })[], matches: readonly RecordedMatch[]): RankTimelinePoint[] {
  const fromMatches = matches.flatMap((m) =>
    m.ranked && m.newScore !== null
      ? [
          {
            time: m.time,
            score: m.newScore,
            change: m.scoreChange,
            level: m.newLevel,
            levelFrom: null,
            season: seasonFromIndex(m.season),
            source: 'match' as const,
            matchUid: m.matchUid,
          },
        ]
      : [],
  );
  const fromSnapshots = snapshots.flatMap((s) =>
    s.score === null
      ? []
      : [
          {
            time: snapshotTime(s, fromMatches),
            score: s.score,
            change: null,
            // The division recorded, read with its score by the one rule: a week's tier then counts a division kept below
            // its floor as the header does, and a tier once recorded from the API's stale rank text does not come back.
            level: shownLevel(levelOfTier(s.tier), s.score),
            levelFrom: null,
            season: seasonFromIndex(s.season),
            source: 'snapshot' as const,
          },
        ],
  );
  return sortTimeline([...fromMatches, ...fromSnapshots]);
}

/** Unix seconds: see {@link trackedTimelinePoints}. */
function snapshotTime(s: ProfileSnapshot & { at: number }, matches: readonly RankTimelinePoint[]): number {
  const readAt = Math.floor(s.at / 1000);
  if (s.reachedAt !== undefined && s.reachedAt !== null) return Math.min(s.reachedAt, readAt);
  let producedBy: number | null = null;
  for (const m of matches) {
    if (m.season?.index === s.season && m.time <= readAt && Math.abs(m.score - s.score!) < 1e-6 && (producedBy === null || m.time > producedBy))
      producedBy = m.time;
  }
  return producedBy ?? readAt;
}

/** The last 7 days of a tracked player: `since` in Unix seconds (later than a week ago when tracking began after it). */
export interface WeekChange {
  since: number;
  /** Whether the records reach a full week back. */
  fullWeek: boolean;
  scoreFrom: number | null;
  scoreTo: number | null;
  tierFrom: string | null;
  tierTo: string | null;
  /** Matches that count (no practice, no unknown mode) and their wins. */
  matches: number;
  wins: number;
}

const WEEK_S = 7 * 24 * 60 * 60;

/**
 * What changed in the 7 days before `now` (ms): the rank score and tier from the last point at or before a week ago (else
 * the first point since) to `current`, and the matches played. Points of another season than `current`'s are not compared.
 * Null when nothing was recorded in or before the week.
 */
export function weekChange(
  timeline: readonly RankTimelinePoint[],
  matches: readonly RecordedMatch[],
  current: { score: number | null; tier: string | null; season: number | null },
  now: number,
): WeekChange | null {
  const weekAgo = Math.floor(now / 1000) - WEEK_S;
  const inSeason = timeline.filter((p) => current.season === null || p.season?.index === current.season);
  const before = inSeason.filter((p) => p.time <= weekAgo).at(-1);
  const from = before ?? inSeason.find((p) => p.time > weekAgo);
  const played = matches.filter((m) => m.time > weekAgo && matchMode(m.modeId).counts);
  if (!from && played.length === 0) return null;
  const since = before ? weekAgo : Math.min(from?.time ?? Number.POSITIVE_INFINITY, ...played.map((m) => m.time));
  return {
    since,
    fullWeek: before !== undefined,
    scoreFrom: from?.score ?? null,
    scoreTo: current.score,
    tierFrom: from ? tierOf(from.level, from.score) : null,
    tierTo: current.tier,
    matches: played.length,
    wins: played.filter((m) => m.won === true).length,
  };
}
