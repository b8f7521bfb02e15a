/**
 * `/leaderboard [hero] [platform] [season]`: a hero's ranked players (api-spec.md endpoint 5), or without a hero the season's
 * ranked ladder of all players (`GET /api/v2/players/leaderboard`, docs/data.md "The API's other reads"); ten a page.
 */
import type { APIEmbed } from 'discord-api-types/v10';
import { TOP_PLAYERS_LIMIT } from '../src/api/client.js';
import { isPlatform, PLATFORM_NAMES, PLATFORMS, type Platform } from '../src/api/endpoints.js';
import { ApiError } from '../src/core/api-errors.js';
import { NotLinkedError, SeasonError } from '../src/core/errors.js';
import { seasonChoices } from '../src/catalog/choices.js';
import { seasonOption } from '../src/catalog/players.js';
import {
  currentListedSeason,
  listedSeasonLabel,
  listedSeasons,
  readHeroLeaderboard,
  seasonNote,
  listedOrThrow,
  type ListedSeason,
} from '../src/catalog/season-list.js';
import { rankedSeasons } from '../src/game/profile.js';
import { seasonFromNumber, type Season } from '../src/game/seasons.js';
import { isTierName, tierOfLevel } from '../src/game/ranks.js';
import { encodeCustomId } from '../src/render/custom-id.js';
import { chartOf, withChart } from '../src/render/view-charts.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { settingsServer, slashCommand } from '../src/discord/command.js';
import { choiceName, describe } from '../src/i18n/commands.js';
import { roleColour, staleFooter } from '../src/render/common.js';
import { currentLocale, tr } from '../src/i18n/index.js';
import { integer, kdaRatio, percent, shortDate, winLoss } from '../src/i18n/format.js';
import { heroName, tierName } from '../src/i18n/names.js';
import { rankScore } from '../src/game/ranks.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { buttonRow, clampPage, pageCount, pageFromArgs, pageRow } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';

/** The part of a command's context /leaderboard uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'heroes' | 'ladder' | 'links' | 'logger' | 'now' | 'recent' | 'settings'>;

const PER_PAGE = 10;

const definition = slashCommand('leaderboard')
  .addStringOption((o) => o.setName('hero').setDescription(describe('leaderboard.options.hero')).setAutocomplete(true))
  .addStringOption((o) =>
    o
      .setName('platform')
      .setDescription(describe('leaderboard.options.platform'))
      .addChoices(...PLATFORMS.map((p) => ({ name: choiceName('leaderboard.options.platform', p), value: p }))),
  )
  .addNumberOption((o) => o.setName('season').setDescription(describe('leaderboard.options.season')).setMinValue(0).setMaxValue(99).setAutocomplete(true))
  .toJSON();

/**
 * A hero's leaderboard at `page` on `platform`, of `season` when asked (null: the API's default): the season its entries are
 * ranked in is named, and said when it is not the one asked. @throws {UnknownHeroError} for a hero the bot does not know.
 */
