/** Proofs of account ownership under way (src/game/verification.ts), and the links they verify. */
import type { Db } from './database.js';
import type { LinkVerificationsTable } from './schema.js';
import { relistMember } from './ladder/index.js';

/** `iconFrom`: the player icon id when the proof began; times in epoch ms. */
export interface PendingVerification {
  userId: string;
  uid: string;
  iconFrom: string | null;
  startedAt: number;
  expiresAt: number;
  nextCheckAt: number;
}

const of = (r: Pick<LinkVerificationsTable, 'user_id' | 'uid' | 'icon_from' | 'started_at' | 'expires_at' | 'next_check_at'>): PendingVerification => ({
  userId: r.user_id,
  uid: r.uid,
  iconFrom: r.icon_from,
  startedAt: Number(r.started_at),
  expiresAt: Number(r.expires_at),
  nextCheckAt: Number(r.next_check_at),
});

export class VerificationsRepository {
  constructor(private readonly db: Db) {}

  /** Starts (or starts again) the proof of `userId` owning linked account `uid`. @returns false when `uid` is not one of their links. */
  async start(userId: string, uid: string, iconFrom: string | null, now: number, ttlMs: number, firstCheckMs: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const link = await trx.selectFrom('account_links').select('uid').where('user_id', '=', userId).where('uid', '=', uid).executeTakeFirst();
      if (!link) return false;
      const values = { icon_from: iconFrom, started_at: now, expires_at: now + ttlMs, next_check_at: now + firstCheckMs, checked_at: null };
      await trx
        .insertInto('link_verifications')
        .values({ user_id: userId, uid, ...values })
        .onConflict((oc) => oc.columns(['user_id', 'uid']).doUpdateSet(values))
        .execute();
      return true;
    });
  }

  async get(userId: string, uid: string): Promise<PendingVerification | null> {
    const row = await this.db.selectFrom('link_verifications').selectAll().where('user_id', '=', userId).where('uid', '=', uid).executeTakeFirst();
    return row ? of(row) : null;
  }

  /** Proofs due for a check at `now`, the earliest first. */
  async due(now: number, limit: number): Promise<PendingVerification[]> {
    const rows = await this.db.selectFrom('link_verifications').selectAll().where('next_check_at', '<=', now).orderBy('next_check_at').limit(limit).execute();
    return rows.map(of);
  }

  async reschedule(userId: string, uid: string, nextCheckAt: number, now: number): Promise<void> {
    await this.db
      .updateTable('link_verifications')
      .set({ next_check_at: nextCheckAt, checked_at: now })
      .where('user_id', '=', userId)
      .where('uid', '=', uid)
      .execute();
  }

  /** The proof ends: `verified` marks the link, then the proof goes either way. One transaction. */
  async finish(userId: string, uid: string, verified: boolean, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (verified) {
        await trx.updateTable('account_links').set({ verified_at: now }).where('user_id', '=', userId).where('uid', '=', uid).execute();
        await relistMember(trx, userId);
      }
      await trx.deleteFrom('link_verifications').where('user_id', '=', userId).where('uid', '=', uid).execute();
    });
  }
}
