/**
 * `/match match:<match uid>`: a summary, then one embed per team (src/game/scoreboard.ts). Data: api-spec.md endpoint 20 (a match
 * never changes: cached forever), the hero and map lists, and what the history row it was opened from knew.
 */
import { randomBytes } from 'node:crypto';
import { SlashCommandBuilder } from '@discordjs/builders';
import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIEmbedField,
} from 'discord-api-types/v10';
import { ApiError } from '../src/core/api-errors.js';
import type { Hero, MatchDetail, MatchSummary, PlayerProfile } from '../src/api/schemas.js';
import type { CommandContext, CommandInput, CommandModule, ComponentInput } from '../src/discord/command.js';
import { EVERYWHERE } from '../src/discord/command.js';
import { encodeCustomId, encodeCustomIdIfFits, MAX_CUSTOM_ID_LENGTH, wholeArg } from '../src/render/custom-id.js';
import { NotFoundError } from '../src/core/errors.js';
import { matchLength, scoreboard, type RoundScore, type ScoreLine, type ScoreTeam } from '../src/game/scoreboard.js';
import { describe } from '../src/i18n/commands.js';
import { staleFooter } from '../src/render/common.js';
import { aside, discordTime, duration, integer, kdaRatio, percent } from '../src/i18n/format.js';
import { embedLength, escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { heroName, modeName, tierName } from '../src/i18n/names.js';
import { gameModeName, matchMode } from '../src/game/modes.js';
import { rankScore, rankScoreChange } from '../src/game/ranks.js';
import { isMatchUid, matchUidMapId, matchUidStart, rowStart } from '../src/game/match-uid.js';
import { heroSummary, rankSummary, totalPlayTime, type HeroTotals } from '../src/game/profile.js';
import { recentMatches, type HistoryRow } from '../src/catalog/history.js';
import { heroLookup } from '../src/catalog/hero-lookup.js';
import { loadNamedProfile, loadProfile, playerChoices, seasonOption } from '../src/catalog/players.js';
import { matchChoices } from '../src/catalog/choices.js';
import { heldMatch } from '../src/catalog/held-match.js';
import { mapPlainName, type MapInfo } from '../src/catalog/map-directory.js';
import { backRow } from '../src/render/paginate.js';
import { heroDisplayName } from '../src/catalog/hero-directory.js';
import type { View } from '../src/render/view.js';
import { chartOf, withChart } from '../src/render/charts.js';
import { MATCH_CARD_PLAYERS, MATCH_CARD_TEAMS, type MatchCard } from '../src/charts/specs.js';
import { currentLocale, tr } from '../src/i18n/index.js';
import { decodeMatchOrigin, encodeMatchOrigin, listBackId, listPlace, listPlaceArgs, type ListPlace, type MatchOrigin } from '../src/render/match-origin.js';
import { emojiBefore } from '../src/render/emojis.js';
import { runWithDeadline, settleWithin } from '../src/core/deadline.js';

const WIN_COLOUR = 0x22c55e;
const LOSS_COLOUR = 0xef4444;
const NEUTRAL_COLOUR = 0x5865f2;

const definition = new SlashCommandBuilder()
  .setName('match')
  .setDescription(describe('match'))
  .setIntegrationTypes(...EVERYWHERE.integrationTypes)
  .setContexts(...EVERYWHERE.contexts)
  .addStringOption((o) =>
    o.setName('match').setDescription(describe('match.options.match')).setRequired(true).setMinLength(3).setMaxLength(100).setAutocomplete(true),
  )
  .toJSON();

/** How much a player line says: less while the team embeds are over Discord's limits. */
type Detail = 'full' | 'compact' | 'minimal';
const DETAILS: readonly Detail[] = ['full', 'compact', 'minimal'];

/** A player's badges, MVP and SVP first, counts above one; MVP or SVP alone unless `all`. */
function badges(line: ScoreLine, m: MatchDetail, all: boolean): string {
  const mvp = line.player.player_uid === m.mvp_uid ? ['**MVP**'] : line.player.player_uid === m.svp_uid ? ['**SVP**'] : [];
  const rest = all
    ? line.badges.filter((b) => !/^(mvp|svp)$/i.test(b.name)).map((b) => escapeText(b.count !== null && b.count > 1 ? `${b.name} ×${b.count}` : b.name, 40))
    : [];
  return [...mvp, ...rest].join(tr('match:line.separator'));
}

/** "Thor (3m 50s), Hulk (1m 26s)": a player's heroes, longest first; less detailed, "Thor (3m 50s) +2 more", then without the time. */
function heroes(l: ScoreLine, heroOf: HeroNamer, detail: Detail): string {
  const name = (id: string | null) => escapeText(heroOf(id), 40);
  // Only a player whose every hero had under half a second has none listed: name the main hero.
  if (l.heroes.length === 0) return `${heroOf.emoji(l.mainHeroId)}${name(l.mainHeroId)}`;
  const shown = detail === 'full' ? l.heroes : l.heroes.slice(0, 1);
  // The emoji marks the hero played most; the others are named alone, so a line stays short.
  const text =
    heroOf.emoji(shown[0]!.heroId) +
    shown.map((h) => (detail === 'minimal' ? name(h.heroId) : `${name(h.heroId)}${aside(duration(h.playTime))}`)).join(tr('match:line.separator'));
  const more = l.heroes.length - shown.length;
  return more > 0 ? `${text} ${tr('match:line.moreHeroes', { count: more })}` : text;
}

/** What a line says after the player's figures: nothing for a player who played the match through, else their status in italics. */
function status(s: ScoreLine['status']): string {
  return s === 'played' ? '' : ` · *${tr(`match:status.${s}`)}*`;
}

/** One player's line: name, heroes, K/D/A, then (but in `minimal`) damage, healing, damage taken; badges; status. */
function line(l: ScoreLine, m: MatchDetail, heroOf: HeroNamer, detail: Detail): string {
  const p = l.player;
  const name = escapeText(p.nick_name ?? p.player_uid, 40);
  if (l.status === 'no-hero') return `~~${name}~~${status('no-hero')}`;
  const parts = [`**${name}**`, heroes(l, heroOf, detail), `${p.kills}/${p.deaths}/${p.assists}`];
  if (detail !== 'minimal') {
    parts.push(tr('match:line.damage', { value: integer(p.total_hero_damage) }));
    // Most players never heal: a "0 heal" on each of them would be noise, so healing shows only when there was some.
    if (Math.round(p.total_hero_heal) > 0) parts.push(tr('match:line.healing', { value: integer(p.total_hero_heal) }));
    parts.push(tr('match:line.damageTaken', { value: integer(p.total_damage_taken) }));
  }
  const b = badges(l, m, detail === 'full');
  if (b) parts.push(b);
  return `${parts.join(' · ')}${status(l.status)}`;
}

/**
 * Each team's lines as a description, together within `budget` characters and each within Discord's limit: the most detail that
 * fits for all teams at once, else every line cut to an even share.
 */
function teamDescriptions(teams: ScoreTeam[], m: MatchDetail, heroOf: HeroNamer, budget: number): string[] {
  for (const detail of DETAILS) {
    const texts = teams.map((t) => t.lines.map((l) => line(l, m, heroOf, detail)).join('\n'));
    if (texts.every((t) => t.length <= LIMITS.description) && texts.reduce((sum, t) => sum + t.length, 0) <= budget) return texts;
  }
  const share = Math.max(0, Math.min(LIMITS.description, Math.floor(budget / Math.max(1, teams.length))));
  return teams.map((t) => {
    const perLine = Math.floor((share - (t.lines.length - 1)) / t.lines.length);
    return truncate(t.lines.map((l) => truncate(line(l, m, heroOf, 'minimal'), perLine)).join('\n'), share);
  });
}

/** "Team A · Victory · rounds 2–0": the team's letter, its result and its round score when known. */
function teamTitle(team: ScoreTeam, i: number): string {
  const label = team.camp === null ? tr('match:team.unassigned') : tr('match:team.named', { letter: String.fromCharCode(65 + i) });
  const result = team.drawn
    ? ` · ${tr('match:team.draw')}`
    : team.won === true
      ? ` · ${tr('match:team.victory')}`
      : team.won === false
        ? ` · ${tr('match:team.defeat')}`
        : '';
  const rounds = team.rounds ? ` · ${tr('match:team.rounds', { won: integer(team.rounds.won), lost: integer(team.rounds.lost) })}` : '';
  return `${label}${result}${rounds}`;
}

function teamEmbed(team: ScoreTeam, title: string, description: string): APIEmbed {
  return {
    color: team.won === true ? WIN_COLOUR : team.won === false ? LOSS_COLOUR : NEUTRAL_COLOUR,
    title,
    description: description || undefined,
  };
}

/** Discord: an attachment's description (its alt text) holds at most 1,024 characters. */
const ALT_TEXT_LIMIT = 1_024;

/** The scoreboard as an image card (src/charts/cards.ts): the same teams and figures as the team embeds, which stay its text. */
function matchCardSpec(
  m: MatchDetail,
  teams: ScoreTeam[],
  titles: string[],
  heroes: Map<string, Hero>,
  heroOf: (id: string | null) => string,
  head: { title: string; subtitle: string; image: string | null },
): MatchCard {
  return {
    kind: 'match-card',
    locale: currentLocale(),
    title: truncate(head.title, 200),
    subtitle: truncate(head.subtitle, 200),
    columns: truncate(tr('match:card.columns'), 200),
    image: head.image,
    teams: teams.slice(0, MATCH_CARD_TEAMS).map((team, i) => ({
      title: truncate(titles[i]!, 200),
      won: team.drawn ? null : team.won,
      players: team.lines.slice(0, MATCH_CARD_PLAYERS).map((l) => {
        const p = l.player;
        const hero = l.mainHeroId ? heroes.get(l.mainHeroId) : undefined;
        // Numbers alone: the card names the columns once (a unit on every row does not fit in German or Spanish).
        const figures = [integer(p.total_hero_damage)];
        if (Math.round(p.total_hero_heal) > 0) figures.push(integer(p.total_hero_heal));
        const badge = p.player_uid === m.mvp_uid ? tr('match:fields.mvp') : p.player_uid === m.svp_uid ? tr('match:fields.svp') : null;
        return {
          name: truncate(p.nick_name ?? p.player_uid, 100) || '?',
          hero: truncate(l.status === 'no-hero' ? tr('match:status.no-hero') : heroOf(l.mainHeroId), 200),
          role: hero?.role ?? null,
          image: hero?.transformations[0]?.icon ?? hero?.image ?? null,
          kda: `${p.kills}/${p.deaths}/${p.assists}`,
          figures: l.status === 'no-hero' ? '' : figures.join(' · '),
          badge,
          // A replacement played the match to its end: only who left, or never picked a hero, is dimmed.
          dimmed: l.status === 'left' || l.status === 'no-hero',
        };
      }),
    })),
  };
}

/** Each player's line once, in team order (a player can be listed twice when they switched sides). */
function uniqueLines(teams: ScoreTeam[]): ScoreLine[] {
  const seen = new Set<string>();
  return teams.flatMap((t) => t.lines).filter((l) => !seen.has(l.player.player_uid) && seen.add(l.player.player_uid));
}

/** A hero's name by id, and its emoji and a space ('' without one: src/render/emojis.ts). */
type HeroNamer = ((id: string | null) => string) & { emoji(id: string | null): string };

/** A hero's name by id from the hero list, in the member's language; its id when the list does not have it. */
function heroNamer(heroes: Hero[]): HeroNamer {
  const byId = new Map(heroes.map((h) => [h.id, h]));
  const name = (id: string | null) => {
    const hero = id ? byId.get(id) : undefined;
    return hero ? heroDisplayName(hero) : id ? tr('match:heroId', { id }) : tr('match:noHero');
  };
  return Object.assign(name, { emoji: (id: string | null) => emojiBefore('hero', id ? byId.get(id)?.name : null) });
}

/** The newest row of the player's match history (v2, then v1, then the profile's own matches); undefined for none. */
async function newestRow(p: PlayerProfile, ctx: CommandContext): Promise<HistoryRow | undefined> {
  const history = await recentMatches(ctx.api, p, { page: 1, logger: ctx.logger });
  return [...history.rows].sort((a, b) => (b.time ?? 0) - (a.time ?? 0))[0];
}

/**
 * The players' select: `mt.p:<match>[:<list place>]`, `<match>` as the match was opened (origin or uid) and the recent
 * matches' page it came from when it fits, so the profile's Back button reopens it as it was, with its own Back.
 */
function playerSelect(
  m: MatchDetail,
  teams: ScoreTeam[],
  heroOf: (id: string | null) => string,
  opened: string,
  place: ListPlace | undefined,
): APIActionRowComponent<APIComponentInMessageActionRow> | null {
  // One option a player (Discord refuses repeated option values).
  const lines = uniqueLines(teams).slice(0, LIMITS.selectOptions);
  if (lines.length === 0) return null;
  const bareUid = m.match_uid.slice(0, 60);
  const matchArg = /^[\w~.-]+$/.test(opened) && `mt.p:${opened}`.length <= MAX_CUSTOM_ID_LENGTH ? opened : bareUid;
  // Where the match as opened and the list's place do not fit together, the place goes with the bare uid: it holds the
  // way back (the list's, and the profile's back key), and the uid alone still reopens the scoreboard.
  const withPlace =
    place && (encodeCustomIdIfFits('mt.p', matchArg, ...listPlaceArgs(place)) ?? encodeCustomIdIfFits('mt.p', bareUid, ...listPlaceArgs(place)));
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: withPlace ?? encodeCustomId('mt.p', matchArg),
        placeholder: tr('match:select.placeholder'),
        options: lines.map((l) => ({
          label: truncate(l.player.nick_name ?? l.player.player_uid, LIMITS.optionLabel),
          value: l.player.player_uid.slice(0, LIMITS.optionValue),
          description: truncate(
            l.status === 'no-hero' ? tr('match:select.noHero') : `${heroOf(l.mainHeroId)} · ${l.player.kills}/${l.player.deaths}/${l.player.assists}`,
            LIMITS.optionDescription,
          ),
        })),
      },
    ],
  };
}

