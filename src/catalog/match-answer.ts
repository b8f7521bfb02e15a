/**
 * What `/match`, `/last` and a player's recent-matches menu answer: the match read (api-spec.md endpoint 20: a match never
 * changes, so it is cached for good), the hero and map lists beside it, and what the bot already holds of it; then drawn
 * by src/render/scoreboard.ts. A match the API keeps no scoreboard of is told from what its history row knows.
 */
import type { RivalsApi } from '../api/client.js';
import type { Hero, MatchDetail, MatchSummary, PlayerProfile } from '../api/schemas.js';
import { ApiError } from '../core/api-errors.js';
import { NotFoundError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { RoundScore } from '../game/scoreboard.js';
import { matchUidMapId } from '../game/match-uid.js';
import { heroName } from '../i18n/names.js';
import { decodeMatchOrigin, encodeMatchOrigin, type ListPlace, type MatchOrigin } from '../render/match-origin.js';
import { rowScoreboardView, scoreboardView, type Known, type NoScoreboard, type ShownMap } from '../render/scoreboard.js';
import type { View } from '../render/view.js';
import type { AccountLinksRepository } from '../store/account-links.js';
import type { RecentLookups } from '../store/recent-lookups.js';
import type { TrackingRepository } from '../store/tracking.js';
import { heldMatch } from './held-match.js';
import { readMatch, type MatchReadContext } from './match-read.js';
import { heroNamer, type HeroDirectory } from './hero-directory.js';
import { heroLookup } from '../render/hero-lookup.js';
import { recentMatches, type HistoryRow } from './history.js';
import { type MapDirectory } from './map-directory.js';
import { mapPlainName, type MapInfo } from '../render/map-names.js';
import { loadProfile, seasonOption } from './players.js';

/** The part of a command's context a match's answer reads (src/discord/command.ts CommandContext). */
export interface MatchAnswerContext {
  api: RivalsApi;
  heroes: Pick<HeroDirectory, 'list'>;
  maps: Pick<MapDirectory, 'get'>;
  links: Pick<AccountLinksRepository, 'defaultUid'>;
  recent: Pick<RecentLookups, 'addSeen' | 'list'>;
  tracking?: Pick<TrackingRepository, 'recordsOfMatch'>;
  matches?: MatchReadContext['matches'];
  logger: Logger;
  now: () => number;
}

/** A map as a scoreboard names it. */
const shownMap = (map: MapInfo | undefined): ShownMap | undefined => map && { name: mapPlainName(map), image: map.image };

/** The newest row of the player's match history (v2, then v1, then the profile's own matches); undefined for none. */
export async function newestRow(p: PlayerProfile, ctx: Pick<MatchAnswerContext, 'api' | 'logger'>): Promise<HistoryRow | undefined> {
  const history = await recentMatches(ctx.api, p, { page: 1, logger: ctx.logger });
  return [...history.rows].sort((a, b) => (b.time ?? 0) - (a.time ?? 0))[0];
}

/** The map list's entry of map `id`; undefined for no id, an id the list lacks, or a list that cannot be read now. */
async function mapOfId(id: string | null, ctx: MatchAnswerContext): Promise<MapInfo | undefined> {
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
  ctx: MatchAnswerContext,
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
  ctx: MatchAnswerContext,
  fromMenu = false,
  options: { place?: ListPlace; seenBy?: string; details?: boolean } = {},
): Promise<View> {
  const { place, seenBy } = options;
  // Only a menu's value carries an origin: typed text is a match uid, never parsed for a map, mode or time to show.
  const origin: MatchOrigin = fromMenu ? decodeMatchOrigin(value) : { matchUid: value, mapId: null, modeId: null, duration: null, time: null };
  const matchRead = readMatch(origin.matchUid, ctx);
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
  return scoreboardView({
    fetched,
    heroes,
    heroOf: heroNamer(heroes),
    map: shownMap(map),
    unknownId,
    score,
    origin,
    opened: fromMenu ? encodeMatchOrigin(origin) : m.match_uid,
    place,
    details: options.details,
    now: ctx.now(),
  });
}

/**
 * Why the scoreboard read failed, as a member is told it; null for a failure that is not the API's (a bug, a bad argument).
 * An empty body or unusable JSON is how the API answers for a match it keeps no scoreboard of, as a 404 is; text that is
 * no JSON is a fault of the moment.
 */
export function noScoreboard(err: unknown): NoScoreboard | null {
  if (err instanceof NotFoundError) return 'missing';
  if (!(err instanceof ApiError)) return null;
  const unusable = err.kind === 'bad_response' && err.wellFormed;
  return err.kind === 'not_found' || unusable || err.kind === 'bad_request' ? 'missing' : 'unavailable';
}

/**
 * A match without its scoreboard, from the history row that listed it: result, hero, K/D/A, map, mode, rank change,
 * length and time; from the menu value alone (map, mode, length, time) when the row cannot be read either. `reason`
 * says why the scoreboard is missing, in a member's words.
 */
export async function rowView(known: Known, reason: NoScoreboard, ctx: MatchAnswerContext): Promise<View> {
  const listed = 'row' in known ? known : null;
  const row = listed?.row ?? null;
  const origin = 'origin' in known ? known.origin : null;
  const mapId = row ? row.map_id : (origin?.mapId ?? null);
  const [heroes, map] = await Promise.all([
    row ? ctx.heroes.list().catch((): Hero[] => []) : Promise.resolve([]),
    // A map list that cannot be read names no map, rather than calling the map unknown to it.
    mapId ? ctx.maps.get(mapId).catch(() => null) : Promise.resolve(undefined),
  ]);
  const heroText = listed && row ? (heroLookup(heroes, [listed.profile])(row.player.hero_id)?.name ?? heroName(row.player.hero_name) ?? null) : null;
  return rowScoreboardView(known, reason, { map: map ? shownMap(map) : map, heroText });
}

/**
 * The history row of `matchUid` that the recent matches' page `place` listed, with whose it is: read again as the list read
 * it (from the cache, as a rule), on that page or the next (rows move down as new matches come), else in the profile's own
 * matches. Null when it is nowhere or cannot be read now.
 */
export async function listedRow(matchUid: string, place: ListPlace, ctx: MatchAnswerContext): Promise<{ profile: PlayerProfile; row: MatchSummary } | null> {
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
