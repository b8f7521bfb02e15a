/**
 * Offline, the playground's server runs a ladder of the captured sample players: each but one ({@link FREE_PLAYER}, left
 * for a playground member to link and prove) as a member with a proved link, standing as their latest capture shows until
 * the tracker reads them again. Its posts go to `#ladder`, with a weekly
 * recap on the day and at the time the playground first started. Each capture is replayed match by match, as the
 * tracker would have read the player, so the rank changes in the recorded matches and the seasons finished between
 * captures are posted as they happened.
 */
import { createImageResolver } from '../api/images.js';
import { createSchemas, type PlayerProfile } from '../api/schemas.js';
import type { Logger } from '../core/logger.js';
import { standingOf } from '../game/ladder.js';
import { rankSummary } from '../game/profile.js';
import { tierOf } from '../game/ranks.js';
import { readForTracking, trackedTimelinePoints } from '../game/tracking.js';
import type { ProfileCapture } from '../replica/data/dataset.js';
import type { State } from '../store/state.js';

/** The first seeded member's id; the others follow it. */
const FIRST_MEMBER = 100_000_000_000_000_100n;

/** Chob Bob: a captured player no seeded member links, so that a playground member can link, prove and list them. */
export const FREE_PLAYER = '341932470';

/** A seeded ladder member: their user id, the player they are listed by, and their name (the player's). */
export interface LadderSeat {
  userId: string;
  uid: string;
  name: string;
}

/** The seeded ladder's members, one per captured player but {@link FREE_PLAYER}, in the captures' order, named as their latest capture. */
export function ladderSeats(captures: readonly ProfileCapture[]): LadderSeat[] {
  const names = new Map<string, string>();
  for (const c of captures) {
    if (c.uid === FREE_PLAYER) continue;
    const player = c.body.player as { name?: unknown } | undefined;
    names.set(c.uid, String(c.body.name ?? player?.name ?? c.uid));
  }
  return [...names].map(([uid, name], n) => ({ userId: String(FIRST_MEMBER + BigInt(n)), uid, name }));
}

/**
 * Turns `guildId`'s ladder on and lists every captured player (their latest capture) as a member with a proved link.
 * Does nothing when the server's ladder was set before (a playground restarted).
 * @returns how many members were listed.
 */
export async function seedLadder(
  state: State,
  captures: readonly ProfileCapture[],
  imageBaseUrl: string,
  guildId: string,
  logger: Logger,
  momentsChannelId?: string,
): Promise<number> {
  if ((await state.database.db.selectFrom('ladder_settings').select('guild_id').where('guild_id', '=', guildId).executeTakeFirst()) !== undefined) return 0;
  const schemas = createSchemas(createImageResolver(imageBaseUrl));
  const byUid = new Map<string, { profile: PlayerProfile; at: number }[]>();
  for (const c of captures) {
    if (c.uid === FREE_PLAYER) continue;
    const profile = schemas.player.parse(c.body);
    const read = readForTracking(profile);
    const at = read.kind === 'read' && read.lastMatchAt !== null ? read.lastMatchAt * 1000 : 0;
    byUid.set(
      c.uid,
      [...(byUid.get(c.uid) ?? []), { profile, at }].sort((a, b) => a.at - b.at),
    );
  }
  const now = Date.now();
  // The weekly recap falls due the minute the playground starts (UTC), so that its first one shows at once.
  const at = new Date(now - 60_000);
  const recap = { recapDay: at.getUTCDay(), recapAt: at.getUTCHours() * 60 + at.getUTCMinutes() };
  await state.ladder.configure(guildId, { enabled: true, ...(momentsChannelId ? { momentsChannelId, ...recap } : {}) }, now);
  const seats = new Map(ladderSeats(captures).map((s) => [s.uid, s.userId]));
  let n = 0;
  for (const [uid, list] of byUid) {
    const userId = seats.get(uid)!;
    const latest = list.at(-1)!.profile;
    await state.links.link(userId, { uid, name: latest.name }, true, now);
    await state.database.db.updateTable('account_links').set({ verified_at: now }).where('user_id', '=', userId).where('uid', '=', uid).execute();
    await state.tracking.follow(uid, now);
    // Listed first, so that each capture read after is this server's news.
    await state.ladder.join(guildId, userId, now, { platform: (['pc', 'ps', 'xbox'] as const)[n % 3] });
    let replayedTo = 0;
    for (const { profile } of list) {
      const read = readForTracking(profile);
      if (read.kind === 'private') await state.ladder.setPrivate(uid, now);
      if (read.kind !== 'read') continue;
      // The capture's ranked matches of its season, each as the standing after it: what the tracker would have read
      // had it followed the player match by match, so the rank changes among them are posted as they happened.
      const season = read.snapshot.season;
      const ranked = read.matches.filter((m) => m.ranked && m.season === season && m.newScore !== null && m.time > replayedTo).sort((a, b) => a.time - b.time);
      let peak: number | null = null;
      let played = 0;
      for (const m of ranked) {
        peak = Math.max(peak ?? m.newScore!, m.newScore!);
        played++;
        const tier = tierOf(m.newLevel, m.newScore);
        await state.ladder.setStanding(uid, { season, tier, score: m.newScore, peak, matches: played, role: null, weekDelta: null, private: false }, now);
      }
      replayedTo = Math.max(replayedTo, read.lastMatchAt ?? 0);
      await state.ladder.setStanding(
        uid,
        standingOf(
          read.snapshot,
          { timeline: trackedTimelinePoints([], read.matches), matches: read.matches },
          { apiPeak: rankSummary(profile).seasonPeak?.score ?? null, role: null },
          read.lastMatchAt !== null ? read.lastMatchAt * 1000 : now,
        ),
        now,
      );
    }
    n++;
  }
  logger.info({ members: n }, "the playground's server starts with a ladder of the captured players");
  return n;
}