/** The map list's entry of map `id`; undefined for no id, an id the list lacks, or a list that cannot be read now. */
async function mapOfId(id: string | null, ctx: CommandContext): Promise<MapInfo | undefined> {
  return id ? ctx.maps.get(id).catch(() => undefined) : undefined;
}

/**
 * The map and rounds of a match, so a typed uid reads as the same match opened from a list. The map: the id its detail names
 * (real details name none), else its history row's, else the one its uid embeds (src/game/match-uid.ts), else the one a
 * history row the bot already holds gives (src/catalog/held-match.ts: an older uid embeds none). Named from the map list,
 * never with the list's mode or competitive flag. `unknownId` is an id the API gave that its map list lacks; an id read from
 * the uid alone names nothing unless the list knows it. The rounds: its history row's, else a held row's (a detail has none).
 */
async function matchFacts(
  m: MatchDetail,
  origin: MatchOrigin,
  ctx: CommandContext,
  seenBy: string | undefined,
): Promise<{ map: MapInfo | undefined; unknownId: string | null; score: RoundScore | null }> {
  const fromUid = matchUidMapId(m.match_uid);
  let given = m.map_id ?? origin.mapId;
  let score = origin.score ?? null;
  // Only what the match and its row leave open looks further: what is held costs no request, but store and cache reads.
  if ((given === null && fromUid === null) || score === null) {
    const held = await heldMatch(m.match_uid, { players: m.players.map((p) => p.player_uid), userId: seenBy }, ctx);
    if (fromUid === null) given ??= held.mapId;
    score ??= held.score;
  }
  const id = given ?? fromUid;
  const map = await mapOfId(id, ctx);
  return { map, unknownId: map ? null : given, score };
}

