/**
 * `/leaderboard [hero] [platform] [season]`: a hero's ranked players (api-spec.md endpoint 5), or without a hero the season's
 * ranked ladder of all players (`GET /api/v2/players/leaderboard`, docs/data.md "The API's other reads"); ten a page.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord-api-types/v10';
import { TOP_PLAYERS_LIMIT } from '../src/api/client.js';
import { isPlatform, PLATFORM_NAMES, PLATFORMS, type Platform } from '../src/api/endpoints.js';
import { ApiError } from '../src/core/api-errors.js';
import { SeasonError } from '../src/core/errors.js';
import { seasonChoices } from '../src/catalog/choices.js';
import { seasonOption } from '../src/catalog/players.js';
import { currentListedSeason, leaderboardSeason, listedSeasonLabel, listedSeasons, readSeason, seasonNote } from '../src/catalog/season-list.js';
import { seasonFromNumber, type Season } from '../src/game/seasons.js';
import { tierOfLevel } from '../src/game/ranks.js';
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
import { escapeText, truncate } from '../src/render/limits.js';
import { clampPage, pageCount, pageFromArgs, pageRow } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';

/** The part of a command's context /leaderboard uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'heroes' | 'ladder' | 'links' | 'logger' | 'recent' | 'settings'>;

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
  const [{ fetched, refused }, listed] = await Promise.all([
    readSeason(
      season,
      () => ctx.api.heroLeaderboard(hero.id, { platform, season: season?.number }),
      () => ctx.api.heroLeaderboard(hero.id, { platform }),
    ),
    listedSeasons(ctx),
  ]);
  const players = fetched.data.players;
  const answered = leaderboardSeason(players);
  const note = seasonNote(season, answered, refused, listed);
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

/**
 * The season's ranked ladder at `page` (ten a page) on `platform`, of `season` (null: the current one): place, name, tier,
 * rank score and record; the asker's linked accounts found on the part read marked and their place said, with a button
 * to it; members listed on this server's ladder named. @throws {SeasonError} for a season the API does not list.
 */
