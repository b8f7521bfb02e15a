/**
 * A match's scoreboard as members read it (`/match`, `/last`, a player's recent matches): a summary embed, one embed per
 * team, the players' select, the image card with its "Full scoreboard" button; and, for a match the API keeps no
 * scoreboard of, what its history row knows. Pure: src/catalog/match-answer.ts reads what these draw. Data: api-spec.md
 * endpoint 20 (match details) and the history rows of endpoints 17–19.
 */
import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIEmbedField,
} from 'discord-api-types/v10';
import type { Fetched } from '../api/client.js';
import type { Hero, MatchDetail, MatchSummary, PlayerProfile } from '../api/schemas.js';
import { MATCH_CARD_PLAYERS, MATCH_CARD_TEAMS, type MatchCard } from '../charts/specs.js';
import { matchLength, scoreboard, type RoundScore, type ScoreLine, type ScoreTeam } from '../game/scoreboard.js';
import { gameModeName, matchMode } from '../game/modes.js';
import { rankScore, rankScoreChange } from '../game/ranks.js';
import { matchUidStart, rowStart } from '../game/match-uid.js';
import { aside, discordTime, duration, integer } from '../i18n/format.js';
import { currentLocale, tr } from '../i18n/index.js';
import { modeName } from '../i18n/names.js';
import { chartOf, withChart } from './view-charts.js';
import { staleFooter } from './common.js';
import { encodeCustomId, encodeCustomIdIfFits, MAX_CUSTOM_ID_LENGTH } from './custom-id.js';
import { embedLength, escapeText, LIMITS, truncate } from './limits.js';
import { listBackId, listPlaceArgs, type ListPlace, type MatchOrigin } from './match-origin.js';
import { backRow } from './paginate.js';
import type { View } from './view.js';

export const WIN_COLOUR = 0x22c55e;
export const LOSS_COLOUR = 0xef4444;
export const NEUTRAL_COLOUR = 0x5865f2;

