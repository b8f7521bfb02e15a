/**
 * End to end: rank roles when Discord keeps failing on one member's role route, over the fake Discord with the bot's
 * production REST client (its budget, and discord.js handing back long waits on member-role routes). The others get
 * their roles in the same sync; the members Discord fails for are set aside on the rank roles' clock, reported once in
 * the log and listed in `/config status`, and not asked again until their time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_BACKOFF_FIRST_MS } from '../../src/game/rank-roles.js';
import type { Replica } from '../../src/replica/server.js';
import type { State } from '../../src/store/state.js';
import { replica } from '../helpers/replica.js';
import { memoryState } from '../helpers/state.js';
import { ADMIN_PERMISSIONS, APP_ID, commandInteraction, GUILD_ID, memberRoleCalls, startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { answerOf, bootBackgroundBot } from './helpers.js';

const T0 = Date.UTC(2026, 10, 1);
const ADMIN = '517000000000000009';
const MANAGE_ROLES = 1n << 28n;
const MEMBERS = Array.from({ length: 5 }, (_, i) => `51700000000000000${i + 1}`);
/** Answers 429 with a Retry-After longer than the bot waits on a member's role route: handed back at the first answer. */
const LONG_LIMITED = MEMBERS[0]!;
/** Answers 429 with a short Retry-After, forever: waited out until the member's deadline. */
const SHORT_LIMITED = MEMBERS[2]!;
/** A member's deadline in this test, ms (production: ROLE_CALL_DEADLINE_MS). */
const DEADLINE_MS = 2_000;

let r: Replica;
let discord: FakeDiscord;
let state: State;
let bot: Awaited<ReturnType<typeof bootBackgroundBot>>;
let now = T0;
let gold: string;

beforeAll(async () => {
  r = await replica();
  discord = await startFakeDiscord({ roleRouteLimit: { limit: 5, resetMs: 200 } });
  const g = discord.guildRoles;
  const botRole = g.addRole(GUILD_ID, { name: 'Rivals Bot', position: 10, permissions: MANAGE_ROLES | 0x4c00n, managed: true });
  gold = g.addRole(GUILD_ID, { name: 'Gold', position: 3 });
  g.setMember(GUILD_ID, APP_ID, [botRole]);
  state = memoryState();
  await state.ladder.setEnabled(GUILD_ID, true, T0);
  for (const [i, user] of MEMBERS.entries()) {
    g.setMember(GUILD_ID, user, []);
    const uid = String(7000 + i);
    await state.links.link(user, { uid, name: `P${uid}` }, false, T0);
    await state.database.db.updateTable('account_links').set({ verified_at: T0 }).where('user_id', '=', user).execute();
    await state.ladder.setStanding(uid, { season: 9, tier: 'Gold I', score: 3800, peak: 3800, matches: 10, role: null, weekDelta: null, private: false }, T0);
    await state.ladder.join(GUILD_ID, user, T0);
  }
  await state.rankRoles.configure(GUILD_ID, { enabled: true, set: { Gold: gold } }, T0);
  bot = await bootBackgroundBot(discord, r, state, { rankRoleSync: { now: () => now, callDeadlineMs: DEADLINE_MS } });
});
afterAll(async () => {
  await bot.close();
  await state.close();
  await discord.close();
  await r.close();
});

const callsFor = (user: string, from = 0) => memberRoleCalls(discord.calls, from).filter((c) => c.startsWith(`PUT ${user} `));
const warningsFor = (user: string) => bot.logLines.filter((l) => l.includes('"level":40') && l.includes(user));

describe('rank roles when Discord keeps failing on one member’s role route', () => {
  it('the other members get their roles in the same sync; the failing ones are set aside and reported once', async () => {
    discord.failMemberRoles(LONG_LIMITED, { status: 429, retryAfterMs: 60_000 });
    discord.failMemberRoles(SHORT_LIMITED, { status: 429, retryAfterMs: 250 });
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ added: 3, failed: 2 });
    for (const user of MEMBERS) expect(discord.guildRoles.memberRoles(GUILD_ID, user)).toEqual(user === LONG_LIMITED || user === SHORT_LIMITED ? [] : [gold]);
    // The long Retry-After is not slept through: one call. The short one is waited out, by discord.js, until the deadline.
    expect(callsFor(LONG_LIMITED)).toHaveLength(1);
    expect(callsFor(SHORT_LIMITED).length).toBeGreaterThan(1);
    for (const user of [LONG_LIMITED, SHORT_LIMITED]) {
      expect(warningsFor(user)).toHaveLength(1);
      expect(warningsFor(user)[0]).toContain("Discord keeps failing on a member's role; set aside, the others go on");
    }
  });

  it('/config status lists them, with why and their next try', async () => {
    const status = commandInteraction(ADMIN, 'config', {}, { subcommand: 'status', permissions: ADMIN_PERMISSIONS });
    discord.dispatchInteraction(status);
    const field = (await answerOf(discord, status)).embeds[0]!.fields!.find((f) => f.name === 'Rank roles')!;
    const next = `<t:${Math.ceil((T0 + ROLE_BACKOFF_FIRST_MS) / 1000)}:R>`;
    expect(field.value).toBe(
      [
        "On: members' roles follow their rank.",
        `⚠️ Set aside for now, Discord kept failing on their role: <@${LONG_LIMITED}> (<@&${gold}>: rate limited, next try ${next}), <@${SHORT_LIMITED}> (<@&${gold}>: rate limited, next try ${next})`,
      ].join('\n'),
    );
  });

  it('they are not asked again until their time, then once; still failing, they wait twice as long, with no second warning', async () => {
    // A minute later, as the next sync would run: a member ranking down still gets their change; the two are not asked.
    now = T0 + 60_000;
    await state.ladder.setStanding(
      '7001',
      { season: 9, tier: 'Silver I', score: 3000, peak: 3800, matches: 11, role: null, weekDelta: null, private: false },
      now,
    );
    let from = discord.calls.length;
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ removed: 1, held: 2 });
    expect(memberRoleCalls(discord.calls, from)).toEqual([`DELETE ${MEMBERS[1]!} ${gold}`]);

    now = T0 + ROLE_BACKOFF_FIRST_MS;
    discord.failMemberRoles(SHORT_LIMITED);
    from = discord.calls.length;
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ added: 1, failed: 1 });
    expect(callsFor(LONG_LIMITED, from)).toHaveLength(1);
    expect(discord.guildRoles.memberRoles(GUILD_ID, SHORT_LIMITED)).toEqual([gold]);
    const [held] = (await state.rankRoles.failures(GUILD_ID)).rows;
    expect(held).toMatchObject({ userId: LONG_LIMITED, failures: 2, retryAt: now + 2 * ROLE_BACKOFF_FIRST_MS });
    expect(warningsFor(LONG_LIMITED)).toHaveLength(1);
  });
});
