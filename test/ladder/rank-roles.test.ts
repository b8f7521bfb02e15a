/**
 * Rank roles kept in step against the fake Discord's role routes, through @discordjs/rest: the exact calls, the roles
 * members end with, and every failure recorded once and held (a role above the bot's, no Manage Roles, a member gone,
 * a deleted role), with 429s on the role route waited out; a member Discord keeps failing for set aside, the others going on;
 * a refusal reported with its true cause.
 */
import { REST, type RateLimitData } from '@discordjs/rest';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROLE_BACKOFF_FIRST_MS, ROLE_RETRY_MS } from '../../src/game/rank-roles.js';
import { discordRoleTransport, rejectLongRoleWaits, ROLE_WAIT_LIMIT_MS } from '../../src/ladder/discord-roles.js';
import { RankRoleSync, type RoleTransport } from '../../src/ladder/rank-roles.js';
import type { State } from '../../src/store/state.js';
import { APP_ID, CHANNEL_ID, GUILD_ID, memberRoleCalls, startFakeDiscord, type FakeDiscord } from '../e2e/fake-discord.js';
import { DiscordRestBudget, UNCOUNTED } from '../../src/discord/rest-budget.js';
import { runWithDeadline, runWithoutDeadline } from '../../src/core/deadline.js';
import { pollUntil } from '../helpers/until.js';
import { memoryState } from '../helpers/state.js';
import { standing } from '../helpers/standing.js';
import { capturingLogger } from '../helpers/replica.js';

const T0 = Date.UTC(2026, 10, 1);
const MANAGE_ROLES = 1n << 28n;

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

  it('stops a server’s run at its time budget and leaves the members not reached for the next run; no response listener is left behind', async () => {
    const [u1, u2, u3] = users;
    // Each change takes the clock 600 ms on: the budget of 1 s is spent after the second member.
    const slow: RoleTransport = {
      ...transport,
      add: async (...args) => {
        await transport.add(...args);
        now += 600;
      },
    };
    // The last status of a member's request is listened for while it is under way (the 429 tests read it), and only then:
    // with a listener, @discordjs/rest clones every response.
    expect(rest.listenerCount('response')).toBe(0);
    const budgeted = new RankRoleSync({
      roles: state.rankRoles,
      transport: slow,
      logger: pino({ level: 'silent' }),
      now: () => now,
      owner: 'p1',
      runBudgetMs: 1_000,
    });
    let from = fake.calls.length;
    expect(await budgeted.syncGuild(GUILD_ID)).toMatchObject({ added: 2, failed: 0 });
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${u1} ${roles.goldII}`, `PUT ${u2} ${roles.silver}`]);
    expect(rest.listenerCount('response')).toBe(0);
    from = fake.calls.length;
    expect(await budgeted.syncGuild(GUILD_ID)).toMatchObject({ added: 1, failed: 0 });
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${u3} ${roles.gold}`]);
    expect((await state.rankRoles.failures(GUILD_ID)).total).toBe(0);
  });

  it('records a role above the bot once, asks nothing for it again, and retries after an admin acts or a day', async () => {
    await state.rankRoles.configure(GUILD_ID, { set: { Silver: roles.high } }, T0);
    let from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 2, failed: 1 });
    // Checked before asking: no call for the role the bot may not give.
    expect(roleCalls(fake.calls, from)).toEqual([`PUT ${users[0]} ${roles.goldII}`, `PUT ${users[2]} ${roles.gold}`]);
    expect((await state.rankRoles.failures(GUILD_ID)).rows).toEqual([
      { userId: users[1], reason: 'role-above', roleId: roles.high, at: T0, failures: 1, retryAt: T0 + ROLE_RETRY_MS, detail: null },
    ]);

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

