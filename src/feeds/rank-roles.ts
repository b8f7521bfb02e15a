/**
 * Keeping servers' rank roles in step with their ladder members' tiers (src/store/rank-roles.ts plans what to change):
 * the bot adds a member's new role, then takes back the one it gave before, and touches no other role. Its requests go
 * through the Discord REST budget at the background priority, after every interaction answer (src/discord/rest-budget.ts).
 */
import { randomUUID } from 'node:crypto';
import PQueue from 'p-queue';
import { BackgroundJob } from '../core/background-job.js';
import type { Logger } from '../core/logger.js';
import { cannotGive, type GuildRoles, type RoleChange, type RoleFailure } from '../game/rank-roles.js';
import type { RankRolesRepository } from '../store/rank-roles.js';

/** Discord's role routes (Discord: "Add Guild Member Role", "Remove Guild Member Role", "Get Guild Roles"). */
export interface RoleTransport {
  /** The server's roles and the bot's place among them. @throws Discord's error (code 10004 Unknown Guild when the bot left it). */
  guildRoles(guildId: string): Promise<GuildRoles>;
  /** A member's role ids (Discord: "Get Guild Member"). @throws Discord's error (10007 Unknown Member). */
  memberRoles(guildId: string, userId: string): Promise<string[]>;
  /** @throws Discord's error, with its JSON error `code` (10007 Unknown Member, 10011 Unknown Role, 50013 Missing Permissions). */
  add(guildId: string, userId: string, roleId: string, reason: string): Promise<void>;
  remove(guildId: string, userId: string, roleId: string, reason: string): Promise<void>;
}

/** How often servers' roles are brought in step, ms. */
export const ROLES_EVERY_MS = 60_000;
/** How long one process holds a server's roles, renewed while it works, ms. */
const LEASE_MS = 120_000;
/** How long a run holds its lease before renewing it, ms: well inside {@link LEASE_MS}. */
const RENEW_AFTER_MS = LEASE_MS / 4;
/** Members whose roles change at once. */
const IN_FLIGHT = 4;

/** Discord JSON error codes (Discord: "JSON Error Codes"). */
const UNKNOWN_GUILD = 10004;
const UNKNOWN_MEMBER = 10007;
const UNKNOWN_ROLE = 10011;
const MISSING_ACCESS = 50001;
const MISSING_PERMISSIONS = 50013;

const codeOf = (err: unknown): unknown => (err as { code?: unknown } | null)?.code;

/** What one server's sync did. */
export interface RoleSyncResult {
  added: number;
  removed: number;
  failed: number;
  /** Members left alone: they failed before and wait for an admin or a day. */
  held: number;
  /** Another process holds the server's roles. */
  leased: boolean;
}

export interface RankRoleSyncOptions {
  roles: Pick<
    RankRolesRepository,
    'guildsToSync' | 'lease' | 'release' | 'plan' | 'recordGiven' | 'recordFailure' | 'roleGone' | 'setProblem' | 'failures' | 'clearFailures' | 'leftServer'
  >;
  transport: RoleTransport;
  logger: Logger;
  now?: () => number;
  /** This process's name in leases; default a random one. */
  owner?: string;
}

/** The audit-log reason of a change (Discord: "X-Audit-Log-Reason"), in English as the audit log of every server. */
const reasonOf = (c: RoleChange) => (c.tier ? `Rank role for ${c.tier}` : 'Rank role taken back: no longer ranked on the ladder');

/** `start()` syncs every server every {@link ROLES_EVERY_MS} until `stop()`; `run()` and `syncGuild()` once (tests, the benchmark). */
export class RankRoleSync {
  readonly #o: RankRoleSyncOptions;
  readonly #owner: string;
  readonly #job = new BackgroundJob(() => this.run());

  constructor(options: RankRoleSyncOptions) {
    this.#o = options;
    this.#owner = options.owner ?? randomUUID();
  }

  start(): void {
    this.#job.start(ROLES_EVERY_MS, (err) => this.#o.logger.warn({ err }, 'rank roles: could not sync; trying again'));
  }

  stop(): Promise<void> {
    return this.#job.stop();
  }

  /** Syncs every server with roles to keep in step; one server's failure does not stop the others. */
  async run(): Promise<Map<string, RoleSyncResult>> {
    const out = new Map<string, RoleSyncResult>();
    for (const guildId of await this.#o.roles.guildsToSync()) {
      try {
        out.set(guildId, await this.syncGuild(guildId));
      } catch (err) {
        this.#o.logger.warn({ err, guildId }, 'rank roles: Discord failed during a sync; the rest waits for the next one');
      }
    }
    return out;
  }

