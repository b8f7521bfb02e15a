/**
 * Autocomplete choices beyond players and heroes: the seasons of a player's profile, a member's recent matches, and the names
 * of the item and achievement lists. Each reads at most one thing the cache or the store is likely to hold, within
 * {@link CHOICE_READ_MS}, and offers less (never an error) when it cannot: Discord gives autocomplete 3 s and no deferral
 * (Discord: "Autocomplete"). The router cuts the list to 25 and each name to 100 characters.
 */
import type { RivalsApi } from '../api/client.js';
import type { AchievementSummary, Item, MatchResult, PlayerProfile } from '../api/schemas.js';
import { settleWithin } from '../core/deadline.js';
import { rankedSeasons, currentSeason } from '../game/profile.js';
import { gameModeName } from '../game/modes.js';
import { rowStart } from '../game/match-uid.js';
import { seasonFromIndex, seasonFromNumber, type Season } from '../game/seasons.js';
import type { RecordedMatch } from '../game/tracking.js';
import { shortDate } from '../i18n/format.js';
import { tr } from '../i18n/index.js';
import { heroName, tierName } from '../i18n/names.js';
import { LIMITS } from '../render/limits.js';
import type { AccountLinksRepository } from '../store/account-links.js';
import type { TrackingRepository } from '../store/tracking.js';
import type { HeroDirectory } from './hero-directory.js';
import { currentListedSeason, listedSeasonLabel, listedSeasons } from './season-list.js';

/** Longest an autocomplete waits for the one read it makes, ms: well inside Discord's 3 s, with room to answer. */
export const CHOICE_READ_MS = 1_200;
/** Entries of a list read for its names: one page, as large as a list page the API is asked for elsewhere (src/catalog/map-directory.ts). */
export const CHOICE_LIST_SIZE = 100;

export interface StringChoice {
  name: string;
  value: string;
}

export interface NumberChoice {
  name: string;
  value: number;
}

/** `work`'s value, or null when it throws, fails or outlasts {@link CHOICE_READ_MS}. */
function inTime<T>(work: () => Promise<T>): Promise<T | null> {
  return settleWithin(Promise.resolve().then(work), CHOICE_READ_MS, () => null).catch(() => null);
}

/** Whether `text` holds what was typed, in any case; everything does for nothing typed. */
const holds = (text: string, typed: string) => typed === '' || text.toLowerCase().includes(typed);

/**
 * The seasons to offer for a `season` option, newest first, whose number starts with what is typed: those the profile of
 * `player` has (its ranked seasons with their tier, and the season it plays now), read through the cache, and every season
 * the API lists (src/catalog/season-list.ts), named as it names them; with neither, as the season table has them, every
 * season up to the one typed. `player` is a UID, as player autocomplete gives it ("" for the member's default account; null
 * for a command about no player); a name typed by hand is not read.
 */
export async function seasonChoices(
  typed: string,
  player: string | null,
  userId: string,
  ctx: { api: RivalsApi; links: Pick<AccountLinksRepository, 'defaultUid'>; now?: () => number },
): Promise<NumberChoice[]> {
  const prefix = typed.trim();
  // A UID (what player autocomplete gives) or the member's own account: a name half typed would cost a request each keystroke.
  const chosen = player?.trim() ?? null;
  const readProfile = async () => {
    const query = chosen === null ? null : chosen === '' ? await inTime(() => ctx.links.defaultUid(userId)) : /^\d+$/.test(chosen) ? chosen : null;
    return query ? await inTime(async () => (await ctx.api.player(query)).data) : null;
  };
  const [profile, listed] = await Promise.all([readProfile(), inTime(() => listedSeasons({ api: ctx.api }))]);
  const byIndex = new Map<number, { season: Season; tier: string | null }>();
  for (const s of profile ? profileSeasons(profile) : []) byIndex.set(s.season.index, s);
  for (const l of listed ?? []) if (!byIndex.has(l.season.index)) byIndex.set(l.season.index, { season: l.season, tier: null });
  const offered =
    byIndex.size > 0
      ? [...byIndex.values()].sort((a, b) => b.season.index - a.season.index)
      : seasonTable(seasonFromNumber(prefix)).map((season) => ({ season, tier: null }));
  const now = currentListedSeason(listed ?? [], (ctx.now ?? Date.now)());
  return offered
    .filter((s) => s.season.number.startsWith(prefix))
    .map((s) => {
      const label = listedSeasonLabel(s.season, listed ?? []);
      const entry = listed?.find((l) => l.season.index === s.season.index);
      // The listing's own dates and current season, where it gives them: "Season 3.5 · Eternal Night (current) · 14 Nov 2026–".
      const dates = entry?.startsAt ? `${shortDate(entry.startsAt / 1000)}–${entry.endsAt ? shortDate(entry.endsAt / 1000) : ''}` : null;
      const name = [now?.season.index === s.season.index ? tr('player:coverage.current', { season: label }) : label, dates, s.tier ? tierName(s.tier) : null];
      return { name: name.filter(Boolean).join(' · '), value: Number(s.season.number) };
    });
}

