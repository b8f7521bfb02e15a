/**
 * Rank roles kept in step against the fake Discord's role routes, through @discordjs/rest: the exact calls, the roles
 * members end with, and every failure recorded once and held (a role above the bot's, no Manage Roles, a member gone,
 * a deleted role), with 429s on the role route waited out.
 */
import { REST } from '@discordjs/rest';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Standing } from '../../src/game/ladder.js';
import { ROLE_RETRY_MS } from '../../src/game/rank-roles.js';
import { discordRoleTransport } from '../../src/feeds/discord-roles.js';
import { RankRoleSync, type RoleTransport } from '../../src/feeds/rank-roles.js';
import type { State } from '../../src/store/state.js';
import { APP_ID, CHANNEL_ID, GUILD_ID, memberRoleCalls, startFakeDiscord, type FakeDiscord } from '../e2e/fake-discord.js';
import { DiscordRestBudget, UNCOUNTED } from '../../src/discord/rest-budget.js';
import { runWithDeadline, runWithoutDeadline } from '../../src/core/deadline.js';
import { pollUntil } from '../helpers/until.js';
import { memoryState } from '../helpers/state.js';

const T0 = Date.UTC(2026, 10, 1);
const MANAGE_ROLES = 1n << 28n;

const standing = (tier: string, score: number): Standing => ({
  season: 9,
  tier,
  score,
  peak: score,
  matches: 10,
  role: 'Duelist',
  weekDelta: null,
  private: false,
});

const roleCalls = memberRoleCalls;