export async function leaderboardView(heroQuery: string, platform: Platform, season: Season | null, page: number, ctx: Ctx): Promise<View> {
  const hero = await ctx.heroes.resolve(heroQuery);
  const { fetched, listed, answered, note } = await readHeroLeaderboard(hero.id, platform, season, ctx);
  const players = fetched.data.players;
  // Names the bot has seen: a member may look one of them up, misspelt.
  ctx.recent.remember(players.flatMap((e) => (e.name ? [{ uid: String(e.player_uid), name: e.name }] : [])));
  const pages = pageCount(players.length, PER_PAGE);
  const p = clampPage(page, pages);
  const lines = players.slice((p - 1) * PER_PAGE, p * PER_PAGE).map((e, i) => {
    const rank = (p - 1) * PER_PAGE + i + 1;
    const score =
      e.rank?.rank_score === null || e.rank?.rank_score === undefined ? '' : ` · ${tr('leaderboard:points', { score: rankScore(e.rank.rank_score) })}`;
    const record = tr('leaderboard:record', {
      count: e.matches,
      n: integer(e.matches),
      winRate: percent(e.win_rate),
      kda: kdaRatio(e.kills, e.deaths, e.assists),
      mvps: integer(e.mvps),
    });
    return `**${rank}. ${escapeText(e.name ?? e.player_uid, 60)}**${score}\n${record}`;
  });
  const updated = players.reduce<number | null>((m, e) => (e.rank?.update_time && (m === null || e.rank.update_time > m) ? e.rank.update_time : m), null);
  const embed: APIEmbed = {
    color: roleColour(hero.role),
    // The hero's icon beside the author line, not as a thumbnail: a thumbnail narrows every line below it on a phone.
    author: {
      name: [tr('leaderboard:author', { platform: PLATFORM_NAMES[platform] }), answered ? listedSeasonLabel(answered, listed) : null]
        .filter(Boolean)
        .join(' · '),
      icon_url: hero.transformations[0]?.icon ?? undefined,
    },
    title: heroName(hero.name) ?? hero.name,
    description: [lines.join('\n') || tr('leaderboard:empty'), ...(note ? ['', note] : [])].join('\n'),
    footer: staleFooter(fetched) ?? (updated ? { text: tr('leaderboard:asOf', { date: shortDate(updated) }) } : undefined),
  };
  const nav = pageRow('lb.p', season ? [hero.id, platform, season.number] : [hero.id, platform], p, pages);
  return { embeds: [embed], components: nav ? [nav] : [] };
}

const platformOf = (v: unknown): Platform => (isPlatform(v) ? v : 'pc');

/** Entries the ladder is read by: one API page holds ten of ours, so paging within it costs no request. */
const API_PAGE = TOP_PLAYERS_LIMIT;
/** The deepest page offered: the top 1,000, ten API pages. */
const MAX_TOP_PAGES = 100;

/** The deepest API page read: the top 1,000. */
const MAX_API_PAGES = (MAX_TOP_PAGES * PER_PAGE) / API_PAGE;
/** The API page (of 100) that holds answer page `page` (of 10). */
const apiPageOf = (page: number) => Math.ceil(page / (API_PAGE / PER_PAGE));
/** The answer page (of 10) that holds the entry at `index` of API page `apiPage`. */
const pageOfEntry = (apiPage: number, index: number) => Math.floor(((apiPage - 1) * API_PAGE + index) / PER_PAGE) + 1;

/** A season ladder's request: `season` null for the current one, which is then not named to the API (clients omit it). */
type LadderAsk = { platform: Platform; season: Season | null; listed: readonly ListedSeason[] };

/** One API page of the ladder. @throws {SeasonError} for a season the API refuses (its 400 names the season). */
function readLadder(ask: LadderAsk, apiPage: number, ctx: Ctx) {
  const current = currentListedSeason(ask.listed, ctx.now());
  // The current season asked by number is asked as the API's default: clients send a season for past seasons only.
  const season = ask.season && ask.season.index !== current?.season.index ? ask.season : null;
  return ctx.api.topPlayers({ page: apiPage, limit: API_PAGE, platform: ask.platform, season: season?.number }).catch((err: unknown) => {
    if (season && err instanceof ApiError && err.kind === 'bad_request' && /season/i.test(err.upstreamMessage ?? '')) throw new SeasonError(season.number);
    throw err;
  });
}

/** A tier as the game names it: the API's label ("Celestial 1" written as "Celestial I"), else the division's. */
function tierOfEntry(label: string | null, level: number | null): string | null {
  const roman = label?.trim().replace(/\s([123])$/, (_, d: string) => ` ${['I', 'II', 'III'][Number(d) - 1]!}`) ?? null;
  return isTierName(roman) ? roman : (tierOfLevel(level) ?? roman);
}

/**
 * The season's ranked ladder at `page` (ten a page) on `platform`, of `season` (null: the current one): place, name, tier,
 * rank score and record; the asker's linked accounts found on the part read marked and their place said, with a button
 * to it, or a button that finds it; members listed on this server's ladder named. `note` is said first.
 * @throws {SeasonError} for a season the API does not list.
 */