describe('a member Discord keeps failing for', () => {
  let fake: FakeDiscord;
  beforeEach(async () => {
    fake = await startFakeDiscord({ roleRouteLimit: { limit: 50, resetMs: 1_000 } });
  });
  afterEach(async () => {
    await fake.close();
  });

  /** A sync of a fresh Gold server of `n` members over the production REST options, on the clock `clock.now`, with its log lines. */
  async function setUp(n: number, options: { callDeadlineMs?: number } = {}) {
    const server = await goldServer(fake, n);
    const rest = new REST({ api: fake.apiUrl, rejectOnRateLimit: rejectLongRoleWaits }).setToken('test-token');
    const { logger, lines } = capturingLogger();
    const clock = { now: T0 };
    const sync = new RankRoleSync({
      roles: server.state.rankRoles,
      transport: discordRoleTransport(rest, () => APP_ID),
      logger,
      now: () => clock.now,
      owner: 'p1',
      ...options,
    });
    const warnings = (userId: string) => lines.filter((l) => l.includes('"level":40') && l.includes(userId));
    return { ...server, sync, clock, lines, warnings };
  }
  const callsFor = (userId: string, from = 0) => memberRoleCalls(fake.calls, from).filter((c) => c.includes(` ${userId} `));

  it('a 429 that never clears: set aside at once, reported once, tried again on a growing back-off; the others get their roles in the same sync', async () => {
    const { state, gold, members, sync, clock, warnings } = await setUp(4);
    // The first member in the sync's order: nothing may wait behind them.
    const stuck = members[0]!;
    fake.failMemberRoles(stuck, { status: 429, retryAfterMs: 60_000 });
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 3, failed: 1 });
    for (const u of members.slice(1)) expect(fake.guildRoles.memberRoles(GUILD_ID, u)).toEqual([gold]);
    expect(fake.guildRoles.memberRoles(GUILD_ID, stuck)).toEqual([]);
    // A wait longer than the limit is not started: one call, not one per Retry-After.
    expect(callsFor(stuck)).toEqual([`PUT ${stuck} ${gold}`]);
    expect((await state.rankRoles.failures(GUILD_ID)).rows).toEqual([
      {
        userId: stuck,
        reason: 'discord-error',
        roleId: gold,
        at: T0,
        failures: 1,
        retryAt: T0 + ROLE_BACKOFF_FIRST_MS,
        detail: { kind: 'rate-limited', status: 429 },
      },
    ]);
    expect(warnings(stuck)).toHaveLength(1);
    expect(warnings(stuck)[0]).toContain("Discord keeps failing on a member's role; set aside, the others go on");

    // Held until its time: the next syncs ask nothing for them, and the other members' changes still go through.
    await state.ladder.setStanding('2001', standing('Silver I', 3000), T0);
    clock.now = T0 + ROLE_BACKOFF_FIRST_MS - 1;
    let from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ held: 1 });
    expect(callsFor(stuck, from)).toEqual([]);
    expect(memberRoleCalls(fake.calls, from)).toEqual([`DELETE ${members[1]!} ${gold}`]);

    // Tried again at its time, failing again: twice as long now, and no second warning.
    clock.now = T0 + ROLE_BACKOFF_FIRST_MS;
    from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ failed: 1 });
    expect(callsFor(stuck, from)).toEqual([`PUT ${stuck} ${gold}`]);
    const [again] = (await state.rankRoles.failures(GUILD_ID)).rows;
    expect(again).toMatchObject({ failures: 2, retryAt: clock.now + 2 * ROLE_BACKOFF_FIRST_MS });
    expect(warnings(stuck)).toHaveLength(1);

    // Cleared at Discord: at the next try the member gets their role, and the episode ends.
    fake.failMemberRoles(stuck);
    clock.now = again!.retryAt;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 1, failed: 0, held: 0 });
    expect(fake.guildRoles.memberRoles(GUILD_ID, stuck)).toEqual([gold]);
    expect((await state.rankRoles.failures(GUILD_ID)).total).toBe(0);
  });

  it.each([
    ['a 429 with a short Retry-After, again and again', { status: 429, retryAfterMs: 40 }, { kind: 'rate-limited', status: 429 }],
    ['no answer at all', 'hang', { kind: 'timeout' }],
    ['503 after every retry', { status: 503, message: 'Service Unavailable' }, { kind: 'server-error', status: 503 }],
  ] as const)('%s: the member is set aside within their deadline, the others go on', async (_, fault, detail) => {
    const { state, gold, members, sync, warnings } = await setUp(3, { callDeadlineMs: 1_500 });
    const stuck = members[1]!;
    fake.failMemberRoles(stuck, fault);
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 2, failed: 1 });
    for (const u of [members[0]!, members[2]!]) expect(fake.guildRoles.memberRoles(GUILD_ID, u)).toEqual([gold]);
    expect((await state.rankRoles.failures(GUILD_ID)).rows).toMatchObject([{ userId: stuck, reason: 'discord-error', failures: 1, detail }]);
    expect(warnings(stuck)).toHaveLength(1);
    // Asked, then held: the next sync asks nothing for them.
    expect(callsFor(stuck).length).toBeGreaterThanOrEqual(1);
    const from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ held: 1, failed: 0 });
    expect(callsFor(stuck, from)).toEqual([]);
  });

  it('Discord failing every member is the server, not them: the run stops after a few, and nobody is set aside', async () => {
    const { state, members, sync, lines } = await setUp(6);
    for (const u of members) fake.failMemberRoles(u, { status: 503, message: 'Service Unavailable' });
    await expect(sync.syncGuild(GUILD_ID)).rejects.toThrow(/Discord failed on a member's role route: server-error \(503\)/);
    // Three members tried, each with discord.js's retries; the rest waits for the next run.
    expect(new Set(memberRoleCalls(fake.calls).map((c) => c.split(' ')[1]))).toEqual(new Set(members.slice(0, 3)));
    expect((await state.rankRoles.failures(GUILD_ID)).total).toBe(0);
    expect(lines.filter((l) => l.includes('set aside'))).toEqual([]);
    // Discord back: the next run gives every role.
    for (const u of members) fake.failMemberRoles(u);
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 6, failed: 0 });
  });

  it('members failing in a row at the head of the order hold nobody behind them: the next run tries them last and sets them aside', async () => {
    const { state, gold, members, sync, warnings } = await setUp(6);
    const stuck = members.slice(0, 3);
    for (const u of stuck) fake.failMemberRoles(u, { status: 503, message: 'Service Unavailable' });
    // As many in a row as Discord failing for the server: this run cannot tell, and stops with nobody set aside.
    await expect(sync.syncGuild(GUILD_ID)).rejects.toThrow(/server-error \(503\)/);
    expect((await state.rankRoles.failures(GUILD_ID)).total).toBe(0);
    // The next run asks the others first: they answer, so the three are theirs, set aside once each.
    const from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 3, failed: 3 });
    expect(
      memberRoleCalls(fake.calls, from)
        .map((c) => c.split(' ')[1])
        .slice(0, 3),
    ).toEqual(members.slice(3));
    for (const u of members.slice(3)) expect(fake.guildRoles.memberRoles(GUILD_ID, u)).toEqual([gold]);
    expect(new Set((await state.rankRoles.failures(GUILD_ID)).rows.map((r) => r.userId))).toEqual(new Set(stuck));
    for (const u of stuck) expect(warnings(u)).toHaveLength(1);
  });

  it('a lone member whose route fails is theirs when Discord still answers for the server', async () => {
    const { state, members, sync } = await setUp(1, { callDeadlineMs: 1_500 });
    fake.failMemberRoles(members[0]!, 'hang');
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 0, failed: 1 });
    expect((await state.rankRoles.failures(GUILD_ID)).rows).toMatchObject([{ userId: members[0], reason: 'discord-error', detail: { kind: 'timeout' } }]);
  });
});

