/**
 * What a player profile says at a glance, derived from the normalised profile (src/api/schemas.ts
 * `PlayerProfile`, api-spec.md "Player profile" plus the drift in api-samples/README.md). Pure functions
 * (of the profile and, for the few words they give, the current locale: src/i18n).
 *
 * Both profile shapes work: the older one, whose current score and peaks are only in
 * `rank_game_season`, and the August 2025 one with `rank.score` ("3,752") and `rank.peak_rank`.
 */
import type { PlayerProfile } from '../api/schemas.js';
import { tr } from '../i18n/index.js';
import { roleName } from '../i18n/names.js';
import { isTierName, tierOf, tierOfLevel } from './ranks.js';
import { latestSeason, seasonFromIndex, seasonFromRankGame, type Season } from './seasons.js';
import { matchMode } from './modes.js';
import { matchRankPoints, type RankTimelinePoint } from './rank-points.js';
import { newestUpdateTime } from './update-times.js';

/** One ranked season of a profile (`rank_game_season`), with its season and tiers named. */
export interface SeasonRank {
  season: Season;
  /** Tier at the end of (or now in) the season, e.g. "Gold II"; null when the level is unusable. */
  tier: string | null;
  /** The API's rank level at the end of (or now in) the season (src/game/ranks.ts); null when unusable. */
  level: number | null;
  /** Rank score, unrounded (show with `rankScore`, which never rounds up). */
  score: number | null;
  peakTier: string | null;
  peakScore: number | null;
  wins: number | null;
  /** Unix seconds of the entry's last update. */
  updatedAt: number | null;
}

/** The rank a profile shows: current tier and score, and peaks. */
export interface RankSummary {
  /** "Gold II"; derived from level and score when the API says "Invalid level"; null when unranked. */
  tier: string | null;
  /** Current rank score, unrounded; null when unknown. */
  score: number | null;
  /** The season the tier and score belong to (the latest ranked season of the profile). */
  season: Season | null;
  /** Tier image URL (the API's, absolute). */
  image: string | null;
  /** This season's peak. */
  seasonPeak: { tier: string | null; score: number | null } | null;
  /** The highest score of any season, with its season. */
  allTimePeak: { tier: string | null; score: number; season: Season } | null;
}

/** The ranked seasons of a profile, oldest first. Entries whose season cannot be read are dropped. */
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
        },
      ];
    })
    .sort((a, b) => a.season.index - b.season.index);
}

/**
 * The current season as far as the profile tells: the latest of its ranked seasons and of its embedded
 * recent matches' seasons (the API's default season for totals is the current one). Null when neither says.
 */
export function currentSeason(p: PlayerProfile): Season | null {
  return latestSeason([...seasonRanks(p).map((s) => s.season), ...p.recent_matches.map((m) => seasonFromIndex(m.season))]);
}

/**
 * The rank to show, for the current season or for `season` when a member asked for one.
 * - The API's `rank.rank` is used when it is a tier name and no other season was asked for; "Invalid
 *   level" (seen on real profiles with ranked matches) is replaced by the tier of the season's level and score.
 * - The score is `rank.score` (August 2025 shape) or the season's `rank_score`, unless a competitive
 *   match of that season newer than the season's last change says otherwise.
 */
export function rankSummary(p: PlayerProfile, season?: Season | null): RankSummary {
  const seasons = seasonRanks(p);
  const latest = seasons.at(-1) ?? null;
  const entry = season ? (seasons.find((s) => s.season.index === season.index) ?? null) : latest;
  const asked = season !== undefined && season !== null;
  const current = !asked || (latest !== null && entry === latest);
  const apiTier = current && isTierName(p.rank.name) ? p.rank.name : null;
  let tier = apiTier ?? entry?.tier ?? null;
  let score = (current ? p.rank.score : null) ?? entry?.score ?? null;
  const peakFromApi =
    current && p.rank.peak ? { tier: isTierName(p.rank.peak.name) ? p.rank.peak.name : tierOf(null, p.rank.peak.score), score: p.rank.peak.score } : null;
  let seasonPeak = peakFromApi ?? (entry && entry.peakScore !== null ? { tier: entry.peakTier, score: entry.peakScore } : null);
  // A competitive match newer than the season's last stated change holds the newer score (a profile
  // can embed a match played after its rank was stored): the rank shown is where the player stands now.
  const newer = entry ? newestRankedMatch(p, entry.season, entry.updatedAt) : null;
  if (newer) {
    score = newer.score;
    tier = tierOf(newer.level, newer.score) ?? tier;
    if (!seasonPeak || (seasonPeak.score !== null && newer.score > seasonPeak.score)) seasonPeak = { tier, score: newer.score };
  }
  let allTimePeak: RankSummary['allTimePeak'] = null;
  for (const s of seasons) {
    if (s.peakScore !== null && (!allTimePeak || s.peakScore > allTimePeak.score)) allTimePeak = { tier: s.peakTier, score: s.peakScore, season: s.season };
  }
  // The API's own peak can be above the season entries (captured at different moments).
  if (peakFromApi?.score != null && latest && (!allTimePeak || peakFromApi.score > allTimePeak.score)) {
    allTimePeak = { tier: peakFromApi.tier, score: peakFromApi.score, season: latest.season };
  }
  return {
    tier,
    score,
    season: entry?.season ?? (asked ? season : null),
    // The API's tier image is the current rank's: not for another season.
    image: current ? p.rank.image : null,
    seasonPeak,
    allTimePeak,
  };
}

