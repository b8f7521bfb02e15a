/**
 * Offline, the playground's ladder holds a real duo: the recorded match details (the replica's samples) show a captured
 * player with the same teammates again and again, so those teammates join the ladder as members of their own, with the
 * matches the details show them in, and `/ladder duos` lists them with the record the details give. The details are kept
 * in the match store, as the tracker would have read them.
 */
import { createImageResolver } from '../api/images.js';
import { createSchemas, type MatchDetail } from '../api/schemas.js';
import type { Logger } from '../core/logger.js';
import { readForTracking, type RecordedMatch } from '../game/tracking.js';
import type { Dataset } from '../replica/data/dataset.js';
import type { State } from '../store/state.js';
import { FREE_PLAYER, type LadderSeat } from './seed-ladder.js';

/** The captured players' most frequent teammates who join the ladder. */
const PARTNERS = 2;

function detailsOf(dataset: Pick<Dataset, 'matches'>, imageBaseUrl: string): MatchDetail[] {
  const schemas = createSchemas(createImageResolver(imageBaseUrl));
  return [...dataset.matches.values()].map((m) => schemas.match.parse(m)).sort((a, b) => a.match_uid.localeCompare(b.match_uid));
}

/**
 * Seats for the {@link PARTNERS} players who shared a team with a seated player most often in the recorded details (ties by
 * uid), seated after `seats`; none without details.
 */
export function duoSeats(dataset: Pick<Dataset, 'matches'>, seats: readonly LadderSeat[], imageBaseUrl: string): LadderSeat[] {
  const seated = new Set([...seats.map((s) => s.uid), FREE_PLAYER]);
  const together = new Map<string, { n: number; name: string }>();
  for (const d of detailsOf(dataset, imageBaseUrl)) {
    for (const member of d.players.filter((p) => seated.has(p.player_uid))) {
      for (const p of d.players) {
        if (seated.has(p.player_uid) || p.camp !== member.camp) continue;
        const t = together.get(p.player_uid) ?? { n: 0, name: p.nick_name ?? p.player_uid };
        t.n++;
        together.set(p.player_uid, t);
      }
    }
  }
  const last = seats.length > 0 ? BigInt(seats.at(-1)!.userId) : 100_000_000_000_000_099n;
  return [...together]
    .sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    .slice(0, PARTNERS)
    .map(([uid, t], i) => ({ userId: String(last + 1n + BigInt(i)), uid, name: t.name }));
}

/**
 * Stores the recorded details, records the seated players' captures that the details name, and puts each of `partners` on
 * `guildId`'s ladder with a proved link and the matches the details show them in (time, season and mode from the seated
 * player's row of the same match). Does nothing once the first partner is on the ladder (a playground restarted).
 * @returns how many partners were seated.
 */
export async function seedDuos(
  state: State,
  dataset: Pick<Dataset, 'matches' | 'profileCaptures'>,
  partners: readonly LadderSeat[],
  imageBaseUrl: string,
  guildId: string,
  logger: Logger,
): Promise<number> {
  if (partners.length === 0 || (await state.ladder.membership(guildId, partners[0]!.userId))) return 0;
  const schemas = createSchemas(createImageResolver(imageBaseUrl));
  const details = detailsOf(dataset, imageBaseUrl);
  const now = Date.now();
  for (const d of details) await state.matches.put(d, now);
  // The rows of each match as a seated player's capture recorded it: when it was played, its season and mode.
  const rows = new Map<string, RecordedMatch>();
  const named = new Set(details.flatMap((d) => d.players.map((p) => p.player_uid)));
  for (const c of dataset.profileCaptures) {
    if (!named.has(c.uid)) continue;
    const read = readForTracking(schemas.player.parse(c.body));
    if (read.kind !== 'read') continue;
    for (const m of read.matches) rows.set(m.matchUid, m);
    await record(state, c.uid, read.matches, now);
  }
  for (const seat of partners) {
    await state.links.link(seat.userId, { uid: seat.uid, name: seat.name }, true, now);
    await state.database.db.updateTable('account_links').set({ verified_at: now }).where('user_id', '=', seat.userId).where('uid', '=', seat.uid).execute();
    await state.tracking.follow(seat.uid, now);
    await state.ladder.join(guildId, seat.userId, now);
    const played = details.flatMap((d): RecordedMatch[] => {
      const p = d.players.find((x) => x.player_uid === seat.uid);
      const row = rows.get(d.match_uid);
      if (!p || !row) return [];
      return [
        {
          ...row,
          heroId: p.cur_hero_id,
          won: p.result === 'win' ? true : p.result === 'loss' ? false : null,
          drawn: p.result === 'draw',
          newScore: null,
          scoreChange: null,
          newLevel: null,
          kills: p.kills,
          deaths: p.deaths,
          assists: p.assists,
          mvp: d.mvp_uid === seat.uid,
        },
      ];
    });
    await record(state, seat.uid, played, now);
  }
  logger.info({ partners: partners.map((p) => p.name) }, "the playground's ladder starts with the teammates the recorded matches show");
  return partners.length;
}

/** Records `matches` for tracked player `uid` as one tracking read would. */
async function record(state: State, uid: string, matches: readonly RecordedMatch[], now: number): Promise<void> {
  await state.tracking.follow(uid, now);
  const claimed = await state.tracking.claim(now, 1_000, 60_000);
  for (const claim of claimed) {
    if (claim.uid === uid) await state.tracking.recordRead(claim, { snapshot: null, matches, lastMatchAt: null, changed: false }, { intervalMs: 1 }, now);
    // The others are the tracker's to read, at once.
    else await state.tracking.release(claim, 0, now);
  }
}
