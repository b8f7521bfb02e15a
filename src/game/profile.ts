/**
 * A player profile at a glance (api-spec.md "Player profile"). Reads both shapes the API serves: score and
 * peaks only in `rank_game_season`, or also in `rank.score` and `rank.peak_rank`.
 */
import type { MatchSummary, PlayerProfile } from '../api/schemas.js';
import { tr } from '../i18n/index.js';
import { roleName, tierName } from '../i18n/names.js';
import { levelOfTier, TIER_COLOURS, tierBadge, tierGroup, tierOf, tierOfLevel } from './ranks.js';
import { latestSeason, seasonFromIndex, seasonFromRankGame, seasonOfHistoryEntry, type Season } from './seasons.js';
import { matchMode } from './modes.js';
import { matchRankPoints, type RankTimelinePoint } from './rank-points.js';
import { newestUpdateTime } from './update-times.js';

/** One `rank_game_season` entry. `score` unrounded; `updatedAt` in Unix seconds. */
export interface SeasonRank {
  season: Season;
  tier: string | null;
  level: number | null;
  score: number | null;
  peakTier: string | null;
  peakScore: number | null;
  /**
   * `win_count`: the season's competitive wins as the game counts them, over the whole season to `updatedAt`; draws and
   * other modes are not counted. The profile's ranked totals can hold fewer: only the matches the API recorded (docs/data.md).
   */
  wins: number | null;
  updatedAt: number | null;
  /** `protect_score`: the Chrono Shield's state (docs/data.md). */
  shield: number | null;
}

/**
 * `tier` the tier shown ("Grandmaster III"; null when unranked); `score` unrounded; `image` the tier's badge, an absolute URL; `color` the badge's colour ("#EB46FF").
 */
export interface RankSummary {
  tier: string | null;
  score: number | null;
  season: Season | null;
  image: string | null;
  color: string | null;
  seasonPeak: { tier: string | null; score: number | null } | null;
  allTimePeak: { tier: string | null; score: number; season: Season } | null;
  /**
   * When `score` was reached, Unix seconds: the competitive match that produced it, else the season's `update_time` (the
   * time of the match that last moved it), else the profile's newest update time ({@link newestUpdate}); never later
   * than that. Null when nothing says. A profile changes only when an update is asked, so this is not when it was read.
   */
  reachedAt: number | null;
}

/** Oldest first; entries whose season cannot be read are dropped. */
export function seasonRanks(p: PlayerProfile): SeasonRank[] {
  return p.rank_seasons
    .flatMap((r) => {
      const season = seasonFromRankGame(r.rank_game_id, r.game_id);
      if (!season) return [];
      return [
        {
          season,
          tier: tierOf(r.level, r.rank_score),
          level: r.level,
          score: r.rank_score,
          peakTier: tierOf(r.max_level, r.max_rank_score),
          peakScore: r.max_rank_score,
          wins: r.win_count,
          updatedAt: r.update_time,
          shield: r.protect_score,
        },
      ];
    })
    .sort((a, b) => a.season.index - b.season.index);
}

/**
 * The ranked seasons as the profile shows them, oldest first ({@link seasonRanks}), the latest at the header's rank: its
 * tier, level, score and season peak from {@link rankSummary}, `updatedAt` its `reachedAt`, and `wins` adding the
 * competitive wins of the season's matches newer than its entry, which `win_count` was read before.
 */
export function rankedSeasons(p: PlayerProfile): SeasonRank[] {
  const seasons = seasonRanks(p);
  const latest = seasons.at(-1);
  if (!latest) return seasons;
  const now = rankSummary(p);
  const peak = now.seasonPeak?.score != null ? now.seasonPeak : null;
  const after = latest.updatedAt;
  const newerWins =
    after === null
      ? 0
      : p.recent_matches.filter(
          (m) =>
            matchMode(m.game_mode_id).ranked &&
            m.player.is_win === true &&
            m.time !== null &&
            m.time > after &&
            seasonOfHistoryEntry(m.season, 'profile')?.index === latest.season.index,
        ).length;
  const shown: SeasonRank = {
    ...latest,
    tier: now.tier,
    level: levelOfTier(now.tier),
    score: now.score,
    peakTier: peak ? peak.tier : latest.peakTier,
    peakScore: peak ? peak.score : latest.peakScore,
    wins: latest.wins === null ? null : latest.wins + newerWins,
    updatedAt: now.reachedAt ?? latest.updatedAt,
  };
  return [...seasons.slice(0, -1), shown];
}

