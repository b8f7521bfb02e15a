/**
 * The game's seasons as the API lists them (`GET /api/v1/seasons`, docs/data.md "The API's other reads"), over the bot's
 * own numbering (src/game/seasons.ts), which stays the fallback: a season the listing gives appears in answers without a
 * code change, and a season a profile has but the listing lacks still works.
 */
import type { Fetched, RivalsApi } from '../api/client.js';
import type { Platform } from '../api/endpoints.js';
import { ApiError } from '../core/api-errors.js';
import { SeasonError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { seasonFromNumber, seasonFromRankGame, type Season } from '../game/seasons.js';
import { tr } from '../i18n/index.js';
import { escapeText } from '../render/limits.js';

/** A listed season; dates epoch ms where the API gives them. */
export interface ListedSeason {
  season: Season;
  /** The API's own name for it ("Hellfire Gala"), when it gives one. */
  name: string | null;
  startsAt: number | null;
  endsAt: number | null;
}

/**
 * The listing, oldest first, each season once; [] when the API does not answer it (logged) or lists nothing a season can
 * be. Never rejects. One read a day at most (its cache TTL).
 */
export async function listedSeasons(ctx: { api: RivalsApi; logger?: Logger }): Promise<ListedSeason[]> {
  try {
    const { data } = await ctx.api.seasons();
    const byIndex = new Map<number, ListedSeason>();
    for (const s of data.seasons) {
      const season = seasonFromNumber(s.number);
      if (season && !byIndex.has(season.index)) byIndex.set(season.index, { season, name: s.name, startsAt: s.starts_at, endsAt: s.ends_at });
    }
    return [...byIndex.values()].sort((a, b) => a.season.index - b.season.index);
  } catch (err) {
    ctx.logger?.info({ err }, 'no season listing: seasons come from profiles and the bot’s own numbering');
    return [];
  }
}

/**
 * The season being played by the listing: the one whose dates hold `now`, else the newest that has started (or the newest
 * listed, without dates); null for an empty listing.
 */
export function currentListedSeason(listed: readonly ListedSeason[], now: number): ListedSeason | null {
  const dated = listed.find((s) => s.startsAt !== null && s.startsAt <= now && (s.endsAt === null || now < s.endsAt));
  if (dated) return dated;
  const started = listed.filter((s) => s.startsAt === null || s.startsAt <= now);
  return started.at(-1) ?? listed.at(-1) ?? null;
}

/** "Season 3", or "Season 3 · Hellfire Gala" when the listing names it; in the member's language. */
export function listedSeasonLabel(season: Season, listed: readonly ListedSeason[]): string {
  const name = listed.find((s) => s.season.index === season.index)?.name;
  const label = tr('player:season', { number: season.number });
  return name && name.trim() !== '' && name.trim() !== label ? `${label} · ${name.trim()}` : label;
}

/**
 * A read of `season` the API may not keep (an undocumented `season` parameter): `asked` reads it, `current` the same without
 * it. A season refused as a bad request (400) gives the current season's answer, `refused` true. Null `season`: `current`.
 * @throws what the reads throw otherwise.
 */
export async function readSeason<T>(
  season: Season | null,
  asked: () => Promise<Fetched<T>>,
  current: () => Promise<Fetched<T>>,
): Promise<{ fetched: Fetched<T>; refused: boolean }> {
  if (!season) return { fetched: await current(), refused: false };
  try {
    return { fetched: await asked(), refused: false };
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'bad_request') return { fetched: await current(), refused: true };
    throw err;
  }
}

/**
 * The season a hero leaderboard's entries are ranked in: the `rank_season.rank_game_id` most of them give (the rank game
 * id is the season's index + 1, src/game/seasons.ts); null when none gives one.
 */
export function leaderboardSeason(entries: readonly { rank: { rank_game_id: number | null } | null }[]): Season | null {
  const counts = new Map<number, number>();
  for (const e of entries) if (e.rank?.rank_game_id != null) counts.set(e.rank.rank_game_id, (counts.get(e.rank.rank_game_id) ?? 0) + 1);
  const [id] = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0] ?? [];
  return id === undefined ? null : seasonFromRankGame(id);
}

/**
 * What to say of the season an answer covers when `asked` was asked: nothing when it is the one answered; that the API
 * answered with another (`answered`, when the answer says), or kept none (`refused`), or does not say which. Null when
 * nothing was asked or all is well.
 */
export function seasonNote(asked: Season | null, answered: Season | null, refused: boolean, listed: readonly ListedSeason[]): string | null {
  if (!asked) return null;
  // A listed name is the API's text, shown in a description: escaped.
  const label = escapeText(listedSeasonLabel(asked, listed), 100);
  if (refused) return tr('leaderboard:season.refused', { asked: label });
  if (!answered) return tr('leaderboard:season.unchecked', { asked: label });
  return answered.index === asked.index ? null : tr('leaderboard:season.other', { asked: label, season: escapeText(listedSeasonLabel(answered, listed), 100) });
}

/**
 * `season` when the API's listing has it, or when there is no listing to say. @throws {SeasonError} for a season the
 * listing does not have: the listing is what the API answers for.
 */
export function listedOrThrow(season: Season | null, listed: readonly ListedSeason[]): Season | null {
  if (season && listed.length > 0 && !listed.some((l) => l.season.index === season.index)) throw new SeasonError(season.number, listed.at(-1)!.season.number);
  return season;
}

/**
 * A hero's leaderboard (spec endpoint 5) on `platform`, of `season` when asked, checked against the listing and the
 * entries: the answer, the listing, the season the entries are ranked in, and what to say of the season (null when all is
 * well). @throws {SeasonError} for a season the listing lacks; {@link ApiError} as the read.
 */
export async function readHeroLeaderboard(heroId: string, platform: Platform, season: Season | null, ctx: { api: RivalsApi; logger?: Logger }) {
  const listed = await listedSeasons(ctx);
  listedOrThrow(season, listed);
  const { fetched, refused } = await readSeason(
    season,
    () => ctx.api.heroLeaderboard(heroId, { platform, season: season?.number }),
    () => ctx.api.heroLeaderboard(heroId, { platform }),
  );
  const answered = leaderboardSeason(fetched.data.players);
  return { fetched, listed, answered, note: seasonNote(season, answered, refused, listed) };
}
