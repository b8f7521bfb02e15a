/**
 * `/player [query] [user] [season]` and the "Rivals profile" context command: a profile, its other sections through a select
 * menu, and an Update button. Data: api-spec.md endpoints 17–20, the player update endpoint, the map and hero lists.
 */
import { ContextMenuCommandBuilder } from '@discordjs/builders';
import { ApplicationCommandType, type APIEmbed, type APIEmbedField } from 'discord-api-types/v10';
import type { Fetched } from '../src/api/client.js';
import { ApiError } from '../src/core/api-errors.js';
import type { Hero, PlayerProfile } from '../src/api/schemas.js';
import type { AutocompleteInput, CommandContext, CommandInput, CommandModule, ComponentInput } from '../src/discord/command.js';
import { EVERYWHERE, slashCommand } from '../src/discord/command.js';
import { encodeCustomIdIfFits, storeKeyArg } from '../src/render/custom-id.js';
import { NotFoundError } from '../src/core/errors.js';
import { heldHistoryRows, recentMatches } from '../src/catalog/history.js';
import { describe } from '../src/i18n/commands.js';
import { partnersOf } from '../src/game/duos.js';
import { modesByMap, type MapModeRow } from '../src/game/modes.js';
import { heroTotals } from '../src/game/profile.js';
import { trackedTimelinePoints, withRecordedMatches, type RecordedMatch } from '../src/game/tracking.js';
import { updateCooldownMs } from '../src/jobs/link-verifier.js';
import { hasHeroData, heroPerTen, heroWeek, playerHero } from '../src/game/player-hero.js';
import { foldName } from '../src/game/fold.js';
import { type Season } from '../src/game/seasons.js';
import { playedMapLabels, type MapInfo } from '../src/render/map-names.js';
import { seasonLabel, staleFooter } from '../src/render/common.js';
import { aside, duration, integer, kda, ratioPercent, winRate } from '../src/i18n/format.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { heroDisplayName, roleName } from '../src/i18n/names.js';
import { heroLookup } from '../src/render/hero-lookup.js';
import { backRow, pageFromArgs, pageRow } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';
import { t } from '../src/render/strings.js';
import { tr } from '../src/i18n/index.js';
import { loadNamedProfile, loadProfile, playerChoices, seasonOption, type LoadedProfile } from '../src/catalog/players.js';
import { seasonChoices } from '../src/catalog/choices.js';
import {
  base,
  HERO_MAPS_SHOWN,
  type PlayerSection,
  counted,
  type Lookups,
  type MatchFilter,
  filterOf,
  seasonArg,
  sectionMenu,
  coverage,
  pageArgs,
  sectionOf,
  heroRecordLine,
} from '../src/render/player/common.js';
import { allModes, mvpSvpByMode } from '../src/render/player/profile.js';
import { type PlayedWith, type SectionData, section } from '../src/render/player/sections.js';

/** The part of a command's context /player uses (src/discord/command.ts). */
type Ctx = Pick<
  CommandContext,
  'api' | 'backTargets' | 'channels' | 'heroes' | 'links' | 'logger' | 'maps' | 'now' | 'recent' | 'serverMatches' | 'settings' | 'tracking'
>;

const definition = slashCommand('player')
  .addStringOption((o) => o.setName('query').setDescription(describe('player.options.query')).setMaxLength(100).setAutocomplete(true))
  .addUserOption((o) => o.setName('user').setDescription(describe('player.options.user')))
  .addNumberOption((o) => o.setName('season').setDescription(describe('player.options.season')).setMinValue(0).setMaxValue(99).setAutocomplete(true))
  .addStringOption((o) => o.setName('hero').setDescription(describe('player.options.hero')).setMaxLength(60).setAutocomplete(true))
  .toJSON();

/**
 * The way out of a profile opened from another view (a scoreboard's player select, `pl.o`): `id` the Back button's custom
 * ID when it is known, `key` the store key under which the profile's own IDs carry it (src/store/back-targets.ts), so that
 * the Back survives every section, page and filter, and a match opened from the profile and left again.
 */
interface WayBack {
  id?: string;
  key?: string;
}

/** The map and hero lists a view names maps and heroes from; see {@link readLists}. */
export interface ViewLists {
  maps: MapInfo[];
  heroes: Hero[];
}