  /**
   * Brings `guildId`'s members' roles in step, holding its lease. A member who cannot be updated (a role above the bot's,
   * no Manage Roles, the member gone) is recorded once and held; a deleted role is dropped from the mapping and reported.
   * @throws when Discord fails otherwise (5xx, network): what was done is recorded, the rest waits for the next run.
   */
  async syncGuild(guildId: string): Promise<RoleSyncResult> {
    const { roles, transport, logger } = this.#o;
    const now = this.#o.now ?? Date.now;
    const result: RoleSyncResult = { added: 0, removed: 0, failed: 0, held: 0, leased: false };
    if (!(await roles.lease(guildId, this.#owner, now(), LEASE_MS))) return { ...result, leased: true };
    try {
      let plan = await roles.plan(guildId, now());
      // Members held by a failure are looked at again when the server's roles may have been fixed in Discord itself.
      if (plan.changes.length === 0 && plan.held === 0) return result;
      let guild: GuildRoles;
      try {
        guild = await transport.guildRoles(guildId);
      } catch (err) {
        if (codeOf(err) !== UNKNOWN_GUILD && codeOf(err) !== MISSING_ACCESS) throw err;
        // Removed from the server: Discord took its roles with it. Off, and forgotten, so that it is not asked every minute.
        await roles.leftServer(guildId);
        logger.info({ guildId }, 'rank roles: the bot is no longer in the server; rank roles are off there');
        return result;
      }
      // Fixed in Discord (Manage Roles given back, a role moved below the bot's): those held for it are tried again now.
      if (plan.held > 0) {
        const fixed = (await roles.failures(guildId, 1_000)).rows.filter((f) =>
          f.reason === 'no-permission' ? guild.manageRoles : f.reason === 'role-above' && f.roleId !== null && cannotGive(f.roleId, guild) === null,
        );
        if (fixed.length > 0)
          await roles.clearFailures(
            guildId,
            fixed.map((f) => f.userId),
          );
        if (guild.manageRoles && plan.settings.problem?.kind === 'no-permission') await roles.setProblem(guildId, null);
        if (fixed.length > 0) plan = await roles.plan(guildId, now());
      }
      if (plan.changes.length === 0) return { ...result, held: plan.held };
      const known = new Set(guild.roles.map((r) => r.id));
      const gone = new Set(
        [...Object.values(plan.settings.roles), ...plan.changes.flatMap((c) => (c.remove ? [c.remove] : []))].filter((id) => !known.has(id)),
      );
      if (gone.size > 0) {
        for (const roleId of gone) await roles.roleGone(guildId, roleId, now());
        logger.warn({ guildId, roles: [...gone] }, 'rank roles: mapped roles were deleted; their tiers have no role until an admin maps one');
        plan = await roles.plan(guildId, now());
      }
      result.held = plan.held;
      const generation = plan.settings.generation;
      const fail = async (c: RoleChange, reason: RoleFailure, roleId: string | null, given?: string | null) => {
        result.failed++;
        await roles.recordFailure(guildId, c.userId, { reason, roleId, generation }, now(), given);
      };
      if (!guild.manageRoles) {
        await roles.setProblem(guildId, { kind: 'no-permission', at: now() });
        for (const c of plan.changes) await fail(c, 'no-permission', c.add ?? c.remove);
        logger.warn({ guildId, members: plan.changes.length }, 'rank roles: the bot lacks Manage Roles; waiting for an admin');
        return result;
      }
      if (plan.settings.problem?.kind === 'no-permission') await roles.setProblem(guildId, null);
      let renewedAt = now();
      let lost = false;
      // A few members at a time: the REST queue always holds the next request while one member's change is recorded.
      const queue = new PQueue({ concurrency: IN_FLIGHT });
      const change = async (c: RoleChange): Promise<void> => {
        if (lost) return;
        // Renewed by the clock, not by count: a run slowed by 429s or a busy budget keeps its lease.
        if (now() - renewedAt >= RENEW_AFTER_MS) {
          renewedAt = now();
          if (!(await roles.lease(guildId, this.#owner, now(), LEASE_MS))) {
            lost = true;
            return;
          }
        }
        // Checked before asking: a role above the bot's would fail for every member of its tier.
        const blocked = [c.add, c.remove].find((id) => id !== null && cannotGive(id, guild) !== null);
        if (blocked) {
          await fail(c, cannotGive(blocked, guild) === 'no-permission' ? 'no-permission' : 'role-above', blocked);
          return;
        }
        const step = async (roleId: string, change: 'add' | 'remove'): Promise<'ok' | 'stop'> => {
          try {
            await transport[change](guildId, c.userId, roleId, reasonOf(c));
            return 'ok';
          } catch (err) {
            const code = codeOf(err);
            // A member who left holds no role of this server any more.
            if (code === UNKNOWN_MEMBER) await fail(c, 'member-gone', roleId, null);
            else if (code === UNKNOWN_ROLE) {
              await roles.roleGone(guildId, roleId, now());
              // A role to take back that no longer exists is taken back: the new one is still recorded as the bot's.
              if (change === 'remove') return 'ok';
            } else if (code === MISSING_PERMISSIONS) {
              guild = await transport.guildRoles(guildId);
              await fail(c, guild.manageRoles ? 'role-above' : 'no-permission', roleId);
            } else throw err;
            return 'stop';
          }
        };
        // A member's first rank role: one they already hold (self-assigned before the bot mapped it) stays theirs, never taken back.
        let owned = true;
        if (c.add !== null && c.firstGiven) {
          try {
            owned = !(await transport.memberRoles(guildId, c.userId)).includes(c.add);
          } catch (err) {
            if (codeOf(err) !== UNKNOWN_MEMBER) throw err;
            await fail(c, 'member-gone', c.add, null);
            return;
          }
        }
        if (c.add !== null && owned) {
          if ((await step(c.add, 'add')) === 'stop') return;
          result.added++;
        }
        // The old role is the bot's until it is taken back: a failure here keeps it recorded, to be taken back later.
        if (c.remove !== null) {
          if ((await step(c.remove, 'remove')) === 'stop') return;
          result.removed++;
        }
        await roles.recordGiven(guildId, c.userId, c.add, owned);
      };
      // The first change alone: once it answered, discord.js knows the routes' bucket and queues the others in it.
      const [first, ...rest] = plan.changes;
      if (first) await change(first);
      // The first error Discord answers otherwise stops the run: what is under way finishes, the rest waits.
      let failure: { err: unknown } | undefined;
      for (const c of rest)
        void queue.add(async () => {
          if (failure === undefined) await change(c).catch((err: unknown) => void (failure ??= { err }));
        });
      await queue.onIdle();
      if (failure !== undefined) throw failure.err;
      return result;
    } finally {
      await roles.release(guildId, this.#owner);
    }
  }
}