export async function topPlayersView(
  platform: Platform,
  season: Season | null,
  page: number,
  user: { userId: string; guildId?: string | null },
  ctx: Ctx,
  note?: string,
): Promise<View> {
  const [listed, links] = await Promise.all([
    listedSeasons(ctx),
    ctx.links.get(user.userId).catch(() => ({ accounts: [] as { uid: string; name: string }[] })),
  ]);
  const ask: LadderAsk = { platform, season: listedOrThrow(season, listed), listed };
  let p = clampPage(page, MAX_TOP_PAGES);
  let apiPage = apiPageOf(p);
  let fetched = await readLadder(ask, apiPage, ctx);
  const totalOf = (f: typeof fetched, at: number) =>
    f.data.total_players ?? (at - 1) * API_PAGE + f.data.players.length + (f.data.players.length === API_PAGE ? 1 : 0);
  const pages = Math.min(MAX_TOP_PAGES, pageCount(totalOf(fetched, apiPage), PER_PAGE));
  if (p > pages) {
    // A button of a ladder that has shrunk since: its last page, read again if it is on another API page.
    p = pages;
    const at = apiPageOf(p);
    if (at !== apiPage) fetched = await readLadder(ask, (apiPage = at), ctx);
  }
  const { players } = fetched.data;
  ctx.recent.remember(players.flatMap((e) => (e.name && e.uid ? [{ uid: e.uid, name: e.name }] : [])));
  const offset = (apiPage - 1) * API_PAGE;
  const from = (p - 1) * PER_PAGE - offset;
  const shown = players.slice(from, from + PER_PAGE);
  const server = user.guildId ?? null;
  const uids = shown.flatMap((e) => (e.uid ? [e.uid] : []));
  // Only members listed on this server's ladder, while it is on, are named: nobody else chose to be seen here.
  const ladder = ctx.ladder;
  const named =
    server && ladder && uids.length > 0
      ? await ladder
          .enabled(server)
          .then((on) => (on ? ladder.listedMembersByUid(server, uids) : new Map<string, string>()))
          .catch((err: unknown) => {
            ctx.logger.warn({ err }, 'ladder unavailable: the season ladder names no member');
            return new Map<string, string>();
          })
      : new Map<string, string>();
  const own = new Set(links.accounts.map((a) => a.uid));
  const isOwn = (uid: string | null) => uid !== null && own.has(uid);
  const nameOf = (e: (typeof players)[number]) => e.name ?? e.uid ?? '?';
  const lines = shown.map((e, i) => {
    const place = offset + from + i + 1;
    const tier = tierOfEntry(e.tier, e.level);
    const member = e.uid ? named.get(e.uid) : undefined;
    const head = [
      `**${integer(place)}. ${escapeText(nameOf(e), 40)}**${member ? ` (<@${member}>)` : ''}`,
      tier ? tierName(tier) : null,
      e.rank_score === null ? null : tr('leaderboard:points', { score: rankScore(e.rank_score) }),
    ].filter(Boolean);
    const record =
      e.matches !== null && e.matches > 0
        ? tr('leaderboard:top.record', {
            count: e.matches,
            record: e.wins === null ? '—' : winLoss({ wins: e.wins, losses: Math.max(0, e.matches - e.wins) }),
            winRate: percent(e.win_rate),
            n: integer(e.matches),
          })
        : null;
    return `${head.join(' · ')}${isOwn(e.uid) ? ` ${tr('leaderboard:top.you')}` : ''}${record ? `\n${record}` : ''}`;
  });
  // The answer's own season: what its entries say, else the one asked, else the listing's current one.
  const said = seasonFromNumber(players[0]?.season ?? null);
  const answered = said ?? ask.season ?? currentListedSeason(listed, ctx.now())?.season ?? null;
  const mine = players.findIndex((e) => isOwn(e.uid));
  const notes: string[] = note ? [note] : [];
  const seasonSaid = seasonNote(ask.season, said, false, listed);
  if (seasonSaid) notes.push(seasonSaid);
  if (mine >= 0) notes.push(tr('leaderboard:top.yourPlace', { place: integer(offset + mine + 1), name: escapeText(nameOf(players[mine]!), 40) }));
  else if (links.accounts.length > 0 && players.length > 0 && !note)
    notes.push(tr('leaderboard:top.notPlaced', { from: integer(offset + 1), to: integer(offset + players.length) }));
  const title = answered ? listedSeasonLabel(answered, listed) : tr('leaderboard:top.currentSeason');
  const describe = (body: string[]) => [...body, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n').trim();
  const embed: APIEmbed = {
    color: LADDER_COLOUR,
    author: { name: tr('leaderboard:top.author', { platform: PLATFORM_NAMES[platform] }) },
    title: truncate(title, LIMITS.title),
    description: describe([lines.join('\n') || tr('leaderboard:top.empty')]),
    footer: staleFooter(fetched),
  };
  const seasonArg = season?.number ?? '';
  const nav = pageRow('lb.t', [platform, seasonArg], p, pages);
  const myPage = mine >= 0 ? pageOfEntry(apiPage, mine) : null;
  // On the part read: a button to its page. Elsewhere, one that looks for it (a few requests, only when pressed).
  const jump =
    myPage !== null
      ? myPage !== p
        ? buttonRow(tr('leaderboard:top.jump', { place: integer(offset + mine + 1) }), encodeCustomId('lb.t', platform, seasonArg, myPage, 'm'))
        : null
      : links.accounts.length > 0 && players.length > 0 && !note
        ? buttonRow(tr('leaderboard:top.find'), encodeCustomId('lb.f', platform, seasonArg))
        : null;
  const view: View = { embeds: [embed], components: [...(nav ? [nav] : []), ...(jump ? [jump] : [])] };
  const card = chartOf(
    {
      kind: 'ladder-card',
      locale: currentLocale(),
      title: truncate(title, 200),
      subtitle: truncate(tr('leaderboard:top.author', { platform: PLATFORM_NAMES[platform] }), 200),
      weekLabel: truncate(tr('leaderboard:top.card.winRate'), 200),
      rows: shown.map((e, i) => ({
        position: integer(offset + from + i + 1),
        name: truncate(nameOf(e), 100),
        tier: tierOfEntry(e.tier, e.level) ?? tr('ladder:unranked'),
        score: e.rank_score === null ? '—' : rankScore(e.rank_score),
        week: e.win_rate === null ? '—' : percent(e.win_rate),
        trend: 'none' as const,
        you: isOwn(e.uid),
      })),
    },
    'season-ladder.png',
    tr('leaderboard:top.card.alt', { from: integer(offset + from + 1), to: integer(offset + from + shown.length) }),
  );
  if (!card) return view;
  // With the card, the text keeps the members named (their mentions) and the notes; the card's text stands for it all.
  const mentioned = lines.filter((_, i) => shown[i]!.uid !== null && named.has(shown[i]!.uid));
  return withChart({ ...view, embeds: [{ ...embed, description: describe(mentioned) || undefined }] }, { ...card, text: { description: embed.description } });
}

/**
 * The page of the season ladder holding the member's linked account, looked for by the account's rank score in that season
 * (its profile, through the cache): a binary search over the API's pages of 100, a few reads at most. The ladder at page 1
 * with a note when none of their accounts is in the top 1,000 or has a score to look by.
 */
async function findMyPlace(platform: Platform, season: Season | null, user: { userId: string; guildId?: string | null }, ctx: Ctx): Promise<View> {
  const [listed, links] = await Promise.all([listedSeasons(ctx), ctx.links.get(user.userId)]);
  const ask: LadderAsk = { platform, season: listedOrThrow(season, listed), listed };
  const account = links.accounts.find((a) => a.uid === links.defaultUid) ?? links.accounts[0];
  if (!account) throw new NotLinkedError(user.userId, true);
  const profile = await ctx.api.player(account.uid).catch(() => null);
  const seasons = profile ? rankedSeasons(profile.data) : [];
  // A past season by its own score; the current ladder by the latest ranked season the profile has (a profile read early
  // in a season may not list it yet).
  const score = (ask.season ? seasons.find((r) => r.season.index === ask.season!.index) : seasons.at(-1))?.score ?? null;
  const own = new Set(links.accounts.map((a) => a.uid));
  const placeOn = (f: Awaited<ReturnType<typeof readLadder>>) => f.data.players.findIndex((e) => e.uid !== null && own.has(e.uid));
  const missing = () =>
    topPlayersView(
      platform,
      season,
      1,
      user,
      ctx,
      tr('leaderboard:top.notInTop', { name: escapeText(account.name, 40), n: integer(MAX_TOP_PAGES * PER_PAGE) }),
    );
  if (score === null) return missing();
  let lo = 1;
  let hi = MAX_API_PAGES;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const read = await readLadder(ask, mid, ctx);
    const at = placeOn(read);
    if (at >= 0) return topPlayersView(platform, season, pageOfEntry(mid, at), user, ctx);
    const scores = read.data.players.map((e) => e.rank_score).filter((x): x is number => x !== null);
    if (scores.length === 0) hi = mid - 1;
    else if (score < Math.min(...scores)) lo = mid + 1;
    else if (score > Math.max(...scores)) hi = mid - 1;
    else {
      // Within this page's scores but not on it: the profile and the ladder are read at different times, so a neighbour.
      for (const next of [mid - 1, mid + 1].filter((n) => n >= 1 && n <= MAX_API_PAGES)) {
        const near = await readLadder(ask, next, ctx);
        const found = placeOn(near);
        if (found >= 0) return topPlayersView(platform, season, pageOfEntry(next, found), user, ctx);
      }
      break;
    }
  }
  return missing();
}

