/** Servers' rank roles over real databases, on both engines: the plan, the lease, failures held and retried, deleted roles. */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_BACKOFF_FIRST_MS, ROLE_RETRY_MS } from '../../src/game/rank-roles.js';
import type { State } from '../../src/store/state.js';
import { databaseAt, ENGINES, newStateLocation, openAt, openTestState, type TestStateLocation } from '../helpers/state.js';

const T0 = Date.UTC(2026, 10, 1);
const GUILD = 'g1';

describe.each(ENGINES)('on %s', (engine) => {
  let state: State & { where: TestStateLocation };
  beforeAll(async () => {
    state = await openTestState(engine);
    await state.ladder.setEnabled(GUILD, true, T0);
    for (const [user, uid, tier] of [
      ['u1', '1', 'Gold II'],
      ['u2', '2', 'Silver I'],
      ['u3', '3', 'Invalid level'],
    ] as const) {
      await state.links.link(user, { uid, name: `P${uid}` }, false, T0);
      await state.database.db.updateTable('account_links').set({ verified_at: T0 }).where('user_id', '=', user).execute();
      await state.ladder.setStanding(uid, { season: 9, tier, score: 3500, peak: 3500, matches: 1, role: null, weekDelta: null, private: false }, T0);
      await state.ladder.join(GUILD, user, T0);
    }
  });
  afterAll(async () => state.close());

  it('plans each ranked member’s role, holds a failed member until an admin acts or a day passes, and takes back roles when off', async () => {
    const roles = state.rankRoles;
    expect(await roles.plan(GUILD, T0)).toMatchObject({ changes: [], held: 0 });
    const on = await roles.configure(GUILD, { enabled: true, set: { Gold: 'rg', Silver: 'rs' } }, T0);
    expect(on).toMatchObject({ enabled: true, roles: { Gold: 'rg', Silver: 'rs' }, generation: 1, problem: null });
    // A tier the API names oddly has no role: nothing is planned for it.
    expect((await roles.plan(GUILD, T0)).changes).toEqual([
      { userId: 'u1', add: 'rg', remove: null, tier: 'Gold II', firstGiven: true },
      { userId: 'u2', add: 'rs', remove: null, tier: 'Silver I', firstGiven: true },
    ]);
    await roles.recordGiven(GUILD, 'u1', 'rg');
    await roles.recordFailure(GUILD, 'u2', { reason: 'role-above', roleId: 'rs', generation: 1 }, T0);
    expect(await roles.plan(GUILD, T0 + 1)).toMatchObject({ changes: [], held: 1 });
    expect((await roles.plan(GUILD, T0 + ROLE_RETRY_MS + 1)).changes.map((c) => c.userId)).toEqual(['u2']);
    await roles.configure(GUILD, {}, T0 + 2);
    expect((await roles.plan(GUILD, T0 + 2)).changes.map((c) => c.userId)).toEqual(['u2']);
    expect(await roles.failures(GUILD)).toEqual({
      rows: [{ userId: 'u2', reason: 'role-above', roleId: 'rs', at: T0, failures: 1, retryAt: T0 + ROLE_RETRY_MS, detail: null }],
      total: 1,
    });

    // Off: the role given is taken back, and nothing is given.
    await roles.configure(GUILD, { enabled: false }, T0 + 3);
    expect((await roles.plan(GUILD, T0 + 3)).changes).toEqual([{ userId: 'u1', add: null, remove: 'rg', tier: null, firstGiven: false }]);
    expect(await roles.guildsToSync()).toEqual([GUILD]);
    // The dry run shows what turning them on would do.
    expect((await roles.plan(GUILD, T0 + 3, { enabled: true })).changes.map((c) => c.userId)).toEqual(['u2']);
    await roles.recordGiven(GUILD, 'u1', null);
    expect(await roles.guildsToSync()).toEqual([]);
  });

  it('a deleted role leaves the mapping, is reported, and is no longer anyone’s', async () => {
    const roles = state.rankRoles;
    await roles.configure(GUILD, { enabled: true, set: { Gold: 'rg', 'Gold II': 'rg2' } }, T0);
    await roles.recordGiven(GUILD, 'u1', 'rg2');
    await roles.roleGone(GUILD, 'rg2', T0 + 5);
    const s = await roles.settings(GUILD);
    expect(s.roles).toEqual({ Gold: 'rg', Silver: 'rs' });
    expect(s.problem).toEqual({ kind: 'role-deleted', roleId: 'rg2', key: 'Gold II', at: T0 + 5 });
    expect((await roles.plan(GUILD, T0 + 5)).changes.find((c) => c.userId === 'u1')).toEqual({
      userId: 'u1',
      add: 'rg',
      remove: null,
      tier: 'Gold II',
      firstGiven: true,
    });
    // An admin's next change clears the problem.
    expect((await roles.configure(GUILD, {}, T0 + 6)).problem).toBeNull();
  });

  it('one process holds a server’s lease at a time, until it releases it or it runs out', async () => {
    const roles = state.rankRoles;
    expect(await roles.lease(GUILD, 'a', T0, 1_000)).toBe(true);
    expect(await roles.lease(GUILD, 'b', T0 + 10, 1_000)).toBe(false);
    expect(await roles.lease(GUILD, 'a', T0 + 10, 1_000)).toBe(true);
    expect(await roles.lease(GUILD, 'b', T0 + 1_011, 1_000)).toBe(true);
    await roles.release(GUILD, 'a');
    expect(await roles.lease(GUILD, 'a', T0 + 1_012, 1_000)).toBe(false);
    await roles.release(GUILD, 'b');
    expect(await roles.lease(GUILD, 'a', T0 + 1_013, 1_000)).toBe(true);
    // A server never configured can be leased too (its roles may still need taking back).
    expect(await roles.lease('new', 'a', T0, 1_000)).toBe(true);
  });

  it('a member’s data: shown, and on erase the failure goes while a given role waits to be taken back', async () => {
    const roles = state.rankRoles;
    await roles.recordGiven(GUILD, 'u9', 'rg');
    await roles.recordFailure('g2', 'u9', { reason: 'member-gone', roleId: 'rx', generation: 0 }, T0);
    expect((await state.memberData.collect('u9')).rankRoles).toEqual([
      { guildId: GUILD, roleId: 'rg', failure: null },
      { guildId: 'g2', roleId: null, failure: 'member-gone' },
    ]);
    await state.memberData.erase('u9', T0);
    expect(await roles.givenTo('u9')).toEqual([{ guildId: GUILD, roleId: 'rg', failure: null }]);
    expect((await roles.plan(GUILD, T0)).changes.find((c) => c.userId === 'u9')).toEqual({
      userId: 'u9',
      add: null,
      remove: 'rg',
      tier: null,
      firstGiven: false,
    });
  });
});

