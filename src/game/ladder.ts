/**
 * A server's ladder: where each tracked player stands in the current season (their standing), worked out
 * at each tracking read from the profile and the bot's own records of the player.
 */
import type { PlayerProfile } from '../api/schemas.js';
import { metaRole, type MetaRole } from './meta.js';
import { matchMode } from './modes.js';
import { heroSummary } from './profile.js';
import type { RecordedMatch } from './tracking.js';
import { weekChange, type ProfileSnapshot } from './tracking.js';
import type { RankTimelinePoint } from './rank-points.js';

export const LADDER_ROLES = ['Vanguard', 'Duelist', 'Strategist'] as const satisfies readonly MetaRole[];
export const LADDER_PERIODS = ['season', 'week'] as const;
export type LadderPeriod = (typeof LADDER_PERIODS)[number];

/** Rows on one ladder page. */
export const LADDER_PAGE_SIZE = 10;

/**
 * One player's standing in `season` (a season index). `score` and `peak` unrounded rank scores; `weekDelta` the rank
 * score gained in the last 7 days (null when nothing was recorded in or before them); `matches` the ranked
 * matches the bot recorded this season; `role` the role of most play time.
 */
export interface Standing {
  season: number | null;
  tier: string | null;
  score: number | null;
  peak: number | null;
  matches: number;
  role: MetaRole | null;
  weekDelta: number | null;
  private: boolean;
}

/**
 * The role the player spends most time on: hero play time summed by each hero's role (`roleOf`, the hero
 * list's role names), else the profile's own play by role. Null when neither says.
 */
export function mainRole(p: PlayerProfile, roleOf: (heroId: string | null) => string | null): MetaRole | null {
  const sums = new Map<MetaRole, number>();
  for (const h of heroSummary(p).heroes) {
    const role = metaRole(roleOf(h.hero_id));
    if (role) sums.set(role, (sums.get(role) ?? 0) + h.play_time);
  }
  if (sums.size === 0) for (const r of p.overall.roles) if (r.play_time) sums.set(metaRole(r.role) ?? 'Vanguard', r.play_time);
  let best: [MetaRole, number] | null = null;
  for (const entry of sums) if (entry[1] > 0 && (!best || entry[1] > best[1])) best = entry;
  return best?.[0] ?? null;
}

/**
 * A player's standing from their latest snapshot and records. The season peak is the highest of the API's own
 * peak (`apiPeak`), the current score, and the scores after this season's recorded matches. `now` in ms.
 */
export function standingOf(
  current: ProfileSnapshot,
  records: { timeline: readonly RankTimelinePoint[]; matches: readonly RecordedMatch[] },
  extra: { apiPeak: number | null; role: MetaRole | null },
  now: number,
): Standing {
  const season = current.season;
  const ofSeason = records.matches.filter((m) => m.season === season && m.ranked && matchMode(m.modeId).counts);
  const scores = [extra.apiPeak, current.score, ...ofSeason.map((m) => m.newScore)].filter((s): s is number => s !== null && Number.isFinite(s));
  const week = weekChange(records.timeline, records.matches, { score: current.score, tier: current.tier, season }, now);
  return {
    season,
    tier: current.tier,
    score: current.score,
    peak: scores.length > 0 ? Math.max(...scores) : null,
    matches: ofSeason.length,
    role: extra.role,
    weekDelta: week && week.scoreFrom !== null && week.scoreTo !== null ? week.scoreTo - week.scoreFrom : null,
    private: false,
  };
}

/** Why a member of the ladder is not listed, in the order the left-out line names them. */
export const LEFT_OUT_REASONS = ['optedOut', 'unverified', 'private', 'unranked'] as const;
export type LeftOutReason = (typeof LEFT_OUT_REASONS)[number];

/** A member's season as it ended: unrounded scores, `change` the rank score gained over it (null: nothing recorded at its start), `heroes` hero ids by ranked matches. */
export interface SeasonEnd {
  season: number;
  tier: string | null;
  score: number | null;
  peak: number | null;
  matches: number;
  change: number | null;
  heroes: string[];
}

