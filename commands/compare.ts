/**
 * `/compare player:<a> [other:<b>] [season]`: two players side by side, the heroes both play head to head, and both rank
 * histories on one chart; `other` defaults to the member's own linked account. Data: api-spec.md endpoint 17 and the hero list.
 */
import type { APIEmbed, APIEmbedField } from 'discord-api-types/v10';
import type { PlayerProfile } from '../src/api/schemas.js';
import { SPEC_LIMITS, type CompareRankChart } from '../src/charts/specs.js';
import type { CommandContext, CommandInput, CommandModule } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { NotLinkedError, UserFacingError } from '../src/core/errors.js';
import { currentSeason, heroSummary, rankSummary, type HeroTotals } from '../src/game/profile.js';
import { rankScore } from '../src/game/ranks.js';
import { rankTimeline } from '../src/game/rank-timeline.js';
import { latestSeason, type Season } from '../src/game/seasons.js';
import { describe } from '../src/i18n/commands.js';
import { chartOf, withChart } from '../src/render/view-charts.js';
import { heroLookup, type HeroLookup } from '../src/render/hero-lookup.js';
import { staleFooter } from '../src/render/common.js';
import { currentLocale, tr } from '../src/i18n/index.js';
import { aside, decimal, duration, integer, winRate } from '../src/i18n/format.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { emojiBefore } from '../src/render/emojis.js';
import { heroName, tierName } from '../src/i18n/names.js';
import type { View } from '../src/render/view.js';
import { t } from '../src/render/strings.js';
import { seasonLabel } from '../src/render/common.js';
import { loadNamedProfile, playerChoices, seasonOption } from '../src/catalog/players.js';
import { seasonChoices } from '../src/catalog/choices.js';

/** The part of a command's context /compare uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'heroes' | 'links' | 'logger' | 'now' | 'recent'>;

const TOP_HEROES = 3;
/** Heroes both play, shown head to head: four keep the comparison and its chart on a phone's first screen. */
const HEAD_TO_HEAD = 4;

const definition = slashCommand('compare')
  .addStringOption((o) => o.setName('player').setDescription(describe('compare.options.player')).setRequired(true).setMaxLength(100).setAutocomplete(true))
  .addStringOption((o) => o.setName('other').setDescription(describe('compare.options.other')).setMaxLength(100).setAutocomplete(true))
  .addNumberOption((o) => o.setName('season').setDescription(describe('compare.options.season')).setMinValue(0).setMaxValue(99).setAutocomplete(true))
  .toJSON();

/** (kills + assists) / max(1, deaths), two decimals in the current locale: the ratio /player shows. */
const kdaRatio = (r: { kills: number; deaths: number; assists: number }) => decimal((r.kills + r.assists) / Math.max(1, r.deaths));

type Heroes = HeroLookup;

/** A hero's name and role from the one hero lookup, else as the profile names it. */
function heroOf(heroes: Heroes, h: Pick<HeroTotals, 'hero_id' | 'hero_name'>): { name: string; role: string | null } {
  return (
    heroes(h.hero_id) ?? {
      name: heroName(h.hero_name) ?? h.hero_name ?? (h.hero_id ? tr('compare:heroId', { id: h.hero_id }) : tr('compare:unknownHero')),
      role: null,
    }
  );
}

/**
 * One player's column (rank, ranked record, top heroes; the play time by role is /player's, too wide for a phone's column).
 * Its totals say which season they are from when it is not the one compared: a profile holding an older season, or a past
 * season asked of an API that gave the current season's totals for it (`seasonTotals` false, src/catalog/players.ts).
 */
