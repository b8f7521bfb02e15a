/** Servers' ladders over real databases, on both engines: who is listed, by which account, in which order, and who is left out. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Standing } from '../../src/game/ladder.js';
import type { LadderQuery } from '../../src/store/ladder/index.js';
import type { State } from '../../src/store/state.js';
import { ENGINES, openTestState, type TestStateLocation } from '../helpers/state.js';

const T0 = Date.UTC(2026, 10, 1);
const GUILD = 'g1';

const standing = (score: number | null, extra: Partial<Standing> = {}): Standing => ({
  season: 9,
  tier: 'Gold II',
  score,
  peak: score,
  matches: 12,
  role: 'Duelist',
  weekDelta: null,
  private: false,
  ...extra,
});

describe.each(ENGINES)('on %s', (engine) => {
  let state: State & { where: TestStateLocation };
  beforeAll(async () => {
    state = await openTestState(engine);
  });
  afterAll(async () => state.close());

  const reset = async () => {
    // Through the store, as /privacy delete does: this process then forgets them too.
    for (const { user_id } of await state.database.db.selectFrom('ladder_members').select('user_id').distinct().execute())
      await state.ladder.forgetMember(user_id);
    for (const table of ['ladder_members', 'ladder_settings', 'player_standings', 'account_links'] as const)
      await state.database.db.deleteFrom(table).execute();
  };
  /** Member `user` linked `uid` (proved unless told), and its standing. */
  const member = async (user: string, uid: string, s: Standing | null, options: { verified?: boolean; guild?: string; platform?: string } = {}) => {
    await state.links.link(user, { uid, name: `P${uid}` }, false, T0);
    if (options.verified !== false)
      await state.database.db.updateTable('account_links').set({ verified_at: T0 }).where('user_id', '=', user).where('uid', '=', uid).execute();
    if (s) await state.ladder.setStanding(uid, s, T0);
    await state.ladder.join(options.guild ?? GUILD, user, T0, options.platform ? { platform: options.platform } : {});
  };
  const page = (q: Partial<LadderQuery> = {}) => state.ladder.page({ guildId: GUILD, period: 'season', page: 1, pageSize: 10, ...q });

  it('is off until an admin turns it on, per server', async () => {
    await reset();
    expect(await state.ladder.enabled(GUILD)).toBe(false);
    await state.ladder.setEnabled(GUILD, true, T0);
    expect(await state.ladder.enabled(GUILD)).toBe(true);
    expect(await state.ladder.enabled('other')).toBe(false);
    await state.ladder.setEnabled(GUILD, false, T0);
    expect(await state.ladder.enabled(GUILD)).toBe(false);
  });

  it('lists proved accounts by rank score, counts who is left out by reason, and finds the asking member on any page', async () => {
    await reset();
    for (let i = 0; i < 25; i++) await member(`u${i}`, String(1000 + i), standing(3000 + i * 10));
    await member('unproved', '2000', standing(5000), { verified: false });
    await member('private', '2001', standing(5000, { private: true }));
    await member('unread', '2002', null);
    await member('gone', '2003', standing(5000));
    await state.ladder.join(GUILD, 'gone', T0, { optedOut: true });
    // Another server's member is not this server's.
    await member('elsewhere', '2004', standing(6000), { guild: 'g2' });

    const first = await page({ userId: 'u0' });
    expect(first.listed).toBe(25);
    expect(first.rows.map((r) => r.userId)).toEqual(Array.from({ length: 10 }, (_, i) => `u${24 - i}`));
    expect(first.rows.map((r) => r.position)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(first.rows[0]).toMatchObject({ uid: '1024', name: 'P1024', standing: { score: 3240, tier: 'Gold II', matches: 12, role: 'Duelist' } });
    expect(first.me).toMatchObject({ userId: 'u0', position: 25 });
    expect(first.leftOut).toEqual({ optedOut: 1, unverified: 1, private: 1, unranked: 1 });

    const third = await page({ page: 3, userId: 'u24' });
    expect(third.rows.map((r) => r.position)).toEqual([21, 22, 23, 24, 25]);
    expect(third.me).toMatchObject({ userId: 'u24', position: 1 });
    // A member on the page shown is not repeated below it.
    expect((await page({ userId: 'u20' })).me).toBeNull();
    // Past the end: no row, and the count still right.
    expect(await page({ page: 9 })).toMatchObject({ rows: [], listed: 25 });
  });

  it('a member is listed by the account they chose, else their default, else their first proved one; an unproved choice does not count', async () => {
    await reset();
    await member('m', '1', standing(3100));
    await member('m', '2', standing(3500));
    expect((await page()).rows.map((r) => r.uid)).toEqual(['1']);
    await state.links.link('m', { uid: '2', name: 'P2' }, true, T0);
    expect((await page()).rows.map((r) => r.uid)).toEqual(['2']);
    await state.ladder.join(GUILD, 'm', T0, { chosenUid: '1' });
    expect((await page()).rows.map((r) => r.uid)).toEqual(['1']);
    await member('m', '3', standing(4000), { verified: false });
    await state.ladder.join(GUILD, 'm', T0, { chosenUid: '3' });
    expect((await page()).rows.map((r) => r.uid)).toEqual(['2']);
    // Unlinking the account the member was listed by moves them to the next one at once.
    await state.links.unlink('m', '2');
    expect((await page()).rows.map((r) => r.uid)).toEqual(['1']);
    expect((await state.ladder.membership(GUILD, 'm'))?.chosenUid).toBe('3');
  });

  it('filters by main role and stated platform; "this week" ranks by the week’s gain, members with no change recorded last', async () => {
    await reset();
    await member('a', '1', standing(4000, { role: 'Vanguard', weekDelta: 10 }), { platform: 'pc' });
    await member('b', '2', standing(3500, { role: 'Strategist', weekDelta: 120 }), { platform: 'ps' });
    await member('c', '3', standing(3900, { role: 'Vanguard', weekDelta: null }), { platform: 'pc' });
    await member('d', '4', standing(3000, { role: 'Vanguard', weekDelta: -40 }));
    expect((await page({ role: 'Vanguard' })).rows.map((r) => r.userId)).toEqual(['a', 'c', 'd']);
    expect((await page({ role: 'vanguard', platform: 'pc' })).rows.map((r) => r.userId)).toEqual(['a', 'c']);
    expect((await page({ platform: 'xbox' })).listed).toBe(0);
    expect((await page({ period: 'week' })).rows.map((r) => [r.userId, r.standing.weekDelta])).toEqual([
      ['b', 120],
      ['a', 10],
      ['d', -40],
      ['c', null],
    ]);
  });

  it('a private profile keeps its last standing for when it opens again; a member’s ladder rows go with their data', async () => {
    await reset();
    await member('m', '1', standing(3300));
    await state.ladder.setPrivate('1', T0 + 1);
    expect(await page()).toMatchObject({ listed: 0, leftOut: { private: 1 } });
    await state.ladder.setStanding('1', standing(3400), T0 + 2);
    expect((await page()).rows.map((r) => r.standing.score)).toEqual([3400]);
    expect((await state.ladder.memberships('m')).map((m) => m.guildId)).toEqual([GUILD]);
    expect(await state.ladder.forgetMember('m')).toBe(1);
    expect(await page()).toMatchObject({ listed: 0, leftOut: { optedOut: 0, unverified: 0, private: 0, unranked: 0 } });
  });
});