describe('rank roles against the fake Discord', () => {
  let fake: FakeDiscord;
  let rest: REST;
  let state: State;
  let now = T0;
  let roles: { bot: string; gold: string; goldII: string; silver: string; plat: string; high: string; other: string };
  let sync: RankRoleSync;
  let transport: RoleTransport;
  const users = ['300000000000000001', '300000000000000002', '300000000000000003'] as const;

  beforeAll(async () => {
    fake = await startFakeDiscord({ roleRouteLimit: { limit: 50, resetMs: 1_000 } });
    rest = new REST({ api: fake.apiUrl, retries: 2 }).setToken('test-token');
  });
  afterAll(async () => {
    await fake.close();
  });

  /** A fresh server: the bot's role at position 10 with Manage Roles, rank roles below it, `high` above it; three ranked members. */
  beforeEach(async () => {
    state = memoryState();
    now = T0;
    const g = fake.guildRoles;
    roles = {
      bot: g.addRole(GUILD_ID, { name: 'Rivals Bot', position: 10, permissions: MANAGE_ROLES, managed: true }),
      gold: g.addRole(GUILD_ID, { name: 'Gold', position: 3 }),
      goldII: g.addRole(GUILD_ID, { name: 'Gold II', position: 4 }),
      silver: g.addRole(GUILD_ID, { name: 'Silver', position: 2 }),
      plat: g.addRole(GUILD_ID, { name: 'Platinum', position: 5 }),
      high: g.addRole(GUILD_ID, { name: 'Moderators', position: 11 }),
      other: g.addRole(GUILD_ID, { name: 'Artist', position: 1 }),
    };
    g.setMember(GUILD_ID, APP_ID, [roles.bot]);
    for (const u of users) g.setMember(GUILD_ID, u, [roles.other]);
    await state.ladder.setEnabled(GUILD_ID, true, T0);
    const tiers = ['Gold II', 'Silver I', 'Gold I'];
    for (const [i, u] of users.entries()) {
      const uid = String(1000 + i);
      await state.links.link(u, { uid, name: `P${uid}` }, false, T0);
      await state.database.db.updateTable('account_links').set({ verified_at: T0 }).where('user_id', '=', u).execute();
      await state.ladder.setStanding(uid, standing(tiers[i]!, 4000 - i * 100), T0);
      await state.ladder.join(GUILD_ID, u, T0);
    }
    await state.rankRoles.configure(GUILD_ID, { enabled: true, set: { Gold: roles.gold, 'Gold II': roles.goldII, Silver: roles.silver } }, T0);
    transport = discordRoleTransport(rest, () => APP_ID);
    sync = new RankRoleSync({ roles: state.rankRoles, transport, logger: pino({ level: 'silent' }), now: () => now, owner: 'p1' });
  });

  it('gives each ranked member the role of their division or tier, then follows rank changes, leaving other roles alone', async () => {
    const [u1, u2, u3] = users;
    let from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 3, removed: 0, failed: 0 });
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${u1} ${roles.goldII}`, `PUT ${u2} ${roles.silver}`, `PUT ${u3} ${roles.gold}`]);
    expect(fake.guildRoles.memberRoles(GUILD_ID, u1)).toEqual([roles.other, roles.goldII]);

    // In step: a second run changes nothing.
    from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 0, removed: 0 });
    expect(roleCalls(fake.calls, from)).toEqual([]);

    // Silver I → Gold III: the new role first, then the old one taken back.
    await state.ladder.setStanding('1001', standing('Gold III', 3700), T0 + 1);
    from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 1, removed: 1 });
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${u2} ${roles.gold}`, `DELETE ${u2} ${roles.silver}`]);
    expect(fake.guildRoles.memberRoles(GUILD_ID, u2)).toEqual([roles.other, roles.gold]);

    // Leaving the ladder, unlinking: the role the bot gave goes, and only it.
    await state.ladder.join(GUILD_ID, u1, T0, { optedOut: true });
    await state.links.unlink(u3, '1002');
    from = fake.calls.length;
    await sync.syncGuild(GUILD_ID);
    expect(roleCalls(fake.calls, from)).toEqual([`DELETE ${u1} ${roles.goldII}`, `DELETE ${u3} ${roles.gold}`]);
    expect(fake.guildRoles.memberRoles(GUILD_ID, u1)).toEqual([roles.other]);
    expect(fake.guildRoles.memberRoles(GUILD_ID, u3)).toEqual([roles.other]);

    // Turned off: every role the bot gave is taken back, then the server is no longer synced.
    await state.rankRoles.configure(GUILD_ID, { enabled: false }, T0);
    expect(await state.rankRoles.guildsToSync()).toEqual([GUILD_ID]);
    from = fake.calls.length;
    await sync.run();
    expect(roleCalls(fake.calls, from)).toEqual([`DELETE ${u2} ${roles.gold}`]);
    expect(await state.rankRoles.guildsToSync()).toEqual([]);
  });

  it('records a role above the bot once, asks nothing for it again, and retries after an admin acts or a day', async () => {
    await state.rankRoles.configure(GUILD_ID, { set: { Silver: roles.high } }, T0);
    let from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 2, failed: 1 });
    // Checked before asking: no call for the role the bot may not give.
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${users[0]} ${roles.goldII}`, `PUT ${users[2]} ${roles.gold}`]);
    expect((await state.rankRoles.failures(GUILD_ID)).rows).toEqual([{ userId: users[1], reason: 'role-above', roleId: roles.high, at: T0 }]);

    from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 0, failed: 0, held: 1 });
    expect(roleCalls(fake.calls, from)).toEqual([]);

    // The admin moves the role below the bot's and maps it again: tried at once.
    fake.guildRoles.editRole(GUILD_ID, roles.high, { position: 6 });
    await state.rankRoles.configure(GUILD_ID, { set: { Silver: roles.high } }, T0);
    from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 1, failed: 0, held: 0 });
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${users[1]} ${roles.high}`]);
    expect((await state.rankRoles.failures(GUILD_ID)).total).toBe(0);

    // A member who left: recorded once, held, then tried again a day later.
    fake.guildRoles.removeMember(GUILD_ID, users[0]);
    await state.ladder.setStanding('1000', standing('Platinum III', 4200), T0 + 2);
    await state.rankRoles.configure(GUILD_ID, { set: { Platinum: roles.plat } }, T0);
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ failed: 1 });
    expect((await state.rankRoles.failures(GUILD_ID)).rows).toMatchObject([{ userId: users[0], reason: 'member-gone', roleId: roles.plat }]);
    from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ held: 1 });
    expect(roleCalls(fake.calls, from)).toEqual([]);
    now = T0 + ROLE_RETRY_MS + 1;
    fake.guildRoles.setMember(GUILD_ID, users[0], []);
    from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 1, held: 0 });
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${users[0]} ${roles.plat}`]);
  });

  it('without Manage Roles changes nothing and reports it; a deleted role turns its tier off and is reported', async () => {
    fake.guildRoles.editRole(GUILD_ID, roles.bot, { permissions: 0n });
    let from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 0, failed: 3 });
    expect(roleCalls(fake.calls, from)).toEqual([]);
    expect((await state.rankRoles.settings(GUILD_ID)).problem).toMatchObject({ kind: 'no-permission' });
    expect(new Set((await state.rankRoles.failures(GUILD_ID)).rows.map((r) => r.reason))).toEqual(new Set(['no-permission']));

    // Held while nothing changes: the next run asks nothing.
    from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 0, held: 3 });
    expect(roleCalls(fake.calls, from)).toEqual([]);
    // Fixed in Discord itself, without /config: the next run sees it and tries them again.
    fake.guildRoles.editRole(GUILD_ID, roles.bot, { permissions: MANAGE_ROLES });
    fake.guildRoles.deleteRole(GUILD_ID, roles.silver);
    from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 2, failed: 0 });
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${users[0]} ${roles.goldII}`, `PUT ${users[2]} ${roles.gold}`]);
    const after = await state.rankRoles.settings(GUILD_ID);
    expect(after.roles).toEqual({ Gold: roles.gold, 'Gold II': roles.goldII });
    expect(after.problem).toMatchObject({ kind: 'role-deleted', roleId: roles.silver, key: 'Silver' });
  });

  it('a rank role a member held before the bot mapped it stays theirs: recorded, never taken back', async () => {
    // u2 (Silver I) gave themselves the Silver role before; u1 never had Gold II.
    fake.guildRoles.setMember(GUILD_ID, users[1], [roles.other, roles.silver]);
    let from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 2 });
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${users[0]} ${roles.goldII}`, `PUT ${users[2]} ${roles.gold}`]);
    // The bot read each member's roles once, before their first rank role.
    expect(fake.calls.slice(from).filter((c) => c.method === 'GET' && /\/members\/3\d+$/.test(c.path))).toHaveLength(3);
    // u2 ranks up to Gold: Gold is added, their own Silver stays; turned off, the bot takes back only what it gave.
    await state.ladder.setStanding('1001', standing('Gold III', 3700), T0 + 1);
    from = fake.calls.length;
    await sync.syncGuild(GUILD_ID);
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${users[1]} ${roles.gold}`]);
    expect(fake.guildRoles.memberRoles(GUILD_ID, users[1])).toEqual([roles.other, roles.silver, roles.gold]);
    await state.rankRoles.configure(GUILD_ID, { enabled: false }, T0);
    await sync.syncGuild(GUILD_ID);
    expect(fake.guildRoles.memberRoles(GUILD_ID, users[1])).toEqual([roles.other, roles.silver]);
  });

  it('a role deleted after the bot gave it is forgotten: Discord answers Unknown Role, nothing loops', async () => {
    await sync.syncGuild(GUILD_ID);
    // Deleted between the read of the server's roles and the change: the route's own answer says so.
    const gone = roles.silver;
    const racing: RoleTransport = {
      ...transport,
      guildRoles: async (g) => {
        const view = await transport.guildRoles(g);
        fake.guildRoles.deleteRole(GUILD_ID, gone);
        return view;
      },
    };
    await state.ladder.setStanding('1001', standing('Gold III', 3700), T0 + 1);
    const racer = new RankRoleSync({ roles: state.rankRoles, transport: racing, logger: pino({ level: 'silent' }), now: () => now, owner: 'p1' });
    const from = fake.calls.length;
    expect(await racer.syncGuild(GUILD_ID)).toMatchObject({ added: 1, failed: 0 });
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${users[1]} ${roles.gold}`, `DELETE ${users[1]} ${gone}`]);
    expect((await state.rankRoles.settings(GUILD_ID)).roles.Silver).toBeUndefined();
    // The new role is recorded as the bot's: in step, and taken back when rank roles go off.
    const again = fake.calls.length;
    await sync.syncGuild(GUILD_ID);
    expect(roleCalls(fake.calls, again)).toEqual([]);
    expect(fake.guildRoles.memberRoles(GUILD_ID, users[1])).toEqual([roles.other, roles.gold]);
    await state.rankRoles.configure(GUILD_ID, { enabled: false }, T0);
    await sync.syncGuild(GUILD_ID);
    expect(fake.guildRoles.memberRoles(GUILD_ID, users[1])).toEqual([roles.other]);
  });

  it('a slow run keeps its lease by the clock, so another process cannot take the server midway', async () => {
    const taken: boolean[] = [];
    // Every change takes 50 s (a crowded budget, long 429 waits): three of them outlast a 120 s lease.
    const slow: RoleTransport = {
      ...transport,
      add: async (...args) => {
        now += 50_000;
        await transport.add(...args);
        taken.push(await state.rankRoles.lease(GUILD_ID, 'p2', now, 120_000));
      },
    };
    const run = new RankRoleSync({ roles: state.rankRoles, transport: slow, logger: pino({ level: 'silent' }), now: () => now, owner: 'p1' });
    expect(await run.syncGuild(GUILD_ID)).toMatchObject({ added: 3, leased: false });
    expect(taken).toEqual([false, false, false]);
  });

  it('a server the bot was removed from: rank roles off there, its members forgotten, and no more asked of it', async () => {
    await sync.syncGuild(GUILD_ID);
    expect(await state.rankRoles.guildsToSync()).toEqual([GUILD_ID]);
    await state.ladder.setStanding('1001', standing('Gold III', 3700), T0 + 1);
    const gone: RoleTransport = { ...transport, guildRoles: () => Promise.reject(Object.assign(new Error('Unknown Guild'), { code: 10004 })) };
    const run = new RankRoleSync({ roles: state.rankRoles, transport: gone, logger: pino({ level: 'silent' }), now: () => now, owner: 'p1' });
    expect(await run.syncGuild(GUILD_ID)).toMatchObject({ added: 0, failed: 0 });
    expect(await state.rankRoles.guildsToSync()).toEqual([]);
    expect((await state.rankRoles.settings(GUILD_ID)).enabled).toBe(false);
    expect(await state.rankRoles.givenTo(users[0])).toEqual([]);
  });

  it('two processes never both change one server: the second finds it leased', async () => {
    const other = new RankRoleSync({ roles: state.rankRoles, transport, logger: pino({ level: 'silent' }), now: () => now, owner: 'p2' });
    const from = fake.calls.length;
    const [a, b] = await Promise.all([sync.syncGuild(GUILD_ID), other.syncGuild(GUILD_ID)]);
    expect([a.leased, b.leased].sort()).toEqual([false, true]);
    expect(roleCalls(fake.calls, from)).toHaveLength(3);
  });
});

/**
 * A fresh store and the test guild of `fake` with the bot (Manage Roles) above a Gold role, and `n` members ranked Gold I,
 * proved and on the ladder, with Gold mapped and rank roles on.
 */
async function goldServer(fake: FakeDiscord, n: number) {
  const state = memoryState();
  const g = fake.guildRoles;
  const bot = g.addRole(GUILD_ID, { name: 'Bot', position: 5, permissions: MANAGE_ROLES });
  const gold = g.addRole(GUILD_ID, { name: 'Gold', position: 1 });
  g.setMember(GUILD_ID, APP_ID, [bot]);
  await state.ladder.setEnabled(GUILD_ID, true, T0);
  const members = Array.from({ length: n }, (_, i) => String(300_000_000_000_000_100n + BigInt(i)));
  for (const [i, u] of members.entries()) {
    g.setMember(GUILD_ID, u, []);
    await state.links.link(u, { uid: String(2000 + i), name: 'P' }, false, T0);
    await state.database.db.updateTable('account_links').set({ verified_at: T0 }).where('user_id', '=', u).execute();
    await state.ladder.setStanding(String(2000 + i), standing('Gold I', 3800), T0);
    await state.ladder.join(GUILD_ID, u, T0);
  }
  await state.rankRoles.configure(GUILD_ID, { enabled: true, set: { Gold: gold } }, T0);
  return { state, gold, members };
}

describe("the role route's bucket", () => {
  it('waits out a 429 by its Retry-After and goes on: every member gets their role', async () => {
    const fake = await startFakeDiscord({ roleRouteLimit: { limit: 2, resetMs: 300 } });
    try {
      const { state, gold, members } = await goldServer(fake, 6);
      // Another client spent the bucket: the first call is answered 429.
      const spender = new REST({ api: fake.apiUrl }).setToken('other');
      await spender.put(`/guilds/${GUILD_ID}/members/${members[0]}/roles/${gold}`);
      await spender.delete(`/guilds/${GUILD_ID}/members/${members[0]}/roles/${gold}`);
      const rest = new REST({ api: fake.apiUrl }).setToken('test-token');
      const sync = new RankRoleSync({ roles: state.rankRoles, transport: discordRoleTransport(rest, () => APP_ID), logger: pino({ level: 'silent' }) });
      expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 6, failed: 0 });
      for (const u of members) expect(fake.guildRoles.memberRoles(GUILD_ID, u)).toEqual([gold]);
      // One 429 (the bucket another client spent); the next call came no sooner than it asked, and after it the client
      // kept to the bucket's headers.
      expect(fake.routeLimited).toHaveLength(1);
      const [limited] = fake.routeLimited;
      const next = fake.calls.find((c) => c.at > limited!.at && /\/roles\/\d+$/.test(c.path) && c.authorization === 'Bot test-token');
      expect(next!.at - limited!.at).toBeGreaterThanOrEqual(limited!.retryAfterMs - 1);
    } finally {
      await fake.close();
    }
  });
});

describe('rank roles in the REST budget', () => {
  it('wait behind a request made while answering an interaction: the answer goes first', async () => {
    const fake = await startFakeDiscord();
    try {
      const { state, gold, members } = await goldServer(fake, 4);
      // Two requests a second: a role change waits for the budget's next slot, as in a big sync under Discord's limit
      // (discord.js hands on one request of a route's bucket at a time).
      const budget = new DiscordRestBudget(2, 0, undefined, 1_000);
      const rest = new REST({ api: fake.apiUrl, makeRequest: budget.wrap(), globalRequestsPerSecond: UNCOUNTED }).setToken('test-token');
      const sync = new RankRoleSync({ roles: state.rankRoles, transport: discordRoleTransport(rest, () => APP_ID), logger: pino({ level: 'silent' }) });
      const running = runWithoutDeadline(() => sync.syncGuild(GUILD_ID));
      await fake.waitFor((c) => c.method === 'PUT' && c.path.endsWith(`/roles/${gold}`));
      await pollUntil(() => budget.waiting >= 1, 'a role change waiting in the budget');
      const sentBefore = memberRoleCalls(fake.calls).length;
      const answer = runWithDeadline(Date.now() + 10_000, () => rest.get(`/channels/${CHANNEL_ID}`).catch(() => undefined));
      await Promise.all([answer, running]);
      const at = fake.calls.findIndex((c) => c.method === 'GET' && c.path === `/channels/${CHANNEL_ID}`);
      // The role change that was waiting went after it.
      expect(memberRoleCalls(fake.calls.slice(0, at))).toHaveLength(sentBefore);
      expect(memberRoleCalls(fake.calls)).toHaveLength(members.length);
    } finally {
      await fake.close();
    }
  });
});