/** The latest season of its ranked seasons and recent matches; null when neither says. */
export function currentSeason(p: PlayerProfile): Season | null {
  return latestSeason([...seasonRanks(p).map((s) => s.season), ...p.recent_matches.map((m) => seasonFromIndex(m.season))]);
}

/**
 * The rank a profile shows: for the current season, or `season` when asked. This is the one source of the tier shown
 * everywhere (the /player title, badge and card, /compare, /scout, and through src/game/tracking.ts the ladder, rank
 * roles and moments). The tier is the season's `level` read with its score ({@link tierOf}); a competitive match newer
 * than the season's entry gives both instead. The API's rank text (`player.rank.rank`) can name an earlier season's
 * level, or "Invalid level" (docs/data.md): it is read only for a profile that lists no ranked season, and then checked
 * against the API's score as a season's level is. The badge and its colour are the tier's, not the API's when that names another tier.
 */
export function rankSummary(p: PlayerProfile, season?: Season | null): RankSummary {
  const seasons = seasonRanks(p);
  const latest = seasons.at(-1) ?? null;
  const entry = season ? (seasons.find((s) => s.season.index === season.index) ?? null) : latest;
  const asked = season !== undefined && season !== null;
  const current = !asked || (latest !== null && entry === latest);
  // The level and the score of one moment, read together: the season's entry, else (no ranked season listed) the API's own.
  const fromApi = current && !entry;
  let level = fromApi ? levelOfTier(p.rank.name) : (entry?.level ?? null);
  let score = fromApi ? p.rank.score : (entry?.score ?? null);
  const peakFromApi = current && p.rank.peak ? { tier: tierOf(levelOfTier(p.rank.peak.name), p.rank.peak.score), score: p.rank.peak.score } : null;
  let seasonPeak = peakFromApi ?? (entry && entry.peakScore !== null ? { tier: entry.peakTier, score: entry.peakScore } : null);
  // A profile can embed a match played after its rank was stored: that match holds the current score.
  const newer = entry ? newestRankedMatch(p, entry.season, entry.updatedAt) : null;
  if (newer) {
    level = newer.level;
    score = newer.score;
  }
  const tier = tierOf(level, score);
  if (newer && (!seasonPeak || (seasonPeak.score !== null && newer.score > seasonPeak.score))) seasonPeak = { tier, score: newer.score };
  let allTimePeak: RankSummary['allTimePeak'] = null;
  for (const s of seasons) {
    if (s.peakScore !== null && (!allTimePeak || s.peakScore > allTimePeak.score)) allTimePeak = { tier: s.peakTier, score: s.peakScore, season: s.season };
  }
  // The API's own peak can be above the season entries (captured at different moments).
  if (peakFromApi?.score != null && latest && (!allTimePeak || peakFromApi.score > allTimePeak.score)) {
    allTimePeak = { tier: peakFromApi.tier, score: peakFromApi.score, season: latest.season };
  }
  const group = tierGroup(tier);
  const badge = tierBadge(tier, p.rank.image);
  const updated = newestUpdate(p);
  const reached = newer?.time ?? (fromApi ? updated : (entry?.updatedAt ?? null));
  // The API's colour goes with its badge: kept when that badge is the tier's.
  const apiColour = badge !== null && badge === p.rank.image ? p.rank.color : null;
  return {
    tier,
    score,
    season: entry?.season ?? (asked ? season : null),
    // The API's badge is the current rank's: not for another season.
    image: current ? badge : null,
    color: apiColour ?? (group ? TIER_COLOURS[group] : null),
    seasonPeak,
    allTimePeak,
    reachedAt: reached !== null && updated !== null ? Math.min(reached, updated) : reached,
  };
}

/** `after` in Unix seconds. */
function newestRankedMatch(p: PlayerProfile, season: Season, after: number | null): RankTimelinePoint | null {
  let best: RankTimelinePoint | null = null;
  for (const point of matchRankPoints(p.recent_matches, 'profile')) {
    if (point.season?.index === season.index && (after === null || point.time > after) && (!best || point.time > best.time)) best = point;
  }
  return best;
}

/** Ranked and unranked lists added up. */
export interface HeroTotals {
  hero_id: string | null;
  hero_name: string | null;
  matches: number;
  wins: number;
  kills: number;
  deaths: number;
  assists: number;
  /** Seconds. */
  play_time: number;
  damage: number | null;
  heal: number | null;
  damage_taken: number | null;
}

export const hasPlay = (h: { matches: number; play_time: number | null }): boolean => h.matches > 0 || (h.play_time ?? 0) > 0;