/**
 * The view of a match: a summary embed, one embed per team, and a select of its players.
 * @param value a match uid as typed, or from a menu a value of {@link encodeMatchOrigin}.
 * @param fromMenu a menu press opened it: `value` is decoded, and a missing match is named, not blamed on typing.
 * @param options.place the page of a player's recent matches it was opened from: a Back button returns there; none when typed.
 * @param options.seenBy the member who opened it: its players' names feed their "Did you mean" (src/catalog/players.ts).
 * @param options.details the whole scoreboard as text, privately, for the card's "Full scoreboard" button.
 * @throws {NotFoundError} when the API's match has no players, and from a menu when the API has no such match;
 *   {@link ApiError} otherwise.
 */
export async function matchView(
  value: string,
  ctx: CommandContext,
  fromMenu = false,
  options: { place?: ListPlace; seenBy?: string; details?: boolean } = {},
): Promise<View> {
  const { place, seenBy } = options;
  const back = (place && listBackId(place)) ?? undefined;
  // Only a menu's value carries an origin: typed text is a match uid, never parsed for a map, mode or time to show.
  const origin: MatchOrigin = fromMenu ? decodeMatchOrigin(value) : { matchUid: value, mapId: null, modeId: null, duration: null, time: null };
  const matchRead = ctx.api.match(origin.matchUid);
  // The hero list and map list are read alongside the match, asked for after it so the match keeps the first turn at the rate limit.
  const lookups = Promise.all([ctx.heroes.list().catch(() => []), mapOfId(origin.mapId ?? matchUidMapId(origin.matchUid), ctx)]);
  let fetched;
  try {
    fetched = await matchRead;
  } catch (err) {
    if (fromMenu && err instanceof ApiError && err.kind === 'not_found') throw new NotFoundError('match', origin.matchUid, true);
    throw err;
  }
  const m = fetched.data;
  // A match without players is a scoreboard the API does not have, whichever way it was asked for.
  if (m.players.length === 0) throw new NotFoundError('match', origin.matchUid, true);
  if (seenBy) {
    const named = m.players.flatMap((p) => (p.nick_name ? [{ uid: p.player_uid, name: p.nick_name }] : []));
    // Off the reply path: the answer never waits for the cache.
    void ctx.recent.addSeen(seenBy, named).catch((err: unknown) => ctx.logger.warn({ err }, 'could not record the players of a match'));
  }
  const [heroes] = await lookups;
  const { map, unknownId, score } = await matchFacts(m, origin, ctx, seenBy);
  const heroById = new Map(heroes.map((h) => [h.id, h]));
  const heroOf = heroNamer(heroes);
  const teams = scoreboard(m, score);
  const mvp = m.players.find((p) => p.player_uid === m.mvp_uid);
  const svp = m.players.find((p) => p.player_uid === m.svp_uid);
  const mode = modeName(m.game_mode_name) ?? gameModeName(m.game_mode_id ?? origin.modeId) ?? tr('match:mode');
  // The match's own facts first, so a match reads the same however it was opened; the history row fills gaps.
  const length = matchLength(m) ?? origin.duration;
  // The start, as every view of a match dates it (src/game/match-uid.ts rowStart); the row's end only to work it out.
  const time = matchUidStart(m.match_uid, ctx.now()) ?? rowStart({ match_uid: m.match_uid, time: origin.time, duration: origin.duration });
  const mapText = map ? mapPlainName(map) : (m.map_name ?? null);
  const facts = [
    // The map's name only: the mode is the title, from the match itself, never from the map list's flag.
    mapText ? tr('match:facts.map', { map: escapeText(mapText, 80) }) : unknownId ? tr('match:facts.mapUnknown', { id: escapeText(unknownId, 20) }) : null,
    length ? tr('match:facts.duration', { duration: duration(length) }) : null,
    time ? tr('match:facts.started', { time: discordTime(time, 'f') }) : null,
  ].filter(Boolean);
  const summary: APIEmbed = {
    color: NEUTRAL_COLOUR,
    title: mode,
    // Inside inline code Discord shows backslashes literally: strip backticks instead of escaping.
    description: [
      facts.join(' · '),
      `${tr('match:summary.matchId', { uid: m.match_uid.replace(/`/g, '').slice(0, 120) })}${m.replay_id ? ` · ${tr('match:summary.replay', { id: escapeText(m.replay_id, 40) })}` : ''}`,
    ]
      .filter(Boolean)
      .join('\n'),
    fields: [
      {
        name: tr('match:fields.mvp'),
        value: mvp ? `${escapeText(mvp.nick_name ?? mvp.player_uid, 100)}${aside(escapeText(heroOf(m.mvp_hero_id), 60))}` : '—',
        inline: true,
      },
      {
        name: tr('match:fields.svp'),
        value: svp ? `${escapeText(svp.nick_name ?? svp.player_uid, 100)}${aside(escapeText(heroOf(m.svp_hero_id), 60))}` : '—',
        inline: true,
      },
      { name: tr('match:fields.players'), value: playersValue(m.players.length, teams), inline: true },
    ],
    thumbnail: map?.image ? { url: map.image } : undefined,
    footer: staleFooter(fetched),
  };
  const select = playerSelect(m, teams, heroOf, fromMenu ? encodeMatchOrigin(origin) : m.match_uid, place);
  const shown = teams.slice(0, LIMITS.embeds - 1);
  const titles = shown.map((team, i) => teamTitle(team, i));
  // The summary and the team titles are whole; the players' lines share what is left of the message's characters.
  const budget = LIMITS.embedTotal - embedLength(summary) - titles.reduce((sum, t) => sum + t.length, 0);
  const descriptions = teamDescriptions(shown, m, heroOf, budget);
  const teamEmbeds = shown.map((team, i) => teamEmbed(team, titles[i]!, descriptions[i]!));
  if (options.details) return { embeds: [summary, ...teamEmbeds], components: select ? [select] : [], ephemeral: true };
  // The card stands for the team embeds: they come back wherever it is not shown (src/render/view.ts withoutCardImages).
  // The card's subtitle is plain text: no markdown, no Discord timestamp.
  // No date: the card cannot show it in the reader's time zone, as the embed's timestamp does.
  const subtitle = [mapText, length ? duration(length) : null].filter(Boolean).join(' · ');
  const spec = matchCardSpec(m, shown, titles, heroById, heroOf, { title: mode, subtitle, image: map?.image ?? null });
  // The alt text carries the scoreboard in short for screen readers: each team, then each player's hero and K/D/A.
  const alt = [tr('match:card.alt'), ...spec.teams.map((t) => `${t.title}: ${t.players.map((p) => `${p.name} (${p.hero}) ${p.kda}`).join(', ')}`)].join('. ');
  const card = shown.length <= MATCH_CARD_TEAMS ? chartOf(spec, 'match.png', truncate(alt, ALT_TEXT_LIMIT)) : undefined;
  if (!card) return { embeds: [summary, ...teamEmbeds], components: [...(select ? [select] : []), ...(back ? [backRow(back)] : [])] };
  // Beside the card, what it leaves out (damage taken, awards, hero switches, who left and why) is a button away, privately.
  const details = detailsId(fromMenu ? encodeMatchOrigin(origin) : m.match_uid, m.match_uid);
  const buttons: APIButtonComponentWithCustomId[] = [
    ...(back ? backRow(back).components : []),
    { type: ComponentType.Button, style: ButtonStyle.Secondary, label: tr('match:fullScoreboard'), custom_id: details },
  ];
  const components = [...(select ? [select] : []), { type: ComponentType.ActionRow as const, components: buttons }];
  return withChart({ embeds: [summary], components }, { ...card, text: { embeds: teamEmbeds, components: [details] } });
}

/** "14 · 2 replacements · 2 left early": the players of the match, and how many did not play it through (a 6v6 can list more than 12). */
function playersValue(count: number, teams: ScoreTeam[]): string {
  const off = new Map<Exclude<ScoreLine['status'], 'played'>, number>();
  for (const l of uniqueLines(teams)) if (l.status !== 'played') off.set(l.status, (off.get(l.status) ?? 0) + 1);
  return [integer(count), ...[...off].map(([status, n]) => tr(`match:counts.${status}`, { count: n, n: integer(n) }))].join(' · ');
}

/** The "Full scoreboard" button's custom ID (`mt.t:<origin>`), with the match UID alone when its origin does not fit. */
function detailsId(origin: string, matchUid: string): string {
  try {
    return encodeCustomId('mt.t', origin);
  } catch {
    return encodeCustomId('mt.t', matchUid.slice(0, MAX_CUSTOM_ID_LENGTH - 5));
  }
}

/** "Double C · latest match" above a scoreboard: whose match `/last` opened. */
const lastAuthor = (p: PlayerProfile): APIEmbed['author'] => ({
  name: truncate(tr('match:last.author', { player: p.name }), LIMITS.author),
  icon_url: p.icon ?? undefined,
});

/** Why a match shows no scoreboard: the API has none for it (most matches of a real history), or cannot give it now. */
type NoScoreboard = 'missing' | 'unavailable';

/**
 * Why the scoreboard read failed, as a member is told it; null for a failure that is not the API's (a bug, a bad argument).
 * An empty body or unusable JSON is how the API answers for a match it keeps no scoreboard of, as a 404 is; text that is
 * no JSON is a fault of the moment.
 */
function noScoreboard(err: unknown): NoScoreboard | null {
  if (err instanceof NotFoundError) return 'missing';
  if (!(err instanceof ApiError)) return null;
  const unusable = err.kind === 'bad_response' && err.wellFormed;
  return err.kind === 'not_found' || unusable || err.kind === 'bad_request' ? 'missing' : 'unavailable';
}

/**
 * What is known of a match without its scoreboard: the history row that listed it and whose it is, else the menu value alone,
 * or for a uid typed (`typed`) what the uid says and a map the bot holds.
 */
type Known = { profile: PlayerProfile; row: MatchSummary; author: APIEmbed['author'] } | { origin: MatchOrigin; author?: APIEmbed['author']; typed?: boolean };

/**
 * A match without its scoreboard, from the history row that listed it: result, hero, K/D/A, map, mode, rank change,
 * length and time; from the menu value alone (map, mode, length, time) when the row cannot be read either. `reason`
 * says why the scoreboard is missing, in a member's words.
 */
async function rowView(known: Known, reason: NoScoreboard, ctx: CommandContext): Promise<View> {
  const listed = 'row' in known ? known : null;
  const row = listed?.row ?? null;
  const origin = 'origin' in known ? known.origin : null;
  const mapId = row ? row.map_id : (origin?.mapId ?? null);
  const [heroes, map] = await Promise.all([
    row ? ctx.heroes.list().catch((): Hero[] => []) : Promise.resolve([]),
    // A map list that cannot be read names no map, rather than calling the map unknown to it.
    mapId ? ctx.maps.get(mapId).catch(() => null) : Promise.resolve(undefined),
  ]);
  const gameMode = row ? row.game_mode_id : (origin?.modeId ?? null);
  const modeText = gameModeName(gameMode, row?.play_mode_id ?? null);
  const seconds = row ? row.duration : (origin?.duration ?? null);
  // The start, as the scoreboard dates a match (src/game/match-uid.ts rowStart); a menu value carries the row's end.
  const time = row ? rowStart(row) : origin ? rowStart({ match_uid: origin.matchUid, time: origin.time, duration: origin.duration }) : null;
  const facts = [
    map
      ? tr('match:facts.map', { map: escapeText(mapPlainName(map), 80) })
      : mapId && map === undefined
        ? tr('match:facts.mapUnknown', { id: escapeText(mapId, 20) })
        : null,
    seconds ? tr('match:facts.duration', { duration: duration(seconds) }) : null,
    time ? tr('match:facts.started', { time: discordTime(time, 'f') }) : null,
  ].filter(Boolean);
  const source = listed
    ? tr('match:noScoreboard.fromRow', { player: escapeText(listed.profile.name, 60) })
    : 'typed' in known && known.typed
      ? tr('match:noScoreboard.fromId')
      : tr('match:noScoreboard.fromMenu');
  // The API's own uid as code, as the scoreboard shows it; a menu value's as text, escaped: anyone can send any value.
  const uid = row
    ? tr('match:summary.matchId', { uid: row.match_uid.replace(/`/g, '').slice(0, 120) })
    : origin?.matchUid
      ? tr('match:noScoreboard.matchId', { uid: escapeText(origin.matchUid, 120) })
      : null;
  const description = [facts.join(' · '), tr('match:noScoreboard.said', { reason: tr(`match:noScoreboard.${reason}`), source }), uid].filter(Boolean);
  const embed: APIEmbed = {
    color: NEUTRAL_COLOUR,
    author: known.author,
    title: truncate(modeText ?? tr('match:mode'), LIMITS.title),
    description: description.join('\n'),
    thumbnail: map?.image ? { url: map.image } : undefined,
  };
  if (!listed || !row) return { embeds: [embed] };
  const hero = heroLookup(heroes, [listed.profile])(row.player.hero_id);
  const heroText = hero?.name ?? heroName(row.player.hero_name) ?? (row.player.hero_id ? tr('match:heroId', { id: row.player.hero_id }) : tr('match:noHero'));
  const mode = matchMode(row.game_mode_id, row.play_mode_id);
  const won = row.player.result;
  const result =
    won === 'win' ? tr('match:team.victory') : won === 'loss' ? tr('match:team.defeat') : won === 'draw' ? tr('match:team.draw') : tr('match:mode');
  const fields: APIEmbedField[] = [
    { name: tr('match:last.hero'), value: escapeText(heroText, 60), inline: true },
    { name: tr('match:last.kda'), value: `${row.player.kills}/${row.player.deaths}/${row.player.assists}`, inline: true },
  ];
  if (mode.ranked && row.player.score_change !== null) {
    const after = row.player.new_score === null ? '' : ` → ${rankScore(row.player.new_score)}`;
    fields.push({ name: tr('match:last.rankScore'), value: `${rankScoreChange(row.player.score_change)}${after}`, inline: true });
  }
  return {
    embeds: [
      {
        ...embed,
        color: !mode.counts ? NEUTRAL_COLOUR : won === 'win' ? WIN_COLOUR : won === 'loss' ? LOSS_COLOUR : NEUTRAL_COLOUR,
        title: truncate(modeText ? `${result} · ${modeText}` : result, LIMITS.title),
        fields,
        thumbnail: embed.thumbnail ?? (row.player.hero_icon ? { url: row.player.hero_icon } : undefined),
      },
    ],
  };
}