/**
 * The newest rank point of `season` among the profile's embedded competitive matches
 * (src/game/rank-points.ts) that is newer than `after` (Unix seconds); null when there is none.
 */
function newestRankedMatch(p: PlayerProfile, season: Season, after: number | null): RankTimelinePoint | null {
  let best: RankTimelinePoint | null = null;
  for (const point of matchRankPoints(p.recent_matches, 'profile')) {
    if (point.season?.index === season.index && (after === null || point.time > after) && (!best || point.time > best.time)) best = point;
  }
  return best;
}

/** A hero's totals across the ranked and unranked lists of a profile. */
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

/** Whether a hero-list row holds play: a completed match, or play time without one. */
export const hasPlay = (h: { matches: number; play_time: number | null }): boolean => h.matches > 0 || (h.play_time ?? 0) > 0;

/**
 * Every hero the profile lists (ranked and unranked added up) with a match or with play time, most play
 * time first. Heroes with play time but no completed match (a match left or still running when counted)
 * stay: real profiles hold a real share of their play time in them (README, "What the API's fields mean").
 */
export function heroTotals(p: PlayerProfile): HeroTotals[] {
  const byHero = new Map<string, HeroTotals>();
  const add = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));
  for (const h of [...p.heroes_ranked, ...p.heroes_unranked]) {
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
 * Hero totals from the profile's embedded recent matches (up to 20), for profiles whose hero lists
 * are empty (a real June 2025 capture has 19 matches and no hero list): one match each, the match's
 * length as play time, no damage figures. Practice and bot matches are left out.
 */
export function heroTotalsFromMatches(p: PlayerProfile): HeroTotals[] {
  const byHero = new Map<string, HeroTotals>();
  for (const m of p.recent_matches) {
    if (matchMode(m.game_mode_id, m.play_mode_id).practice) continue;
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

/** The heroes a profile summary stands on: its hero lists, else its recent matches (`source` says which). */
export function heroSummary(p: PlayerProfile): { heroes: HeroTotals[]; source: 'lists' | 'recent' } {
  const lists = heroTotals(p);
  return lists.length > 0 ? { heroes: lists, source: 'lists' } : { heroes: heroTotalsFromMatches(p), source: 'recent' };
}

/** The profile's total play time in seconds (ranked and unranked totals); 0 when it states none. */
export function totalPlayTime(p: PlayerProfile): number {
  return p.overall.ranked.play_time + p.overall.unranked.play_time;
}

/**
 * Play time (seconds) by role, most first: from the heroes of {@link heroSummary} and each hero's
 * role ("Unknown role", in the current locale, for a hero `roleOf` does not know), else the profile's own `roles_played`.
 * From the hero lists, the roles add up to the profile's total play time: time the lists do not name a
 * hero for (real hero lists can fall short of the totals) is "Not in the hero lists".
 * Roles are named as shown, in the current locale (src/i18n/names.ts `roleName`: "Stratège").
 */
export function playTimeByRole(p: PlayerProfile, roleOf: (heroId: string | null) => string | null): { role: string; seconds: number }[] {
  const sums = new Map<string, number>();
  const unknown = tr('player:unknownRole');
  const summary = heroSummary(p);
  for (const h of summary.heroes) {
    const role = roleName(roleOf(h.hero_id)) ?? unknown;
    sums.set(role, (sums.get(role) ?? 0) + h.play_time);
  }
  if (sums.size === 0) {
    for (const r of p.overall.roles) if (r.play_time) sums.set(roleName(r.role.charAt(0).toUpperCase() + r.role.slice(1)) ?? unknown, r.play_time);
  }
  const named = [...sums.values()].reduce((s, v) => s + v, 0);
  const total = totalPlayTime(p);
  if (summary.source === 'lists' && total - named > total * 0.005) sums.set(tr('player:unlistedTime'), total - named);
  return [...sums.entries()]
    .filter(([, s]) => s > 0)
    .map(([role, seconds]) => ({ role, seconds }))
    .sort((a, b) => b.seconds - a.seconds);
}

/** Damage, healing and damage taken per 10 minutes of play; each null where the data has none. */
export interface PerTenMinutes {
  damage: number | null;
  heal: number | null;
  damage_taken: number | null;
}

/** Per 10 minutes: the profile's own per-minute figures (August 2025 shape) × 10, else computed from the hero lists. Null when neither has data. */
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

/**
 * When the profile was last updated, as Unix seconds: the newest of its update times (`updates.*`, US
 * Eastern wall time, src/game/update-times.ts) and of its embedded matches' times. A profile is never
 * older than a match it already holds (real profiles embed matches newer than every `updates.*`).
 * Null when neither is readable.
 */
export function newestUpdate(p: PlayerProfile): number | null {
  const times = [newestUpdateTime(Object.values(p.updates)), ...p.recent_matches.map((m) => m.time)].filter(
    (t): t is number => t !== null && Number.isFinite(t),
  );
  return times.length === 0 ? null : Math.max(...times);
}

/** The tier name of a level for rank-history rows ("Gold III"); the level as text in the current locale ("level 12") when it names no tier. */
export function levelName(level: number | null | undefined): string {
  return tierOfLevel(level) ?? (level === null || level === undefined ? '?' : tr('player:level', { level }));
}