export async function topPlayersView(
  platform: Platform,
  season: Season | null,
  page: number,
  user: { userId: string; guildId?: string | null },
  ctx: Ctx,
): Promise<View> {
  const wanted = clampPage(page, MAX_TOP_PAGES);
  const apiPage = Math.ceil(wanted / (API_PAGE / PER_PAGE));
  const [fetched, listed, links] = await Promise.all([
    ctx.api.topPlayers({ page: apiPage, limit: API_PAGE, platform, season: season?.number }).catch((err: unknown) => {
      // The spec's answer to a season it does not have: a 400 naming the season.
      if (season && err instanceof ApiError && err.kind === 'bad_request') throw new SeasonError(season.number);
      throw err;
    }),
    listedSeasons(ctx),
    ctx.links.get(user.userId).catch(() => ({ accounts: [] as { uid: string; name: string }[] })),
  ]);
  const { players } = fetched.data;
  ctx.recent.remember(players.flatMap((e) => (e.name ? [{ uid: e.uid, name: e.name }] : [])));
  const total = fetched.data.total_players ?? (apiPage - 1) * API_PAGE + players.length + (players.length === API_PAGE ? 1 : 0);
  const pages = Math.min(MAX_TOP_PAGES, pageCount(total, PER_PAGE));
  const p = clampPage(wanted, pages);
  const offset = (apiPage - 1) * API_PAGE;
  const from = (p - 1) * PER_PAGE - offset;
  const shown = players.slice(from, from + PER_PAGE);
  const server = user.guildId ?? null;
  // Only members listed on this server's ladder, while it is on, are named: nobody else chose to be seen here.
  const ladder = ctx.ladder;
  const named =
    server && ladder
      ? await ladder
          .enabled(server)
          .then((on) =>
            on
              ? ladder.listedMembersByUid(
                  server,
                  shown.map((e) => e.uid),
                )
              : new Map<string, string>(),
          )
          .catch((err: unknown) => {
            ctx.logger.warn({ err }, 'ladder unavailable: the season ladder names no member');
            return new Map<string, string>();
          })
      : new Map<string, string>();
  const own = new Set(links.accounts.map((a) => a.uid));
  const lines = shown.map((e, i) => {
    const place = offset + from + i + 1;
    const tier = e.tier ?? tierOfLevel(e.level);
    const head = [
      `**${integer(place)}. ${escapeText(e.name ?? e.uid, 40)}**${named.has(e.uid) ? ` (<@${named.get(e.uid)}>)` : ''}`,
      tier ? tierName(tier) : null,
      e.rank_score === null ? null : tr('leaderboard:points', { score: rankScore(e.rank_score) }),
    ].filter(Boolean);
    const record =
      e.matches !== null && e.matches > 0
        ? tr('leaderboard:top.record', {
            count: e.matches,
            record: winLoss({ wins: e.wins ?? 0, losses: Math.max(0, e.matches - (e.wins ?? 0)) }),
            winRate: percent(e.win_rate),
            n: integer(e.matches),
          })
        : null;
    return `${head.join(' · ')}${own.has(e.uid) ? ` ${tr('leaderboard:top.you')}` : ''}${record ? `\n${record}` : ''}`;
  });
  // The answer's own season: what its entries say, else the one asked, else the listing's current one.
  const answered = seasonFromNumber(players[0]?.season ?? null) ?? season ?? currentListedSeason(listed, Date.now())?.season ?? null;
  const mine = players.findIndex((e) => own.has(e.uid));
  const notes: string[] = [];
  const seasonSaid = seasonNote(season, seasonFromNumber(players[0]?.season ?? null), false, listed);
  if (seasonSaid) notes.push(seasonSaid);
  if (mine >= 0)
    notes.push(tr('leaderboard:top.yourPlace', { place: integer(offset + mine + 1), name: escapeText(players[mine]!.name ?? players[mine]!.uid, 40) }));
  else if (links.accounts.length > 0 && players.length > 0)
    notes.push(tr('leaderboard:top.notPlaced', { from: integer(offset + 1), to: integer(offset + players.length) }));
  const title = answered ? listedSeasonLabel(answered, listed) : tr('leaderboard:top.currentSeason');
  const describe = (body: string[]) => [...body, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n').trim();
  const embed: APIEmbed = {
    color: LADDER_COLOUR,
    author: { name: tr('leaderboard:top.author', { platform: PLATFORM_NAMES[platform] }) },
    title,
    description: describe([lines.join('\n') || tr('leaderboard:top.empty')]),
    footer: staleFooter(fetched),
  };
  const seasonArg = season?.number ?? '';
  const nav = pageRow('lb.t', [platform, seasonArg], p, pages);
  const myPage = mine >= 0 ? Math.floor((offset + mine) / PER_PAGE) + 1 : null;
  const jump =
    myPage !== null && myPage !== p
      ? button(tr('leaderboard:top.jump', { place: integer(offset + mine + 1) }), encodeCustomId('lb.t', platform, seasonArg, myPage, 'm'))
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
        position: String(offset + from + i + 1),
        name: truncate(e.name ?? e.uid, 100),
        tier: e.tier ?? tierOfLevel(e.level) ?? tr('ladder:unranked'),
        score: e.rank_score === null ? '—' : rankScore(e.rank_score),
        week: e.win_rate === null ? '—' : percent(e.win_rate),
        trend: 'none' as const,
        you: own.has(e.uid),
      })),
    },
    'season-ladder.png',
    tr('leaderboard:top.card.alt', { from: integer(offset + from + 1), to: integer(offset + from + shown.length) }),
  );
  if (!card) return view;
  // With the card, the text keeps the members named (their mentions) and the notes; the card's text stands for it all.
  const mentioned = lines.filter((_, i) => named.has(shown[i]!.uid));
  return withChart({ ...view, embeds: [{ ...embed, description: describe(mentioned) || undefined }] }, { ...card, text: { description: embed.description } });
}

/** The season ladder's colour: the top tier's gold. */
const LADDER_COLOUR = 0xf4e6a6;

const button = (label: string, customId: string): APIActionRowComponent<APIComponentInMessageActionRow> => ({
  type: ComponentType.ActionRow,
  components: [{ type: ComponentType.Button, style: ButtonStyle.Secondary, label, custom_id: customId }],
});

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
  },
  async autocomplete(input, ctx: Ctx) {
    if (input.focused.name === 'season') return seasonChoices(input.focused.value, null, input.user.userId, ctx);
    return ctx.heroes.suggest(input.focused.value);
  },
};
