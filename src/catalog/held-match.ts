/**
 * What the bot already holds of a match, at no request's cost: a match typed by id has only its uid, and the API's match
 * detail names no map and no rounds (docs/data.md), so its map, its rounds, or without a scoreboard its history row, come from
 * what was read before.
 */
import type { RivalsApi } from '../api/client.js';
import type { MatchSummary, PlayerProfile } from '../api/schemas.js';
import type { RoundScore } from '../game/scoreboard.js';
import { settleWithin } from '../core/deadline.js';
import type { Logger } from '../core/logger.js';
import type { AccountLinksRepository } from '../store/account-links.js';
import type { RecentLookups } from '../store/recent-lookups.js';
import type { TrackingRepository } from '../store/tracking.js';

/** Longest the look takes, ms: cache and store reads, well inside an interaction's budget; past it, nothing is held. */
export const HELD_READ_MS = 1_000;
/** Most players whose held answers are looked through: a match's two teams and their replacements, and a member's recent lookups. */
const MOST_PLAYERS = 24;

export interface HeldMatch {
  /** The map id a history row of the match gives; null when none held does. */
  mapId: string | null;
  /** Rounds of camp 0 and camp 1 a history row of the match gives (`score_info`; the match detail has none); null when none held does. */
  score: RoundScore | null;
  /** A history row of the match with the profile it comes from, when the cache holds both. */
  listed: { profile: PlayerProfile; row: MatchSummary } | null;
}

const NOTHING: HeldMatch = { mapId: null, score: null, listed: null };

/**
 * Match `matchUid` as the bot holds it: the tracker's records of it (one store read by its uid), then what the response cache
 * holds (at any age: a played match never changes) of who may have played it: `who.players` (the match's players when its
 * scoreboard is known), the default linked account of member `who.userId`, the tracked players who played it, then the players
 * the member looked up last; each one's profile rows, then their first history pages. Never asks the API, never throws; within
 * {@link HELD_READ_MS}.
 */
export async function heldMatch(
  matchUid: string,
  who: { players?: readonly string[]; userId?: string },
  ctx: {
    api: Pick<RivalsApi, 'held'>;
    links: Pick<AccountLinksRepository, 'defaultUid'>;
    recent: Pick<RecentLookups, 'list'>;
    tracking?: Pick<TrackingRepository, 'recordsOfMatch'>;
    logger: Logger;
  },
): Promise<HeldMatch> {
  const look = async (): Promise<HeldMatch> => {
    const [records, own, looked] = await Promise.all([
      ctx.tracking?.recordsOfMatch(matchUid) ?? [],
      who.userId ? ctx.links.defaultUid(who.userId) : null,
      who.userId ? ctx.recent.list(who.userId) : [],
    ]);
    const uids = [...new Set([...(who.players ?? []), ...(own ? [own] : []), ...records.map((r) => r.uid), ...looked.map((p) => p.uid)])].slice(
      0,
      MOST_PLAYERS,
    );
    const held = await Promise.all(uids.map((uid) => ctx.api.held(uid).catch(() => ({ profile: null, histories: [] }))));
    let listed: HeldMatch['listed'] = null;
    let mapId: string | null = null;
    let score: RoundScore | null = null;
    for (const { profile, histories } of held) {
      const rows = [...(profile?.recent_matches ?? []), ...histories.flatMap((h) => h.matches)].filter((r) => r.match_uid === matchUid);
      mapId ??= rows.find((r) => r.map_id !== null)?.map_id ?? null;
      score ??= rows.find((r) => r.score)?.score ?? null;
      const row = rows[0];
      if (!listed && profile && row) listed = { profile, row: { ...row, map_id: row.map_id ?? mapId } };
    }
    return { mapId: mapId ?? records.find((r) => r.mapId)?.mapId ?? null, score, listed };
  };
  return settleWithin(
    look().catch((err: unknown) => {
      ctx.logger.info({ err, matchUid }, 'what the bot holds of a match could not be read');
      return NOTHING;
    }),
    HELD_READ_MS,
    () => NOTHING,
  );
}
