/**
 * Everything the store keeps about one member, to show it to them, export it, and delete it: their links, settings,
 * alerts, mains, pending direct messages, their places on servers' ladders, the rank roles the bot gave them and the
 * ladder moments about them, the tracked records of the accounts they link, and the duos those records make on each ladder.
 */
import { sql } from 'kysely';
import { partnersOf } from '../game/duos.js';
import type { ProfileSnapshot, RecordedMatch } from '../game/tracking.js';
import type { Db } from './database.js';
import { forgetLadderMember, LadderRepository, type LadderMembership } from './ladder/index.js';
import { RankRolesRepository } from './rank-roles.js';
import { ServerMatchesRepository } from './server-matches.js';
import { TrackingRepository } from './tracking.js';

/** What the store holds about a member. Times in epoch ms, except match times (Unix seconds, as the API gives them). */
export interface MemberData {
  userId: string;
  accounts: { uid: string; name: string; linkedAt: number; isDefault: boolean; verifiedAt: number | null }[];
  /** Proofs of ownership under way: the player icon when each began. */
  verifications: { uid: string; iconFrom: string | null; startedAt: number; expiresAt: number }[];
  settings: { locale: string | null; trackingOff: boolean; platform: string | null; display: string | null; updatedAt: number } | null;
  alerts: { guildId: string | null; mains: boolean; heroes: string[]; directMessages: boolean; updatedAt: number }[];
  mains: { uid: string; heroes: string[]; refreshedAt: number } | null;
  /** Alert messages planned for them and not sent yet. */
  pendingDirectMessages: number;
  /** Per linked account: whether it is tracked, and what was recorded of it (shared with other members who link it too). */
  tracking: { uid: string; tracked: boolean; snapshots: (ProfileSnapshot & { at: number })[]; matches: RecordedMatch[] }[];
  /** The servers' ladders they are on, with their choices there. */
  ladders: LadderMembership[];
  /** The rank role the bot gave them per server (null: none now), and why it last could not change it. */
  rankRoles: { guildId: string; roleId: string | null; failure: string | null }[];
  /** Ladder moments about them (a rank-up, a new peak): planned or posted, the moment as it was planned (`settledAt` null: not posted yet). */
  moments: { guildId: string; channelId: string; moment: unknown; createdAt: number; settledAt: number | null }[];
  /**
   * Per server ladder they are counted on, the members they played with (`together`: one team, a duo) or against (a rivalry),
   * each by the account that lists them there, and the record from their side: what `/ladder duos` derives from the recorded
   * matches, never stored apart.
   */
  duos: { guildId: string; uid: string; name: string | null; together: boolean; wins: number; losses: number; draws: number }[];
  /** Changes they made to servers' settings, as those servers' audit logs keep them (90 days): what, from where, when. */
  settingsChanges: { guildId: string; action: string; source: string; at: number }[];
}

const parseList = (json: string): string[] => {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};

/** A stored JSON column as its value, or the text itself when it does not parse (still theirs to see). */
const parseJson = (json: string): unknown => {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
};

/** Off the reply path's deadlines: a member's data is read and deleted at their request, errors propagate. */
export class MemberDataRepository {
  readonly #tracking: TrackingRepository;
  readonly #ladder: LadderRepository;
  readonly #rankRoles: RankRolesRepository;
  readonly #matches: ServerMatchesRepository;

  constructor(
    private readonly db: Db,
    private readonly engine: 'sqlite' | 'postgres',
  ) {
    this.#tracking = new TrackingRepository(db, engine);
    this.#ladder = new LadderRepository(db);
    this.#rankRoles = new RankRolesRepository(db);
    this.#matches = new ServerMatchesRepository(db);
  }