/** The season ladder's colour: the top tier's gold. */
const LADDER_COLOUR = 0xf4e6a6;

export const leaderboard: CommandModule = {
  draws: true,
  apiOptions: { platform: 'platform', heroLeaderboard: 'hero', season: 'season' },
  definition,
  async execute(input, ctx: Ctx) {
    // No platform chosen: the default of the server that installed the bot (/config platform); elsewhere (a DM, the
    // member's own install) the member's own (/settings platform); else PC. PC too when the store does not answer,
    // since the leaderboard itself needs no state (the embed names the platform).
    const server = settingsServer(input.user);
    const platform =
      input.options.platform !== undefined
        ? platformOf(input.options.platform)
        : await (server ? ctx.settings.get(server).then((s) => s.leaderboardPlatform) : ctx.links.platformOf(input.user.userId).then((p) => p ?? 'pc')).catch(
            (err: unknown) => {
              ctx.logger.warn({ err }, 'settings unavailable: /leaderboard shows PC');
              return 'pc' as const;
            },
          );
    const hero = String(input.options.hero ?? '').trim();
    const season = seasonOption(input.options.season);
    if (hero === '') return topPlayersView(platform, season, 1, input.user, ctx);
    return leaderboardView(hero, platform, season, 1, ctx);
  },
  components: {
    /** Paginator: `lb.p:<heroId>:<platform>[:<season>]:<page>:<kind>` (a season only when asked). */
    'lb.p': async (input, ctx: Ctx) =>
      leaderboardView(
        input.args[0] ?? '',
        platformOf(input.args[1]),
        input.args.length >= 5 ? seasonOption(input.args[2]) : null,
        pageFromArgs(input.args),
        ctx,
      ),
    /** The season ladder's paginator and "your place" button: `lb.t:<platform>:<season or empty>:<page>:<kind>`. */
    'lb.t': async (input, ctx: Ctx) =>
      topPlayersView(platformOf(input.args[0]), input.args[1] ? seasonOption(input.args[1]) : null, pageFromArgs(input.args), input.user, ctx),
    /** "Find my place": `lb.f:<platform>:<season or empty>`, the page of the presser's linked account. */
    'lb.f': async (input, ctx: Ctx) => findMyPlace(platformOf(input.args[0]), input.args[1] ? seasonOption(input.args[1]) : null, input.user, ctx),
  },
  async autocomplete(input, ctx: Ctx) {
    if (input.focused.name === 'season') return seasonChoices(input.focused.value, null, input.user.userId, ctx);
    return ctx.heroes.suggest(input.focused.value);
  },
};
