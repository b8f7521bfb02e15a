/**
 * Keeping servers' rank roles in step with their ladder members' tiers (src/store/rank-roles.ts plans what to change):
 * the bot adds a member's new role, then takes back the one it gave before, and touches no other role. Its requests go
 * through the Discord REST budget at the background priority, after every interaction answer (src/discord/rest-budget.ts).
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import { BackgroundJob } from '../core/background-job.js';
import type { Logger } from '../core/logger.js';
import { cannotGive, refusalCause, type GuildRoles, type RoleChange, type RoleFailure, type RoleFailureDetail } from '../game/rank-roles.js';
import type { RankRolesRepository, RecordedFailure } from '../store/rank-roles.js';

/**
 * Discord failed on one member's request without refusing it (a 429 not waited out, 5xx, no answer in time, the
 * network): the change may work later. `detail` says how.
 */
export class RoleRouteFailure extends Error {
  constructor(
    readonly detail: RoleFailureDetail,
    options?: { cause?: unknown },
  ) {
    super(`Discord failed on a member's role route: ${detail.kind ?? 'unknown'}${detail.status ? ` (${detail.status})` : ''}`, options);
    this.name = 'RoleRouteFailure';
  }
}

/**
 * Discord's role routes (Discord: "Add Guild Member Role", "Remove Guild Member Role", "Get Guild Roles"). A member's
 * requests take the `signal` that bounds them.
 */
export interface RoleTransport {
  /** The server's roles and the bot's place among them. @throws Discord's error (code 10004 Unknown Guild when the bot left it). */
  guildRoles(guildId: string): Promise<GuildRoles>;
  /** A member's role ids (Discord: "Get Guild Member"). @throws Discord's error (10007 Unknown Member); {@link RoleRouteFailure}. */
  memberRoles(guildId: string, userId: string, signal?: AbortSignal): Promise<string[]>;
  /**
   * @throws Discord's error, with its JSON error `code` and HTTP `status` (10007 Unknown Member, 10011 Unknown Role, 50013
   * Missing Permissions, 60003 two-factor authentication required); {@link RoleRouteFailure} when Discord failed instead.
   */
  add(guildId: string, userId: string, roleId: string, reason: string, signal?: AbortSignal): Promise<void>;
  remove(guildId: string, userId: string, roleId: string, reason: string, signal?: AbortSignal): Promise<void>;
}

/** How often servers' roles are brought in step, ms. */
export const ROLES_EVERY_MS = 60_000;
/** How long one process holds a server's roles, renewed while it works, ms. */
const LEASE_MS = 120_000;
/** How long a run holds its lease before renewing it, ms: well inside {@link LEASE_MS}. */
const RENEW_AFTER_MS = LEASE_MS / 4;
/** Members whose roles change at once: one's change is recorded while the next one's request is under way. */
const IN_FLIGHT = 4;
/**
 * The longest one member's request may take, ms, its waits in the REST budget and the route's bucket included: one
 * member never holds a run longer (discord.js's sleeps past it are cut at ROLE_WAIT_LIMIT_MS, src/ladder/discord-roles.ts).
 * Half a sync's period: a normal change takes well under a second, a bucket's wait a few.
 */
export const ROLE_CALL_DEADLINE_MS = 30_000;
/**
 * How long one server's run may go on, ms: past it, its remaining members wait for the next run, and the other servers
 * get their turn. Members who keep Discord waiting cost up to {@link ROLE_CALL_DEADLINE_MS} each.
 */
export const RUN_BUDGET_MS = 5 * 60_000;
/** Requests in a row that Discord failed, with no answer between: the server or Discord as a whole, not a member; the run stops. */
const STOP_AFTER = 3;

/** Discord JSON error codes (Discord: "JSON Error Codes"). */
const UNKNOWN_GUILD = 10004;
const UNKNOWN_MEMBER = 10007;
const UNKNOWN_ROLE = 10011;
const MISSING_ACCESS = 50001;
const MISSING_PERMISSIONS = 50013;
const TWO_FACTOR_REQUIRED = 60003;

const codeOf = (err: unknown): unknown => (err as { code?: unknown } | null)?.code;
const statusOf = (err: unknown): unknown => (err as { status?: unknown } | null)?.status;