describe.each(ENGINES)('a member Discord keeps failing for, on %s', (engine) => {
  let state: State & { where: TestStateLocation };
  beforeAll(async () => {
    state = await openTestState(engine);
    await state.ladder.setEnabled(GUILD, true, T0);
    await state.links.link('u1', { uid: '1', name: 'P1' }, false, T0);
    await state.database.db.updateTable('account_links').set({ verified_at: T0 }).where('user_id', '=', 'u1').execute();
    await state.ladder.setStanding('1', { season: 9, tier: 'Gold II', score: 3500, peak: 3500, matches: 1, role: null, weekDelta: null, private: false }, T0);
    await state.ladder.join(GUILD, 'u1', T0);
    await state.rankRoles.configure(GUILD, { enabled: true, set: { Gold: 'rg' } }, T0);
  });
  afterAll(async () => state.close());

  it('is held on a back-off that doubles from 5 minutes up to a day, counted per episode; a success or another reason starts over', async () => {
    const roles = state.rankRoles;
    const { generation } = await roles.settings(GUILD);
    const failure = { reason: 'discord-error' as const, roleId: 'rg', generation, detail: { kind: 'rate-limited' as const, status: 429 } };
    let at = T0;
    let failedAt = T0;
    const waits: number[] = [];
    for (let n = 1; n <= 10; n++) {
      failedAt = at;
      const recorded = await roles.recordFailure(GUILD, 'u1', failure, at);
      expect(recorded.failures).toBe(n);
      waits.push(recorded.retryAt - at);
      // Held until its time, and not a moment longer.
      expect(await roles.plan(GUILD, recorded.retryAt - 1)).toMatchObject({ changes: [], held: 1 });
      expect((await roles.plan(GUILD, recorded.retryAt)).changes.map((c) => c.userId)).toEqual(['u1']);
      at = recorded.retryAt;
    }
    const minute = 60_000;
    expect(waits).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 1280, 1440].map((m) => m * minute));
    expect((await roles.failures(GUILD)).rows).toEqual([
      { userId: 'u1', reason: 'discord-error', roleId: 'rg', at: failedAt, failures: 10, retryAt: at, detail: { kind: 'rate-limited', status: 429 } },
    ]);
    // Another reason is another episode; a refusal waits a day, with Discord's answer kept.
    const refused = await roles.recordFailure(
      GUILD,
      'u1',
      { reason: 'refused', roleId: 'rg', generation, detail: { code: 50013, status: 403, message: 'Missing Permissions' } },
      at,
    );
    expect(refused).toEqual({ failures: 1, retryAt: at + ROLE_RETRY_MS });
    // Given at last: the episode is over, and the next failure is the first again.
    await roles.recordGiven(GUILD, 'u1', 'rg');
    expect((await roles.failures(GUILD)).total).toBe(0);
    await roles.recordGiven(GUILD, 'u1', null);
    expect(await roles.recordFailure(GUILD, 'u1', failure, at)).toEqual({ failures: 1, retryAt: at + ROLE_BACKOFF_FIRST_MS });
    // An admin's change tries them at once, and the count goes on.
    await roles.configure(GUILD, {}, at);
    expect((await roles.plan(GUILD, at)).changes.map((c) => c.userId)).toEqual(['u1']);
    expect((await roles.recordFailure(GUILD, 'u1', { ...failure, generation: generation + 1 }, at)).failures).toBe(2);
    await roles.clearFailures(GUILD, ['u1']);
    expect((await roles.failures(GUILD)).total).toBe(0);
  });
});

