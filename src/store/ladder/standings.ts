/** The standings of the accounts the ladders list: written from each tracked read, with the moments they make. */
import { momentsBetween, seasonEnded, type Standing } from '../../game/ladder.js';
import type { Db } from '../database.js';
import { LISTED, touched } from './listing.js';
import { planMoments, seasonRecord, topOf, topWatchers } from './outbox.js';
import { standingOfRow } from './rows.js';

/** Writes `uid`'s standing, replacing the last one, and copies its sort keys to every server's row it lists. */
export async function setStanding(db: Db, uid: string, standing: Standing, now: number): Promise<void> {
  const values = {
    season: standing.season,
    tier: standing.tier,
    score: standing.score,
    peak: standing.peak,
    matches: standing.matches,
    role: standing.role,
    week_delta: standing.weekDelta,
    private: standing.private ? 1 : 0,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('player_standings').selectAll().where('uid', '=', uid).executeTakeFirst();
    const prev = before ? standingOfRow(before) : null;
    // Who was on top of each ladder that posts it, before this standing moves anyone.
    const watched = prev && prev.season === standing.season && !standing.private ? await topWatchers(trx, uid) : [];
    const wasTop = await Promise.all(watched.map((w) => topOf(trx, w.guild_id)));
    await trx
      .insertInto('player_standings')
      .values({ uid, ...values })
      .onConflict((oc) => oc.column('uid').doUpdateSet(values))
      .execute();
    await trx
      .updateTable('ladder_members')
      .set({ score: values.score, week_delta: values.week_delta, role: values.role, private: values.private })
      .where('uid', '=', uid)
      .execute();
    const rows = await trx.updateTable('ladder_members').set({ listed: LISTED }).where('uid', '=', uid).returning('guild_id').execute();
    touched(rows.map((r) => r.guild_id));
    const moments = momentsBetween(prev, standing);
    const ended = seasonEnded(prev, standing);
    if (ended) moments.push({ kind: 'season-end', ...ended, ...(await seasonRecord(trx, uid, ended.season)) });
    if (moments.length > 0 && standing.season !== null) await planMoments(trx, uid, standing.season, moments, now);
    for (const [i, w] of watched.entries()) {
      if (wasTop[i]!.includes(w.user_id) || standing.season === null || standing.score === null) continue;
      const place = (await topOf(trx, w.guild_id)).indexOf(w.user_id) + 1;
      if (place > 0) await planMoments(trx, uid, standing.season, [{ kind: 'top3', place, score: standing.score }], now, w.guild_id);
    }
  });
}

/** Marks `uid` private, keeping its last standing for when it opens again. */
export async function setPrivate(db: Db, uid: string, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('player_standings')
      .values({ uid, season: null, tier: null, score: null, peak: null, matches: 0, role: null, week_delta: null, private: 1, updated_at: now })
      .onConflict((oc) => oc.column('uid').doUpdateSet({ private: 1, updated_at: now }))
      .execute();
    const rows = await trx.updateTable('ladder_members').set({ private: 1, listed: 0 }).where('uid', '=', uid).returning('guild_id').execute();
    touched(rows.map((r) => r.guild_id));
  });
}
