/** Player loaders shared by commands: a profile for a season (api-spec.md endpoint 17), and the players a member may mean. */
import Fuse from 'fuse.js';
import type { Fetched, RivalsApi } from '../api/client.js';
import type { PlayerProfile } from '../api/schemas.js';
import { ApiError } from '../core/api-errors.js';
import { NotFoundError, NotLinkedError, PrivateProfileError, SeasonError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { currentSeason } from '../game/profile.js';
import { seasonFromNumber, seasonParamFor, type Season } from '../game/seasons.js';
import { tr } from '../i18n/index.js';
import { LIMITS, truncate } from '../render/limits.js';
import type { AccountLinksRepository } from '../store/account-links.js';
import type { RecentLookups } from '../store/recent-lookups.js';

export interface ProfileSource {
  api: RivalsApi;
  logger: Logger;
}

export interface MemberPlayers {
  links: AccountLinksRepository;
  recent: RecentLookups;
}

/** The season of a `season` option or argument; null (current) for "" or absent. @throws {SeasonError} for a number no season has. */
export function seasonOption(value: unknown): Season | null {
  if (value === undefined || value === null || value === '') return null;
  const season = seasonFromNumber(typeof value === 'number' ? value : String(value));
  if (!season) throw new SeasonError(String(value));
  return season;
}

export interface LoadedProfile {
  fetched: Fetched<PlayerProfile>;
  /** False when the API gave the current season's totals for a past season asked. */
  seasonTotals: boolean;
}

/** What tells two answers of one profile apart: its totals and hero lists. */
const totalsOf = (p: PlayerProfile) => JSON.stringify([p.overall.ranked, p.overall.unranked, p.heroes_ranked.length, p.heroes_unranked.length, p.maps.length]);

/**
 * The profile, for `season` if asked. The API may not keep a past season (a 400, or the current season's answer): the
 * current season is then shown and said to be so. @throws {PrivateProfileError}; {@link ApiError} when it cannot be had.
 */
export async function loadProfile(query: string, season: Season | null, ctx: ProfileSource): Promise<LoadedProfile> {
  const checkPrivate = (fetched: Fetched<PlayerProfile>) => {
    if (fetched.data.is_private) throw new PrivateProfileError(fetched.data.name);
    return fetched;
  };
  if (!season) return { fetched: checkPrivate(await ctx.api.player(query)), seasonTotals: true };
  const [asked, current] = await Promise.allSettled([ctx.api.player(query, { season: seasonParamFor(season, 'player') }), ctx.api.player(query)]);
  if (asked.status === 'rejected') {
    const refused = asked.reason instanceof ApiError && (asked.reason.kind === 'bad_request' || asked.reason.kind === 'bad_response');
    if (!refused || current.status === 'rejected') throw asked.reason;
    ctx.logger.info({ season: season.number, err: asked.reason }, 'the API refused a season; showing the current season');
    return { fetched: checkPrivate(current.value), seasonTotals: false };
  }
  const fetched = checkPrivate(asked.value);
  const now = currentSeason(fetched.data);
  const same = current.status === 'fulfilled' && totalsOf(current.value.data) === totalsOf(fetched.data) && now?.index !== season.index;
  return { fetched, seasonTotals: !same };
}

/**
 * The profile a member means: `typed` (a name or UID) when not empty, else the default linked account of the member
 * `whose` (a Discord user ID), for `season`. `userId` is the member asking; `command` the command asking, when a missing
 * link should name it rather than /player.
 * @throws {NotLinkedError} when nothing is typed and `whose` has no linked account; {@link NotFoundError} when the API has
 * no such player, with the players the member may have meant for a typed name; {@link loadProfile}'s errors otherwise.
 */
export async function loadNamedProfile(
  typed: string,
  whose: string,
  season: Season | null,
  userId: string,
  ctx: ProfileSource & MemberPlayers,
  command?: NotLinkedError['command'],
): Promise<LoadedProfile> {
  const query = typed.trim() || (await ctx.links.defaultUid(whose));
  if (!query) throw new NotLinkedError(whose, whose === userId, command);
  try {
    return await loadProfile(query, season, ctx);
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') {
      if (!typed.trim()) throw new NotFoundError('player', query, true);
      throw new NotFoundError('player', query, false, await namesForMiss(userId, query, ctx));
    }
    throw err;
  }
}

/** Why a member may mean a player: their default or another linked account, a recent lookup, or a player the bot has seen. */
type PlayerNote = 'default' | 'linked' | 'recent' | 'seen';