describe('a refusal (403) is reported with its true cause', () => {
  let fake: FakeDiscord;
  beforeEach(async () => {
    fake = await startFakeDiscord();
  });
  afterEach(async () => {
    await fake.close();
  });

  async function setUp(n: number, race?: (transport: RoleTransport) => RoleTransport) {
    const server = await goldServer(fake, n);
    const rest = new REST({ api: fake.apiUrl, rejectOnRateLimit: rejectLongRoleWaits }).setToken('test-token');
    const { logger, lines } = capturingLogger();
    const transport = discordRoleTransport(rest, () => APP_ID);
    const sync = new RankRoleSync({ roles: server.state.rankRoles, transport: race ? race(transport) : transport, logger, now: () => T0, owner: 'p1' });
    return { ...server, sync, lines };
  }

  it('50013 for a role below the bot’s, with Manage Roles: Discord’s own answer, not “at or above mine”; the others go on', async () => {
    const { state, gold, members, sync, lines } = await setUp(3);
    const refused = members[1]!;
    fake.failMemberRoles(refused, { status: 403, code: 50013, message: 'Missing Permissions' });
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 2, failed: 1 });
    expect((await state.rankRoles.failures(GUILD_ID)).rows).toEqual([
      {
        userId: refused,
        reason: 'refused',
        roleId: gold,
        at: T0,
        failures: 1,
        retryAt: T0 + ROLE_RETRY_MS,
        detail: { code: 50013, status: 403, message: 'Missing Permissions' },
      },
    ]);
    const warned = lines.filter((l) => l.includes('"level":40') && l.includes(refused));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('Discord refused a member');
  });

  it('50013 after the role moved above the bot’s, between the read and the change: “at or above mine”', async () => {
    let gold = '';
    const { state, members, sync } = await setUp(1, (transport) => ({
      ...transport,
      guildRoles: async (g) => {
        const view = await transport.guildRoles(g);
        fake.guildRoles.editRole(GUILD_ID, gold, { position: 9 });
        return view;
      },
    }));
    gold = (await state.rankRoles.settings(GUILD_ID)).roles.Gold!;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ failed: 1 });
    expect((await state.rankRoles.failures(GUILD_ID)).rows).toMatchObject([{ userId: members[0], reason: 'role-above', roleId: gold, detail: null }]);
  });

  it('60003 (two-factor authentication required): the server’s problem, no member marked, the run stops until a change goes through', async () => {
    const { state, gold, members, sync } = await setUp(3);
    for (const u of members) fake.failMemberRoles(u, { status: 403, code: 60003, message: 'Two factor is required for this operation' });
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 0, failed: 0 });
    // The first request told it all: nobody else was asked.
    expect(memberRoleCalls(fake.calls)).toEqual([`PUT ${members[0]!} ${gold}`]);
    expect((await state.rankRoles.settings(GUILD_ID)).problem).toMatchObject({ kind: 'mfa-required' });
    expect((await state.rankRoles.failures(GUILD_ID)).total).toBe(0);
    for (const u of members) fake.failMemberRoles(u);
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ added: 3 });
    expect((await state.rankRoles.settings(GUILD_ID)).problem).toBeNull();
  });

  it('a role managed by an integration, mapped while the roles could not be checked: “managed by an integration”, nothing asked', async () => {
    const { state, members, sync } = await setUp(1);
    const managed = fake.guildRoles.addRole(GUILD_ID, { name: 'Server Booster', position: 2, managed: true });
    await state.rankRoles.configure(GUILD_ID, { set: { Gold: managed } }, T0);
    const from = fake.calls.length;
    expect(await sync.syncGuild(GUILD_ID)).toMatchObject({ failed: 1 });
    expect(memberRoleCalls(fake.calls, from)).toEqual([]);
    expect((await state.rankRoles.failures(GUILD_ID)).rows).toMatchObject([{ userId: members[0], reason: 'managed', roleId: managed }]);
  });
});