/**
 * The history row of `matchUid` that the recent matches' page `place` listed, with whose it is: read again as the list read
 * it (from the cache, as a rule), on that page or the next (rows move down as new matches come), else in the profile's own
 * matches. Null when it is nowhere or cannot be read now.
 */
async function listedRow(matchUid: string, place: ListPlace, ctx: CommandContext): Promise<{ profile: PlayerProfile; row: MatchSummary } | null> {
  try {
    const season = seasonOption(place.season);
    const profile = (await loadProfile(place.uid, season, ctx)).fetched.data;
    for (const page of [place.page, place.page + 1]) {
      const history = await recentMatches(ctx.api, profile, { page, season, hidePractice: place.filter === 'r', logger: ctx.logger });
      const row = history.rows.find((r) => r.match_uid === matchUid);
      if (row) return { profile, row };
      if (history.page < page) break;
    }
    const own = profile.recent_matches.find((r) => r.match_uid === matchUid);
    return own ? { profile, row: own } : null;
  } catch (err) {
    ctx.logger.info({ err, matchUid }, 'the history row of a match without a scoreboard could not be read');
    return null;
  }
}

/** "Double C" above a match opened from their recent matches: whose line it is. */
const playerAuthor = (p: PlayerProfile): APIEmbed['author'] => ({ name: truncate(p.name, LIMITS.author), icon_url: p.icon ?? undefined });