/** A profile's seasons, newest first: each ranked season with its tier, and the season it plays now (its recent matches say). */
function profileSeasons(p: PlayerProfile): { season: Season; tier: string | null }[] {
  if (p.is_private) return [];
  const ranked = rankedSeasons(p).map((r) => ({ season: r.season, tier: r.tier }));
  const now = currentSeason(p);
  const all = now && !ranked.some((r) => r.season.index === now.index) ? [...ranked, { season: now, tier: null }] : ranked;
  return all.sort((a, b) => b.season.index - a.season.index);
}

/** Every season from `through` back to Season 0, newest first; none without `through`. */
export function seasonTable(through: Season | null): Season[] {
  if (!through) return [];
  return Array.from({ length: through.index + 1 }, (_, i) => seasonFromIndex(through.index - i)!);
}

/** A recent match as a choice names it: "Victory · Competitive · Hulk 12/3/5 · 26 May 2025", dated by its start. */
function matchName(m: {
  result: MatchResult | null;
  mode: string | null;
  hero: string | null;
  kills: number;
  deaths: number;
  assists: number;
  time: number | null;
}): string {
  return [
    m.result === 'win' ? tr('match:team.victory') : m.result === 'loss' ? tr('match:team.defeat') : m.result === 'draw' ? tr('match:team.draw') : null,
    m.mode,
    [m.hero, `${m.kills}/${m.deaths}/${m.assists}`].filter(Boolean).join(' '),
    m.time ? shortDate(m.time) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The member's recent matches for a `match` option, newest first, whose name or match ID holds what is typed: those the
 * tracker recorded of their default linked account (a store read), else the recent matches of its profile (one read through
 * the cache); heroes named from the cached hero list. None without a linked account.
 */
export async function matchChoices(
  typed: string,
  userId: string,
  ctx: {
    api: RivalsApi;
    links: Pick<AccountLinksRepository, 'defaultUid'>;
    heroes: Pick<HeroDirectory, 'displayNames'>;
    tracking?: Pick<TrackingRepository, 'latestMatches'>;
  },
): Promise<StringChoice[]> {
  const uid = await inTime(() => ctx.links.defaultUid(userId));
  if (!uid) return [];
  const wanted = typed.trim().toLowerCase();
  const tracking = ctx.tracking;
  const stored = tracking ? ((await inTime(() => tracking.latestMatches(uid, LIMITS.autocompleteChoices))) ?? []) : [];
  const matches = stored.length > 0 ? await fromStore(stored, ctx.heroes) : await fromProfile(uid, ctx.api, ctx.heroes);
  return matches.filter((m) => m.value.length <= LIMITS.optionValue && (holds(m.name, wanted) || holds(m.value, wanted))).slice(0, LIMITS.autocompleteChoices);
}

async function fromStore(matches: readonly RecordedMatch[], heroes: Pick<HeroDirectory, 'displayNames'>): Promise<StringChoice[]> {
  const names = await heroNames(heroes);
  return matches.map((m) => ({
    name: matchName({
      ...m,
      result: m.drawn ? 'draw' : m.won === true ? 'win' : m.won === false ? 'loss' : null,
      mode: gameModeName(m.modeId),
      hero: m.heroId ? (names.get(m.heroId) ?? null) : null,
      // Recorded with the row's end: the start is in the uid.
      time: rowStart({ match_uid: m.matchUid, time: m.time, duration: null }),
    }),
    value: m.matchUid,
  }));
}

/** The hero names of the cached hero list, by id; none when it cannot be read in time. */
async function heroNames(heroes: Pick<HeroDirectory, 'displayNames'>): Promise<Map<string, string>> {
  return (await inTime(() => heroes.displayNames())) ?? new Map<string, string>();
}

async function fromProfile(uid: string, api: RivalsApi, heroes: Pick<HeroDirectory, 'displayNames'>): Promise<StringChoice[]> {
  const profile = await inTime(async () => (await api.player(uid)).data);
  if (!profile || profile.is_private) return [];
  // Most rows name their hero by id alone.
  const names = profile.recent_matches.some((m) => !m.player.hero_name) ? await heroNames(heroes) : new Map<string, string>();
  return [...profile.recent_matches]
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0))
    .map((m) => ({
      name: matchName({
        result: m.player.result,
        mode: gameModeName(m.game_mode_id, m.play_mode_id),
        hero: heroName(m.player.hero_name) ?? (m.player.hero_id ? (names.get(m.player.hero_id) ?? null) : null),
        kills: m.player.kills,
        deaths: m.player.deaths,
        assists: m.player.assists,
        time: rowStart(m),
      }),
      value: m.match_uid,
    }));
}

