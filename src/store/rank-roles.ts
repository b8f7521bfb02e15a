/**
 * Servers' rank roles: which role each tier maps to, whether the bot keeps members' roles in step, the role it gave
 * each member (so that it takes back only its own), and the members it could not update, with why.
 */
import { sql } from 'kysely';
import { ROLE_RETRY_MS, roleChanges, roleRetryDelay, type RankRoleMap, type RoleChange, type RoleFailure, type RoleFailureDetail } from '../game/rank-roles.js';
import type { Db } from './database.js';

/**
 * A problem with a server's rank roles as a whole: a mapped role deleted (its tier no longer has one), no Manage Roles,
 * or the server requiring two-factor authentication for moderation while the bot's owner has none. `at` ms.
 */
export type RankRoleProblem =
  { kind: 'role-deleted'; roleId: string; key: string; at: number } | { kind: 'no-permission'; at: number } | { kind: 'mfa-required'; at: number };

export interface RankRoleSettings {
  enabled: boolean;
  /** Tier or division ("Gold", "Gold II") → role id. */
  roles: RankRoleMap;
  /** Counts admins' changes. */
  generation: number;
  problem: RankRoleProblem | null;
}

/**
 * A member the bot could not update: `roleId` the role it tried to give or take, `at` ms; `failures` in a row for this
 * reason, `retryAt` when they are tried again (ms), `detail` what Discord answered (refusals and failures), else null.
 */
export interface RoleFailureRow {
  userId: string;
  reason: RoleFailure;
  roleId: string | null;
  at: number;
  failures: number;
  retryAt: number;
  detail: RoleFailureDetail | null;
}

/** What {@link RankRolesRepository.recordFailure} recorded: the failures in a row (1: a new episode) and when the member is tried again, ms. */
export interface RecordedFailure {
  failures: number;
  retryAt: number;
}

/** What a sync of one server would change now. `held`: members left alone until an admin acts, the cause is fixed or their time comes. */
export interface RoleSyncPlan {
  settings: RankRoleSettings;
  changes: RoleChange[];
  held: number;
}

const OFF: RankRoleSettings = { enabled: false, roles: {}, generation: 0, problem: null };

function rolesOf(text: string): Record<string, string> {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

function detailOf(text: string | null): RoleFailureDetail | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

/** When a failed member is tried again: their `retry_at`, or a day after the failure in rows written before it was kept. */
const retryAtOf = (r: { retry_at: number | string | null; failed_at: number | string | null }) =>
  r.retry_at !== null ? Number(r.retry_at) : Number(r.failed_at) + ROLE_RETRY_MS;

/** The failure columns of a member updated or cleared. */
const NO_FAILURE = { failure: null, failure_role_id: null, failed_at: null, failed_generation: null, failure_count: 0, retry_at: null, failure_detail: null };

function problemOf(text: string | null): RankRoleProblem | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as RankRoleProblem;
  } catch {
    return null;
  }
}

/** Errors propagate to the caller. Times in epoch ms. */
export class RankRolesRepository {
  constructor(private readonly db: Db) {}