/**
 * A match opened from a player's recent matches (`pl.m`, or `mt.o` back from one of its players): its scoreboard with a
 * Back button to that page; when the API has no scoreboard for it or cannot give one now, what its history row knows,
 * with the same Back button. A match opened from elsewhere (`place` null) fails as {@link matchView} does.
 * @throws what {@link matchView} throws, but for the scoreboard's absence when `place` is known.
 */
async function matchFromList(value: string, place: ListPlace | null, ctx: CommandContext, seenBy: string): Promise<View> {
  try {
    return await matchView(value, ctx, true, { place: place ?? undefined, seenBy });
  } catch (err) {
    const reason = noScoreboard(err);
    if (!reason || !place) throw err;
    const origin = decodeMatchOrigin(value);
    ctx.logger.info({ err, matchUid: origin.matchUid }, 'no scoreboard for a match opened from a list: showing its history row');
    const listed = await listedRow(origin.matchUid, place, ctx);
    const view = await rowView(listed ? { ...listed, author: playerAuthor(listed.profile) } : { origin }, reason, ctx);
    const back = listBackId(place);
    return back ? { ...view, components: [backRow(back)] } : view;
  }
}

/**
 * `/last [player] [user]`: the player's most recent match (the newest row of their history: api-spec.md endpoints 17–19) as
 * its scoreboard (endpoint 20); from the history row alone when the API has no scoreboard for it or cannot give it now.
 * @throws {NotLinkedError} with nothing typed and no linked account; {@link NotFoundError} for no such player.
 */