/** Hero rows of one list or both, added up by hero; most play time first. */
function addUp(rows: readonly PlayerProfile['heroes_ranked'][number][]): HeroTotals[] {
  const byHero = new Map<string, HeroTotals>();
  const add = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));
  for (const h of rows) {
    if (!hasPlay(h)) continue;
    const key = h.hero_id ?? h.hero_name ?? '?';
    const t = byHero.get(key);
    if (!t) {
      byHero.set(key, {
        hero_id: h.hero_id,
        hero_name: h.hero_name,
        matches: h.matches,
        wins: h.wins,
        kills: h.kills,
        deaths: h.deaths,
        assists: h.assists,
        play_time: h.play_time ?? 0,
        damage: h.damage,
        heal: h.heal,
        damage_taken: h.damage_taken,
      });
    } else {
      t.matches += h.matches;
      t.wins += h.wins;
      t.kills += h.kills;
      t.deaths += h.deaths;
      t.assists += h.assists;
      t.play_time += h.play_time ?? 0;
      t.damage = add(t.damage, h.damage);
      t.heal = add(t.heal, h.heal);
      t.damage_taken = add(t.damage_taken, h.damage_taken);
    }
  }
  return [...byHero.values()].sort((a, b) => b.play_time - a.play_time || b.matches - a.matches);
}

/**
 * Most play time first. Heroes with play time but no completed match stay: real profiles hold a real share
 * of their play time in them (docs/data.md, "What the API's fields mean").
 */
export function heroTotals(p: PlayerProfile): HeroTotals[] {
  return addUp([...p.heroes_ranked, ...p.heroes_unranked]);
}

/** For profiles with empty hero lists (seen in real captures): no damage figures; practice left out; `keep` picks the rows. */
export function heroTotalsFromMatches(p: PlayerProfile, keep: (m: MatchSummary) => boolean = () => true): HeroTotals[] {
  const byHero = new Map<string, HeroTotals>();
  for (const m of p.recent_matches) {
    if (matchMode(m.game_mode_id, m.play_mode_id).practice || !keep(m)) continue;
    const key = m.player.hero_id ?? m.player.hero_name;
    if (key === null) continue;
    const t = byHero.get(key) ?? {
      hero_id: m.player.hero_id,
      hero_name: m.player.hero_name,
      matches: 0,
      wins: 0,
      kills: 0,
      deaths: 0,
      assists: 0,
      play_time: 0,
      damage: null,
      heal: null,
      damage_taken: null,
    };
    t.matches += 1;
    t.wins += m.player.is_win === true ? 1 : 0;
    t.kills += m.player.kills;
    t.deaths += m.player.deaths;
    t.assists += m.player.assists;
    t.play_time += m.player.play_time ?? m.duration ?? 0;
    byHero.set(key, t);
  }
  return [...byHero.values()].sort((a, b) => b.play_time - a.play_time || b.matches - a.matches);
}

/** Every mode's heroes: the hero lists added up, else the recent matches (practice left out). */
export function heroSummary(p: PlayerProfile): { heroes: HeroTotals[]; source: 'lists' | 'recent' } {
  const lists = heroTotals(p);
  return lists.length > 0 ? { heroes: lists, source: 'lists' } : { heroes: heroTotalsFromMatches(p), source: 'recent' };
}

/**
 * The heroes a profile's front page shows beside its ranked record, and the mode they count. `mode` 'ranked': the ranked
 * hero list, whose matches and wins are the ranked totals' on every real profile; 'unranked' when the player has no ranked
 * hero. `source` 'recent' when both lists are empty: the recent matches of that mode (`matches` of them, practice left out).
 */
export interface TopHeroes {
  heroes: HeroTotals[];
  mode: 'ranked' | 'unranked';
  source: 'lists' | 'recent';
  /** The recent matches counted; 0 for the lists. */
  matches: number;
}

/** See {@link TopHeroes}. */
export function topHeroes(p: PlayerProfile): TopHeroes {
  const ranked = addUp(p.heroes_ranked);
  if (ranked.length > 0) return { heroes: ranked, mode: 'ranked', source: 'lists', matches: 0 };
  const unranked = addUp(p.heroes_unranked);
  if (unranked.length > 0) return { heroes: unranked, mode: 'unranked', source: 'lists', matches: 0 };
  const isRanked = (m: MatchSummary) => matchMode(m.game_mode_id, m.play_mode_id).ranked;
  const mode = p.recent_matches.some(isRanked) ? 'ranked' : 'unranked';
  const heroes = heroTotalsFromMatches(p, (m) => isRanked(m) === (mode === 'ranked'));
  return { heroes, mode, source: 'recent', matches: heroes.reduce((n, h) => n + h.matches, 0) };
}

