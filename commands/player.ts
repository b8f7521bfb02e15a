/**
 * `/player [query] [user] [season]` and the "Rivals profile" context command: a profile, its other sections through a select
 * menu, and an Update button. Data: api-spec.md endpoints 17–20, the player update endpoint, the map and hero lists.
 */
import { ContextMenuCommandBuilder } from '@discordjs/builders';
import {
  ApplicationCommandType,
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIEmbedField,
} from 'discord-api-types/v10';
import type { Fetched } from '../src/api/client.js';
import { ApiError } from '../src/core/api-errors.js';
import type { Hero, MatchResult, PlayerProfile } from '../src/api/schemas.js';
import type { AutocompleteInput, CommandContext, CommandInput, CommandModule } from '../src/discord/command.js';
import { EVERYWHERE, slashCommand } from '../src/discord/command.js';
import { encodeCustomId, encodeCustomIdIfFits, MAX_PAGE, storeKeyArg } from '../src/render/custom-id.js';
import { NotFoundError } from '../src/core/errors.js';
import { heldHistoryRows, recentMatches, type HistoryPage, type HistoryRow } from '../src/catalog/history.js';
import { describe } from '../src/i18n/commands.js';
import { recentForm } from '../src/game/form.js';
import { matchupExtremes, MATCHUP_MIN_MATCHES, type Matchup } from '../src/game/matchups.js';
import { gameModeName, matchMode, modesByMap, type MapModeRow } from '../src/game/modes.js';
import { rowStart } from '../src/game/match-uid.js';
import {
  currentSeason,
  hasPlay,
  heroSummary,
  heroTotals,
  levelName,
  newestUpdate,
  perTenMinutes,
  playTimeByRole,
  rankedSeasons,
  rankSummary,
  topHeroes,
  type RankSummary,
  type RoleShare,
  type SeasonRank,
  type TopHeroes,
} from '../src/game/profile.js';
import { rankTimeline, type RankTimelinePoint } from '../src/game/rank-timeline.js';
import { trackedTimelinePoints, weekChange, withRecordedMatches, type RecordedMatch } from '../src/game/tracking.js';
import { updateCooldownMs } from '../src/jobs/link-verifier.js';
import { rankScore, rankScoreChange, shownLevel } from '../src/game/ranks.js';
import { rankPace, type RankPace } from '../src/game/pace.js';
import { hasHeroData, heroPerTen, heroWeek, playerHero, type HeroRecord } from '../src/game/player-hero.js';
import { foldName } from '../src/game/fold.js';
import { type Season } from '../src/game/seasons.js';
import { mapPlainName, playedMapLabels, type MapInfo } from '../src/render/map-names.js';
import { seasonLabel, staleFooter } from '../src/render/common.js';
import {
  aside,
  decimal,
  discordTime,
  duration,
  hexColour,
  integer,
  kda,
  percent,
  ratioPercent,
  sharePercent,
  shortDate,
  wholePercent,
  winRate,
} from '../src/i18n/format.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { componentEmoji, emojiBefore } from '../src/render/emojis.js';
import { heroDisplayName, heroName, modeName, roleName, tierName } from '../src/i18n/names.js';
import { heroLookup, type HeroLabel } from '../src/render/hero-lookup.js';
import { backRow, clampPage, pageCount, pageFromArgs, pageRow } from '../src/render/paginate.js';
import type { View, ViewChart } from '../src/render/view.js';
import { chartOf, heroPerformanceSpec, rankHistorySpec } from '../src/render/view-charts.js';
import { CARD_FORM, CARD_HEROES, SPEC_LIMITS, type ProfileCard } from '../src/charts/specs.js';
import { t } from '../src/render/strings.js';
import { currentLocale, tr } from '../src/i18n/index.js';
import { loadNamedProfile, loadProfile, playerChoices, seasonOption, type LoadedProfile } from '../src/catalog/players.js';
import { seasonChoices } from '../src/catalog/choices.js';
import { encodeMatchOrigin } from '../src/render/match-origin.js';

/** Maps the /player hero: view lists before "+N more": what a phone's first screen holds beside the rest of the view. */
const HERO_MAPS_SHOWN = 4;

export const PLAYER_SECTIONS = ['profile', 'stats', 'ranked', 'unranked', 'matchups', 'maps', 'teammates', 'rank-history', 'matches'] as const;
export type PlayerSection = (typeof PLAYER_SECTIONS)[number];

const sectionLabel = (section: PlayerSection) => tr(`player:sections.${section}`);

/** "12 matches" in the current locale: a count with its noun (`player:count.*` plural keys). */
const counted = (noun: 'matches' | 'wins', n: number) => tr(`player:count.${noun}`, { count: n, n: integer(n) });

const PER_PAGE = 10;
const TOP_HEROES = 3;

const definition = slashCommand('player')
  .addStringOption((o) => o.setName('query').setDescription(describe('player.options.query')).setMaxLength(100).setAutocomplete(true))
  .addUserOption((o) => o.setName('user').setDescription(describe('player.options.user')))
  .addNumberOption((o) => o.setName('season').setDescription(describe('player.options.season')).setMinValue(0).setMaxValue(99).setAutocomplete(true))
  .addStringOption((o) => o.setName('hero').setDescription(describe('player.options.hero')).setMaxLength(60).setAutocomplete(true))
  .toJSON();

