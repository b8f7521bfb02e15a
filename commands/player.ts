/**
 * `/player query:<name or uid> [season]`: a player's profile, and through a select menu their ranked
 * and unranked heroes, hero matchups, maps, teammates, rank history and recent matches. Recent
 * matches come from match history version 2 (with its `pagination`), falling back to version 1;
 * a select menu opens a match's detail. Data: api-spec.md endpoints 17, 18, 19 and 20.
 */
import { SlashCommandBuilder } from '@discordjs/builders';
import { ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord-api-types/v10';
import type { Fetched } from '../src/api/client.js';
import { ApiError } from '../src/api/errors.js';
import type { MatchSummary, PlayerProfile } from '../src/api/schemas.js';
import type { CommandContext, CommandInput, CommandModule } from '../src/discord/command.js';
import { encodeCustomId } from '../src/discord/custom-id.js';
import { NotLinkedError, PrivateProfileError } from '../src/errors.js';
import { staleFooter } from '../src/render/common.js';
import { compactNumber, discordTime, duration, hexColour, integer, kda, percent, plural, ratioPercent, titleCase, winRate } from '../src/render/format.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { clampPage, pageCount, pageFromArgs, pageRow } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';
import { matchView } from './match.js';

/** The sections of a profile, in select-menu order. */
export const PLAYER_SECTIONS = ['profile', 'ranked', 'unranked', 'matchups', 'maps', 'teammates', 'rank-history', 'matches'] as const;
export type PlayerSection = (typeof PLAYER_SECTIONS)[number];

const SECTION_LABELS: Record<PlayerSection, string> = {
  profile: 'Profile',
  ranked: 'Ranked heroes',
  unranked: 'Unranked heroes',
  matchups: 'Hero matchups',
  maps: 'Maps',
  teammates: 'Teammates',
  'rank-history': 'Rank history',
  matches: 'Recent matches',
};

const PER_PAGE = 10;
const GAME_MODES: Record<number, string> = { 0: 'All', 1: 'Quick Play', 2: 'Competitive' };

const definition = new SlashCommandBuilder()
  .setName('player')
  .setDescription('A player’s rank, stats, heroes, maps, teammates and recent matches')
  .addStringOption((o) => o.setName('query').setDescription('Player name or UID; leave empty for your linked account').setMaxLength(100).setAutocomplete(true))
  .addUserOption((o) => o.setName('user').setDescription('Show this member’s linked account'))
  .addNumberOption((o) => o.setName('season').setDescription('Season number, such as 1 or 1.5 (default: current)').setMinValue(0.5).setMaxValue(99))
  .toJSON();

/** Season as carried in custom IDs: "" for the current season. */
const seasonArg = (season: unknown) => (season === undefined || season === null || season === '' ? '' : String(season));
const seasonParam = (arg: string | undefined) => (arg ? arg : undefined);

async function loadProfile(query: string, season: string | undefined, ctx: CommandContext): Promise<Fetched<PlayerProfile>> {
  const fetched = await ctx.api.player(query, { season });
  if (fetched.data.is_private) throw new PrivateProfileError(fetched.data.name);
  return fetched;
}

function sectionMenu(uid: string, season: string, current: PlayerSection): APIActionRowComponent<APIComponentInMessageActionRow> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: encodeCustomId('pl.s', uid, season),
        placeholder: 'Show another section',
        options: PLAYER_SECTIONS.map((s) => ({ label: SECTION_LABELS[s], value: s, default: s === current })),
      },
    ],
  };
}

function base(p: PlayerProfile, section: PlayerSection, season: string): APIEmbed {
  const team = p.team?.name ? ` [${p.team.name}]` : '';
  return {
    color: hexColour(p.rank.color) ?? 0x5865f2,
    author: { name: `${truncate(p.name, 200)}${team}${section === 'profile' ? '' : ` · ${SECTION_LABELS[section]}`}${season ? ` · season ${season}` : ''}`, icon_url: p.icon ?? undefined },
  };
}

