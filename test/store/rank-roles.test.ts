/** Servers' rank roles over real databases, on both engines: the plan, the lease, failures held and retried, deleted roles. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_RETRY_MS } from '../../src/game/rank-roles.js';
import type { State } from '../../src/store/state.js';
import { ENGINES, openTestState, type TestStateLocation } from '../helpers/state.js';

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
    expect(await roles.failures(GUILD)).toEqual({ rows: [{ userId: 'u2', reason: 'role-above', roleId: 'rs', at: T0 }], total: 1 });

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