describe.each(ENGINES)('upgrade from 0018_guild_display on %s', (engine) => {
  it('keeps a member held by a failure recorded before the back-off: once, tried again a day after it, as before', async () => {
    const where = await newStateLocation(engine);
    try {
      await databaseAt(where, '0018_guild_display', async (db) => {
        await sql`INSERT INTO rank_role_settings (guild_id, enabled, roles, generation, problem, updated_at) VALUES ('g-old', 1, '{"Gold":"rg"}', 1, NULL, 1)`.execute(
          db,
        );
        await sql`INSERT INTO rank_role_members (guild_id, user_id, role_id, owned, failure, failure_role_id, failed_at, failed_generation)
          VALUES ('g-old', 'u-old', NULL, 1, 'role-above', 'rg', ${T0}, 1)`.execute(db);
      });
      const state = await openAt(where);
      try {
        expect((await state.rankRoles.failures('g-old')).rows).toEqual([
          { userId: 'u-old', reason: 'role-above', roleId: 'rg', at: T0, failures: 1, retryAt: T0 + ROLE_RETRY_MS, detail: null },
        ]);
        // The next failure for the same reason is the second of the episode.
        expect((await state.rankRoles.recordFailure('g-old', 'u-old', { reason: 'role-above', roleId: 'rg', generation: 1 }, T0 + 1)).failures).toBe(2);
      } finally {
        await state.close();
      }
    } finally {
      where.cleanup();
    }
  });
});