function profileEmbed(p: PlayerProfile, season: string): APIEmbed {
  const r = p.overall.ranked;
  const u = p.overall.unranked;
  const rank = p.rank.name && !/invalid/i.test(p.rank.name) ? p.rank.name : 'Unranked';
  const best = p.rank_seasons.reduce<number | null>((m, s) => (s.max_rank_score !== null && (m === null || s.max_rank_score > m) ? s.max_rank_score : m), null);
  return {
    ...base(p, 'profile', season),
    title: rank,
    thumbnail: p.rank.image ? { url: p.rank.image } : undefined,
    fields: [
      { name: 'Level', value: integer(p.level), inline: true },
      { name: 'Rank score', value: best === null ? '—' : `best ${integer(best)}`, inline: true },
      { name: 'UID', value: p.uid, inline: true },
      { name: 'Ranked', value: `${plural(r.matches, 'match', 'matches')} · ${plural(r.wins, 'win', 'wins')} · ${winRate(r.wins, r.matches)}`, inline: false },
      { name: 'Unranked', value: `${plural(u.matches, 'match', 'matches')} · ${plural(u.wins, 'win', 'wins')} · ${winRate(u.wins, u.matches)}`, inline: false },
      { name: 'Ranked K / D / A', value: kda(r.kills, r.deaths, r.assists), inline: false },
      { name: 'Unranked K / D / A', value: kda(u.kills, u.deaths, u.assists), inline: false },
      { name: 'Play time', value: `${duration(r.play_time)} ranked · ${duration(u.play_time)} unranked`, inline: false },
      { name: 'MVP / SVP', value: `${integer(r.mvp + u.mvp)} / ${integer(r.svp + u.svp)}`, inline: true },
      { name: 'Achievements', value: integer(p.completed_achievements), inline: true },
      { name: 'Platform', value: escapeText(p.login_os ?? '—', 100), inline: true },
    ],
    footer: p.updates.info_update_time ? { text: `Profile updated ${p.updates.info_update_time}` } : undefined,
  };
}

/** One page of a list section: lines of text, and the page count. */
function listPage<T>(items: T[], page: number, line: (item: T, index: number) => string): { description: string; pages: number; page: number } {
  const pages = pageCount(items.length, PER_PAGE);
  const p = clampPage(page, pages);
  const lines = items.slice((p - 1) * PER_PAGE, p * PER_PAGE).map((item, i) => line(item, (p - 1) * PER_PAGE + i));
  return { description: lines.join('\n') || 'Nothing to show for this season.', pages, page: p };
}

type Section = { embed: APIEmbed; pages: number; page: number; extra?: APIActionRowComponent<APIComponentInMessageActionRow>; fetched?: Fetched<unknown> };

function heroesSection(p: PlayerProfile, which: 'ranked' | 'unranked', page: number, season: string): Section {
  const heroes = [...(which === 'ranked' ? p.heroes_ranked : p.heroes_unranked)].sort((a, b) => (b.play_time ?? 0) - (a.play_time ?? 0));
  const list = listPage(heroes, page, (h, i) => {
    const name = escapeText(titleCase(h.hero_name ?? `Hero ${h.hero_id ?? '?'}`), 60);
    return `**${i + 1}. ${name}** · ${duration(h.play_time)} · ${plural(h.matches, 'match', 'matches')} · ${percent(h.win_rate)} · ${kda(h.kills, h.deaths, h.assists)}${h.hit_rate === null ? '' : ` · ${ratioPercent(h.hit_rate)} hits`}`;
  });
  return { embed: { ...base(p, which, season), description: list.description }, pages: list.pages, page: list.page };
}