async function lastMatch(input: CommandInput, ctx: CommandContext): Promise<View> {
  const typed = typeof input.options.player === 'string' ? input.options.player : '';
  const whose = String(input.options.user ?? input.user.userId);
  const { fetched } = await loadNamedProfile(typed, whose, null, input.user.userId, ctx, 'last');
  const p = fetched.data;
  const row = await newestRow(p, ctx);
  if (!row) return { embeds: [{ color: NEUTRAL_COLOUR, author: lastAuthor(p), description: tr('match:last.none', { player: escapeText(p.name, 60) }) }] };
  try {
    const view = await matchView(
      encodeMatchOrigin({ matchUid: row.match_uid, mapId: row.map_id, modeId: row.game_mode_id, duration: row.duration, time: row.time, score: row.score }),
      ctx,
      true,
      {
        seenBy: input.user.userId,
      },
    );
    const [summary, ...teams] = view.embeds ?? [];
    return { ...view, embeds: summary ? [{ ...summary, author: lastAuthor(p) }, ...teams] : [] };
  } catch (err) {
    const reason = noScoreboard(err);
    if (!reason) throw err;
    ctx.logger.info({ err, matchUid: row.match_uid }, 'no scoreboard for the latest match: showing its history row');
    return rowView({ profile: p, row, author: lastAuthor(p) }, reason, ctx);
  }
}

/** `/last`: a second module of this file, as it opens the scoreboard {@link matchView} draws. */
export const last: CommandModule = {
  apiOptions: { player: 'player', matchHistoryV1: 'player', matchHistoryV2: 'player' },
  definition: new SlashCommandBuilder()
    .setName('last')
    .setDescription(describe('last'))
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .addStringOption((o) => o.setName('player').setDescription(describe('last.options.player')).setMaxLength(100).setAutocomplete(true))
    .addUserOption((o) => o.setName('user').setDescription(describe('last.options.user')))
    .toJSON(),
  execute: lastMatch,
  async autocomplete(input, ctx) {
    return playerChoices(input.user.userId, input.focused.value, ctx);
  },
};

/**
 * `/match match:<uid>`: its scoreboard ({@link matchView}). A uid as the API writes them that the API keeps no scoreboard of
 * (or cannot give now) is answered with what the bot already holds of it, a history row of the match with whose it is
 * (src/catalog/held-match.ts), else with what its uid says, and why there is no scoreboard: never as an id typed wrong.
 * @throws what {@link matchView} throws for text that is no match uid, and for a scoreboard the API cannot give now with
 *   nothing held of the match.
 */
async function typedMatch(uid: string, ctx: CommandContext, userId: string): Promise<View> {
  try {
    return await matchView(uid, ctx, false, { seenBy: userId });
  } catch (err) {
    const reason = noScoreboard(err);
    if (!reason || !isMatchUid(uid, ctx.now())) throw err;
    const held = await heldMatch(uid, { userId }, ctx);
    ctx.logger.info({ err, matchUid: uid, held: held.listed !== null }, 'no scoreboard for a match typed by id: showing what is held of it');
    if (held.listed) return rowView({ ...held.listed, author: playerAuthor(held.listed.profile) }, reason, ctx);
    if (reason === 'unavailable') throw err;
    return rowView({ origin: { matchUid: uid, mapId: held.mapId, modeId: null, duration: null, time: null }, typed: true }, reason, ctx);
  }
}

export const match: CommandModule = {
  apiOptions: { match_uid: 'match' },
  definition,
  async execute(input, ctx) {
    return typedMatch(String(input.options.match ?? '').trim(), ctx, input.user.userId);
  },
  /** `match`: the member's recent matches (src/catalog/choices.ts). */
  async autocomplete(input, ctx) {
    return input.focused.name === 'match' ? matchChoices(input.focused.value, input.user.userId, ctx) : [];
  },
  components: {
    /**
     * Recent match select: `pl.m:<uid>:<season>:<page>:<filter>` (older messages: `pl.m:<uid>`), the match
     * and what its history row knew as the value. The match, or without a scoreboard its history row, gets a Back button
     * to the same page.
     */
    'pl.m': async (input, ctx) => matchFromList(input.values[0] ?? '', listPlace(input.args), ctx, input.user.userId),
    /**
     * Back to a match from a player opened from its scoreboard: `mt.o:<match uid or origin>[:<list place>]`, reopened as it
     * was, with its Back button to the recent matches it was opened from.
     */
    'mt.o': async (input, ctx) => matchFromList(input.args[0] ?? '', listPlace(input.args.slice(1)), ctx, input.user.userId),
    /** A match card's "Full scoreboard": `mt.t:<match uid or origin>`, the team embeds as a private reply to whoever pressed. */
    'mt.t': async (input, ctx) => matchView(input.args[0] ?? '', ctx, true, { details: true }),
  },
};

/*
 * `/scout [match]`: every player of a finished match, from their public profiles: rank and score, top heroes, their record
 * on the hero they played, and a flag for a player who plays one hero most of the time. Post-match only: it reads the
 * match the API has recorded, never a match in progress (NetEase treats in-game stat overlays as cheating).
 */

/** Most players a scout reads: a match has two teams of six, and a few more when someone was replaced. */
export const SCOUT_PLAYERS = 12;
/** The share of a player's play time on their most played hero from which they are flagged as playing one hero. */
export const ONE_TRICK_SHARE = 0.6;

/** A scout's first answer waits this long for profiles, ms: cached ones are in by then, and the answer comes within a second. */
export const SCOUT_FIRST_ANSWER_MS = 600;
/** While profiles arrive, a scout's answer is edited at most this often, ms (Discord rate limits a message's edits). */
export const SCOUT_EDIT_EVERY_MS = 1_500;
/** A scout's reads end this long after the interaction, ms: a profile the rate limit or the API holds longer is said unavailable. */
export const SCOUT_BUDGET_MS = 60_000;

