/** Members' hero alerts: what each follows, their mains, and each post's planned messages, sent through the delivery ledger. */
import * as z from 'zod';
import { withDeadline, type Db } from './database.js';

export const MAX_WATCHED_HEROES = 10;
/** Top heroes by play time. */
export const MAINS_COUNT = 3;
/** Ms before mains are read again. */
export const MAINS_MAX_AGE_MS = 24 * 60 * 60_000;

/** `guildId` '' for direct messages only; `heroes` are watched hero ids. */
export interface AlertMember {
  userId: string;
  guildId: string;
  mains: boolean;
  heroes: string[];
  dm: boolean;
}

export interface MemberMains {
  uid: string;
  heroes: string[];
  refreshedAt: number;
}

export interface AlertMessage {
  feed: string;
  postId: string;
  /** A channel id, or `dm:<user id>`. */
  target: string;
  part: number;
  body: unknown;
}

const ids = (text: string): string[] => {
  try {
    return z.array(z.string()).catch([]).parse(JSON.parse(text));
  } catch {
    return [];
  }
};

/** Ms, for `/alerts`. */
const DEADLINE_MS = 3_000;

/** Member-facing calls have deadlines and throw {@link StoreUnavailableError}; the poller's do not. */
export class AlertsRepository {
  constructor(private readonly db: Db) {}

  /** Null when they follow nothing there. */
  async member(userId: string, guildId: string): Promise<AlertMember | null> {
    const row = await withDeadline('read alerts', DEADLINE_MS, () =>
      this.db.selectFrom('alert_members').selectAll().where('user_id', '=', userId).where('guild_id', '=', guildId).executeTakeFirst(),
    );
    return row ? { userId, guildId, mains: row.mains === 1, heroes: ids(row.heroes), dm: row.dm === 1 } : null;
  }

  /** A member left following nothing is removed. @returns the new alerts. */
  async update(userId: string, guildId: string, change: (m: AlertMember) => void, now = Date.now()): Promise<AlertMember> {
    return withDeadline('save alerts', DEADLINE_MS, () =>
      this.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('alert_members').selectAll().where('user_id', '=', userId).where('guild_id', '=', guildId).executeTakeFirst();
        const m: AlertMember = row
          ? { userId, guildId, mains: row.mains === 1, heroes: ids(row.heroes), dm: row.dm === 1 }
          : { userId, guildId, mains: false, heroes: [], dm: guildId === '' };
        change(m);
        m.heroes = [...new Set(m.heroes)].slice(0, MAX_WATCHED_HEROES);
        if (!m.mains && m.heroes.length === 0) {
          await trx.deleteFrom('alert_members').where('user_id', '=', userId).where('guild_id', '=', guildId).execute();
          return m;
        }
        const values = { mains: m.mains ? 1 : 0, heroes: JSON.stringify(m.heroes), dm: m.dm ? 1 : 0, updated_at: now };
        await trx
          .insertInto('alert_members')
          .values({ user_id: userId, guild_id: guildId, ...values })
          .onConflict((oc) => oc.columns(['user_id', 'guild_id']).doUpdateSet(values))
          .execute();
        return m;
      }),
    );
  }

  async allMembers(): Promise<AlertMember[]> {
    const rows = await this.db.selectFrom('alert_members').selectAll().execute();
    return rows.map((r) => ({ userId: r.user_id, guildId: r.guild_id, mains: r.mains === 1, heroes: ids(r.heroes), dm: r.dm === 1 }));
  }

  async mainsOf(userIds: string[]): Promise<Map<string, MemberMains>> {
    const out = new Map<string, MemberMains>();
    for (let i = 0; i < userIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('member_mains')
        .selectAll()
        .where('user_id', 'in', userIds.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(r.user_id, { uid: r.uid, heroes: ids(r.heroes), refreshedAt: Number(r.refreshed_at) });
    }
    return out;
  }

  /** Members with mains on whose mains are missing or older than `maxAgeMs`, oldest first. */
  async staleMains(now: number, limit: number, maxAgeMs = MAINS_MAX_AGE_MS): Promise<string[]> {
    // One row a member (they may have alerts in several servers); never-read mains first on both engines, which sort nulls apart.
    const rows = await this.db
      .selectFrom('alert_members as a')
      .leftJoin('member_mains as m', 'm.user_id', 'a.user_id')
      .select((eb) => ['a.user_id', eb.fn.min(eb.fn.coalesce('m.refreshed_at', eb.lit(0))).as('refreshed')])
      .where('a.mains', '=', 1)
      .where((eb) => eb.or([eb('m.refreshed_at', 'is', null), eb('m.refreshed_at', '<', now - maxAgeMs)]))
      .groupBy('a.user_id')
      .orderBy('refreshed')
      .orderBy('a.user_id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.user_id);
  }

  async saveMains(userId: string, mains: MemberMains): Promise<void> {
    const values = { uid: mains.uid, heroes: JSON.stringify(mains.heroes.slice(0, MAINS_COUNT)), refreshed_at: mains.refreshedAt };
    await this.db
      .insertInto('member_mains')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  }

  /**
   * Once, in one transaction: a second plan of the same post (a crash, another poll) changes nothing.
   * @returns whether this call planned it.
   */
  async plan(feed: string, postId: string, messages: Omit<AlertMessage, 'feed' | 'postId'>[], now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .insertInto('alert_plans')
        .values({ feed, post_id: postId, planned_at: now })
        .onConflict((oc) => oc.columns(['feed', 'post_id']).doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      for (const m of messages) {
        await trx
          .insertInto('alert_messages')
          .values({ feed, post_id: postId, target: m.target, part: m.part, body: JSON.stringify(m.body), settled_at: null })
          .execute();
      }
      return true;
    });
  }

  async planned(feed: string, postId: string): Promise<boolean> {
    return (await this.db.selectFrom('alert_plans').select('post_id').where('feed', '=', feed).where('post_id', '=', postId).executeTakeFirst()) !== undefined;
  }

  async pending(limit = 1_000): Promise<AlertMessage[]> {
    const rows = await this.db
      .selectFrom('alert_messages')
      .selectAll()
      .where('settled_at', 'is', null)
      .orderBy('feed')
      .orderBy('post_id')
      .orderBy('target')
      .orderBy('part')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ feed: r.feed, postId: r.post_id, target: r.target, part: Number(r.part), body: JSON.parse(r.body) as unknown }));
  }

  /** Sent, or given up. */
  async settle(m: Pick<AlertMessage, 'feed' | 'postId' | 'target' | 'part'>, now: number): Promise<void> {
    await this.db
      .updateTable('alert_messages')
      .set({ settled_at: now })
      .where('feed', '=', m.feed)
      .where('post_id', '=', m.postId)
      .where('target', '=', m.target)
      .where('part', '=', m.part)
      .execute();
  }
}