/** What the view knows besides the profile: the season asked for (null: current) and the map and hero lookups. */
interface Lookups {
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
type MatchFilter = '' | 'r';
const filterOf = (value: string | undefined): MatchFilter => (value === 'r' ? 'r' : '');

/** Season as carried in custom IDs: "" for the current season, else its in-game number. */
const seasonArg = (season: Season | null) => season?.number ?? '';

/**
 * The way out of a profile opened from another view (a scoreboard's player select, `pl.o`): `id` the Back button's custom
 * ID when it is known, `key` the store key under which the profile's own IDs carry it (src/store/back-targets.ts), so that
 * the Back survives every section, page and filter, and a match opened from the profile and left again.
 */
interface WayBack {
  id?: string;
  key?: string;
}

/** `route`'s custom ID with `args`, then the back key when there is one and it fits: the ID never passes 100 characters. */
const keyedId = (route: string, args: (string | number)[], key: string | undefined): string =>
  (key ? encodeCustomIdIfFits(route, ...args, key) : null) ?? encodeCustomId(route, ...args);

/** The map and hero lists a view names maps and heroes from; see {@link readLists}. */
export interface ViewLists {
  maps: MapInfo[];
  heroes: Hero[];
}

/**
 * The map and hero lists (api-spec.md endpoints 1 and 11); never rejects: a list that cannot be had is empty. Started right
 * after the profile read, so an uncached list loads alongside it while the profile keeps the first turn at the API's rate limit.
 */
export function readLists(ctx: CommandContext): Promise<ViewLists> {
  return Promise.all([
    ctx.maps.list().catch((err: unknown): MapInfo[] => {
      ctx.logger.warn({ err }, 'map list unavailable; maps named by id');
      return [];
    }),
    ctx.heroes.list().catch((err: unknown): Hero[] => {
      ctx.logger.warn({ err }, 'hero list unavailable; heroes named as the profile gives them');
      return [];
    }),
  ]).then(([maps, heroes]) => ({ maps, heroes }));
}

/** Map and hero lookups for one view, from `lists` ({@link readLists}). */
async function lookups(
  season: Season | null,
  seasonTotals: boolean,
  p: PlayerProfile,
  lists: Promise<ViewLists>,
  filter: MatchFilter,
  backKey?: string,
): Promise<Lookups> {
  const { maps, heroes } = await lists;
  const mapById = new Map(maps.map((m) => [m.id, m]));
  const images = new Map<string, string>();
  for (const h of heroes) if (h.image) images.set(h.id, h.image);
  for (const h of [...p.heroes_unranked, ...p.heroes_ranked]) if (h.hero_id && h.hero_thumbnail) images.set(h.hero_id, h.hero_thumbnail);
  return {
    season,
    seasonTotals,
    hidePractice: filter === 'r',
    ...(backKey ? { backKey } : {}),
    map: (id) => (id === null ? undefined : mapById.get(id)),
    hero: heroLookup(heroes, [p]),
    heroImage: (id) => images.get(id),
  };
}

/** The section menu, `pl.s:<uid>:<season>[:<back key>]`; `current` null when the view is none of the sections (one hero of the player). */
function sectionMenu(uid: string, season: string, current: PlayerSection | null, backKey?: string): APIActionRowComponent<APIComponentInMessageActionRow> {
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
function updateRow(uid: string, filter?: { season: string; current: MatchFilter; backKey?: string }): APIActionRowComponent<APIComponentInMessageActionRow> {
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
function coveredSeason(p: PlayerProfile, look: Lookups): Season | null {
  return look.season && look.seasonTotals ? look.season : currentSeason(p);
}

/** The season that totals and hero lists cover, as a label: "Season 1.5" or "Season 3 (current)". */
function coverage(p: PlayerProfile, look: Lookups): string {
  if (look.season && look.seasonTotals) return seasonLabel(look.season);
  const current = coveredSeason(p, look);
  return current ? tr('player:coverage.current', { season: seasonLabel(current) }) : tr('player:coverage.unknown');
}

/** The embed's colour and author line: player, section, and the season covered (recent matches name one only when filtered to it). */
function base(p: PlayerProfile, section: PlayerSection, look: Lookups): APIEmbed {
  const team = p.team?.name ? ` [${p.team.name}]` : '';
  const season = section === 'profile' || section === 'rank-history' || (section === 'matches' && !look.season) ? '' : ` · ${coverage(p, look)}`;
  const where = section === 'profile' ? '' : ` · ${sectionLabel(section)}`;
  return {
    // The shown tier's colour: the API's can be an earlier season's (src/game/profile.ts).
    color: hexColour(rankSummary(p, look.season).color) ?? 0x5865f2,
    author: { name: truncate(`${p.name}${team}${where}${season}`, LIMITS.author), icon_url: p.icon ?? undefined },
  };
}

const heroLabel = (look: Lookups, id: string | null, raw: string | null) =>
  look.hero(id)?.name ?? heroName(raw) ?? (id ? tr('player:heroId', { id }) : tr('player:unknownHero'));
/** The hero's application emoji and a space, to go before its name; '' without one. */
const heroMark = (look: Lookups, id: string | null, raw: string | null) => look.hero(id)?.emoji ?? emojiBefore('hero', raw);
/** "<emoji> Gold II · ": a rank's tier before its score; '' for none. */
const tierPart = (tier: string | null) => (tier ? `${emojiBefore('tier', tier)}${tierName(tier)} · ` : '');
/** A match row's map and part, never the list's mode or competitive flag: the row has its own mode, and the list's flag is swapped on some maps. */
const mapText = (look: Lookups, id: string | null) => {
  const map = look.map(id);
  if (map) return mapPlainName(map);
  return id ? tr('player:mapId', { id }) : tr('player:unknownMap');
};

/** A match row's mode from its own `game_mode_id` (src/game/modes.ts), an arcade match with its map's objective; null without one. */
function modeText(look: Lookups, m: HistoryRow): string | null {
  const mode = matchMode(m.game_mode_id, m.play_mode_id);
  const name = gameModeName(m.game_mode_id, m.play_mode_id);
  if (name === null) return null;
  if (mode.key === 'arcade') return `${name}${aside(escapeText(modeName(look.map(m.map_id)?.mode) ?? '', 40))}`;
  if (mode.key === 'other' && !m.player.score_change) return `${name} · ${tr('render:modeNotes.noRankChange')}`;
  return name;
}
/** "Since last week" of a tracked player (src/game/tracking.ts), or null when there is nothing to compare. */
function weekField(p: PlayerProfile, look: Lookups, rank: RankSummary, tracked: (Tracked & { now: number }) | undefined): APIEmbedField | null {
  if (!tracked?.tracked || look.season) return null;
  const timeline = rankTimeline(p, tracked.points);
  const week = weekChange(timeline, tracked.matches, { score: rank.score, tier: rank.tier, season: rank.season?.index ?? null }, tracked.now);
  if (!week) return null;
  // A week with no match and no change says nothing the rank fields do not.
  const moved = week.scoreFrom !== null && week.scoreTo !== null && Math.round(week.scoreTo) !== Math.round(week.scoreFrom);
  if (week.matches === 0 && !moved) return null;
  const parts: string[] = [];
  if (week.scoreFrom !== null && week.scoreTo !== null)
    parts.push(`${rankScore(week.scoreFrom)} → ${rankScore(week.scoreTo)} (${rankScoreChange(week.scoreTo - week.scoreFrom)})`);
  if (week.tierFrom && week.tierTo && week.tierFrom !== week.tierTo) parts.push(`${tierName(week.tierFrom)} → ${tierName(week.tierTo)}`);
  parts.push(week.matches > 0 ? `${counted('matches', week.matches)} · ${winRate(week.wins, week.matches)}` : tr('player:week.noMatches'));
  const name = week.fullWeek ? tr('player:week.title') : tr('player:week.since', { when: discordTime(week.since, 'D') });
  return { name, value: parts.join(' · '), inline: false };
}

/**
 * The profile's embed, and the fields its image card stands for (top heroes, recent form): shown after the
 * embed's own fields when the card is not (a member who chose embeds, a card not drawn or not uploaded).
 */
function profileEmbed(p: PlayerProfile, look: Lookups, tracked?: Tracked & { now: number }): { embed: APIEmbed; cardText: APIEmbedField[] } {
  const rank = rankSummary(p, look.season);
  const r = p.overall.ranked;
  const u = p.overall.unranked;
  const fields: APIEmbedField[] = [];
  const cardText: APIEmbedField[] = [];
  // The rank's season, when it is not the season the member asked for or the current one (an older ranked season).
  const rankSeason = rank.season && rank.season.index !== (look.season ?? currentSeason(p))?.index ? aside(seasonLabel(rank.season)) : '';
  fields.push({
    name: tr('player:profile.rankScore'),
    value: rank.score === null ? '—' : `${emojiBefore('tier', rank.tier)}${rankScore(rank.score)}${rankSeason}`,
    inline: true,
  });
  if (rank.seasonPeak) {
    const name = rankSeason || look.season ? tr('player:profile.peakIn', { season: seasonLabel(rank.season!) }) : tr('player:profile.peakThisSeason');
    fields.push({ name, value: `${tierPart(rank.seasonPeak.tier)}${rankScore(rank.seasonPeak.score)}`, inline: true });
  }
  if (rank.allTimePeak) {
    fields.push({
      name: tr('player:profile.allTimePeak'),
      value: `${tierPart(rank.allTimePeak.tier)}${rankScore(rank.allTimePeak.score)}${aside(seasonLabel(rank.allTimePeak.season))}`,
      inline: true,
    });
  }
  const pace = look.season ? null : rankPace(p, rank);
  if (pace) fields.push({ name: tr('player:pace.title', { tier: tierName(pace.nextTier) }), value: paceLine(pace), inline: false });
  fields.push(
    { name: tr('player:profile.ranked'), value: modeLine(r), inline: false },
    { name: tr('player:profile.unranked'), value: modeLine(u), inline: false },
  );
  const top = topHeroes(p);
  const shown = top.heroes.slice(0, TOP_HEROES);
  if (shown.length > 0) {
    cardText.push({
      name: topHeroesLabel(top),
      value: shown
        .map((h, i) => {
          const hero = look.hero(h.hero_id);
          const record = h.matches > 0 ? `${counted('matches', h.matches)} · ${winRate(h.wins, h.matches)}` : tr('player:heroes.noCompleted');
          return `**${i + 1}. ${heroMark(look, h.hero_id, h.hero_name)}${escapeText(heroLabel(look, h.hero_id, h.hero_name), 60)}**${aside(escapeText(roleName(hero?.role) ?? '', 20))} · ${duration(h.play_time)} · ${record} · ${kda(h.kills, h.deaths, h.assists)}`;
        })
        .join('\n'),
      inline: false,
    });
  }
  // The current season's rank: the week is shown only when no season was asked for.
  const week = weekField(p, look, rank, tracked);
  if (week) fields.push(week);
  const form = recentForm(p.recent_matches);
  if (form)
    cardText.push({ name: tr('player:form.title', { count: form.results.length, n: integer(form.results.length) }), value: formLine(form), inline: false });
  const embed: APIEmbed = {
    ...base(p, 'profile', look),
    // A season asked for that the profile has no ranked record of is said so, not called Unranked;
    // a tier of an older season than the current one says its season.
    title: rank.tier
      ? `${tierName(rank.tier)}${rankSeason}`
      : look.season && rank.score === null
        ? tr('player:profile.noRankedRecord', { season: seasonLabel(look.season) })
        : tr('player:unranked'),
    description: [
      tr('player:profile.coverage', { season: coverage(p, look) }),
      look.season && !look.seasonTotals ? t.seasonTotalsUnavailable(seasonLabel(look.season)) : null,
      identityLine(p),
    ]
      .filter(Boolean)
      .join('\n'),
    thumbnail: rank.image ? { url: rank.image } : undefined,
    fields,
  };
  return { embed, cardText };
}

/**
 * Combat figures and standing, one menu away from the profile so that its first screen fits a phone:
 * play time by role, per 10 minutes, the standing among all players the newer profile shape states, MVP / SVP.
 */
/** "Per 10 minutes · all modes": a figure of ranked and unranked together says so. */
const allModes = (label: string) => `${label} · ${tr('player:profile.allModes')}`;

/** "Ranked 0 / 1 · Unranked 5 / 8": MVPs and SVPs of each mode, never added up beside figures of one mode. */
function mvpSvpByMode(ranked: { mvp: number; svp: number } | null, unranked: { mvp: number; svp: number } | null): string {
  const part = (label: string, r: { mvp: number; svp: number } | null) => (r ? `${label} ${integer(r.mvp)} / ${integer(r.svp)}` : null);
  return [part(tr('player:profile.ranked'), ranked), part(tr('player:profile.unranked'), unranked)].filter(Boolean).join(' · ') || '—';
}

function statsEmbed(p: PlayerProfile, look: Lookups): APIEmbed {
  const r = p.overall.ranked;
  const u = p.overall.unranked;
  const fields: APIEmbedField[] = [];
  const roles = roleSplit(p, look);
  if (roles.parts.length > 0)
    fields.push({
      name:
        roles.recent === null
          ? tr('player:profile.playTimeByRole')
          : tr('player:profile.playTimeByRoleRecent', { count: roles.recent, n: integer(roles.recent) }),
      value: roles.parts.map((x) => `${x.role} ${duration(x.seconds)}${aside(sharePercent(x.share))}`).join(' · '),
      inline: false,
    });
  const per10 = perTenMinutes(p);
  if (per10) {
    const parts = [
      per10.damage === null ? null : tr('player:profile.damage', { value: integer(per10.damage) }),
      per10.heal === null ? null : tr('player:profile.healing', { value: integer(per10.heal) }),
      per10.damage_taken === null ? null : tr('player:profile.damageTaken', { value: integer(per10.damage_taken) }),
    ].filter(Boolean);
    fields.push({ name: allModes(tr('player:profile.perTenMinutes')), value: parts.join(' · '), inline: false });
  }
  const standing = standingLine(p);
  if (standing) fields.push({ name: tr('player:standing.title'), value: standing, inline: false });
  fields.push({ name: tr('player:profile.mvpSvp'), value: mvpSvpByMode(r, u), inline: false });
  return { ...base(p, 'stats', look), fields };
}

/** "Top heroes · Ranked": what the heroes beside the ranked record count (src/game/profile.ts `topHeroes`). */
function topHeroesLabel(top: TopHeroes): string {
  if (top.source === 'lists') return tr(top.mode === 'ranked' ? 'player:profile.topHeroesRanked' : 'player:profile.topHeroesUnranked');
  const key = top.mode === 'ranked' ? 'player:profile.topHeroesRecentRanked' : 'player:profile.topHeroesRecentUnranked';
  return tr(key, { count: top.matches, n: integer(top.matches) });
}

/**
 * Play time by role as the Statistics embed and the card both show it (src/game/profile.ts `playTimeByRole`): `seconds`
 * the time the shares are of; `recent` the matches it was taken from when the hero lists are empty, else null.
 */
function roleSplit(p: PlayerProfile, look: Lookups): { parts: RoleShare[]; seconds: number; recent: number | null } {
  const parts = playTimeByRole(p, (id) => look.hero(id)?.role ?? null);
  const summary = heroSummary(p);
  const recent = summary.source === 'recent' && summary.heroes.length > 0 ? summary.heroes.reduce((n, h) => n + h.matches, 0) : null;
  return { parts, seconds: parts.reduce((s, r) => s + r.seconds, 0), recent };
}

/** The profile as an image card (src/charts/cards.ts): the same figures as the embed beside it, which stays the text. */
function profileCardSpec(p: PlayerProfile, look: Lookups): ProfileCard {
  const rank = rankSummary(p, look.season);
  const r = p.overall.ranked;
  // The rank's season is named when it is not the one the card is headed with (the season its tiles count),
  // as the embed does: an older ranked season, or the one asked for when the API gave the current season's totals.
  const covered = coveredSeason(p, look);
  const rankSeason = rank.season && rank.season.index !== covered?.index ? rank.season : null;
  // A pace counts the rank's season: among the tiles, which count the card's season, only when the two are one.
  const pace = look.season || rankSeason ? null : rankPace(p, rank);
  const tiles = [
    {
      label: tr('player:profile.ranked'),
      // Wins of matches, not W–L: the totals give no count of draws, so matches less wins is not losses.
      value: r.matches > 0 ? tr('player:card.winsOfMatches', { wins: integer(r.wins), matches: integer(r.matches) }) : '—',
    },
    { label: tr('player:card.rankedWinRate'), value: r.matches > 0 ? winRate(r.wins, r.matches) : '—' },
    { label: tr('player:card.rankedKda'), value: r.kills + r.deaths + r.assists > 0 ? decimal((r.kills + r.assists) / Math.max(1, r.deaths)) : '—' },
    pace
      ? { label: tr('player:pace.title', { tier: tierName(pace.nextTier) }), value: tr('player:card.score', { score: integer(Math.ceil(pace.points)) }) }
      : { label: tr('player:profile.mvpSvpRanked'), value: `${integer(r.mvp)} / ${integer(r.svp)}` },
  ];
  const top = topHeroes(p);
  const roles = roleSplit(p, look);
  const form = recentForm(p.recent_matches);
  const shownForm = form ? form.results.slice(0, CARD_FORM) : [];
  const subtitle = [`${tr('player:profile.level')} ${integer(p.level)}`, p.login_os].filter(Boolean).join(' · ');
  return {
    kind: 'profile-card',
    locale: currentLocale(),
    title: truncate(`${p.name}${p.team?.name ? ` [${p.team.name}]` : ''}`, SPEC_LIMITS.titleLength),
    subtitle: truncate(subtitle, SPEC_LIMITS.titleLength),
    season: truncate(coverage(p, look), SPEC_LIMITS.titleLength),
    icon: p.icon,
    rank: {
      tier: rank.tier ?? tr('player:unranked'),
      score: rank.score === null ? '—' : tr('player:card.score', { score: rankScore(rank.score) }),
      peak: rank.seasonPeak?.score != null ? tr('player:card.peak', { score: rankScore(rank.seasonPeak.score) }) : null,
      season: rankSeason ? seasonLabel(rankSeason) : null,
      icon: rank.image,
    },
    tiles,
    heroes: top.heroes.slice(0, CARD_HEROES).map((h) => {
      const hero = look.hero(h.hero_id);
      const ratio = h.kills + h.deaths + h.assists > 0 ? tr('player:card.kdaValue', { value: decimal((h.kills + h.assists) / Math.max(1, h.deaths)) }) : null;
      const heroImage = h.hero_id ? (look.heroImage(h.hero_id) ?? null) : null;
      return {
        name: truncate(heroLabel(look, h.hero_id, h.hero_name), SPEC_LIMITS.nameLength),
        role: hero?.role ?? null,
        lines: [h.matches > 0 ? `${winRate(h.wins, h.matches)} · ${integer(h.matches)}` : duration(h.play_time), ratio].filter((x): x is string => !!x),
        image: heroImage,
      };
    }),
    // The embed's split (Statistics), its shares written the same way.
    roles: roles.parts.map((r) => ({ role: r.key ?? 'Other', label: `${r.role} ${sharePercent(r.share)}`, seconds: r.seconds })),
    form: shownForm,
    labels: {
      heroes: topHeroesLabel(top),
      roles:
        roles.recent === null
          ? tr('player:card.playTime', { time: duration(roles.seconds) })
          : tr('player:card.playTimeRecent', { count: roles.recent, n: integer(roles.recent) }),
      form: form ? tr('player:form.title', { count: form.results.length, n: integer(form.results.length) }) : '',
      record: cardFormRecord(shownForm),
    },
  };
}

/** "Level 153 · UID 1786151874 · PC · 45 achievements · updated 3 days ago": the facts that need no field of their own. */
function identityLine(p: PlayerProfile): string {
  const updated = newestUpdate(p);
  return [
    `${tr('player:profile.level')} ${integer(p.level)}`,
    `${tr('player:profile.uid')} ${p.uid}`,
    p.login_os ? escapeText(p.login_os, 40) : null,
    p.completed_achievements === null ? null : tr('player:profile.achievementCount', { count: p.completed_achievements, n: integer(p.completed_achievements) }),
    updated === null ? null : tr('player:profile.updatedAt', { when: discordTime(updated) }),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** "48 points to go · about 2 wins at +24.3 a win · Chrono Shield: 2" (src/game/pace.ts). */
function paceLine(pace: RankPace): string {
  return [
    tr('player:pace.points', { count: Math.ceil(pace.points), n: integer(Math.ceil(pace.points)) }),
    pace.winsNeeded === null || pace.perWin === null
      ? tr('player:pace.noWins')
      : tr('player:pace.wins', { count: pace.winsNeeded, n: integer(pace.winsNeeded), perWin: rankScoreChange(pace.perWin) }),
    pace.shield === null ? null : tr('player:pace.shield', { value: integer(pace.shield) }),
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * "Win rate: better than 31 % of players · KDA: top 5 % · … · best kill streak 18", where the profile states them; null
 * otherwise. A placement is the API's percentile (docs/data.md): "Bottom 31.0%" is better than 31 % of players, said with
 * the share it is sure of (rounded down; "Top 4.2%" rounded up, top 5 %). One that comes to nothing (better than 0 %: the
 * API's "Bottom 0.0%" for a player with no MVP at all) is left out.
 */
function standingLine(p: PlayerProfile): string | null {
  const { percentiles, max_kill_streak: streak } = p.overall;
  const parts = (['win_rate', 'kda', 'mvp', 'svp', 'kills'] as const).flatMap((key) => {
    const placement = percentiles[key];
    if (!placement) return [];
    const what = tr(`player:standing.${key}`);
    if (placement.side === 'top') return [tr('player:standing.top', { what, value: wholePercent(Math.max(1, Math.ceil(placement.percent))) })];
    const better = Math.floor(placement.percent);
    return better < 1 ? [] : [tr('player:standing.better', { what, value: wholePercent(better) })];
  });
  if (streak !== null) parts.push(tr('player:standing.killStreak', { n: integer(streak) }));
  return parts.length === 0 ? null : parts.join(' · ');
}

/** The card's "8 W · 6 L", "8 W · 5 L · 1 D" with a draw among `results`. */
function cardFormRecord(results: readonly MatchResult[]): string {
  const n = (r: MatchResult) => integer(results.filter((x) => x === r).length);
  return results.includes('draw')
    ? tr('player:card.formRecordWithDraws', { wins: n('win'), losses: n('loss'), draws: n('draw') })
    : tr('player:card.formRecord', { wins: n('win'), losses: n('loss') });
}

const FORM_MARK = { win: 'player:form.winMark', loss: 'player:form.lossMark', draw: 'player:form.drawMark' } as const;
const FORM_STREAK = { win: 'player:form.winStreak', loss: 'player:form.lossStreak', draw: 'player:form.drawStreak' } as const;

/** "W W L D W · 7–3–1 · +42.5 rank score · 2 wins in a row · …", newest result first, the draws said only when there are some (src/game/form.ts). */
function formLine(form: NonNullable<ReturnType<typeof recentForm>>): string {
  const marks = form.results.map((r) => tr(FORM_MARK[r])).join(' ');
  const record = { wins: integer(form.wins), losses: integer(form.losses) };
  const parts = [
    marks,
    form.draws > 0 ? tr('player:form.recordWithDraws', { ...record, draws: integer(form.draws) }) : tr('player:form.record', record),
    form.rankChange === null ? null : tr('player:form.rankChange', { value: rankScoreChange(form.rankChange) }),
    tr(FORM_STREAK[form.streak.result], { count: form.streak.length, n: integer(form.streak.length) }),
    form.leftOut > 0 ? tr('player:form.leftOut', { count: form.leftOut, n: integer(form.leftOut) }) : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** "26 matches · 14 wins · 53.8 % · 462 / 194 / 288 (KDA 3.87) · 4h 27m"; an em dash for an empty record. */
function modeLine(s: PlayerProfile['overall']['ranked']): string {
  if (s.matches === 0) return '—';
  return `${counted('matches', s.matches)} · ${counted('wins', s.wins)} · ${winRate(s.wins, s.matches)} · ${kda(s.kills, s.deaths, s.assists)} · ${duration(s.play_time)}`;
}

/** One page of a list section: lines of text, and the page count. */
function listPage<T>(items: T[], page: number, line: (item: T, index: number) => string, empty: string): { description: string; pages: number; page: number } {
  const pages = pageCount(items.length, PER_PAGE);
  const p = clampPage(page, pages);
  const lines = items.slice((p - 1) * PER_PAGE, p * PER_PAGE).map((item, i) => line(item, (p - 1) * PER_PAGE + i));
  return { description: lines.join('\n') || empty, pages, page: p };
}

type Section = {
  embed: APIEmbed;
  pages: number;
  page: number;
  extra?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  fetched?: Fetched<unknown>;
  chart?: ViewChart;
};

/** The section's embed showing `chart` as its image, with the chart; the embed alone without one. */
const withChart = (section: Section, chart: ViewChart | undefined): Section =>
  chart ? { ...section, embed: { ...section.embed, image: { url: `attachment://${chart.name}` } }, chart } : section;

function heroesSection(p: PlayerProfile, which: 'ranked' | 'unranked', page: number, look: Lookups): Section {
  // Heroes with play time but no completed match stay, marked so: they hold real play time.
  const heroes = (which === 'ranked' ? p.heroes_ranked : p.heroes_unranked).filter(hasPlay).sort((a, b) => (b.play_time ?? 0) - (a.play_time ?? 0));
  const totals = which === 'ranked' ? p.overall.ranked : p.overall.unranked;
  // Matches in the totals but no hero list (seen in real data): say so, never "no matches".
  const empty =
    totals.matches > 0
      ? tr(`player:heroes.noList.${which}`, { count: totals.matches, n: integer(totals.matches), season: coverage(p, look) })
      : tr(`player:heroes.empty.${which}`, { season: coverage(p, look) });
  const list = listPage(
    heroes,
    page,
    (h, i) =>
      `**${i + 1}. ${heroMark(look, h.hero_id, h.hero_name)}${escapeText(heroLabel(look, h.hero_id, h.hero_name), 60)}** · ${duration(h.play_time)} · ${h.matches > 0 ? `${counted('matches', h.matches)} · ${percent(h.win_rate)}` : tr('player:heroes.noCompleted')} · ${kda(h.kills, h.deaths, h.assists)}${h.hit_rate === null ? '' : ` · ${tr('player:heroes.hitRate', { value: ratioPercent(h.hit_rate) })}`}`,
    empty,
  );
  const section: Section = { embed: { ...base(p, which, look), description: list.description }, pages: list.pages, page: list.page };
  const title = tr(`charts:titles.heroes.${which}`, { name: p.name, season: coverage(p, look) });
  const spec = heroPerformanceSpec(
    title,
    heroes.map((h) => ({ ...h, play_time: h.play_time ?? 0 })),
    (h) => ({
      name: heroLabel(look, h.hero_id, h.hero_name),
      role: look.hero(h.hero_id)?.role ?? null,
    }),
  );
  return withChart(section, chartOf(spec, `${which}-heroes.png`, tr(`charts:alt.heroes.${which}`, { name: p.name })));
}

const RESULT_WORD = { win: 'player:matches.win', loss: 'player:matches.loss', draw: 'player:matches.draw' } as const;

/** Recent match rows: a practice or bot result in italics, so it never reads as a real win; a season other than `current` named. */
function matchLines(rows: HistoryRow[], look: Lookups, current: Season | null): string[] {
  return rows.map((m) => {
    const mode = matchMode(m.game_mode_id, m.play_mode_id);
    const word = m.player.result ? tr(RESULT_WORD[m.player.result]) : '—';
    const result = mode.counts ? `**${word}**` : `*${word}*`;
    const modeLabel = modeText(look, m);
    const change = mode.ranked && m.player.score_change !== null ? ` · ${rankScoreChange(m.player.score_change)}` : '';
    const season = m.seasonInfo && current && m.seasonInfo.index !== current.index ? seasonLabel(m.seasonInfo) : null;
    const parts = [
      result,
      heroMark(look, m.player.hero_id, m.player.hero_name) + escapeText(heroLabel(look, m.player.hero_id, m.player.hero_name), 40),
      `${m.player.kills}/${m.player.deaths}/${m.player.assists}`,
      escapeText(mapText(look, m.map_id), 60),
      modeLabel === null ? null : `${modeLabel}${change}`,
      m.duration === null ? null : duration(m.duration),
      m.player.disconnected ? `*${tr('player:matches.disconnected')}*` : null,
      season,
      discordTime(rowStart(m)),
    ];
    return parts.filter((x) => x !== null).join(' · ');
  });
}

/** The recent matches' picker (handled by /match): `mt.l:<uid>:<season>:<page>:<filter>[:<back key>]`, so the match it opens can return to this page as it was. */
function matchSelect(uid: string, rows: HistoryRow[], page: number, look: Lookups): APIActionRowComponent<APIComponentInMessageActionRow> {
  const offset = (page - 1) * PER_PAGE;
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: keyedId('mt.l', [uid, seasonArg(look.season), page, look.hidePractice ? 'r' : ''], look.backKey),
        placeholder: tr('player:menu.openMatch'),
        options: rows.slice(0, LIMITS.selectOptions).map((m, i) => {
          const result = tr(m.player.result ? RESULT_WORD[m.player.result] : 'player:matches.match');
          const start = rowStart(m);
          const when = start === null ? null : shortDate(start);
          return {
            label: truncate(
              `${offset + i + 1}. ${result} · ${heroLabel(look, m.player.hero_id, m.player.hero_name)} · ${m.player.kills}/${m.player.deaths}/${m.player.assists}`,
              LIMITS.optionLabel,
            ),
            emoji: componentEmoji('hero', m.player.hero_name),
            value: encodeMatchOrigin({ matchUid: m.match_uid, mapId: m.map_id, modeId: m.game_mode_id, duration: m.duration, time: m.time, score: m.score }),
            description: truncate([mapText(look, m.map_id), modeText(look, m), when].filter(Boolean).join(' · '), LIMITS.optionDescription),
          };
        }),
      },
    ],
  };
}

function matchesSection(p: PlayerProfile, history: HistoryPage, look: Lookups): Section {
  const notes: string[] = [];
  if (history.source === 'profile' && history.rows.length > 0) notes.push(t.historyFromProfile(history.total, history.noStoredHistory));
  if (history.newerFromProfile > 0 && history.page === 1) notes.push(t.newerFromProfile(history.newerFromProfile));
  if (look.hidePractice) notes.push(tr('player:matches.practiceHidden'));
  const lines = matchLines(history.rows, look, look.season ?? currentSeason(p));
  const empty = look.season ? t.noMatchesInSeason(seasonLabel(look.season)) : t.noRecentMatches();
  const description = truncate([...notes, ...(notes.length ? [''] : []), ...lines].join('\n') || empty, LIMITS.description);
  return {
    embed: { ...base(p, 'matches', look), description },
    pages: history.pages,
    page: history.page,
    extra: history.rows.length === 0 ? [] : [matchSelect(p.uid, history.rows, history.page, look)],
    fetched: history.fetched,
  };
}

/** Best and worst competitive matchups by the player's own win rate (the API's counts are the opposing hero's: src/game/matchups.ts). */
function matchupsEmbed(p: PlayerProfile, look: Lookups): APIEmbed {
  const { best, worst, tooFew, total } = matchupExtremes(p);
  const line = (m: Matchup) =>
    `**${escapeText(heroLabel(look, m.hero_id, m.hero_name), 60)}**${aside(escapeText(roleName(look.hero(m.hero_id)?.role ?? m.hero_class) ?? '', 20))} · ${tr('player:matchups.record', { count: m.matches, n: integer(m.matches), winRate: percent(m.winRate) })}`;
  const fields: APIEmbedField[] = [];
  if (best.length > 0) fields.push({ name: tr('player:matchups.best'), value: truncate(best.map(line).join('\n'), LIMITS.fieldValue), inline: false });
  if (worst.length > 0) fields.push({ name: tr('player:matchups.worst'), value: truncate(worst.map(line).join('\n'), LIMITS.fieldValue), inline: false });
  const notes = [
    total.matches === 0 ? tr('player:matchups.empty') : tr('player:matchups.intro', { min: MATCHUP_MIN_MATCHES }),
    total.matches > 0 && best.length === 0 ? tr('player:matchups.tooFewAll', { min: MATCHUP_MIN_MATCHES }) : null,
    tooFew > 0 && best.length > 0 ? tr('player:matchups.tooFew', { count: tooFew, n: integer(tooFew), min: MATCHUP_MIN_MATCHES }) : null,
  ].filter(Boolean);
  return { ...base(p, 'matchups', look), title: tr('player:matchups.title'), description: notes.join('\n'), fields };
}

/**
 * Why a season's ranked wins pass the profile's ranked totals: the season's are the game's count over the whole season,
 * the totals only the matches the API recorded (docs/data.md, `win_count`).
 */
function seasonWinsNote(season: Season, wins: number, totals: PlayerProfile['overall']['ranked']): string {
  return tr('player:rankHistory.winsNote', {
    season: seasonLabel(season),
    wins: tr('player:rankHistory.wins', { count: wins, n: integer(wins) }),
    matches: counted('matches', totals.matches),
    recorded: counted('wins', totals.wins),
  });
}

function rankHistorySection(p: PlayerProfile, page: number, look: Lookups, tracked: Tracked | undefined): Section {
  // The latest season at the header's rank (src/game/profile.ts): its line and the timeline's newest point agree.
  const seasons = rankedSeasons(p).reverse();
  const totals = p.overall.ranked;
  const totalsSeason = look.season && look.seasonTotals ? look.season : currentSeason(p);
  // The ranked totals are matches the API recorded in their season: that season's count below them was read before they were.
  const shownWins = (s: SeasonRank) => (s.wins !== null && s.season.index === totalsSeason?.index ? Math.max(s.wins, totals.wins) : s.wins);
  const ofTotals = seasons.find((s) => s.season.index === totalsSeason?.index);
  const totalsWins = ofTotals ? shownWins(ofTotals) : null;
  const winsNote = ofTotals && totalsWins !== null && totalsWins > totals.wins ? seasonWinsNote(ofTotals.season, totalsWins, totals) : null;
  const table = seasons.map((s) => {
    const peak =
      s.peakScore === null ? '' : ` · ${tr('player:rankHistory.peak', { rank: `${s.peakTier ? `${tierName(s.peakTier)} ` : ''}${rankScore(s.peakScore)}` })}`;
    const wins = shownWins(s);
    const winsText = wins === null ? '' : ` · ${tr('player:rankHistory.wins', { count: wins, n: integer(wins) })}`;
    const mark = look.season && s.season.index === look.season.index ? '▸ ' : '';
    return `${mark}**${seasonLabel(s.season)}** · ${emojiBefore('tier', s.tier)}${tierName(s.tier) ?? tr('player:unranked')} · ${rankScore(s.score)}${peak}${winsText}`;
  });
  // One timeline (src/game/rank-timeline.ts), newest first: its first line is the header's rank, dated when it was reached.
  const timeline = rankTimeline(p, tracked?.points ?? []);
  const now = rankSummary(p, null);
  const changes = [...timeline].reverse();
  const list = listPage(
    changes,
    page,
    (r: RankTimelinePoint) => {
      // The tier by the header's rule, the level read with its score (src/game/ranks.ts): the newest line names the header's tier.
      const level = shownLevel(r.level, r.score);
      const from = r.levelFrom === null ? null : shownLevel(r.levelFrom, r.change === null ? null : r.score - r.change);
      const tiers = level === null ? null : from === null || from === level ? levelName(level) : `${levelName(from)} → ${levelName(level)}`;
      // Every point names its season, the current one included: the list reads on its own, beside the chart or without it.
      const season = r.season ? seasonLabel(r.season) : tr('player:rankHistory.unknownSeason');
      return [discordTime(r.time), `${r.change === null ? '' : `${rankScoreChange(r.change)} → `}${rankScore(r.score)}`, tiers, season]
        .filter(Boolean)
        .join(' · ');
    },
    tr(table.length > 0 ? 'player:rankHistory.noChanges' : 'player:rankHistory.nothing'),
  );
  // The note stays whole under the seasons: the oldest seasons give way first.
  const note = winsNote === null ? '' : `\n*${winsNote}*`;
  const fields: APIEmbedField[] =
    table.length > 0
      ? [{ name: tr('player:rankHistory.rankedSeasons'), value: truncate(table.join('\n'), LIMITS.fieldValue - note.length) + note, inline: false }]
      : [];
  // Untracked: the API's few points, and how to get more (tracking off for this bot, or not linked).
  const untracked = tracked && !tracked.tracked ? `\n\n${tr('player:rankHistory.untracked')}` : '';
  const description = `${changes.length > 0 ? `**${tr('player:rankHistory.recentChanges')}**\n${list.description}` : list.description}${untracked}`;
  const section: Section = { embed: { ...base(p, 'rank-history', look), fields, description }, pages: list.pages, page: list.page };
  const spec = rankHistorySpec(
    p.name,
    timeline,
    { tier: now.tier, score: now.score, season: now.season, time: now.reachedAt },
    tr('player:rankHistory.unknownSeason'),
  );
  return withChart(section, chartOf(spec, 'rank-history.png', tr('charts:alt.rankHistory', { name: p.name })));
}

/** What the bot recorded of a player it tracks (src/store/tracking.ts), read for the profile and the rank history. */
interface Tracked {
  tracked: boolean;
  points: RankTimelinePoint[];
  matches: RecordedMatch[];
}

/** What a section needs beyond the profile and lists, read before it renders: the recent matches' page, the tracked records. */
interface SectionData {
  history?: HistoryPage;
  /** The Maps section's: every match row of the player the bot holds ({@link mapModeRows}). */
  mapRows?: MapModeRow[];
  /** Absent without tracking, or when its records cannot be read now (the section shows what the API gives). */
  tracked?: Tracked & { now: number };
}

async function loadSection(p: PlayerProfile, which: PlayerSection, page: number, look: Lookups, ctx: CommandContext): Promise<SectionData> {
  if (which === 'matches')
    return { history: await recentMatches(ctx.api, p, { page, season: look.season, hidePractice: look.hidePractice, logger: ctx.logger }) };
  // Without a map played there is nothing to name, and nothing to read.
  if (which === 'maps') return p.maps.some((m) => m.matches > 0) ? { mapRows: await mapModeRows(p, look, ctx) } : {};
  if ((which !== 'profile' && which !== 'rank-history') || !ctx.tracking || p.is_private) return {};
  try {
    const t = await ctx.tracking.timeline(p.uid);
    return { tracked: { tracked: t.tracked, points: trackedTimelinePoints(t.snapshots, t.matches), matches: t.matches, now: ctx.now() } };
  } catch (err) {
    ctx.logger.warn({ err, uid: p.uid }, "could not read a player's tracked records: showing the API's alone");
    return {};
  }
}

/**
 * Every match row of the player the bot holds, for the modes of the Maps section: the profile's own, the history pages the
 * response cache holds (src/catalog/history.ts `heldHistoryRows`), and the tracker's records. One read may ask the API: v2's
 * first page, the one the recent matches read first and share through the cache, within the interaction's budget: it holds
 * more rows than the profile embeds, and its failure only leaves it out.
 */
async function mapModeRows(p: PlayerProfile, look: Lookups, ctx: CommandContext): Promise<MapModeRow[]> {
  const [held, recorded] = await Promise.all([
    heldHistoryRows(ctx.api, p, { season: look.season, readFirstPage: true, logger: ctx.logger }),
    trackedMatches(p, ctx),
  ]);
  return withRecordedMatches(held, recorded ?? []);
}

/** One section at a page, from what was read: pure (charts are asked for as specs, drawn by the runtime). */
function section(p: PlayerProfile, which: PlayerSection, page: number, look: Lookups, data: SectionData): Section {
  const simple = <T>(items: T[], line: (item: T, i: number) => string, empty: string, extra: Partial<APIEmbed> = {}): Section => {
    const list = listPage(items, page, line, empty);
    return { embed: { ...base(p, which, look), ...extra, description: list.description }, pages: list.pages, page: list.page };
  };
  switch (which) {
    case 'profile': {
      const { embed, cardText } = profileEmbed(p, look, data.tracked);
      // The embed keeps its rank thumbnail: a member who chose embeds (`/settings display`) gets it without the card.
      const card = chartOf(profileCardSpec(p, look), 'profile.png', tr('player:card.alt', { name: p.name }));
      if (!card) return { embed: { ...embed, fields: [...(embed.fields ?? []), ...cardText] }, pages: 1, page: 1, extra: [updateRow(p.uid)] };
      return withChart({ embed, pages: 1, page: 1, extra: [updateRow(p.uid)] }, { ...card, text: { fields: cardText } });
    }
    case 'stats':
      return { embed: statsEmbed(p, look), pages: 1, page: 1 };
    case 'ranked':
    case 'unranked':
      return heroesSection(p, which, page, look);
    case 'matchups':
      return { embed: matchupsEmbed(p, look), pages: 1, page: 1 };
    case 'maps': {
      const rows = p.maps.filter((m) => m.matches > 0).sort((a, b) => b.matches - a.matches);
      // The picture of the page's own first map that has one: never a map another page lists.
      const shown = clampPage(page, pageCount(rows.length, PER_PAGE));
      const image = rows
        .slice((shown - 1) * PER_PAGE, shown * PER_PAGE)
        .map((m) => look.map(m.map_id)?.image ?? m.map_thumbnail)
        .find(Boolean);
      // A map's mode comes from the player's own match rows on it, never from the map list: every row held, though the
      // counts are the profile's.
      const labels = playedMapLabels(
        rows.map((m) => ({ id: m.map_id, info: look.map(m.map_id), name: m.map_name })),
        modesByMap(data.mapRows ?? p.recent_matches),
      );
      return simple(
        rows,
        (m, i) => `**${escapeText(labels[i]!, 80)}** · ${counted('matches', m.matches)} · ${percent(m.win_rate)} · ${kda(m.kills, m.deaths, m.assists)}`,
        tr('player:maps.empty'),
        image ? { thumbnail: { url: image } } : {},
      );
    }
    case 'teammates':
      return simple(
        p.team_mates.filter((x) => x.matches > 0).sort((a, b) => b.matches - a.matches),
        (x) =>
          `**${escapeText(x.name ?? x.uid ?? tr('player:teammates.player'), 60)}** · ${tr('player:teammates.record', { count: x.matches, n: integer(x.matches), winRate: percent(x.win_rate) })}`,
        tr('player:teammates.empty'),
      );
    case 'rank-history':
      return rankHistorySection(p, page, look, data.tracked);
    case 'matches': {
      if (!data.history) throw new Error('the recent matches were not read before rendering');
      const s = matchesSection(p, data.history, look);
      const filter = { season: seasonArg(look.season), current: look.hidePractice ? ('r' as const) : ('' as const), backKey: look.backKey };
      return { ...s, extra: [...(s.extra ?? []), updateRow(p.uid, filter)] };
    }
  }
}

/**
 * The page buttons' arguments before the page: `<uid>:<season>:<section>[:<filter>]`, or with a back key
 * `<uid>:<season>:<section>:<filter>:<back key>` (the filter '' outside the recent matches), where the last page's ID fits.
 */
function pageArgs(uid: string, season: string, which: PlayerSection, filter: MatchFilter, backKey: string | undefined): (string | number)[] {
  const shown = which === 'matches' ? filter : '';
  const keyed = backKey ? [uid, season, which, shown, backKey] : null;
  if (keyed && encodeCustomIdIfFits('pl.p', ...keyed, MAX_PAGE, 'l')) return keyed;
  return shown ? [uid, season, which, shown] : [uid, season, which];
}

/**
 * One section of a profile at a page; `season` null is the current one; `lists` when the caller started {@link readLists};
 * `backKey` the store key of the profile's Back button ({@link WayBack}), carried in every custom ID of the view that fits it.
 */
export async function playerView(
  fetched: Fetched<PlayerProfile>,
  which: PlayerSection,
  page: number,
  season: Season | null,
  ctx: CommandContext,
  seasonTotals = true,
  lists: Promise<ViewLists> = readLists(ctx),
  filter: MatchFilter = '',
  backKey?: string,
): Promise<View> {
  const p = fetched.data;
  const look = await lookups(season, seasonTotals, p, lists, filter, backKey);
  const s = section(p, which, page, look, await loadSection(p, which, page, look, ctx));
  const footer = staleFooter(s.fetched?.stale ? s.fetched : fetched);
  const embed = footer ? { ...s.embed, footer } : s.embed;
  // The filter travels with the recent matches' pages only.
  const nav = pageRow('pl.p', pageArgs(p.uid, seasonArg(season), which, filter, backKey), s.page, s.pages);
  return {
    embeds: [embed],
    components: [sectionMenu(p.uid, seasonArg(season), which, backKey), ...(s.extra ?? []).slice(0, 1), ...(nav ? [nav] : []), ...(s.extra ?? []).slice(1)],
    ...(s.chart ? { charts: [s.chart] } : {}),
  };
}

const sectionOf = (value: string | undefined): PlayerSection =>
  (PLAYER_SECTIONS as readonly string[]).includes(value ?? '') ? (value as PlayerSection) : 'profile';

/** "6 matches · 66.7 % · 116 / 44 / 0 (KDA 2.64) · 1h 1m"; "no completed matches · 4m 12s" for play time alone. */
function heroRecordLine(r: HeroRecord): string {
  const record = r.matches > 0 ? `${counted('matches', r.matches)} · ${winRate(r.wins, r.matches)}` : tr('player:heroes.noCompleted');
  return `${record} · ${kda(r.kills, r.deaths, r.assists)} · ${duration(r.play_time)}`;
}

/** The matches the bot recorded of a tracked player; null when the player is not tracked or the records cannot be read. */
async function trackedMatches(p: PlayerProfile, ctx: CommandContext): Promise<RecordedMatch[] | null> {
  if (!ctx.tracking || p.is_private) return null;
  try {
    const t = await ctx.tracking.timeline(p.uid);
    return t.tracked ? t.matches : null;
  } catch (err) {
    ctx.logger.warn({ err, uid: p.uid }, "could not read a player's tracked matches: going without them");
    return null;
  }
}

/**
 * `/player … hero:<name>`: one player on one hero (src/game/player-hero.ts): the season's record in each mode, per 10
 * minutes, accuracy, MVPs, the maps of the recent matches on it, and the last seven days of a tracked player. A hero the
 * player has no play on is said so, with the profile's menu to go on.
 */
async function heroView(
  fetched: Fetched<PlayerProfile>,
  hero: Hero,
  season: Season | null,
  seasonTotals: boolean,
  lists: Promise<ViewLists>,
  ctx: CommandContext,
): Promise<View> {
  const p = fetched.data;
  const [look, tracked] = await Promise.all([lookups(season, seasonTotals, p, lists, ''), trackedMatches(p, ctx)]);
  const data = playerHero(p, { id: hero.id, name: hero.name });
  const name = heroDisplayName(hero);
  const fields: APIEmbedField[] = [];
  const notes = [tr('player:hero.coverage', { season: coverage(p, look) })];
  if (look.season && !look.seasonTotals) notes.push(t.seasonTotalsUnavailable(seasonLabel(look.season)));
  if (!hasHeroData(data)) notes.push(tr('player:hero.none', { player: escapeText(p.name, 60), hero: escapeText(name, 60) }));
  if (data.ranked) fields.push({ name: tr('player:profile.ranked'), value: heroRecordLine(data.ranked), inline: false });
  if (data.unranked) fields.push({ name: tr('player:profile.unranked'), value: heroRecordLine(data.unranked), inline: false });
  const total = data.total;
  if (total) {
    const per10 = heroPerTen(total);
    const parts = per10
      ? [
          per10.damage === null ? null : tr('player:profile.damage', { value: integer(per10.damage) }),
          per10.heal === null ? null : tr('player:profile.healing', { value: integer(per10.heal) }),
          per10.damage_taken === null ? null : tr('player:profile.damageTaken', { value: integer(per10.damage_taken) }),
        ].filter(Boolean)
      : [];
    // Played in both modes, the figures below the two records add them up and say so; in one, they are that mode's.
    const both = data.ranked !== null && data.unranked !== null;
    const label = (text: string) => (both ? allModes(text) : text);
    if (parts.length > 0) fields.push({ name: label(tr('player:profile.perTenMinutes')), value: parts.join(' · '), inline: false });
    if (total.hit_rate !== null) fields.push({ name: label(tr('player:hero.accuracy')), value: ratioPercent(total.hit_rate), inline: !both });
    fields.push(
      both
        ? { name: tr('player:profile.mvpSvp'), value: mvpSvpByMode(data.ranked, data.unranked), inline: false }
        : { name: tr('player:profile.mvpSvp'), value: `${integer(total.mvp)} / ${integer(total.svp)}`, inline: true },
    );
  }
  if (data.maps.length > 0) {
    const mapLabels = playedMapLabels(
      data.maps.map((m) => ({ id: m.mapId, info: look.map(m.mapId) })),
      modesByMap(data.recent),
    );
    fields.push({
      name: tr('player:hero.maps', { count: data.recent.length, n: integer(data.recent.length) }),
      // The most played maps a phone's first screen holds (each line at most about 110 characters), then how many more:
      // the field never leaves maps out without saying so.
      value: [
        ...data.maps
          .slice(0, HERO_MAPS_SHOWN)
          .map((m, i) => `${escapeText(mapLabels[i]!, 60)} · ${counted('matches', m.matches)} · ${counted('wins', m.wins)}`),
        ...(data.maps.length > HERO_MAPS_SHOWN
          ? [tr('player:hero.mapsMore', { count: data.maps.length - HERO_MAPS_SHOWN, n: integer(data.maps.length - HERO_MAPS_SHOWN) })]
          : []),
      ].join('\n'),
      inline: false,
    });
  }
  if (tracked) {
    const week = heroWeek(tracked, hero.id, ctx.now());
    fields.push({
      name: tr('player:hero.week'),
      value: week
        ? `${counted('matches', week.matches)} · ${winRate(week.wins, week.matches)} · ${kda(week.kills, week.deaths, week.assists)}`
        : tr('player:hero.weekNone'),
      inline: false,
    });
  }
  const role = roleName(hero.role);
  const embed: APIEmbed = {
    ...base(p, 'profile', look),
    title: truncate(`${name}${role ? aside(role) : ''}`, LIMITS.title),
    description: notes.join('\n'),
    thumbnail: hero.image ? { url: hero.image } : undefined,
    fields,
  };
  const footer = staleFooter(fetched);
  return { embeds: [footer ? { ...embed, footer } : embed], components: [sectionMenu(p.uid, seasonArg(season), null)] };
}

/**
 * The profile a `/player` invocation means: the typed query, else the `user` option's or target's linked account, else the caller's.
 * @throws {NotLinkedError} when that member has none linked; {@link SeasonError} for a `season` no season has.
 */
export async function profileFor(input: CommandInput, ctx: CommandContext): Promise<View> {
  const season = seasonOption(input.options.season);
  const typed = typeof input.options.query === 'string' ? input.options.query : '';
  const whose = String(input.options.user ?? input.targetUserId ?? input.user.userId);
  // The profile first (its turn at the API's rate limit before the lists'), the lists meanwhile.
  const loading = loadNamedProfile(typed, whose, season, input.user.userId, ctx);
  const lists = readLists(ctx);
  const heroQuery = typeof input.options.hero === 'string' ? input.options.hero.trim() : '';
  // An unknown hero is answered first, whatever the profile read does meanwhile.
  const hero =
    heroQuery === ''
      ? null
      : await ctx.heroes.resolve(heroQuery).catch((err: unknown) => {
          loading.catch(() => undefined);
          throw err;
        });
  const { fetched, seasonTotals } = await loading;
  // Off the reply path: the answer never waits for the cache.
  void ctx.recent
    .add(input.user.userId, { uid: fetched.data.uid, name: fetched.data.name })
    .catch((err: unknown) => ctx.logger.warn({ err }, 'could not record a recent lookup'));
  if (hero) return heroView(fetched, hero, season, seasonTotals, lists, ctx);
  return playerView(fetched, 'profile', 1, season, ctx, seasonTotals, lists);
}

/**
 * A profile opened from a component: a missing player is named, never "check the spelling". `back`, read alongside the
 * profile, is its way back ({@link WayBack}): a Back button when its custom ID is known, and the key its own IDs carry.
 */
export async function profileFromComponent(
  uid: string,
  season: Season | null,
  which: PlayerSection,
  page: number,
  ctx: CommandContext,
  filter: MatchFilter = '',
  back?: Promise<WayBack>,
): Promise<View> {
  const loading = loadProfile(uid, season, ctx);
  const lists = readLists(ctx);
  let loaded: LoadedProfile;
  try {
    loaded = await loading;
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') throw new NotFoundError('player', uid, true);
    throw err;
  }
  const way = (await back) ?? {};
  const view = await playerView(loaded.fetched, which, page, season, ctx, loaded.seasonTotals, lists, filter, way.key);
  return way.id ? { ...view, components: [...(view.components ?? []), backRow(way.id)] } : view;
}

/**
 * The way back that a profile's own custom ID carries as its back key (`arg`, read by the codec): the Back button kept under
 * it, read alongside the profile. A key the store no longer has (expired, evicted, never kept) gives no Back button: the
 * profile's own menu still reaches every section, and a Back that led to the profile's top would not be a way back. The key
 * is carried on all the same, so that a cache slow for one press does not lose the Back for the presses after it.
 */
function keptWayBack(arg: string | undefined, ctx: CommandContext): Promise<WayBack> | undefined {
  const key = storeKeyArg(arg);
  return key ? ctx.backTargets.find(key).then((id) => ({ key, ...(id ? { id } : {}) })) : undefined;
}

/** The Update button: asks the API to refresh a player (`GET /api/v1/player/{uid}/update`); answers privately. */
async function requestUpdate(uid: string, ctx: CommandContext): Promise<View> {
  try {
    await ctx.api.playerUpdate(uid);
    return { ephemeral: true, embeds: [{ color: 0x22c55e, description: t.updateRequested() }] };
  } catch (err) {
    // Only the API's own cooldown is this player's wait; any other 429 is the key's rate limit, which the router explains.
    const cooldown = updateCooldownMs(err);
    if (cooldown !== null) {
      return { ephemeral: true, embeds: [{ color: 0xf59e0b, description: t.updateCooldown(Math.max(1, Math.ceil(cooldown / 60_000))) }] };
    }
    // The profile is on screen: a refused update is the API's, never "no such player".
    if (err instanceof ApiError && err.kind === 'not_found') return { ephemeral: true, embeds: [{ color: 0xf59e0b, description: t.updateNotPossible() }] };
    throw err;
  }
}

/**
 * `hero:` choices: the heroes of the player named (the typed query, else the member's or `user`'s linked account), most
 * played first with their play time, then the other heroes that fit what is typed. The hero list alone when no player is
 * named or their profile cannot be read in time.
 */
async function heroChoices(input: AutocompleteInput, ctx: CommandContext): Promise<{ name: string; value: string }[]> {
  const typed = foldName(input.focused.value);
  const others = ctx.heroes.suggest(input.focused.value);
  const query = typeof input.options.query === 'string' ? input.options.query.trim() : '';
  const own: { name: string; value: string }[] = [];
  try {
    const uid = query || (await ctx.links.defaultUid(String(input.options.user ?? input.user.userId)));
    if (uid) {
      const [fetched, heroes] = await Promise.all([ctx.api.player(uid), ctx.heroes.list()]);
      for (const h of heroTotals(fetched.data)) {
        const hero = heroes.find((x) => (h.hero_id !== null && x.id === h.hero_id) || (h.hero_name !== null && foldName(x.name) === foldName(h.hero_name)));
        if (!hero || (typed !== '' && !foldName(heroDisplayName(hero)).includes(typed))) continue;
        own.push({ name: `${heroDisplayName(hero)} · ${duration(h.play_time)}`, value: hero.id });
      }
    }
  } catch (err) {
    ctx.logger.debug({ err }, "hero choices without the player's own heroes");
  }
  const listed = new Set(own.map((c) => c.value));
  return [...own, ...(await others).filter((c) => !listed.has(c.value))].slice(0, LIMITS.autocompleteChoices);
}

export const player: CommandModule = {
  apiOptions: { season: 'season', player: 'query', playerUpdate: 'query', matchHistoryV1: 'query', matchHistoryV2: 'query' },
  definition,
  execute: profileFor,
  async autocomplete(input, ctx) {
    if (input.focused.name === 'hero') return heroChoices(input, ctx);
    if (input.focused.name === 'season') return seasonChoices(input.focused.value, String(input.options.query ?? ''), input.user.userId, ctx);
    return playerChoices(input.user.userId, input.focused.value, ctx);
  },
  components: {
    /** Section select: `pl.s:<uid>:<season>[:<back key>]`, the section as the value. */
    'pl.s': async (input, ctx) => {
      const [uid = '', season = '', key] = input.args;
      return profileFromComponent(uid, seasonOption(season), sectionOf(input.values[0]), 1, ctx, '', keptWayBack(key, ctx));
    },
    /**
     * Paginator: `pl.p:<uid>:<season>:<section>[:<filter>]:<page>:<kind>` (the filter on recent matches only), or with the
     * profile's back key `pl.p:<uid>:<season>:<section>:<filter>:<back key>:<page>:<kind>`.
     */
    'pl.p': async (input, ctx) => {
      const [uid = '', season = '', which] = input.args;
      const filter = input.args.length >= 6 ? filterOf(input.args[3]) : '';
      const back = input.args.length >= 7 ? keptWayBack(input.args[4], ctx) : undefined;
      return profileFromComponent(uid, seasonOption(season), sectionOf(which), pageFromArgs(input.args), ctx, filter, back);
    },
    /** Recent matches' filter button: `pl.f:<uid>:<season>:<filter>[:<back key>]`; opens the first page with that filter. */
    'pl.f': async (input, ctx) => {
      const [uid = '', season = '', filter, key] = input.args;
      return profileFromComponent(uid, seasonOption(season), 'matches', 1, ctx, filterOf(filter), keptWayBack(key, ctx));
    },
    /**
     * A match's player select (`pl.o:<match value>[:<list place>]`, the player's uid as the value): the profile, with a Back
     * button to the match (`mt.o` with the same arguments: the match's own Back to the recent matches it came from is kept).
     * The Back is kept in the store alongside the profile read, and the profile's own IDs carry its key.
     */
    'pl.o': async (input, ctx) => {
      const target = encodeCustomIdIfFits('mt.o', ...input.args) ?? encodeCustomIdIfFits('mt.o', input.args[0] ?? '');
      const back = target ? ctx.backTargets.keep(target).then((key) => ({ id: target, ...(key ? { key } : {}) })) : undefined;
      return profileFromComponent(input.values[0] ?? '', null, 'profile', 1, ctx, '', back);
    },
    /** The same, from a message sent before the route named the module that handles it. */
    'mt.p': async (input, ctx) => player.components!['pl.o']!(input, ctx),
    /** Update button: `pl.u:<uid>`. */
    'pl.u': async (input, ctx) => requestUpdate(input.args[0] ?? '', ctx),
  },
};

/** The "Rivals profile" user context-menu command: a member's linked profile, from their name. */
export const rivalsProfile: CommandModule = {
  // A member's profile on right-click wherever the bot reaches: a server that added it, or the member's own install.
  definition: new ContextMenuCommandBuilder()
    .setName('Rivals profile')
    .setType(ApplicationCommandType.User)
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .toJSON(),
  async execute(input, ctx) {
    return profileFor({ ...input, options: {} }, ctx);
  },
};
