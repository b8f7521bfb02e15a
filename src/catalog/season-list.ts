/**
 * The game's seasons as the API lists them (`GET /api/v1/seasons`, docs/data.md "The API's other reads"), over the bot's
 * own numbering (src/game/seasons.ts), which stays the fallback: a season the listing gives appears in answers without a
 * code change, and a season a profile has but the listing lacks still works.
 */
import type { RivalsApi } from '../api/client.js';
import type { Logger } from '../core/logger.js';
import { seasonFromNumber, type Season } from '../game/seasons.js';
import { tr } from '../i18n/index.js';

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
