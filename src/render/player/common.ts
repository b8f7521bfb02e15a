/**
 * What every view of `/player` shares: the section menu and Update row, the season a view covers, its embed's head, a
 * page of a list, and the lookups a view names maps and heroes with. Pure: commands/player.ts reads what they show.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord-api-types/v10';
import type { Fetched } from '../../api/client.js';
import type { PlayerProfile } from '../../api/schemas.js';
import { encodeCustomId, encodeCustomIdIfFits, MAX_PAGE } from '../custom-id.js';
import type { HistoryRow } from '../../game/match-history.js';
import { gameModeName, matchMode } from '../../game/modes.js';
import { currentSeason, rankSummary } from '../../game/profile.js';
import { type RankTimelinePoint } from '../../game/rank-timeline.js';
import { type RecordedMatch } from '../../game/tracking.js';
import { type HeroRecord } from '../../game/player-hero.js';
import { type Season } from '../../game/seasons.js';
import { mapPlainName, type MapInfo } from '../map-names.js';
import { seasonLabel } from '../common.js';
import { aside, duration, hexColour, integer, kda, winRate } from '../../i18n/format.js';
import { escapeText, LIMITS, truncate } from '../limits.js';
import { emojiBefore } from '../emojis.js';
import { heroName, modeName, tierName } from '../../i18n/names.js';
import { type HeroLabel } from '../hero-lookup.js';
import { clampPage, pageCount } from '../paginate.js';
import type { ViewChart } from '../view.js';
import { tr } from '../../i18n/index.js';

/** Maps the /player hero: view lists before "+N more": what a phone's first screen holds beside the rest of the view. */
export const HERO_MAPS_SHOWN = 4;

export const PLAYER_SECTIONS = ['profile', 'stats', 'ranked', 'unranked', 'matchups', 'maps', 'teammates', 'rank-history', 'matches'] as const;

export type PlayerSection = (typeof PLAYER_SECTIONS)[number];

export const sectionLabel = (section: PlayerSection) => tr(`player:sections.${section}`);

/** "12 matches" in the current locale: a count with its noun (`player:count.*` plural keys). */
export const counted = (noun: 'matches' | 'wins', n: number) => tr(`player:count.${noun}`, { count: n, n: integer(n) });

export const PER_PAGE = 10;

export const TOP_HEROES = 3;

/** What the view knows besides the profile: the season asked for (null: current) and the map and hero lookups. */
export interface Lookups {
  season: Season | null;
  /** False when the API gave the current season's totals for a season asked (it refused it, or answered as without it). */
  seasonTotals: boolean;
  /** Recent matches leave out practice and bot matches (the member's filter, carried in custom IDs). */
  hidePractice: boolean;
  /** The store key of the profile's Back button ({@link WayBack}), carried in the view's own custom IDs; absent for none. */
  backKey?: string;
  map(id: string | null): MapInfo | undefined;
  hero(id: string | null): HeroLabel | undefined;
  /** A hero's square icon from the profile's own hero rows, else the hero list's image; absolute URLs. */
  heroImage(id: string): string | undefined;
}

/** The recent-matches filter as carried in custom IDs: "r" leaves out practice and bot matches, "" shows all. */
export type MatchFilter = '' | 'r';

export const filterOf = (value: string | undefined): MatchFilter => (value === 'r' ? 'r' : '');

/** Season as carried in custom IDs: "" for the current season, else its in-game number. */
export const seasonArg = (season: Season | null) => season?.number ?? '';

/** `route`'s custom ID with `args`, then the back key when there is one and it fits: the ID never passes 100 characters. */
export const keyedId = (route: string, args: (string | number)[], key: string | undefined): string =>
  (key ? encodeCustomIdIfFits(route, ...args, key) : null) ?? encodeCustomId(route, ...args);

/** The section menu, `pl.s:<uid>:<season>[:<back key>]`; `current` null when the view is none of the sections (one hero of the player). */
export function sectionMenu(
  uid: string,
  season: string,
  current: PlayerSection | null,
  backKey?: string,
): APIActionRowComponent<APIComponentInMessageActionRow> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: keyedId('pl.s', [uid, season], backKey),
        placeholder: tr('player:menu.sections'),
        options: PLAYER_SECTIONS.map((s) => ({ label: sectionLabel(s), value: s, default: s === current })),
      },
    ],
  };
}

/** The Update button; with `filter`, the recent matches' filter button beside it (`pl.f:<uid>:<season>:<filter>[:<back key>]`). */
export function updateRow(
  uid: string,
  filter?: { season: string; current: MatchFilter; backKey?: string },
): APIActionRowComponent<APIComponentInMessageActionRow> {
  const update = {
    type: ComponentType.Button as const,
    style: ButtonStyle.Secondary as const,
    label: tr('player:menu.update'),
    custom_id: encodeCustomId('pl.u', uid),
  };
  const toggle = filter
    ? [
        {
          type: ComponentType.Button as const,
          style: ButtonStyle.Secondary as const,
          label: tr(filter.current === 'r' ? 'player:menu.showAllMatches' : 'player:menu.hidePractice'),
          custom_id: keyedId('pl.f', [uid, filter.season, filter.current === 'r' ? '' : 'r'], filter.backKey),
        },
      ]
    : [];
  return { type: ComponentType.ActionRow, components: [update, ...toggle] };
}

/** The season that totals and hero lists cover: the one asked for when the API gave its totals, else the current one; null when nothing says. */
export function coveredSeason(p: PlayerProfile, look: Lookups): Season | null {
  return look.season && look.seasonTotals ? look.season : currentSeason(p);
}