/** Discord's refusal as stored: its JSON code, HTTP status and message (Discord's own words, in English). */
function refusalOf(err: unknown): RoleFailureDetail {
  const code = codeOf(err);
  const status = statusOf(err);
  const message = (err as { rawError?: { message?: unknown }; message?: unknown } | null)?.rawError?.message ?? (err as { message?: unknown }).message;
  return {
    ...(typeof code === 'number' ? { code } : {}),
    ...(typeof status === 'number' ? { status } : {}),
    ...(typeof message === 'string' ? { message: message.slice(0, 200) } : {}),
  };
}

/** Reasons that are about the role itself: fixed once the server's roles allow giving it. */
const ROLE_REASONS = new Set<RoleFailure>(['role-above', 'managed', 'elevated', 'everyone']);

/** What one server's sync did. */
export interface RoleSyncResult {
  added: number;
  removed: number;
  failed: number;
  /** Members left alone: they failed before and wait for an admin, the cause fixed, or their time. */
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
  /** Ms since the epoch: failures' times and back-off, leases. Default `Date.now`. */
  now?: () => number;
  /** This process's name in leases; default a random one. */
  owner?: string;
  /** A member's request's deadline, ms; default {@link ROLE_CALL_DEADLINE_MS}. */
  callDeadlineMs?: number;
  /** How long one server's run may go on, ms, before the rest of its members wait for the next; default {@link RUN_BUDGET_MS}. */
  runBudgetMs?: number;
}

/** The audit-log reason of a change (Discord: "X-Audit-Log-Reason"), in English as the audit log of every server. */
const reasonOf = (c: RoleChange) => (c.tier ? `Rank role for ${c.tier}` : 'Rank role taken back: no longer ranked on the ladder');

/** Thrown by a member's request once the run stopped: the member is left as they are, for the next run. */
const STOPPED = new Error('the run stopped');