describe("discord.js's rejectOnRateLimit for rank roles", () => {
  const data = (over: Partial<RateLimitData>): RateLimitData => ({
    global: false,
    method: 'PUT',
    url: 'https://discord.test/api/v10/guilds/1/members/2/roles/3',
    route: '/guilds/:id/members/:id/roles/:id',
    majorParameter: '1',
    hash: 'h',
    limit: 5,
    timeToReset: 0,
    retryAfter: 0,
    sublimitTimeout: 0,
    scope: 'user',
    ...over,
  });

  it('hands back only a long wait on a member-role route, never the global limit or another route', () => {
    expect(rejectLongRoleWaits(data({ retryAfter: ROLE_WAIT_LIMIT_MS, timeToReset: ROLE_WAIT_LIMIT_MS }))).toBe(false);
    expect(rejectLongRoleWaits(data({ retryAfter: ROLE_WAIT_LIMIT_MS + 1 }))).toBe(true);
    expect(rejectLongRoleWaits(data({ timeToReset: ROLE_WAIT_LIMIT_MS + 1 }))).toBe(true);
    expect(rejectLongRoleWaits(data({ retryAfter: 60_000, global: true }))).toBe(false);
    expect(rejectLongRoleWaits(data({ retryAfter: 60_000, route: '/channels/:id/messages' }))).toBe(false);
  });
});