/**
 * The players a member may mean, each once by uid, theirs first: their linked accounts, their recent lookups, then the players
 * the bot has seen (of matches they or others opened, others' lookups, leaderboards, every member's linked accounts: the ladders'
 * and the tracker's players are among those). No API request; a part that cannot be read in time is left out; never rejects.
 */
async function playersKnownTo(userId: string, ctx: MemberPlayers): Promise<{ uid: string; name: string; note: PlayerNote }[]> {
  const [links, recent, seen, linked] = await Promise.all([
    ctx.links.get(userId).catch(() => ({ accounts: [], defaultUid: null })),
    ctx.recent.list(userId).catch(() => []),
    ctx.recent.seen(userId).catch(() => []),
    ctx.links.knownAccounts().catch(() => []),
  ]);
  const out = new Map<string, { uid: string; name: string; note: PlayerNote }>();
  const add = (players: readonly { uid: string; name: string }[], note: (uid: string) => PlayerNote) => {
    for (const p of players) if (p.name && !out.has(p.uid)) out.set(p.uid, { uid: p.uid, name: p.name, note: note(p.uid) });
  };
  add(links.accounts, (uid) => (uid === links.defaultUid ? 'default' : 'linked'));
  add(recent, () => 'recent');
  add(seen, () => 'seen');
  add(ctx.recent.known(), () => 'seen');
  add(linked, () => 'seen');
  return [...out.values()];
}

/**
 * Up to 3 names a member may have meant by `typed`, closest first (fuse.js), from every player the bot has seen
 * ({@link playersKnownTo}); no API request, never rejects.
 */
export async function playerSuggestions(userId: string, typed: string, ctx: MemberPlayers): Promise<string[]> {
  const lower = typed.toLowerCase();
  const names = [...new Set((await playersKnownTo(userId, ctx)).map((p) => p.name).filter((n) => n.toLowerCase() !== lower))];
  if (names.length === 0) return [];
  const fuse = new Fuse(names, { includeScore: true, threshold: 0.45, ignoreLocation: true });
  return fuse.search(typed, { limit: 3 }).map((r) => r.item);
}

/**
 * The player the API's search finds by `name` (`GET /api/v1/find-player/{name}`, docs/data.md "The API's other reads"): its
 * uid and name, or null when it finds nobody, cannot answer (logged) or `name` is a UID. One request at most, cached an hour.
 */
export async function searchPlayer(name: string, ctx: ProfileSource): Promise<{ uid: string; name: string } | null> {
  const typed = name.trim();
  if (typed === '' || /^\d+$/.test(typed)) return null;
  try {
    const { data } = await ctx.api.findPlayer(typed);
    return data.uid ? { uid: data.uid, name: data.name ?? typed } : null;
  } catch (err) {
    if (!(err instanceof ApiError && err.kind === 'not_found')) ctx.logger.info({ err }, 'player search unavailable');
    return null;
  }
}

/**
 * What to offer for a typed name that finds no profile: the names the bot knows ({@link playerSuggestions}, no request);
 * only when none is close, the API's search's answer (one request): its name when it is another, else its UID, which the
 * profile read by name missed. Never rejects.
 */
export async function namesForMiss(userId: string, typed: string, ctx: ProfileSource & MemberPlayers): Promise<string[]> {
  const known = await playerSuggestions(userId, typed, ctx);
  if (known.length > 0) return known;
  const found = await searchPlayer(typed, ctx);
  if (!found) return [];
  return [found.name.toLowerCase() === typed.trim().toLowerCase() ? found.uid : found.name];
}

/**
 * Autocomplete of a player query: the member's linked accounts and recent lookups, then the players the bot has seen (so a
 * member who has looked nobody up yet is offered some), whose name or UID contains what is typed; names starting with it
 * first among the players seen. At most {@link LIMITS.autocompleteChoices}; the value is the UID.
 */
export async function playerChoices(userId: string, typed: string, ctx: MemberPlayers) {
  const typedLower = typed.trim().toLowerCase();
  const matching = (await playersKnownTo(userId, ctx)).filter(
    (p) => typedLower === '' || p.name.toLowerCase().includes(typedLower) || p.uid.includes(typedLower),
  );
  const starts = (p: { name: string }) => (typedLower !== '' && p.name.toLowerCase().startsWith(typedLower) ? 0 : 1);
  const own = matching.filter((p) => p.note !== 'seen');
  const others = matching.filter((p) => p.note === 'seen').sort((a, b) => starts(a) - starts(b));
  return [...own, ...others].slice(0, LIMITS.autocompleteChoices).map((p) => ({
    name: truncate(`${p.name} · ${tr(`player:autocomplete.${p.note}`)}`, LIMITS.choiceName),
    value: p.uid,
  }));
}