/**
 * What a ladder posts about a member: crossing a tier (Gold I → Platinum III), a season peak in a new division, entering
 * the server's top 3 (`place` 1 to 3, `score` unrounded), or the card of a season they played once it ended.
 */
export type Moment =
  | { kind: 'rank-up' | 'rank-down'; from: string; to: string }
  | { kind: 'peak'; score: number }
  | { kind: 'top3'; place: number; score: number }
  | ({ kind: 'season-end' } & SeasonEnd);
/** The kinds a server turns on or off: `recap` is the weekly recap, the others are moments. */
export const MOMENT_KINDS = ['rank', 'peak', 'top3', 'season-end', 'recap'] as const;
export type MomentKind = (typeof MOMENT_KINDS)[number];

/** The server's switch that posts `m`. */
export function kindOf(m: Moment): MomentKind {
  return m.kind === 'rank-up' || m.kind === 'rank-down' ? 'rank' : m.kind;
}

/** Places that count as the top of a ladder. */
export const TOP_PLACES = 3;

const TIER_GROUPS = ['Bronze', 'Silver', 'Gold', 'Platinum', 'Diamond', 'Grandmaster', 'Celestial', 'Eternity', 'One Above All'];

/** 0 (Bronze) … 8 (One Above All); null for no tier. */
function tierGroup(tier: string | null): number | null {
  if (!tier) return null;
  const i = TIER_GROUPS.findIndex((g) => tier.toLowerCase().startsWith(g.toLowerCase()));
  return i === -1 ? null : i;
}

/**
 * What changed between two standings of one account worth a post: a tier crossed, either way, and a season peak that
 * reached a division the last peak had not (each win raising the peak would post every match). Nothing across seasons
 * or from a first standing, which has nothing to compare with.
 */
export function momentsBetween(prev: Standing | null, next: Standing): Moment[] {
  if (!prev || prev.season === null || prev.season !== next.season || next.private) return [];
  const out: Moment[] = [];
  const [from, to] = [tierGroup(prev.tier), tierGroup(next.tier)];
  if (from !== null && to !== null && from !== to) {
    const up = to > from;
    // A tier that changed while the score stood still or moved the other way is a reading corrected (a standing once
    // recorded from the API's rank text, which can name an earlier season's level), not a tier the player crossed.
    const corrected = prev.score !== null && next.score !== null && (up ? next.score <= prev.score : next.score >= prev.score);
    if (!corrected) out.push({ kind: up ? 'rank-up' : 'rank-down', from: prev.tier!, to: next.tier! });
  }
  if (prev.peak !== null && next.peak !== null && Math.floor(next.peak / 100) > Math.floor(prev.peak / 100)) out.push({ kind: 'peak', score: next.peak });
  return out;
}

/** A season that ended between two standings of one account, when the player played ranked in it: the card's facts but its heroes and change. */
export function seasonEnded(prev: Standing | null, next: Standing): Omit<SeasonEnd, 'heroes' | 'change'> | null {
  if (!prev || prev.season === null || next.season === null || next.season <= prev.season || prev.matches === 0) return null;
  return { season: prev.season, tier: prev.tier, score: prev.score, peak: prev.peak, matches: prev.matches };
}

/**
 * A moment's identity on one account: the same change read twice (two processes, a retry) is one moment. A member
 * entering the top 3 is posted at most once a day (`now` ms), however often they move in and out of it.
 */
export function momentId(uid: string, season: number, m: Moment, now = 0): string {
  switch (m.kind) {
    case 'peak':
      return `peak:${uid}:${season}:${Math.floor(m.score / 100)}`;
    case 'top3':
      return `top3:${uid}:${season}:${Math.floor(now / 86_400_000)}`;
    case 'season-end':
      return `season-end:${uid}:${m.season}`;
    default:
      return `${m.kind}:${uid}:${season}:${m.to}`;
  }
}