async function matchesSection(p: PlayerProfile, page: number, season: string, ctx: CommandContext): Promise<Section> {
  let matches: MatchSummary[];
  let pages: number;
  let current = Math.max(1, page);
  let fetched: Fetched<unknown>;
  try {
    // Version 2 pages on the API side; its pagination gives the page count.
    const v2 = await ctx.api.matchHistoryV2(p.uid, { page: current, limit: PER_PAGE, season: seasonParam(season) });
    matches = v2.data.matches;
    pages = Math.max(1, v2.data.pagination?.total_pages ?? 1);
    fetched = v2;
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') throw err;
    ctx.logger.warn({ err }, 'match history v2 failed; falling back to v1');
    const v1 = await ctx.api.matchHistoryV1(p.uid, { season: seasonParam(season) });
    pages = pageCount(v1.data.matches.length, PER_PAGE);
    current = clampPage(current, pages);
    matches = v1.data.matches.slice((current - 1) * PER_PAGE, current * PER_PAGE);
    fetched = v1;
  }
  const lines = matches.map((m) => {
    const result = m.player.is_win === true ? 'Win' : m.player.is_win === false ? 'Loss' : '—';
    const hero = m.player.hero_name ? titleCase(m.player.hero_name) : m.player.hero_id ? `Hero ${m.player.hero_id}` : '—';
    const mode = m.game_mode_id === null ? '' : ` · ${GAME_MODES[m.game_mode_id] ?? `mode ${m.game_mode_id}`}`;
    return `**${result}** · ${escapeText(hero, 40)} · ${m.player.kills}/${m.player.deaths}/${m.player.assists}${mode} · ${duration(m.duration)} · ${discordTime(m.time)}`;
  });
  const extra: APIActionRowComponent<APIComponentInMessageActionRow> | undefined =
    matches.length === 0
      ? undefined
      : {
          type: ComponentType.ActionRow,
          components: [
            {
              type: ComponentType.StringSelect,
              custom_id: encodeCustomId('pl.m', p.uid),
              placeholder: 'Open a match',
              options: matches.slice(0, LIMITS.selectOptions).map((m, i) => ({
                label: truncate(`${i + 1}. ${m.player.is_win === true ? 'Win' : m.player.is_win === false ? 'Loss' : 'Match'} · ${m.player.hero_name ? titleCase(m.player.hero_name) : 'hero ?'} · ${m.player.kills}/${m.player.deaths}/${m.player.assists}`, LIMITS.optionLabel),
                value: m.match_uid.slice(0, LIMITS.optionValue),
                description: truncate(m.match_uid, LIMITS.optionDescription),
              })),
            },
          ],
        };
  return { embed: { ...base(p, 'matches', season), description: lines.join('\n') || 'No recent matches.' }, pages, page: clampPage(current, pages), extra, fetched };
}

async function section(p: PlayerProfile, which: PlayerSection, page: number, season: string, ctx: CommandContext): Promise<Section> {
  const simple = (items: unknown[], line: (item: never, i: number) => string): Section => {
    const list = listPage(items as never[], page, line);
    return { embed: { ...base(p, which, season), description: list.description }, pages: list.pages, page: list.page };
  };
  switch (which) {
    case 'profile':
      return { embed: profileEmbed(p, season), pages: 1, page: 1 };
    case 'ranked':
    case 'unranked':
      return heroesSection(p, which, page, season);
    case 'matchups':
      return simple([...p.hero_matchups].sort((a, b) => b.matches - a.matches), (m: PlayerProfile['hero_matchups'][number]) =>
        `**${escapeText(titleCase(m.hero_name ?? 'Unknown'), 60)}**${m.hero_class ? ` (${m.hero_class})` : ''} · ${plural(m.matches, 'match', 'matches')} · ${percent(m.win_rate)}`,
      );
    case 'maps':
      return simple([...p.maps].sort((a, b) => b.matches - a.matches), (m: PlayerProfile['maps'][number]) =>
        `**${escapeText(m.map_name ?? `Map ${m.map_id ?? '?'}`, 60)}** · ${plural(m.matches, 'match', 'matches')} · ${percent(m.win_rate)} · ${kda(m.kills, m.deaths, m.assists)}`,
      );
    case 'teammates':
      return simple([...p.team_mates].sort((a, b) => b.matches - a.matches), (t: PlayerProfile['team_mates'][number]) =>
        `**${escapeText(t.name ?? t.uid ?? 'Player', 60)}** · ${plural(t.matches, 'match', 'matches')} together · ${percent(t.win_rate)}`,
      );
    case 'rank-history':
      return simple([...p.rank_history].sort((a, b) => (b.time ?? 0) - (a.time ?? 0)), (r: PlayerProfile['rank_history'][number]) => {
        const change = r.add_score === null ? '—' : `${r.add_score >= 0 ? '+' : ''}${r.add_score.toFixed(1)}`;
        return `${discordTime(r.time)} · ${change} → ${compactNumber(r.total_score)} · level ${r.level_from ?? '?'} → ${r.level_to ?? '?'}`;
      });
    case 'matches':
      return matchesSection(p, page, season, ctx);
  }
}

