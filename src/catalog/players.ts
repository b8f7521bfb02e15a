/**
 * The loaders of a player that several commands share: a profile for a season, and the players a
 * member may mean (their linked accounts, recent lookups and the players of matches they opened).
 * Data: api-spec.md endpoint 17 (player profile), and the store's links and recent lookups.
 */
import Fuse from 'fuse.js';
import type { Fetched, RivalsApi } from '../api/client.js';
import type { PlayerProfile } from '../api/schemas.js';
import { ApiError } from '../core/api-errors.js';
import { PrivateProfileError, SeasonError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { currentSeason } from '../game/profile.js';
import { seasonFromNumber, seasonParamFor, type Season } from '../game/seasons.js';
import { tr } from '../i18n/index.js';
import { LIMITS, truncate } from '../render/limits.js';
import type { AccountLinksRepository } from '../store/account-links.js';
import type { RecentLookups } from '../store/recent-lookups.js';

/** What loading a profile needs: the API client and a logger (a command's context has both). */
export interface ProfileSource {
  api: RivalsApi;
  logger: Logger;
}

/** What naming a member's players needs: their links and recent lookups (a command's context has both). */
export interface MemberPlayers {
  links: AccountLinksRepository;
  recent: RecentLookups;
}

/**
 * The season of the `season` option or custom-ID argument: "" or absent for the current season.
 * @throws {SeasonError} for a number no season has (0.5, 1.25).
 */
export function seasonOption(value: unknown): Season | null {
  if (value === undefined || value === null || value === '') return null;
  const season = seasonFromNumber(typeof value === 'number' ? value : String(value));
  if (!season) throw new SeasonError(String(value));
  return season;
}

/** A loaded profile, and whether its totals are those of the season asked for. */
export interface LoadedProfile {
  fetched: Fetched<PlayerProfile>;
  /** True without a season; false when the API gave the current season's totals for a season asked. */
  seasonTotals: boolean;
}

/** What tells two answers of one profile apart: its totals and hero lists. */
const totalsOf = (p: PlayerProfile) => JSON.stringify([p.overall.ranked, p.overall.unranked, p.heroes_ranked.length, p.heroes_unranked.length, p.maps.length]);

/**
 * The profile, for `season` when one is asked. The API may not keep a past season (it refuses the
 * season with a 400, or answers exactly as it does for the current season): the current season's
 * profile is then used and said to be so, rather than labelled with the season asked.
 * @throws {PrivateProfileError} for a private profile; {@link ApiError} when the profile cannot be had.
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
 * Names a member may have meant by a player query that matched nobody: their linked accounts, recent
 * lookups and the players of matches they opened, closest first, at most 3. Costs no API request; never
 * rejects (a store that does not answer gives no suggestion).
 */
export async function playerSuggestions(userId: string, typed: string, ctx: MemberPlayers): Promise<string[]> {
  const [links, recent, seen] = await Promise.all([
    ctx.links.get(userId).catch(() => ({ accounts: [] })),
    ctx.recent.list(userId).catch(() => []),
    ctx.recent.seen(userId).catch(() => []),
  ]);
  const names = [
    ...new Set(
      [...links.accounts.map((a) => a.name), ...recent.map((r) => r.name), ...seen.map((r) => r.name)].filter(
        (n) => n && n.toLowerCase() !== typed.toLowerCase(),
      ),
    ),
  ];
  if (names.length === 0) return [];
  const fuse = new Fuse(names, { includeScore: true, threshold: 0.45, ignoreLocation: true });
  return fuse
    .search(typed)
    .slice(0, 3)
    .map((r) => r.item);
}

/** Autocomplete of a player query: the member's linked accounts, then their recent lookups, matching what is typed. */
export async function playerChoices(userId: string, typed: string, ctx: MemberPlayers) {
  const [links, recent] = await Promise.all([ctx.links.get(userId), ctx.recent.list(userId)]);
  const typedLower = typed.trim().toLowerCase();
  const seen = new Set<string>();
  const choices: { name: string; value: string }[] = [];
  const add = (uid: string, name: string, note: string) => {
    if (seen.has(uid) || (typedLower !== '' && !name.toLowerCase().includes(typedLower) && !uid.includes(typedLower))) return;
    seen.add(uid);
    choices.push({ name: truncate(`${name} · ${note}`, LIMITS.choiceName), value: uid });
  };
  for (const a of links.accounts) add(a.uid, a.name, tr(a.uid === links.defaultUid ? 'player:autocomplete.default' : 'player:autocomplete.linked'));
  for (const r of recent) add(r.uid, r.name, tr('player:autocomplete.recent'));
  return choices;
}
