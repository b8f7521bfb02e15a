/**
 * One server's ladder for the benchmarks that need a big one (scripts/bench-ladder.ts, scripts/bench-web.ts): `members`
 * verified linked members, each with one link, one proof, one standing and one ladder row, written in batches.
 */
import { LADDER_ROLES } from '../src/game/ladder.js';
import { rng } from '../src/replica/data/handwritten.js';
import type { State } from '../src/store/state.js';

/** Member `i`'s Discord user ID. */
export const benchUserId = (i: number) => String(500_000_000_000_000_000n + BigInt(i));

/**
 * Fills `state` with `guildId`'s ladder, its standings drawn from `seed`. `mixed`: as a real server, members on three
 * platforms, one in 50 opted out and one in 97 private (so not listed); otherwise every member listed, on PC.
 */
export async function fillLadder(state: State, o: { guildId: string; members: number; seed: number; mixed: boolean }): Promise<void> {
  const random = rng(o.seed);
  const db = state.database.db;
  const now = Date.now();
  await state.ladder.setEnabled(o.guildId, true, now);
  const BATCH = 2_000;
  for (let start = 0; start < o.members; start += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, o.members - start) }, (_, k) => start + k);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('account_links')
        .values(ids.map((i) => ({ user_id: benchUserId(i), uid: String(1_000_000 + i), name: `Player${i}`, linked_at: now, is_default: 1, verified_at: now })))
        .execute();
      const standings = ids.map((i) => {
        const score = 3000 + Math.floor(random() * 3000);
        return {
          uid: String(1_000_000 + i),
          season: 9,
          tier: 'Gold II',
          score,
          peak: score + Math.floor(random() * 200),
          matches: Math.floor(random() * 300),
          role: LADDER_ROLES[i % 3]!,
          week_delta: random() < 0.3 ? null : Math.floor(random() * 400) - 150,
          private: o.mixed && i % 97 === 0 ? 1 : 0,
          updated_at: now,
        };
      });
      await trx.insertInto('player_standings').values(standings).execute();
      await trx
        .insertInto('ladder_members')
        .values(
          ids.map((i, k) => {
            const optedOut = o.mixed && i % 50 === 0;
            return {
              guild_id: o.guildId,
              user_id: benchUserId(i),
              chosen_uid: null,
              platform: o.mixed ? ['pc', 'ps', 'xbox'][i % 3]! : 'pc',
              opted_out: optedOut ? 1 : 0,
              joined_at: now,
              // What relistMember copies when a member joins: the account that lists them and its sort keys.
              uid: standings[k]!.uid,
              score: standings[k]!.score,
              week_delta: standings[k]!.week_delta,
              role: standings[k]!.role,
              private: standings[k]!.private,
              listed: !optedOut && standings[k]!.private === 0 ? 1 : 0,
            };
          }),
        )
        .execute();
    });
  }
}