/** The season that totals and hero lists cover, as a label: "Season 1.5" or "Season 3 (current)". */
export function coverage(p: PlayerProfile, look: Lookups): string {
  if (look.season && look.seasonTotals) return seasonLabel(look.season);
  const current = coveredSeason(p, look);
  return current ? tr('player:coverage.current', { season: seasonLabel(current) }) : tr('player:coverage.unknown');
}

/** The embed's colour and author line: player, section, and the season covered (recent matches name one only when filtered to it). */
export function base(p: PlayerProfile, section: PlayerSection, look: Lookups): APIEmbed {
  const team = p.team?.name ? ` [${p.team.name}]` : '';
  const season = section === 'profile' || section === 'rank-history' || (section === 'matches' && !look.season) ? '' : ` · ${coverage(p, look)}`;
  const where = section === 'profile' ? '' : ` · ${sectionLabel(section)}`;
  return {
    // The shown tier's colour: the API's can be an earlier season's (src/game/profile.ts).
    color: hexColour(rankSummary(p, look.season).color) ?? 0x5865f2,
    author: { name: truncate(`${p.name}${team}${where}${season}`, LIMITS.author), icon_url: p.icon ?? undefined },
  };
}

export const heroLabel = (look: Lookups, id: string | null, raw: string | null) =>
  look.hero(id)?.name ?? heroName(raw) ?? (id ? tr('player:heroId', { id }) : tr('player:unknownHero'));

/** The hero's application emoji and a space, to go before its name; '' without one. */
export const heroMark = (look: Lookups, id: string | null, raw: string | null) => look.hero(id)?.emoji ?? emojiBefore('hero', raw);

/** "<emoji> Gold II · ": a rank's tier before its score; '' for none. */
export const tierPart = (tier: string | null) => (tier ? `${emojiBefore('tier', tier)}${tierName(tier)} · ` : '');

/** A match row's map and part, never the list's mode or competitive flag: the row has its own mode, and the list's flag is swapped on some maps. */
export const mapText = (look: Lookups, id: string | null) => {
  const map = look.map(id);
  if (map) return mapPlainName(map);
  return id ? tr('player:mapId', { id }) : tr('player:unknownMap');
};

/** A match row's mode from its own `game_mode_id` (src/game/modes.ts), an arcade match with its map's objective; null without one. */
export function modeText(look: Lookups, m: HistoryRow): string | null {
  const mode = matchMode(m.game_mode_id, m.play_mode_id);
  const name = gameModeName(m.game_mode_id, m.play_mode_id);
  if (name === null) return null;
  if (mode.key === 'arcade') return `${name}${aside(escapeText(modeName(look.map(m.map_id)?.mode) ?? '', 40))}`;
  if (mode.key === 'other' && !m.player.score_change) return `${name} · ${tr('render:modeNotes.noRankChange')}`;
  return name;
}

/** One page of a list section: lines of text, and the page count. */
export function listPage<T>(
  items: T[],
  page: number,
  line: (item: T, index: number) => string,
  empty: string,
): { description: string; pages: number; page: number } {
  const pages = pageCount(items.length, PER_PAGE);
  const p = clampPage(page, pages);
  const lines = items.slice((p - 1) * PER_PAGE, p * PER_PAGE).map((item, i) => line(item, (p - 1) * PER_PAGE + i));
  return { description: lines.join('\n') || empty, pages, page: p };
}

export type Section = {
  embed: APIEmbed;
  pages: number;
  page: number;
  extra?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  fetched?: Fetched<unknown>;
  chart?: ViewChart;
};

/** The section's embed showing `chart` as its image, with the chart; the embed alone without one. */
export const withChart = (section: Section, chart: ViewChart | undefined): Section =>
  chart ? { ...section, embed: { ...section.embed, image: { url: `attachment://${chart.name}` } }, chart } : section;

/** What the bot recorded of a player it tracks (src/store/tracking.ts), read for the profile and the rank history. */
export interface Tracked {
  tracked: boolean;
  points: RankTimelinePoint[];
  matches: RecordedMatch[];
}

/**
 * The page buttons' arguments before the page: `<uid>:<season>:<section>[:<filter>]`, or with a back key
 * `<uid>:<season>:<section>:<filter>:<back key>` (the filter '' outside the recent matches), where the last page's ID fits.
 */
export function pageArgs(uid: string, season: string, which: PlayerSection, filter: MatchFilter, backKey: string | undefined): (string | number)[] {
  const shown = which === 'matches' ? filter : '';
  const keyed = backKey ? [uid, season, which, shown, backKey] : null;
  if (keyed && encodeCustomIdIfFits('pl.p', ...keyed, MAX_PAGE, 'l')) return keyed;
  return shown ? [uid, season, which, shown] : [uid, season, which];
}

export const sectionOf = (value: string | undefined): PlayerSection =>
  (PLAYER_SECTIONS as readonly string[]).includes(value ?? '') ? (value as PlayerSection) : 'profile';

/** "6 matches · 66.7 % · 116 / 44 / 0 (KDA 2.64) · 1h 1m"; "no completed matches · 4m 12s" for play time alone. */
export function heroRecordLine(r: HeroRecord): string {
  const record = r.matches > 0 ? `${counted('matches', r.matches)} · ${winRate(r.wins, r.matches)}` : tr('player:heroes.noCompleted');
  return `${record} · ${kda(r.kills, r.deaths, r.assists)} · ${duration(r.play_time)}`;
}