  /** Everything stored about `userId`. */
  async collect(userId: string): Promise<MemberData> {
    const [links, settings, alerts, mains, pending, proofs, ladders, rankRoles, moments] = await Promise.all([
      this.db.selectFrom('account_links').selectAll().where('user_id', '=', userId).orderBy('linked_at').execute(),
      this.db.selectFrom('member_settings').selectAll().where('user_id', '=', userId).executeTakeFirst(),
      this.db.selectFrom('alert_members').selectAll().where('user_id', '=', userId).execute(),
      this.db.selectFrom('member_mains').selectAll().where('user_id', '=', userId).executeTakeFirst(),
      this.db
        .selectFrom('alert_messages')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('target', '=', `dm:${userId}`)
        .where('settled_at', 'is', null)
        .executeTakeFirstOrThrow(),
      this.db.selectFrom('link_verifications').selectAll().where('user_id', '=', userId).execute(),
      this.#ladder.memberships(userId),
      this.#rankRoles.givenTo(userId),
      this.db.selectFrom('ladder_moments').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),
    ]);
    const tracking = [];
    for (const l of links) tracking.push({ uid: l.uid, ...(await this.#tracking.timeline(l.uid)) });
    const duos: MemberData['duos'] = [];
    for (const l of ladders) {
      // The counted members: those listed by a proved account who did not opt out, this member among them or not.
      const members = await this.#matches.members(l.guildId);
      const mine = members.find((m) => m.userId === userId);
      if (!mine) continue;
      const names = new Map(members.map((m) => [m.uid, m.name]));
      for (const p of partnersOf(await this.#matches.pairCounts(l.guildId, 0, mine.uid)))
        duos.push({ guildId: l.guildId, name: names.get(p.uid) ?? null, ...p });
    }
    const changes = await this.db
      .selectFrom('config_audit')
      .select(['guild_id', 'action', 'source', 'at'])
      .where('user_id', '=', userId)
      .orderBy('at', 'desc')
      .execute();
    return {
      userId,
      accounts: links.map((l) => ({
        uid: l.uid,
        name: l.name,
        linkedAt: Number(l.linked_at),
        isDefault: l.is_default === 1,
        verifiedAt: l.verified_at === null || l.verified_at === undefined ? null : Number(l.verified_at),
      })),
      verifications: proofs.map((v) => ({ uid: v.uid, iconFrom: v.icon_from, startedAt: Number(v.started_at), expiresAt: Number(v.expires_at) })),
      settings: settings
        ? {
            locale: settings.locale,
            trackingOff: settings.tracking_off === 1,
            platform: settings.platform ?? null,
            display: settings.display ?? null,
            updatedAt: Number(settings.updated_at),
          }
        : null,
      alerts: alerts.map((a) => ({
        guildId: a.guild_id === '' ? null : a.guild_id,
        mains: a.mains === 1,
        heroes: parseList(a.heroes),
        directMessages: a.dm === 1,
        updatedAt: Number(a.updated_at),
      })),
      mains: mains ? { uid: mains.uid, heroes: parseList(mains.heroes), refreshedAt: Number(mains.refreshed_at) } : null,
      pendingDirectMessages: Number(pending.n),
      tracking,
      ladders,
      rankRoles,
      moments: moments.map((m) => ({
        guildId: m.guild_id,
        channelId: m.channel_id,
        moment: parseJson(m.data),
        createdAt: Number(m.created_at),
        settledAt: m.settled_at === null ? null : Number(m.settled_at),
      })),
      duos,
      settingsChanges: changes.map((c) => ({ guildId: c.guild_id, action: c.action, source: c.source, at: Number(c.at) })),
    };
  }

  /**
   * Deletes everything stored about `userId`, in one transaction, then the tracked records of the accounts no other member
   * tracks, then the index samples that hold their Discord id or one of those accounts' uids ({@link forgetSamples}).
   * On SQLite the rows' bytes are zeroed (`secure_delete`, src/store/database.ts) in the pages the write-ahead log holds;
   * {@link truncateLog} then puts them in the database file and empties the log.
   * @returns the accounts they had linked, so the caller can drop what the caches hold of them.
   */
  async erase(userId: string, now: number): Promise<{ uid: string; name: string }[]> {
    const accounts = await this.db.transaction().execute(async (trx) => {
      const links = await trx.selectFrom('account_links').select(['uid', 'name']).where('user_id', '=', userId).execute();
      await trx.deleteFrom('account_links').where('user_id', '=', userId).execute();
      await trx.deleteFrom('member_settings').where('user_id', '=', userId).execute();
      await trx.deleteFrom('alert_members').where('user_id', '=', userId).execute();
      await trx.deleteFrom('member_mains').where('user_id', '=', userId).execute();
      await trx.deleteFrom('alert_messages').where('target', '=', `dm:${userId}`).execute();
      await trx.deleteFrom('link_verifications').where('user_id', '=', userId).execute();
      await forgetLadderMember(trx, userId);
      // The settings they changed stay in the servers' audit logs, by nobody.
      await trx.updateTable('config_audit').set({ user_id: null }).where('user_id', '=', userId).execute();
      // A role the bot gave stays recorded until the rank roles' sync takes it back (they are off every ladder now), then goes.
      await trx.deleteFrom('rank_role_members').where('user_id', '=', userId).where('role_id', 'is', null).execute();
      await trx
        .updateTable('rank_role_members')
        .set({ failure: null, failure_role_id: null, failed_at: null, failed_generation: null, failure_count: 0, retry_at: null, failure_detail: null })
        .where('user_id', '=', userId)
        .execute();
      return links;
    });
    await this.#tracking.syncUids(
      accounts.map((a) => a.uid),
      now,
    );
    // Last: an ANALYZE between the two transactions above may have sampled an account still tracked then.
    await this.forgetSamples([userId, ...accounts.map((a) => a.uid)]);
    return accounts;
  }

  /**
   * Deletes SQLite's index samples (`sqlite_stat4`, written by ANALYZE: up to 24 whole index keys per index) that hold any
   * of `keys`, which would otherwise keep a deleted member's id or uid in the file until the next ANALYZE of that table.
   * Their index keeps its other samples and its counts (`sqlite_stat1`). A few rows, so cheap at any table size: the reply
   * path may run it (a full ANALYZE of the tracked players would hold the one connection for much longer). Nothing on
   * PostgreSQL: its statistics are the server's, refreshed by autovacuum (PRIVACY.md says what the operator does).
   * @returns how many samples went.
   */
  async forgetSamples(keys: readonly string[]): Promise<number> {
    if (this.engine !== 'sqlite' || keys.length === 0) return 0;
    const stat4 = await this.db
      .selectFrom(sql<{ name: string }>`sqlite_schema`.as('s'))
      .select('name')
      .where('name', '=', 'sqlite_stat4')
      .executeTakeFirst();
    if (!stat4) return 0;
    // A sample is a record whose text columns are stored as their UTF-8 bytes: a key in it is found by its bytes.
    const holds = sql.join(
      keys.map((k) => sql`instr(sample, CAST(${k} AS BLOB)) > 0`),
      sql` OR `,
    );
    const deleted = await sql`DELETE FROM sqlite_stat4 WHERE ${holds}`.execute(this.db);
    return Number(deleted.numAffectedRows ?? 0);
  }

  /**
   * Copies every page of SQLite's write-ahead log into the database file and empties the log
   * (`PRAGMA wal_checkpoint(TRUNCATE)`, sqlite.org/pragma.html#pragma_wal_checkpoint): the pages a deletion zeroed replace
   * the old ones in the file, and the log's older copies of them, which still hold the deleted rows, are gone. It does not
   * wait for another process reading or writing the same file (the busy timeout is 0 for it): the log is then left as it
   * is, and its old pages are overwritten as SQLite reuses it. Run after the reply: copying the log costs up to a few
   * megabytes of writes. Nothing on PostgreSQL.
   * @returns `emptied`; `in-use` when another process held it; `none` on PostgreSQL.
   * @throws the store's error.
   */
  async truncateLog(): Promise<'emptied' | 'in-use' | 'none'> {
    if (this.engine !== 'sqlite') return 'none';
    // One connection for the three statements, so nothing else runs while the busy timeout is 0.
    return this.db.connection().execute(async (db) => {
      const before = await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(db);
      const timeout = Number(before.rows[0]?.timeout ?? 0);
      await sql`PRAGMA busy_timeout = 0`.execute(db);
      try {
        const result = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
        return Number(result.rows[0]?.busy ?? 1) === 0 ? 'emptied' : 'in-use';
      } finally {
        await sql.raw(`PRAGMA busy_timeout = ${Math.trunc(timeout)}`).execute(db);
      }
    });
  }
}