/** `start()` syncs every server every {@link ROLES_EVERY_MS} until `stop()`; `run()` and `syncGuild()` once (tests, the benchmark). */
export class RankRoleSync {
  readonly #o: RankRoleSyncOptions;
  readonly #owner: string;
  readonly #job = new BackgroundJob(() => this.run());
  /**
   * By server, members whose failure stopped a run before Discord answered anyone after them: the next run tries them
   * last, and their failures there do not count towards a stop. Without it, {@link STOP_AFTER} members failing in a row at
   * the head of the order would stop every run before the members behind them. In memory: another process starts afresh.
   */
  readonly #suspects = new Map<string, Set<string>>();

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
   * Brings `guildId`'s members' roles in step, holding its lease. A member who cannot be updated (a role the bot may not
   * give, no Manage Roles, the member gone, Discord refusing) is recorded once and held; a deleted role is dropped from the
   * mapping and reported. A member Discord keeps failing for (a 429 not waited out, 5xx, no answer within
   * {@link ROLE_CALL_DEADLINE_MS}) is set aside with a growing back-off and reported once, and the others go on, as long
   * as Discord answers for the server: {@link STOP_AFTER} failures in a row with nothing answered stop the run instead.
   * @throws when Discord fails for the server as a whole (5xx, network, on every member): what was done is recorded,
   * the rest waits for the next run.
   */
  async syncGuild(guildId: string): Promise<RoleSyncResult> {
    const { roles, transport, logger } = this.#o;
    const now = this.#o.now ?? Date.now;
    const deadlineMs = this.#o.callDeadlineMs ?? ROLE_CALL_DEADLINE_MS;
    const runBudgetMs = this.#o.runBudgetMs ?? RUN_BUDGET_MS;
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
          f.reason === 'no-permission' ? guild.manageRoles : ROLE_REASONS.has(f.reason) && f.roleId !== null && cannotGive(f.roleId, guild) === null,
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
      const fail = async (
        c: RoleChange,
        reason: RoleFailure,
        roleId: string | null,
        given?: string | null,
        detail?: RoleFailureDetail,
      ): Promise<RecordedFailure> => {
        result.failed++;
        return roles.recordFailure(guildId, c.userId, { reason, roleId, generation, ...(detail ? { detail } : {}) }, now(), given);
      };
      if (!guild.manageRoles) {
        await roles.setProblem(guildId, { kind: 'no-permission', at: now() });
        for (const c of plan.changes) await fail(c, 'no-permission', c.add ?? c.remove);
        logger.warn({ guildId, members: plan.changes.length }, 'rank roles: the bot lacks Manage Roles; waiting for an admin');
        return result;
      }
      if (plan.settings.problem?.kind === 'no-permission') await roles.setProblem(guildId, null);
      let renewedAt = now();
      const startedAt = renewedAt;
      /** The run's budget is spent: the members left wait for the next run. */
      let outOfTime = false;
      let lost = false;
      /** Set when the run must stop: Discord failing for the server (thrown at the end), or a problem no member's change can pass. */
      let failure: { err: unknown } | undefined;
      /** The first error Discord answered that no member's record explains: what is under way finishes, the rest waits. */
      let thrown: { err: unknown } | undefined;
      let halted = false;
      /** Discord's answers to members' requests in this run (a change made or refused), and its failures in a row since the last one. */
      let answered = 0;
      let inARow = 0;
      /** Members Discord failed for: theirs, once Discord answered another member after them (or, with nothing failed in a row, at all). */
      const failedOn: { c: RoleChange; roleId: string; detail: RoleFailureDetail; answeredBefore: number }[] = [];
      const answeredBefore = new WeakMap<RoleRouteFailure, number>();
      // One member's request at a time, each within its deadline: a member's wait never eats into the next one's.
      const lane = new PQueue({ concurrency: 1 });
      const suspects = this.#suspects.get(guildId) ?? new Set<string>();
      /** Members whose change went through in this run. */
      const done = new Set<string>();
      const ask = <T>(request: (signal: AbortSignal) => Promise<T>, suspect: boolean): Promise<T> =>
        lane.add(async () => {
          if (failure !== undefined || thrown !== undefined || halted || lost || outOfTime) throw STOPPED;
          if (now() - startedAt >= runBudgetMs) {
            outOfTime = true;
            logger.info({ guildId, budgetMs: runBudgetMs }, "rank roles: a server's run reached its time; its other members wait for the next run");
            throw STOPPED;
          }
          // Renewed by the clock, not by count, before each request: a run slowed by 429s or a busy budget keeps its lease.
          if (now() - renewedAt >= RENEW_AFTER_MS) {
            renewedAt = now();
            if (!(await roles.lease(guildId, this.#owner, now(), LEASE_MS))) {
              lost = true;
              throw STOPPED;
            }
          }
          try {
            const signal = AbortSignal.timeout(deadlineMs);
            // discord.js adds a listener to the signal for each attempt (every 429 waited out): many, and gone with the signal.
            setMaxListeners(0, signal);
            const out = await request(signal);
            answered++;
            inARow = 0;
            return out;
          } catch (err) {
            if (err instanceof RoleRouteFailure) {
              answeredBefore.set(err, answered);
              // A suspect failing again says nothing new of the server.
              if (!suspect && ++inARow >= STOP_AFTER) failure ??= { err };
            } else {
              answered++;
              inARow = 0;
              // Decided here, before the lane hands on the next request: no member's change can pass (see below).
              if (codeOf(err) === TWO_FACTOR_REQUIRED) halted = true;
            }
            throw err;
          }
        });
      // A few members at a time: one member's change is recorded while the next one's request is under way.
      const queue = new PQueue({ concurrency: IN_FLIGHT });
      const change = async (c: RoleChange): Promise<void> => {
        if (lost) return;
        // Checked before asking: a role the bot may not give would fail for every member of its tier.
        for (const id of [c.add, c.remove]) {
          const why = id === null ? null : cannotGive(id, guild);
          if (id === null || why === null) continue;
          if (why === 'gone') await roles.roleGone(guildId, id, now());
          else await fail(c, why, id);
          return;
        }
        /** The member's failure on `roleId` is recorded, or the run stopped: 'stop'; else 'ok'. */
        const failed = async (err: unknown, roleId: string, change: 'add' | 'remove' | 'read'): Promise<'ok' | 'stop'> => {
          if (err === STOPPED) return 'stop';
          if (err instanceof RoleRouteFailure) {
            failedOn.push({ c, roleId, detail: err.detail, answeredBefore: answeredBefore.get(err) ?? answered });
            return 'stop';
          }
          const code = codeOf(err);
          // A member who left holds no role of this server any more.
          if (code === UNKNOWN_MEMBER) await fail(c, 'member-gone', roleId, null);
          else if (code === UNKNOWN_ROLE && change !== 'read') {
            await roles.roleGone(guildId, roleId, now());
            // A role to take back that no longer exists is taken back: the new one is still recorded as the bot's.
            if (change === 'remove') return 'ok';
          } else if (code === TWO_FACTOR_REQUIRED) {
            // The server asks moderators, the bot's owner too, for two-factor authentication: no member's change can pass.
            if (plan.settings.problem?.kind !== 'mfa-required')
              logger.warn({ guildId }, "rank roles: the server requires two-factor authentication for moderation and the bot's owner has none; waiting");
            await roles.setProblem(guildId, { kind: 'mfa-required', at: now() });
          } else if ((code === MISSING_PERMISSIONS || statusOf(err) === 403) && change !== 'read') {
            // Read again, the server's roles tell the cause; when none of Discord's rules explains it, Discord's answer is reported as it is.
            guild = await transport.guildRoles(guildId);
            const cause = refusalCause(roleId, guild);
            const detail = cause ? undefined : refusalOf(err);
            const recorded = await fail(c, cause ?? 'refused', roleId, undefined, detail);
            if (!cause && recorded.failures === 1)
              logger.warn(
                { guildId, userId: c.userId, roleId, discord: detail },
                "rank roles: Discord refused a member's role for no cause the bot can see; held until an admin acts or a day passes",
              );
          } else throw err;
          return 'stop';
        };
        const step = async (roleId: string, change: 'add' | 'remove'): Promise<'ok' | 'stop'> => {
          try {
            await ask((signal) => transport[change](guildId, c.userId, roleId, reasonOf(c), signal), suspects.has(c.userId));
            return 'ok';
          } catch (err) {
            return failed(err, roleId, change);
          }
        };
        // A member's first rank role: one they already hold (self-assigned before the bot mapped it) stays theirs, never taken back.
        let owned = true;
        if (c.add !== null && c.firstGiven) {
          const add = c.add;
          try {
            owned = !(await ask((signal) => transport.memberRoles(guildId, c.userId, signal), suspects.has(c.userId))).includes(add);
          } catch (err) {
            await failed(err, add, 'read');
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
        done.add(c.userId);
      };
      // Suspects last: the members before them say whether Discord answers for the server.
      const ordered = [...plan.changes.filter((c) => !suspects.has(c.userId)), ...plan.changes.filter((c) => suspects.has(c.userId))];
      for (const c of ordered)
        void queue.add(async () => {
          if (thrown === undefined) await change(c).catch((err: unknown) => void (thrown ??= { err }));
        });
      await queue.onIdle();
      // Discord answered for the server after a member's failure, or, the run not stopped, answered at all: the failure is
      // the member's. With nothing answered in the whole run, the server's roles are read: Discord failing that too is the server.
      let confirmed = failedOn.filter((f) => answered > f.answeredBefore);
      const unsure = failedOn.filter((f) => answered <= f.answeredBefore);
      if (failure === undefined && thrown === undefined && unsure.length > 0) {
        if (answered === 0) await transport.guildRoles(guildId);
        confirmed = failedOn;
      }
      for (const f of confirmed) {
        const recorded = await fail(f.c, 'discord-error', f.roleId, undefined, f.detail);
        if (recorded.failures === 1)
          logger.warn(
            { guildId, userId: f.c.userId, roleId: f.roleId, discord: f.detail, retryAt: new Date(recorded.retryAt).toISOString() },
            "rank roles: Discord keeps failing on a member's role; set aside, the others go on",
          );
        else logger.debug({ guildId, userId: f.c.userId, failures: recorded.failures }, 'rank roles: Discord failed on a member set aside again');
      }
      // A run stopped with members' failures unexplained: they are the suspects of the next run.
      const settled = new Set([...done, ...confirmed.map((f) => f.c.userId)]);
      const next = new Set([...suspects].filter((u) => !settled.has(u)));
      if (failure !== undefined) for (const f of failedOn) if (!settled.has(f.c.userId)) next.add(f.c.userId);
      if (next.size > 0) this.#suspects.set(guildId, next);
      else this.#suspects.delete(guildId);
      if (thrown !== undefined) throw thrown.err;
      if (failure !== undefined) throw failure.err;
      // A change went through: the server no longer asks what it asked before.
      if (!halted && result.added + result.removed > 0 && plan.settings.problem?.kind === 'mfa-required') await roles.setProblem(guildId, null);
      return result;
    } finally {
      await roles.release(guildId, this.#owner);
    }
  }
}