function column(p: PlayerProfile, season: Season | null, seasonTotals: boolean, heroes: Heroes): APIEmbedField {
  const rank = rankSummary(p, season);
  const r = p.overall.ranked;
  const top = heroSummary(p).heroes.slice(0, TOP_HEROES);
  const own = currentSeason(p);
  const older =
    season && !seasonTotals
      ? tr('compare:column.currentTotals', { season: own ? seasonLabel(own) : tr('compare:currentSeason'), asked: seasonLabel(season) })
      : season && own && own.index < season.index
        ? tr('compare:column.totalsFrom', { season: seasonLabel(own) })
        : null;
  const lines = [
    rank.tier === null && season && rank.score === null
      ? `**${tr('compare:column.noRank', { season: seasonLabel(season) })}**`
      : `${emojiBefore('tier', rank.tier)}**${tierName(rank.tier) ?? tr('compare:unranked')}** · ${rankScore(rank.score)}`,
    older,
    tr('compare:column.ranked', { count: r.matches, n: integer(r.matches), winRate: winRate(r.wins, r.matches) }),
    `KDA ${r.matches > 0 ? kdaRatio(r) : '—'} · ${duration(r.play_time)}`,
    top.length > 0 ? tr('compare:column.top', { heroes: top.map((h) => escapeText(heroOf(heroes, h).name, 40)).join(tr('compare:listSeparator')) }) : null,
  ];
  return {
    name: truncate(`${p.name}${p.team?.name ? ` [${p.team.name}]` : ''}`, LIMITS.fieldName),
    value: truncate(lines.filter(Boolean).join('\n'), LIMITS.fieldValue),
    inline: true,
  };
}

const record = (h: HeroTotals) => tr('compare:record', { count: h.matches, n: integer(h.matches), winRate: winRate(h.wins, h.matches), kda: kdaRatio(h) });

/** The heroes both players play, most combined play time first. */
function headToHead(a: PlayerProfile, b: PlayerProfile, heroes: Heroes): APIEmbedField | undefined {
  const key = (h: HeroTotals) => h.hero_id ?? h.hero_name ?? '';
  // A hero with play time but no completed match has no record to compare.
  const theirs = new Map(
    heroSummary(b)
      .heroes.filter((h) => h.matches > 0)
      .map((h) => [key(h), h]),
  );
  const both = heroSummary(a)
    .heroes.filter((h) => h.matches > 0)
    .flatMap((h) => {
      const other = theirs.get(key(h));
      return other && key(h) !== '' ? [{ mine: h, other }] : [];
    })
    .sort((x, y) => y.mine.play_time + y.other.play_time - (x.mine.play_time + x.other.play_time))
    .slice(0, HEAD_TO_HEAD);
  if (both.length === 0) return undefined;
  const line = (p: PlayerProfile, h: HeroTotals) => tr('compare:playerRecord', { name: escapeText(p.name, 30), record: record(h) });
  const value = both.map(({ mine, other }) => `**${escapeText(heroOf(heroes, mine).name, 40)}**\n${line(a, mine)}\n${line(b, other)}`).join('\n');
  return { name: tr('compare:bothPlay'), value: truncate(value, LIMITS.fieldValue), inline: false };
}

/**
 * One player's line of the compare chart: the points of `season` (every point without one); a player with none there gets
 * their latest season that has points, named beside their name (as the embed says "Totals from Season 1.5"), so both
 * players named in the title have a line. A player with no point at all is named as having no rank score.
 */
function comparePlayer(p: PlayerProfile, season: Season | null): CompareRankChart['players'][number] {
  const timeline = rankTimeline(p);
  const of = (s: Season | null) => timeline.filter((x) => !s || x.season?.index === s.index).map((x) => ({ time: x.time, score: x.score }));
  const shown = of(season);
  if (shown.length > 0 || !season) return { name: truncate(p.name, SPEC_LIMITS.nameLength), points: shown };
  const own = latestSeason(timeline.map((x) => x.season));
  const label = own ? seasonLabel(own) : tr('compare:chart.noRankScore');
  return { name: truncate(`${p.name}${aside(label)}`, SPEC_LIMITS.nameLength), points: own ? of(own) : [] };
}

/**
 * Both players' rank timelines (src/game/rank-timeline.ts) for the chart, in the current locale: with `season`, its points,
 * else each player's latest season with points ({@link comparePlayer}); without, every point.
 */