/** What a player's profile read gave: the profile, a private one, none at the API, none now, not yet, or no read (past the cap). */
type Read =
  { kind: 'profile'; profile: PlayerProfile } | { kind: 'private' } | { kind: 'missing' } | { kind: 'unavailable' } | { kind: 'reading' } | { kind: 'skipped' };

/** One player's profile, read behind members' own lookups (`background`); never throws. */
async function readPlayer(uid: string, ctx: CommandContext): Promise<Read> {
  try {
    const profile = (await ctx.api.player(uid, {}, { priority: 'background' })).data;
    return profile.is_private ? { kind: 'private' } : { kind: 'profile', profile };
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') return { kind: 'missing' };
    ctx.logger.info({ err, uid }, 'scout: a player of the match could not be read');
    return { kind: 'unavailable' };
  }
}

/** The hero of `heroes` with `id`, or null. */
const heroTotalsOf = (heroes: HeroTotals[], id: string | null) => (id ? (heroes.find((h) => h.hero_id === id) ?? null) : null);

/** "**Name** · Magik (6 matches, 66.7 %, KDA 2.64) · Grandmaster III 4,562 · top Magik, Human Torch, Cloak & Dagger · plays Magik 72 % of the time". */
function playerLine(name: string, heroId: string | null, read: Read, heroName: HeroNamer): string {
  const head = `**${escapeText(name, 40)}** · ${heroName.emoji(heroId)}${escapeText(heroName(heroId), 40)}`;
  if (read.kind === 'skipped') return `${head} · *${tr('match:scout.skipped', { max: integer(SCOUT_PLAYERS) })}*`;
  if (read.kind !== 'profile') return `${head} · *${tr(`match:scout.${read.kind}`)}*`;
  const p = read.profile;
  const rank = rankSummary(p);
  const heroes = heroSummary(p).heroes;
  const played = heroTotalsOf(heroes, heroId);
  // The record on the hero played sits beside it: the line stays short enough for a phone.
  const record =
    played && played.matches > 0
      ? tr('match:scout.onHero', {
          count: played.matches,
          n: integer(played.matches),
          winRate: percent((played.wins / played.matches) * 100),
          kda: kdaRatio(played.kills, played.deaths, played.assists),
        })
      : tr('match:scout.newOnHero');
  // A full-width parenthesis (Japanese) carries its own space.
  const parts = [
    `${head}${record.startsWith('（') ? '' : ' '}${record}`,
    rank.tier ? `${emojiBefore('tier', rank.tier)}${tierName(rank.tier)} ${rankScore(rank.score)}` : tr('match:scout.unranked'),
  ];
  const top = heroes.slice(0, 3).map((h) => escapeText(heroName(h.hero_id) || h.hero_name || '?', 30));
  if (top.length > 0) parts.push(tr('match:scout.top', { heroes: top.join(', ') }));
  // A one-trick: most of the player's time on one hero (the share of the profile's total play time).
  const total = totalPlayTime(p);
  const main = heroes[0];
  if (main && total > 0 && main.play_time / total >= ONE_TRICK_SHARE)
    parts.push(
      `**${tr('match:scout.oneTrick', { hero: escapeText(heroName(main.hero_id) || main.hero_name || '?', 30), share: percent((main.play_time / total) * 100) })}**`,
    );
  return parts.join(' · ');
}

/** The match a member means: the one typed, else the newest of their linked account's. @throws what {@link loadNamedProfile} throws. */
async function matchOf(input: CommandInput, ctx: CommandContext): Promise<{ uid: string; typed: boolean; ownUid?: string } | { none: string }> {
  const typed = typeof input.options.match === 'string' ? input.options.match.trim() : '';
  if (typed) return { uid: typed, typed: true };
  const { fetched } = await loadNamedProfile('', input.user.userId, null, input.user.userId, ctx, 'scout');
  const newest = await newestRow(fetched.data, ctx);
  return newest ? { uid: newest.match_uid, typed: false, ownUid: String(fetched.data.uid) } : { none: fetched.data.name };
}

/** A scout still being read, or just read, in this process: whose it is, the team they picked, and its answer now. */
interface LiveScout {
  userId: string;
  team: number;
  teams: number;
  render(): View;
}

/**
 * Scouts by their own ID (in their buttons' custom IDs), kept until their reads end and a moment after: a team picked
 * while profiles arrive is kept by the edits that follow, which would otherwise put the first team back.
 */
const liveScouts = new Map<string, LiveScout>();
const LIVE_SCOUT_GRACE_MS = 10_000;

/** What a scout shows, besides its match. */
export interface ScoutOptions {
  /** Typed by the member (default), else their latest match: a missing one is then named as theirs. */
  typed?: boolean;
  /** The member asking: their scout is kept live for its team buttons ({@link liveScouts}). */
  userId?: string;
  /** The team shown (an index into the scoreboard's teams); default the first, or the opponents of `ownUid`. */
  team?: number;
  /** The member's own player UID, when known: their opponents are shown first. */
  ownUid?: string;
}

/** A scout's team buttons: at most five in a row, numbered from 0. */
const SCOUT_TEAMS = 5;
/** The team a scout's team button carries (`sc.t`), read as {@link wholeArg} reads a number from a custom ID. */
const SCOUT_TEAM_ARG = { min: 0, max: SCOUT_TEAMS - 1, fallback: 0 };

/**
 * The grey team buttons of scout `id` (`sc.t:<match uid>:<team>:<scout id>`, the team shown disabled), or none when the
 * match's UID is too long for a custom ID.
 */
function teamButtons(matchUid: string, id: string, titles: string[], shown: number): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  if (titles.length < 2 || encodeCustomId('sc.t', matchUid, 0, id).length > MAX_CUSTOM_ID_LENGTH - 2) return [];
  return [
    {
      type: ComponentType.ActionRow,
      components: titles.slice(0, SCOUT_TEAMS).map((title, i) => ({
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        label: truncate(title, 80),
        custom_id: encodeCustomId('sc.t', matchUid, i, id),
        disabled: i === shown,
      })),
    },
  ];
}

/**
 * The scout of match `uid`: a header saying it is post-match only, then one team's embed, a line a player, with a grey
 * button for each team (a phone shows one team without scrolling). Every player's profile is read at once; the first
 * answer comes with those read within {@link SCOUT_FIRST_ANSWER_MS}, newer versions ({@link View.next}) as the others arrive.
 * @throws {NotFoundError} when the API has no such latest match, or none of a well-formed id; {@link ApiError} when it has
 *   no typed one of another shape or cannot answer.
 */