  async settings(guildId: string): Promise<RankRoleSettings> {
    const row = await this.db.selectFrom('rank_role_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
    if (!row) return OFF;
    return { enabled: row.enabled === 1, roles: rolesOf(row.roles), generation: Number(row.generation), problem: problemOf(row.problem) };
  }

  /**
   * An admin's change: turns syncing on or off, maps (`roleId`) or unmaps (null) the tiers of `set`. Counts as an admin's
   * action: the server's problem is cleared and its failed members are tried again.
   */
  async configure(guildId: string, change: { enabled?: boolean; set?: Readonly<Record<string, string | null>> }, now: number): Promise<RankRoleSettings> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('rank_role_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
      const roles = rolesOf(row?.roles ?? '{}');
      for (const [key, roleId] of Object.entries(change.set ?? {})) {
        // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a mapping key an admin unmapped
        if (roleId === null) delete roles[key];
        else roles[key] = roleId;
      }
      const values = {
        enabled: change.enabled === undefined ? (row?.enabled ?? 0) : change.enabled ? 1 : 0,
        roles: JSON.stringify(roles),
        generation: Number(row?.generation ?? 0) + 1,
        problem: null,
        updated_at: now,
      };
      await trx
        .insertInto('rank_role_settings')
        .values({ guild_id: guildId, lease_by: null, lease_until: null, ...values })
        .onConflict((oc) => oc.column('guild_id').doUpdateSet(values))
        .execute();
    });
    return this.settings(guildId);
  }

  /** Servers with roles to keep in step: rank roles on, or roles given that may have to be taken back. */
  async guildsToSync(): Promise<string[]> {
    const rows = await sql<{ guild_id: string }>`
      SELECT guild_id FROM rank_role_settings WHERE enabled = 1
      UNION SELECT DISTINCT guild_id FROM rank_role_members WHERE role_id IS NOT NULL`.execute(this.db);
    return rows.rows.map((r) => r.guild_id);
  }

  /**
   * Takes or renews the right to change `guildId`'s roles for `ms`: one process at a time, so that two never change one
   * member's roles. @returns whether `owner` holds it.
   */
  async lease(guildId: string, owner: string, now: number, ms: number): Promise<boolean> {
    await this.db
      .insertInto('rank_role_settings')
      .values({ guild_id: guildId, enabled: 0, roles: '{}', generation: 0, problem: null, lease_by: null, lease_until: null, updated_at: now })
      .onConflict((oc) => oc.column('guild_id').doNothing())
      .execute();
    const taken = await this.db
      .updateTable('rank_role_settings')
      .set({ lease_by: owner, lease_until: now + ms })
      .where('guild_id', '=', guildId)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now), eb('lease_by', '=', owner)]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  async release(guildId: string, owner: string): Promise<void> {
    await this.db
      .updateTable('rank_role_settings')
      .set({ lease_by: null, lease_until: null })
      .where('guild_id', '=', guildId)
      .where('lease_by', '=', owner)
      .execute();
  }

  /**
   * What would change now: each ranked ladder member (ladder on, listed) should hold their tier's role when rank roles
   * are on, and nobody should keep a role the bot gave otherwise. A member who failed is held until an admin's change or
   * their `retry_at` ({@link roleRetryDelay}). `asIf.enabled`: as if rank roles were on (the dry run) or off; `asIf.set`: as if
   * these tiers were mapped (null: unmapped), the returned `settings` showing that mapping.
   */
  async plan(guildId: string, now: number, asIf: { enabled?: boolean; set?: Readonly<Record<string, string | null>> } = {}): Promise<RoleSyncPlan> {
    const stored = await this.settings(guildId);
    // A mapping not saved yet (the dashboard's preview): the stored one with `set`'s keys replaced or, for null, unmapped.
    const roles = { ...stored.roles };
    for (const [key, roleId] of Object.entries(asIf.set ?? {})) {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a mapping key the preview unmaps
      if (roleId === null) delete roles[key as keyof typeof roles];
      else roles[key as keyof typeof roles] = roleId;
    }
    const settings = asIf.set ? { ...stored, roles } : stored;
    const [ranked, given] = await Promise.all([
      (asIf.enabled ?? settings.enabled)
        ? this.db
            .selectFrom('ladder_members as m')
            .innerJoin('ladder_settings as l', 'l.guild_id', 'm.guild_id')
            .innerJoin('player_standings as s', 's.uid', 'm.uid')
            .select(['m.user_id', 's.tier'])
            .where('m.guild_id', '=', guildId)
            .where('m.listed', '=', 1)
            .where('l.enabled', '=', 1)
            .execute()
        : Promise.resolve([]),
      this.db.selectFrom('rank_role_members').selectAll().where('guild_id', '=', guildId).execute(),
    ]);
    const targets = new Map(ranked.map((r) => [r.user_id, r.tier]));
    const had = new Map(given.filter((g) => g.role_id !== null).map((g) => [g.user_id, { roleId: g.role_id!, owned: g.owned !== 0 }]));
    const held = new Set(
      given.filter((g) => g.failure !== null && Number(g.failed_generation) === settings.generation && retryAtOf(g) > now).map((g) => g.user_id),
    );
    const all = roleChanges(targets, had, settings.roles);
    const changes = all.filter((c) => !held.has(c.userId));
    return { settings, changes, held: all.length - changes.length };
  }

  /**
   * Records the rank role `userId` now holds (null: none), clearing any failure: `owned` when the bot gave it, false when
   * they held it already (it is then never taken back).
   */
  async recordGiven(guildId: string, userId: string, roleId: string | null, owned = true): Promise<void> {
    if (roleId === null) {
      await this.db.deleteFrom('rank_role_members').where('guild_id', '=', guildId).where('user_id', '=', userId).execute();
      return;
    }
    const values = { role_id: roleId, owned: owned ? 1 : 0, ...NO_FAILURE };
    await this.db
      .insertInto('rank_role_members')
      .values({ guild_id: guildId, user_id: userId, ...values })
      .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet(values))
      .execute();
  }

  /**
   * Records why the bot could not update `userId`: they are held until an admin's change or {@link roleRetryDelay} from
   * now, which grows with each failure in a row for the same reason; `given` the role they hold from the bot now, when
   * that changed (a member who left holds none). @returns the failures in a row (1: a new episode, to report) and when
   * they are tried again.
   */
  async recordFailure(
    guildId: string,
    userId: string,
    failure: { reason: RoleFailure; roleId: string | null; generation: number; detail?: RoleFailureDetail },
    now: number,
    given?: string | null,
  ): Promise<RecordedFailure> {
    return this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('rank_role_members')
        .select(['failure', 'failure_count'])
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const failures = before?.failure === failure.reason ? Math.max(1, Number(before.failure_count)) + 1 : 1;
      const retryAt = now + roleRetryDelay(failure.reason, failures);
      const values = {
        failure: failure.reason,
        failure_role_id: failure.roleId,
        failed_at: now,
        failed_generation: failure.generation,
        failure_count: failures,
        retry_at: retryAt,
        failure_detail: failure.detail ? JSON.stringify(failure.detail) : null,
        ...(given !== undefined ? { role_id: given } : {}),
      };
      await trx
        .insertInto('rank_role_members')
        .values({ guild_id: guildId, user_id: userId, role_id: given ?? null, ...values })
        .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet(values))
        .execute();
      return { failures, retryAt };
    });
  }

  /** The bot left `guildId` (Discord took the roles it gave): rank roles off there, and nothing recorded of its members. */
  async leftServer(guildId: string): Promise<void> {
    await this.db.deleteFrom('rank_role_members').where('guild_id', '=', guildId).execute();
    await this.db.updateTable('rank_role_settings').set({ enabled: 0 }).where('guild_id', '=', guildId).execute();
  }

  /** Tries `userIds` again at the next sync: what held them was fixed. */
  async clearFailures(guildId: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.db.deleteFrom('rank_role_members').where('guild_id', '=', guildId).where('user_id', 'in', userIds).where('role_id', 'is', null).execute();
    await this.db.updateTable('rank_role_members').set(NO_FAILURE).where('guild_id', '=', guildId).where('user_id', 'in', userIds).execute();
  }

  /** The members the bot could not update, oldest failure first, and how many. */
  async failures(guildId: string, limit = 50): Promise<{ rows: RoleFailureRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('rank_role_members')
        .select(['user_id', 'failure', 'failure_role_id', 'failed_at', 'failure_count', 'retry_at', 'failure_detail'])
        .where('guild_id', '=', guildId)
        .where('failure', 'is not', null)
        .orderBy('failed_at')
        .orderBy('user_id')
        .limit(limit)
        .execute(),
      this.db
        .selectFrom('rank_role_members')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('guild_id', '=', guildId)
        .where('failure', 'is not', null)
        .executeTakeFirst(),
    ]);
    return {
      rows: rows.map((r) => ({
        userId: r.user_id,
        reason: r.failure as RoleFailure,
        roleId: r.failure_role_id,
        at: Number(r.failed_at),
        failures: Math.max(1, Number(r.failure_count)),
        retryAt: retryAtOf(r),
        detail: detailOf(r.failure_detail),
      })),
      total: Number(count?.n ?? 0),
    };
  }

  /**
   * A role of the server was deleted: nobody holds it any more, and the tiers mapped to it have no role until an admin
   * maps one (the problem says which). Not an admin's change: held members stay held.
   */
  async roleGone(guildId: string, roleId: string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('rank_role_settings').select('roles').where('guild_id', '=', guildId).executeTakeFirst();
      const roles = rolesOf(row?.roles ?? '{}');
      const keys = Object.keys(roles).filter((k) => roles[k] === roleId);
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the keys of the deleted role
      for (const k of keys) delete roles[k];
      if (keys.length > 0) {
        const problem: RankRoleProblem = { kind: 'role-deleted', roleId, key: keys.join(', '), at: now };
        await trx
          .updateTable('rank_role_settings')
          .set({ roles: JSON.stringify(roles), problem: JSON.stringify(problem), updated_at: now })
          .where('guild_id', '=', guildId)
          .execute();
      }
      await trx.deleteFrom('rank_role_members').where('guild_id', '=', guildId).where('role_id', '=', roleId).where('failure', 'is', null).execute();
      await trx.updateTable('rank_role_members').set({ role_id: null }).where('guild_id', '=', guildId).where('role_id', '=', roleId).execute();
    });
  }

  /** Sets or clears the server's problem (no Manage Roles, two-factor authentication required) without counting as an admin's change. */
  async setProblem(guildId: string, problem: RankRoleProblem | null): Promise<void> {
    await this.db
      .updateTable('rank_role_settings')
      .set({ problem: problem ? JSON.stringify(problem) : null })
      .where('guild_id', '=', guildId)
      .execute();
  }

  /** The rank roles the bot gave `userId`, by server, for /privacy. */
  async givenTo(userId: string): Promise<{ guildId: string; roleId: string | null; failure: string | null }[]> {
    const rows = await this.db.selectFrom('rank_role_members').selectAll().where('user_id', '=', userId).orderBy('guild_id').execute();
    return rows.map((r) => ({ guildId: r.guild_id, roleId: r.role_id, failure: r.failure }));
  }
}