/**
 * Entries of a list page whose name (or id) holds what is typed, those starting with it first, as choices whose value is the
 * id; `label` adds what tells two of a name apart.
 */
function listChoices<T extends { id: string; name: string | null }>(entries: readonly T[], typed: string, label: (entry: T) => string): StringChoice[] {
  const wanted = typed.trim().toLowerCase();
  const starts = (e: T) => ((e.name ?? e.id).toLowerCase().startsWith(wanted) ? 0 : 1);
  return entries
    .filter((e) => e.id.length <= LIMITS.optionValue && (holds(e.name ?? e.id, wanted) || holds(e.id, wanted)))
    .sort((a, b) => starts(a) - starts(b))
    .slice(0, LIMITS.autocompleteChoices)
    .map((e) => ({ name: label(e), value: e.id }));
}

/** Items of `type` (all without one) whose name holds what is typed, from one list page read through the cache (api-spec.md endpoint 9). */
export async function itemChoices(typed: string, type: string | undefined, api: RivalsApi, label: (item: Item) => string): Promise<StringChoice[]> {
  const page = await inTime(() => api.items({ type, page: 1, limit: CHOICE_LIST_SIZE }));
  return listChoices(page?.data.entries ?? [], typed, label);
}

/**
 * Achievements (of `hero`, a name or id the hero list resolves, when given; else of every hero) whose name holds what is
 * typed, from one list page read through the cache (endpoint 6).
 */
export async function achievementChoices(
  typed: string,
  hero: string | undefined,
  ctx: { api: RivalsApi; heroes: Pick<HeroDirectory, 'resolve'> },
  label: (achievement: AchievementSummary) => string,
): Promise<StringChoice[]> {
  // The hero as the cached hero list resolves it: what is half typed in the hero option reads one of a few dozen pages, not a page a keystroke.
  const typedHero = hero?.trim();
  const heroId = typedHero ? ((await inTime(async () => String((await ctx.heroes.resolve(typedHero)).id))) ?? undefined) : undefined;
  const page = await inTime(() => ctx.api.achievements({ query: heroId, page: 1, limit: CHOICE_LIST_SIZE }));
  return listChoices(page?.data.entries ?? [], typed, label);
}