/**
 * The map and hero lists (api-spec.md endpoints 1 and 11); never rejects: a list that cannot be had is empty. Started right
 * after the profile read, so an uncached list loads alongside it while the profile keeps the first turn at the API's rate limit.
 */
export function readLists(ctx: Ctx): Promise<ViewLists> {
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

async function loadSection(p: PlayerProfile, which: PlayerSection, page: number, look: Lookups, ctx: Ctx, guildId?: string | null): Promise<SectionData> {
  if (which === 'teammates') return guildId ? { playedWith: await playedWith(p.uid, guildId, ctx) } : {};
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
 * The members of `guildId`'s ladder the player `uid` played with (one team) or against, from both members' recorded matches
 * (src/game/duos.ts), most matches first; none unless the player is on that ladder too, nor when the store cannot say now.
 */
async function playedWith(uid: string, guildId: string, ctx: Ctx): Promise<PlayedWith[]> {
  if (!ctx.serverMatches) return [];
  try {
    const members = await ctx.serverMatches.members(guildId);
    if (!members.some((m) => m.uid === uid)) return [];
    const byUid = new Map(members.map((m) => [m.uid, m]));
    return partnersOf(await ctx.serverMatches.pairCounts(guildId, 0, uid))
      .flatMap((p): PlayedWith[] => {
        const m = byUid.get(p.uid);
        return m ? [{ userId: m.userId, name: m.name ?? m.uid, together: p.together, wins: p.wins, losses: p.losses }] : [];
      })
      .sort((a, b) => b.wins + b.losses - (a.wins + a.losses) || a.name.localeCompare(b.name));
  } catch (err) {
    ctx.logger.warn({ err, uid }, 'could not read who a player played with: showing the teammates alone');
    return [];
  }
}

/**
 * Every match row of the player the bot holds, for the modes of the Maps section: the profile's own, the history pages the
 * response cache holds (src/catalog/history.ts `heldHistoryRows`), and the tracker's records. One read may ask the API: v2's
 * first page, the one the recent matches read first and share through the cache, within the interaction's budget: it holds
 * more rows than the profile embeds, and its failure only leaves it out.
 */
async function mapModeRows(p: PlayerProfile, look: Lookups, ctx: Ctx): Promise<MapModeRow[]> {
  const [held, recorded] = await Promise.all([
    heldHistoryRows(ctx.api, p, { season: look.season, readFirstPage: true, logger: ctx.logger }),
    trackedMatches(p, ctx),
  ]);
  return withRecordedMatches(held, recorded ?? []);
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
  ctx: Ctx,
  seasonTotals = true,
  lists: Promise<ViewLists> = readLists(ctx),
  filter: MatchFilter = '',
  backKey?: string,
  guildId?: string | null,
): Promise<View> {
  const p = fetched.data;
  const look = await lookups(season, seasonTotals, p, lists, filter, backKey);
  const s = section(p, which, page, look, await loadSection(p, which, page, look, ctx, guildId));
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

/** The matches the bot recorded of a tracked player; null when the player is not tracked or the records cannot be read. */
async function trackedMatches(p: PlayerProfile, ctx: Ctx): Promise<RecordedMatch[] | null> {
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
  ctx: Ctx,
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
export async function profileFor(input: CommandInput, ctx: Ctx): Promise<View> {
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
  ctx: Ctx,
  filter: MatchFilter = '',
  back?: Promise<WayBack>,
  guildId?: string | null,
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
  const view = await playerView(loaded.fetched, which, page, season, ctx, loaded.seasonTotals, lists, filter, way.key, guildId);
  return way.id ? { ...view, components: [...(view.components ?? []), backRow(way.id)] } : view;
}

/**
 * The way back that a profile's own custom ID carries as its back key (`arg`, read by the codec): the Back button kept under
 * it, read alongside the profile. A key the store no longer has (expired, evicted, never kept) gives no Back button: the
 * profile's own menu still reaches every section, and a Back that led to the profile's top would not be a way back. The key
 * is carried on all the same, so that a cache slow for one press does not lose the Back for the presses after it.
 */
function keptWayBack(arg: string | undefined, ctx: Ctx): Promise<WayBack> | undefined {
  const key = storeKeyArg(arg);
  return key ? ctx.backTargets.find(key).then((id) => ({ key, ...(id ? { id } : {}) })) : undefined;
}

/** The Update button: asks the API to refresh a player (`GET /api/v1/player/{uid}/update`); answers privately. */
async function requestUpdate(uid: string, ctx: Ctx): Promise<View> {
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
async function heroChoices(input: AutocompleteInput, ctx: Ctx): Promise<{ name: string; value: string }[]> {
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

/**
 * A match's player select (`pl.o:<match value>[:<list place>]`, the player's uid as the value): the profile, with a Back
 * button to the match (`mt.o` with the same arguments: the match's own Back to the recent matches it came from is kept).
 * The Back is kept in the store alongside the profile read, and the profile's own IDs carry its key.
 */
async function profileFromScoreboard(input: ComponentInput, ctx: Ctx): Promise<View> {
  const target = encodeCustomIdIfFits('mt.o', ...input.args) ?? encodeCustomIdIfFits('mt.o', input.args[0] ?? '');
  const back = target ? ctx.backTargets.keep(target).then((key) => ({ id: target, ...(key ? { key } : {}) })) : undefined;
  return profileFromComponent(input.values[0] ?? '', null, 'profile', 1, ctx, '', back);
}

export const player: CommandModule = {
  draws: true,
  apiOptions: { season: 'season', player: 'query', playerUpdate: 'query', matchHistoryV1: 'query', matchHistoryV2: 'query' },
  definition,
  execute: profileFor,
  async autocomplete(input, ctx: Ctx) {
    if (input.focused.name === 'hero') return heroChoices(input, ctx);
    if (input.focused.name === 'season') return seasonChoices(input.focused.value, String(input.options.query ?? ''), input.user.userId, ctx);
    return playerChoices(input.user.userId, input.focused.value, ctx);
  },
  components: {
    /** Section select: `pl.s:<uid>:<season>[:<back key>]`, the section as the value. */
    'pl.s': async (input, ctx: Ctx) => {
      const [uid = '', season = '', key] = input.args;
      return profileFromComponent(uid, seasonOption(season), sectionOf(input.values[0]), 1, ctx, '', keptWayBack(key, ctx), input.user.guildId);
    },
    /**
     * Paginator: `pl.p:<uid>:<season>:<section>[:<filter>]:<page>:<kind>` (the filter on recent matches only), or with the
     * profile's back key `pl.p:<uid>:<season>:<section>:<filter>:<back key>:<page>:<kind>`.
     */
    'pl.p': async (input, ctx: Ctx) => {
      const [uid = '', season = '', which] = input.args;
      const filter = input.args.length >= 6 ? filterOf(input.args[3]) : '';
      const back = input.args.length >= 7 ? keptWayBack(input.args[4], ctx) : undefined;
      return profileFromComponent(uid, seasonOption(season), sectionOf(which), pageFromArgs(input.args), ctx, filter, back, input.user.guildId);
    },
    /** Recent matches' filter button: `pl.f:<uid>:<season>:<filter>[:<back key>]`; opens the first page with that filter. */
    'pl.f': async (input, ctx: Ctx) => {
      const [uid = '', season = '', filter, key] = input.args;
      return profileFromComponent(uid, seasonOption(season), 'matches', 1, ctx, filterOf(filter), keptWayBack(key, ctx));
    },
    /** A match's player select: {@link profileFromScoreboard}. */
    'pl.o': profileFromScoreboard,
    /** The same, from a message sent before the route named the module that handles it. */
    'mt.p': profileFromScoreboard,
    /** Update button: `pl.u:<uid>`. */
    'pl.u': async (input, ctx: Ctx) => requestUpdate(input.args[0] ?? '', ctx),
  },
};

/** The "Rivals profile" user context-menu command: a member's linked profile, from their name. */
export const rivalsProfile: CommandModule = {
  draws: true,
  // A member's profile on right-click wherever the bot reaches: a server that added it, or the member's own install.
  definition: new ContextMenuCommandBuilder()
    .setName('Rivals profile')
    .setType(ApplicationCommandType.User)
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .toJSON(),
  async execute(input, ctx: Ctx) {
    return profileFor({ ...input, options: {} }, ctx);
  },
};