export function compareRankSpec(a: PlayerProfile, b: PlayerProfile, season: Season | null = null): CompareRankChart {
  return {
    kind: 'compare-rank',
    locale: currentLocale(),
    title: truncate(tr('charts:titles.compare', { a: a.name, b: b.name }), SPEC_LIMITS.titleLength),
    players: [comparePlayer(a, season), comparePlayer(b, season)],
  };
}

/** The profile a compare option names, for `season`. @throws {NotFoundError} for no such player; {@link loadNamedProfile}'s errors otherwise. */
async function profileOf(query: string, season: Season | null, userId: string, ctx: Ctx) {
  const { fetched, seasonTotals } = await loadNamedProfile(query, userId, season, userId, ctx);
  return { ...fetched, seasonTotals };
}

/**
 * The comparison of the two players `input` names.
 * @throws {NotLinkedError} when `other` is empty and the member has no linked account; {@link UserFacingError} for the same player twice.
 */
async function compareView(input: CommandInput, ctx: Ctx): Promise<View> {
  const season = seasonOption(input.options.season);
  const first = String(input.options.player ?? '').trim();
  let second = typeof input.options.other === 'string' ? input.options.other.trim() : '';
  if (second === '') {
    const uid = await ctx.links.defaultUid(input.user.userId);
    if (!uid) throw new NotLinkedError(input.user.userId, true, 'compare');
    second = uid;
  }
  const profiles = Promise.all([profileOf(first, season, input.user.userId, ctx), profileOf(second, season, input.user.userId, ctx)]);
  // The hero list is read alongside the profiles, asked for after them so they keep the first turns at the API's rate limit.
  const heroList = ctx.heroes.list().catch((err: unknown) => {
    ctx.logger.warn({ err }, 'hero list unavailable; heroes named as the profiles give them');
    return [];
  });
  const [a, b] = await profiles;
  if (a.data.uid === b.data.uid) throw new UserFacingError(t.compareSamePlayer(escapeText(a.data.name, 100)));
  for (const p of [a.data, b.data])
    void ctx.recent.add(input.user.userId, { uid: p.uid, name: p.name }).catch((err: unknown) => ctx.logger.warn({ err }, 'could not record a recent lookup'));
  const heroes = heroLookup(await heroList, [a.data, b.data]);
  // Both players on one season: the one asked for, else the later of their current seasons.
  const shownSeason = season ?? latestSeason([currentSeason(a.data), currentSeason(b.data)]);
  const fields = [
    column(a.data, shownSeason, a.seasonTotals, heroes),
    column(b.data, shownSeason, b.seasonTotals, heroes),
    headToHead(a.data, b.data, heroes),
  ].filter((f): f is APIEmbedField => f !== undefined);
  const stale = staleFooter(a.stale ? a : b.stale ? b : undefined);
  const embed: APIEmbed = {
    color: 0x5865f2,
    title: truncate(tr('compare:title', { a: a.data.name, b: b.data.name }), LIMITS.title),
    description: tr('compare:description', { season: shownSeason ? seasonLabel(shownSeason) : tr('compare:currentSeason') }),
    fields,
    ...(stale ? { footer: stale } : {}),
  };
  return withChart(
    { embeds: [embed] },
    chartOf(compareRankSpec(a.data, b.data, shownSeason), 'compare.png', tr('charts:alt.compare', { a: a.data.name, b: b.data.name })),
  );
}

export const compare: CommandModule = {
  draws: true,
  apiOptions: { season: 'season' },
  definition,
  execute: compareView,
  /** `player` and `other`: the players a member may mean; `season`: the seasons of the first player's profile. */
  async autocomplete(input, ctx: Ctx) {
    if (input.focused.name === 'season') return seasonChoices(input.focused.value, String(input.options.player ?? ''), input.user.userId, ctx);
    return playerChoices(input.user.userId, input.focused.value, ctx);
  },
};