/** Seconds. */
export function totalPlayTime(p: PlayerProfile): number {
  return p.overall.ranked.play_time + p.overall.unranked.play_time;
}

/** One part of {@link playTimeByRole}. */
export interface RoleShare {
  /** The role's name in the current locale, "Unknown role", or "Not in the hero lists". */
  role: string;
  /** The hero list's role ("Duelist"), for its colour; null for time of no known role. */
  key: string | null;
  /** Seconds. */
  seconds: number;
  /** 0–1: of the time the split covers (its parts add up to 1). */
  share: number;
}

/**
 * Play time by role, most first: the one split the profile's embed and its card show. From the hero lists (every mode),
 * else the recent matches (practice left out), else the profile's own `roles_played`. Real hero lists can fall short of
 * the totals: the rest shows as "Not in the hero lists", so the shares are of the profile's total play time.
 */
export function playTimeByRole(p: PlayerProfile, roleOf: (heroId: string | null) => string | null): RoleShare[] {
  const sums = new Map<string, { key: string | null; seconds: number }>();
  const unknown = tr('player:unknownRole');
  const put = (key: string | null, seconds: number) => {
    const role = roleName(key) ?? unknown;
    const sum = sums.get(role) ?? { key: roleName(key) === null ? null : key, seconds: 0 };
    sum.seconds += seconds;
    sums.set(role, sum);
  };
  const summary = heroSummary(p);
  for (const h of summary.heroes) put(roleOf(h.hero_id), h.play_time);
  if (sums.size === 0) {
    for (const r of p.overall.roles) if (r.play_time) put(r.role.charAt(0).toUpperCase() + r.role.slice(1), r.play_time);
  }
  const named = [...sums.values()].reduce((s, v) => s + v.seconds, 0);
  const total = totalPlayTime(p);
  if (summary.source === 'lists' && total - named > total * 0.005) sums.set(tr('player:unlistedTime'), { key: null, seconds: total - named });
  const parts = [...sums.entries()].filter(([, s]) => s.seconds > 0);
  const covered = parts.reduce((s, [, v]) => s + v.seconds, 0);
  return parts.map(([role, { key, seconds }]) => ({ role, key, seconds, share: seconds / covered })).sort((a, b) => b.seconds - a.seconds);
}

export interface PerTenMinutes {
  damage: number | null;
  heal: number | null;
  damage_taken: number | null;
}

/** The profile's own per-minute figures × 10, else from the hero lists; null when neither has data. */
export function perTenMinutes(p: PlayerProfile): PerTenMinutes | null {
  const stated = p.overall.per_minute;
  if (stated && (stated.damage !== null || stated.heal !== null || stated.damage_taken !== null)) {
    const ten = (v: number | null) => (v === null ? null : v * 10);
    return { damage: ten(stated.damage), heal: ten(stated.heal), damage_taken: ten(stated.damage_taken) };
  }
  const heroes = heroTotals(p);
  const seconds = heroes.reduce((s, h) => s + h.play_time, 0);
  if (seconds < 60) return null;
  const per = (pick: (h: HeroTotals) => number | null) => {
    const known = heroes.filter((h) => pick(h) !== null);
    if (known.length === 0) return null;
    const time = known.reduce((s, h) => s + h.play_time, 0);
    return time > 0 ? (known.reduce((s, h) => s + pick(h)!, 0) / time) * 600 : null;
  };
  const out = { damage: per((h) => h.damage), heal: per((h) => h.heal), damage_taken: per((h) => h.damage_taken) };
  return out.damage === null && out.heal === null && out.damage_taken === null ? null : out;
}

/** Unix seconds; includes embedded match times, as real profiles embed matches newer than every `updates.*`. */
export function newestUpdate(p: PlayerProfile): number | null {
  const times = [newestUpdateTime(Object.values(p.updates)), ...p.recent_matches.map((m) => m.time)].filter(
    (t): t is number => t !== null && Number.isFinite(t),
  );
  return times.length === 0 ? null : Math.max(...times);
}

/** "Gold III" as the game names it in the current locale, else "level 12". */
export function levelName(level: number | null | undefined): string {
  return tierName(tierOfLevel(level)) ?? (level === null || level === undefined ? '?' : tr('player:level', { level }));
}