/** A hero's name by id, and its emoji and a space ('' without one: src/render/emojis.ts). */
export type HeroNamer = ((id: string | null) => string) & { emoji(id: string | null): string };

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
export function teamTitle(team: ScoreTeam, i: number): string {
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

export function teamEmbed(team: ScoreTeam, title: string, description: string): APIEmbed {
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
export function uniqueLines(teams: ScoreTeam[]): ScoreLine[] {
  const seen = new Set<string>();
  return teams.flatMap((t) => t.lines).filter((l) => !seen.has(l.player.player_uid) && seen.add(l.player.player_uid));
}

/**
 * The players' select: `pl.o:<match>[:<list place>]`, `<match>` as the match was opened (origin or uid) and the recent
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
  const matchArg = /^[\w~.-]+$/.test(opened) && `pl.o:${opened}`.length <= MAX_CUSTOM_ID_LENGTH ? opened : bareUid;
  // Where the match as opened and the list's place do not fit together, the place goes with the bare uid: it holds the
  // way back (the list's, and the profile's back key), and the uid alone still reopens the scoreboard.
  const withPlace =
    place && (encodeCustomIdIfFits('pl.o', matchArg, ...listPlaceArgs(place)) ?? encodeCustomIdIfFits('pl.o', bareUid, ...listPlaceArgs(place)));
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: withPlace ?? encodeCustomId('pl.o', matchArg),
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
export const lastAuthor = (p: PlayerProfile): APIEmbed['author'] => ({
  name: truncate(tr('match:last.author', { player: p.name }), LIMITS.author),
  icon_url: p.icon ?? undefined,
});

/** "Double C" above a match opened from their recent matches: whose line it is. */
export const playerAuthor = (p: PlayerProfile): APIEmbed['author'] => ({ name: truncate(p.name, LIMITS.author), icon_url: p.icon ?? undefined });

/** Why a match shows no scoreboard: the API has none for it (most matches of a real history), or cannot give it now. */
export type NoScoreboard = 'missing' | 'unavailable';

/**
 * What is known of a match without its scoreboard: the history row that listed it and whose it is, else the menu value alone,
 * or for a uid typed (`typed`) what the uid says and a map the bot holds.
 */
export type Known =
  { profile: PlayerProfile; row: MatchSummary; author: APIEmbed['author'] } | { origin: MatchOrigin; author?: APIEmbed['author']; typed?: boolean };

/** A map as a scoreboard names it: its plain name (src/render/map-names.ts mapPlainName) and its image. */
export interface ShownMap {
  name: string;
  image: string | null;
}

/** What {@link scoreboardView} draws: the match as read, and what was looked up beside it. */
export interface ScoreboardInput {
  fetched: Fetched<MatchDetail>;
  heroes: Hero[];
  heroOf: HeroNamer;
  /** The map the map list knows; `unknownId` an id the API gave that the list lacks. */
  map: ShownMap | undefined;
  unknownId: string | null;
  /** Rounds of camp 0 and camp 1, when a history row gives them (a detail has none). */
  score: RoundScore | null;
  /** What the menu value or the typed uid said of the match. */
  origin: MatchOrigin;
  /** The value that reopens it: its origin from a menu, else its uid. */
  opened: string;
  /** The page of a player's recent matches it was opened from: a Back button returns there. */
  place?: ListPlace;
  /** The whole scoreboard as text, privately, for the card's "Full scoreboard" button. */
  details?: boolean;
  /** Now, ms since the epoch: a match uid's start is read against it. */
  now: number;
}

/** The view of a match: a summary embed, the team embeds (or the card standing for them), the players' select and a Back button. */
export function scoreboardView(input: ScoreboardInput): View {
  const { fetched, heroes, heroOf, map, unknownId, score, origin, opened, place } = input;
  const m = fetched.data;
  const back = (place && listBackId(place)) ?? undefined;
  const heroById = new Map(heroes.map((h) => [h.id, h]));
  const teams = scoreboard(m, score);
  const mvp = m.players.find((p) => p.player_uid === m.mvp_uid);
  const svp = m.players.find((p) => p.player_uid === m.svp_uid);
  const mode = modeName(m.game_mode_name) ?? gameModeName(m.game_mode_id ?? origin.modeId) ?? tr('match:mode');
  // The match's own facts first, so a match reads the same however it was opened; the history row fills gaps.
  const length = matchLength(m) ?? origin.duration;
  // The start, as every view of a match dates it (src/game/match-uid.ts rowStart); the row's end only to work it out.
  const time = matchUidStart(m.match_uid, input.now) ?? rowStart({ match_uid: m.match_uid, time: origin.time, duration: origin.duration });
  const mapText = map ? map.name : (m.map_name ?? null);
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
  const select = playerSelect(m, teams, heroOf, opened, place);
  const shown = teams.slice(0, LIMITS.embeds - 1);
  const titles = shown.map((team, i) => teamTitle(team, i));
  // The summary and the team titles are whole; the players' lines share what is left of the message's characters.
  const budget = LIMITS.embedTotal - embedLength(summary) - titles.reduce((sum, t) => sum + t.length, 0);
  const descriptions = teamDescriptions(shown, m, heroOf, budget);
  const teamEmbeds = shown.map((team, i) => teamEmbed(team, titles[i]!, descriptions[i]!));
  if (input.details) return { embeds: [summary, ...teamEmbeds], components: select ? [select] : [], ephemeral: true };
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
  const details = detailsId(opened, m.match_uid);
  const buttons: APIButtonComponentWithCustomId[] = [
    ...(back ? backRow(back).components : []),
    { type: ComponentType.Button, style: ButtonStyle.Secondary, label: tr('match:fullScoreboard'), custom_id: details },
  ];
  const components = [...(select ? [select] : []), { type: ComponentType.ActionRow as const, components: buttons }];
  return withChart({ embeds: [summary], components }, { ...card, text: { embeds: teamEmbeds, components: [details] } });
}

/**
 * A match without its scoreboard, from the history row that listed it: result, hero, K/D/A, map, mode, rank change,
 * length and time; from the menu value alone (map, mode, length, time) when the row cannot be read either. `reason`
 * says why the scoreboard is missing, in a member's words.
 * @param found.map the map the list knows; undefined when the list lacks the map's id; null when it cannot be read (no map named).
 * @param found.heroText the row's hero as named from the hero list or the API; null to name it by id.
 */
export function rowScoreboardView(known: Known, reason: NoScoreboard, found: { map: ShownMap | null | undefined; heroText: string | null }): View {
  const listed = 'row' in known ? known : null;
  const row = listed?.row ?? null;
  const origin = 'origin' in known ? known.origin : null;
  const mapId = row ? row.map_id : (origin?.mapId ?? null);
  const map = found.map;
  const gameMode = row ? row.game_mode_id : (origin?.modeId ?? null);
  const modeText = gameModeName(gameMode, row?.play_mode_id ?? null);
  const seconds = row ? row.duration : (origin?.duration ?? null);
  // The start, as the scoreboard dates a match (src/game/match-uid.ts rowStart); a menu value carries the row's end.
  const time = row ? rowStart(row) : origin ? rowStart({ match_uid: origin.matchUid, time: origin.time, duration: origin.duration }) : null;
  const facts = [
    map
      ? tr('match:facts.map', { map: escapeText(map.name, 80) })
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
  const heroText = found.heroText ?? (row.player.hero_id ? tr('match:heroId', { id: row.player.hero_id }) : tr('match:noHero'));
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