export async function scoutView(uid: string, ctx: CommandContext, options: ScoutOptions = {}): Promise<View> {
  let m: MatchDetail;
  try {
    m = (await ctx.api.match(uid)).data;
  } catch (err) {
    // The member's own latest match missing, or a well-formed id the API keeps no scoreboard for, is named as such, not
    // blamed on typing.
    if ((options.typed === false || isMatchUid(uid, ctx.now())) && err instanceof ApiError && err.kind === 'not_found')
      throw new NotFoundError('match', uid, true);
    throw err;
  }
  const heroName = heroNamer(await ctx.heroes.list().catch(() => []));
  // Names the bot has seen, for everyone's suggestions.
  ctx.recent.remember(m.players.flatMap((p) => (p.nick_name ? [{ uid: p.player_uid, name: p.nick_name }] : [])));
  const teams = scoreboard(m, null).slice(0, 5);
  const players = uniqueLines(teams);
  // Every profile at once: the rate limiter spaces them, members' own lookups first. Who played longest first, if some must wait.
  const scouted = new Set(
    [...players]
      .sort((a, b) => Number(a.status !== 'played') - Number(b.status !== 'played'))
      .slice(0, SCOUT_PLAYERS)
      .map((l) => l.player.player_uid),
  );
  // The reads outlive the interaction's budget (the answer is edited as they come), within the scout's own.
  const readBy = (ctx.budget?.createdAt ?? Date.now()) + SCOUT_BUDGET_MS;
  const reads = new Map<string, Read>();
  const all = Promise.all([...scouted].map(async (uid) => reads.set(uid, await runWithDeadline(readBy, () => readPlayer(uid, ctx)))));
  const ownTeam = options.ownUid ? teams.findIndex((t) => t.lines.some((l) => l.player.player_uid === options.ownUid)) : -1;
  const requested = options.team ?? (ownTeam >= 0 && teams.length === 2 ? 1 - ownTeam : 0);
  const live: LiveScout = { userId: options.userId ?? '', team: teamIn(requested, teams.length), teams: teams.length, render: () => view() };
  const id = randomBytes(6).toString('base64url');
  const titles = teams.map((team, i) => teamTitle(team, i));
  const view = (): View => {
    const done = reads.size === scouted.size;
    const read = [...reads.values()].filter((r) => r.kind === 'profile' || r.kind === 'private').length;
    const footer = { read: integer(read), total: integer(players.length) };
    const header: APIEmbed = {
      color: NEUTRAL_COLOUR,
      title: tr('match:scout.title'),
      description: [tr('match:scout.postMatch'), tr('match:summary.matchId', { uid: m.match_uid.replace(/`/g, '').slice(0, 120) })].join('\n'),
      footer: { text: done ? tr('match:scout.footer', footer) : tr('match:scout.footerReading', footer) },
    };
    const buttons = teamButtons(m.match_uid, id, titles, live.team);
    // Without buttons (one team, or no custom ID for this match) every team is shown.
    const visible = buttons.length > 0 ? [live.team] : teams.map((_, i) => i);
    const embeds = visible.slice(0, LIMITS.embeds - 1).map((i) => {
      const team = teams[i]!;
      const lines = team.lines.map((l) => {
        const uid = l.player.player_uid;
        const state: Read = reads.get(uid) ?? (scouted.has(uid) ? { kind: 'reading' } : { kind: 'skipped' });
        return playerLine(l.player.nick_name ?? uid, l.mainHeroId, state, heroName);
      });
      return teamEmbed(team, titles[i]!, truncate(lines.join('\n'), LIMITS.description));
    });
    // Complete, it has one more version only if the member picked another team meanwhile: an edit drawn before the
    // press may have landed after it, and this one puts their team back.
    const team = live.team;
    const picked = async (): Promise<View | null> => (live.team === team ? null : view());
    return { embeds: [header, ...embeds], components: buttons, next: done ? picked : next };
  };
  let shown = 0;
  // The next version once more profiles are in: all of them, or those read within an edit's interval.
  const next = async (): Promise<View> => {
    do await settleWithin(all, SCOUT_EDIT_EVERY_MS, () => undefined);
    while (reads.size === shown);
    shown = reads.size;
    return view();
  };
  if (options.userId) {
    liveScouts.set(id, live);
    void all.then(() => {
      setTimeout(() => liveScouts.delete(id), LIVE_SCOUT_GRACE_MS).unref();
    });
  }
  await settleWithin(all, SCOUT_FIRST_ANSWER_MS, () => undefined);
  shown = reads.size;
  return view();
}

/** `team` as a team index of a scoreboard of `count` teams; the first for anything else. */
const teamIn = (team: number, count: number) => (Number.isInteger(team) && team >= 0 && team < count ? team : 0);

/**
 * A scout's team button (`sc.t:<match uid>:<team>:<scout id>`): the member's own scout still live in this process shows
 * the team from the profiles it has, and its next edits keep that team; otherwise (someone else's press, another process,
 * a scout read a while ago) the scout is made again, its profiles from the cache.
 */
async function scoutTeam(input: ComponentInput, ctx: CommandContext): Promise<View> {
  const [uid = '', teamArg, id = ''] = input.args;
  const team = wholeArg(teamArg, SCOUT_TEAM_ARG);
  const live = liveScouts.get(id);
  if (live && live.userId === input.user.userId && (input.invokerId === undefined || input.invokerId === input.user.userId)) {
    live.team = teamIn(team, live.teams);
    const { next: _ongoing, ...now } = live.render();
    return now;
  }
  return scoutView(uid, ctx, { userId: input.user.userId, team });
}

/** `/scout`: a third module of this file, as it reads the same scoreboard and draws the same team embeds. */
export const scout: CommandModule = {
  apiOptions: { match_uid: 'match' },
  definition: new SlashCommandBuilder()
    .setName('scout')
    .setDescription(describe('scout'))
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .addStringOption((o) => o.setName('match').setDescription(describe('scout.options.match')).setMinLength(3).setMaxLength(100).setAutocomplete(true))
    .toJSON(),
  async execute(input, ctx) {
    const which = await matchOf(input, ctx);
    if ('none' in which) return { embeds: [{ color: NEUTRAL_COLOUR, description: tr('match:last.none', { player: escapeText(which.none, 60) }) }] };
    return scoutView(which.uid, ctx, { typed: which.typed, userId: input.user.userId, ownUid: which.ownUid });
  },
  /** `match`: the member's recent matches, as for /match. */
  async autocomplete(input, ctx) {
    return input.focused.name === 'match' ? matchChoices(input.focused.value, input.user.userId, ctx) : [];
  },
  components: {
    'sc.t': scoutTeam,
  },
};