/** Builds the view of one section of a profile at a page. */
export async function playerView(fetched: Fetched<PlayerProfile>, which: PlayerSection, page: number, season: string, ctx: CommandContext): Promise<View> {
  const p = fetched.data;
  const s = await section(p, which, page, season, ctx);
  const footer = staleFooter(s.fetched?.stale ? s.fetched : fetched);
  const embed = footer ? { ...s.embed, footer } : s.embed;
  const nav = pageRow('pl.p', [p.uid, season, which], s.page, s.pages);
  return { embeds: [embed], components: [sectionMenu(p.uid, season, which), ...(s.extra ? [s.extra] : []), ...(nav ? [nav] : [])] };
}

const sectionOf = (value: string | undefined): PlayerSection => ((PLAYER_SECTIONS as readonly string[]).includes(value ?? '') ? (value as PlayerSection) : 'profile');

/**
 * The profile a `/player` invocation means: the typed query; else the linked account of the `user`
 * option or context-menu target; else the caller's own linked account.
 * @throws {NotLinkedError} when the member whose account is meant has none linked.
 */
export async function profileFor(input: CommandInput, ctx: CommandContext): Promise<View> {
  const season = seasonArg(input.options.season);
  let query = typeof input.options.query === 'string' ? input.options.query.trim() : '';
  if (query === '') {
    const whose = String(input.options.user ?? input.targetUserId ?? input.user.userId);
    const uid = await ctx.links.defaultUid(whose);
    if (!uid) throw new NotLinkedError(whose, whose === input.user.userId);
    query = uid;
  }
  const fetched = await loadProfile(query, seasonParam(season), ctx);
  await ctx.recent.add(input.user.userId, { uid: fetched.data.uid, name: fetched.data.name }).catch((err: unknown) => ctx.logger.warn({ err }, 'could not record a recent lookup'));
  return playerView(fetched, 'profile', 1, season, ctx);
}

/** Autocomplete of a player query: the member's linked accounts, then their recent lookups, matching what is typed. */
export async function playerChoices(userId: string, typed: string, ctx: CommandContext) {
  const [links, recent] = await Promise.all([ctx.links.get(userId), ctx.recent.list(userId)]);
  const t = typed.trim().toLowerCase();
  const seen = new Set<string>();
  const choices: { name: string; value: string }[] = [];
  const add = (uid: string, name: string, note: string) => {
    if (seen.has(uid) || (t !== '' && !name.toLowerCase().includes(t) && !uid.includes(t))) return;
    seen.add(uid);
    choices.push({ name: truncate(`${name} · ${note}`, LIMITS.choiceName), value: uid });
  };
  for (const a of links.accounts) add(a.uid, a.name, a.uid === links.defaultUid ? 'your default' : 'linked');
  for (const r of recent) add(r.uid, r.name, 'recent');
  return choices;
}

export const player: CommandModule = {
  definition,
  execute: profileFor,
  async autocomplete(input, ctx) {
    return playerChoices(input.user.userId, input.focused.value, ctx);
  },
  components: {
    /** Section select: `pl.s:<uid>:<season>`, the section as the value. */
    'pl.s': async (input, ctx) => {
      const [uid = '', season = ''] = input.args;
      return playerView(await loadProfile(uid, seasonParam(season), ctx), sectionOf(input.values[0]), 1, season, ctx);
    },
    /** Paginator: `pl.p:<uid>:<season>:<section>:<page>:<kind>`. */
    'pl.p': async (input, ctx) => {
      const [uid = '', season = '', which] = input.args;
      return playerView(await loadProfile(uid, seasonParam(season), ctx), sectionOf(which), pageFromArgs(input.args), season, ctx);
    },
    /** Recent match select: `pl.m:<uid>`, the match uid as the value. */
    'pl.m': async (input, ctx) => matchView(input.values[0] ?? '', ctx),
  },
};
