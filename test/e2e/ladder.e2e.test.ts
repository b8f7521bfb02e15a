/**
 * End to end: a server's ladder over the fake Discord. Members link and prove the real sample players, the replica
 * serves their captures over time, and the bot's tracker (wired as in production) reads them; then `/ladder` order and
 * pages, a rank-up posted exactly once, rank roles added and removed by exact REST calls, a role above the bot's or a
 * missing Manage Roles reported to admins, and the weekly recap at its hour on the feeds' clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Replica } from '../../src/replica/server.js';
import type { State } from '../../src/store/state.js';
import { replica } from '../helpers/replica.js';
import { memoryState } from '../helpers/state.js';
import { pollUntil } from '../helpers/until.js';
import {
  ADMIN_PERMISSIONS,
  APP_ID,
  commandInteraction,
  FEED_CHANNEL_IDS,
  GUILD_ID,
  memberRoleCalls,
  startFakeDiscord,
  type FakeDiscord,
} from './fake-discord.js';
import { answerOf, bootBackgroundBot } from './helpers.js';

const ADMIN = '516000000000000009';
const MANAGE_ROLES = 1n << 28n;
/** Members and the sample players they prove, with the tier each capture reads. */
const PLAYERS = [
  { user: '516000000000000001', uid: '450703773', name: 'Mrblungy' }, // Grandmaster II 4,621
  { user: '516000000000000002', uid: '1403392756', name: 'Card1gan' }, // Grandmaster III 4,562
  { user: '516000000000000003', uid: '1117455441', name: 'Sir Final' }, // Grandmaster III 4,559
  { user: '516000000000000004', uid: '341932470', name: 'Chob Bob' }, // Platinum II 4,046
  { user: '516000000000000005', uid: '1786151874', name: 'Double C' }, // Bronze II 3,137, then Silver I, then Gold II
] as const;
const DOUBLE_C = PLAYERS[4];
const CARD1GAN = PLAYERS[1];
const MOMENTS_CHANNEL = FEED_CHANNEL_IDS[0];

let r: Replica;
let discord: FakeDiscord;
let state: State;
let bot: Awaited<ReturnType<typeof bootBackgroundBot>>;
/** The feeds' clock handed to the bot (`feedNow`): real time until a test sets it. */
let feedTime: number | undefined;
let roles: Record<'bot' | 'bronze' | 'silver' | 'gold' | 'platinum' | 'grandmaster' | 'celestial' | 'artist', string>;

beforeAll(async () => {
  r = await replica();
  r.serveCapture('player/doublec8-double-c-1786151874-2025-05-26.json');
  discord = await startFakeDiscord({ roleRouteLimit: { limit: 5, resetMs: 200 } });
  const g = discord.guildRoles;
  roles = {
    bot: g.addRole(GUILD_ID, { name: 'Rivals Bot', position: 20, permissions: MANAGE_ROLES | 0x4c00n, managed: true }),
    bronze: g.addRole(GUILD_ID, { name: 'Bronze', position: 2 }),
    silver: g.addRole(GUILD_ID, { name: 'Silver', position: 3 }),
    gold: g.addRole(GUILD_ID, { name: 'Gold', position: 4 }),
    platinum: g.addRole(GUILD_ID, { name: 'Platinum', position: 5 }),
    grandmaster: g.addRole(GUILD_ID, { name: 'Grandmaster', position: 7 }),
    celestial: g.addRole(GUILD_ID, { name: 'Celestial', position: 8 }),
    artist: g.addRole(GUILD_ID, { name: 'Artist', position: 1 }),
  };
  g.setMember(GUILD_ID, APP_ID, [roles.bot]);
  for (const p of PLAYERS) g.setMember(GUILD_ID, p.user, [roles.artist]);
  state = memoryState();
  bot = await bootBackgroundBot(discord, r, state, { feedNow: () => feedTime ?? Date.now() });
  bot.background.tracker.start();
});
afterAll(async () => {
  await bot.close();
  await state.close();
  await discord.close();
  await r.close();
});

async function send(interaction: { id: string; token: string }) {
  discord.dispatchInteraction(interaction);
  return answerOf(discord, interaction);
}
/** An admin with Manage Server and Manage Roles (choosing the roles the bot gives needs it). */
const asAdmin = (options: Parameters<typeof commandInteraction>[2], subcommand: string) =>
  send(commandInteraction(ADMIN, 'config', options, { subcommand, permissions: String(BigInt(ADMIN_PERMISSIONS) | MANAGE_ROLES) }));

const roleCalls = (from: number) => memberRoleCalls(discord.calls, from);

/** Waits until the tracker has written a standing of `uid` in `tier`. */
const standingIn = (uid: string, tier: string) =>
  pollUntil(
    async () => (await state.database.db.selectFrom('player_standings').select('tier').where('uid', '=', uid).executeTakeFirst())?.tier === tier,
    `the tracker to read ${uid} in ${tier}`,
    { timeoutMs: 20_000 },
  );

describe('a server ladder over the fake Discord', () => {
  it('an admin turns it on with a moments channel; members link, prove and join; the tracker reads every one', async () => {
    const on = await asAdmin({ enabled: true, channel: { channel: MOMENTS_CHANNEL } }, 'ladder');
    expect(on.embeds[0]!.description).toMatch(/^The ladder is on\./);
    for (const p of PLAYERS) {
      await send(commandInteraction(p.user, 'link', { player: p.uid }));
      // Proved as the verification flow would (its own tests cover the proof).
      await state.database.db.updateTable('account_links').set({ verified_at: Date.now() }).where('user_id', '=', p.user).execute();
      await send(commandInteraction(p.user, 'ladder', {}, { subcommand: 'join' }));
    }
    await standingIn(DOUBLE_C.uid, 'Bronze II');
    for (const p of PLAYERS) await pollUntil(async () => (await state.ladder.membership(GUILD_ID, p.user)) !== null, `${p.name} on the ladder`);
    await pollUntil(
      async () => (await state.database.db.selectFrom('ladder_members').select('user_id').where('listed', '=', 1).execute()).length === PLAYERS.length,
      'every member listed',
      { timeoutMs: 20_000 },
    );
  });

  it('/ladder lists them by rank score, the asking member marked', async () => {
    const answer = await send(commandInteraction(DOUBLE_C.user, 'ladder', {}, { subcommand: 'show' }));
    const text = answer.embeds[0]!.description!;
    const order = PLAYERS.map((p) => text.indexOf(p.name));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text.split('\n').at(-1)).toMatch(/^\*\*5\.\*\* <@516000000000000005> Double C \(you\) · Bronze II 3,137 · /);
    expect(answer.embeds[0]!.footer?.text).toBe('5 members listed · rank scores as the bot last read them');
  });

  it('rank roles: a role above the bot is refused at /config, the dry run names the changes, then the sync gives each role by exact calls', async () => {
    discord.guildRoles.editRole(GUILD_ID, roles.celestial, { position: 25 });
    const refused = await asAdmin({ tier: 'Celestial', role: { role: roles.celestial } }, 'rank-roles');
    expect(refused.embeds[0]!.description).toMatch(/is at or above my highest role/);
    discord.guildRoles.editRole(GUILD_ID, roles.celestial, { position: 8 });
    const tiers = [
      ['Bronze', roles.bronze],
      ['Silver', roles.silver],
      ['Gold', roles.gold],
      ['Platinum', roles.platinum],
      ['Grandmaster', roles.grandmaster],
      ['Celestial', roles.celestial],
    ] as const;
    let last: Awaited<ReturnType<typeof asAdmin>> | undefined;
    for (const [tier, role] of tiers) last = await asAdmin({ tier, role: { role } }, 'rank-roles');
    const dryRun = last!.embeds[0]!.fields!.find((f) => f.name === 'Dry run: what would change')!;
    expect(dryRun.value.split('\n')[0]).toBe('Roles to give: 5 · roles to take back: 0');
    // Nothing changes while it is off.
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ added: 0 });

    await asAdmin({ enabled: true }, 'rank-roles');
    const from = discord.calls.length;
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ added: 5, removed: 0, failed: 0 });
    const want = PLAYERS.map((p) => `PUT ${p.user} ${p === DOUBLE_C ? roles.bronze : p.uid === '341932470' ? roles.platinum : roles.grandmaster}`).sort();
    expect(roleCalls(from).sort()).toEqual(want);
    expect(discord.guildRoles.memberRoles(GUILD_ID, DOUBLE_C.user)).toEqual([roles.artist, roles.bronze]);
    // The route's bucket (5 per 200 ms) was kept to: no 429.
    expect(discord.routeLimited).toEqual([]);
  });

  it('the next capture moves a member up a tier: the new role is added and the old one removed, nothing else', async () => {
    r.serveCapture('player/doublec8-double-c-1786151874-2025-06-05.json');
    await standingIn(DOUBLE_C.uid, 'Silver I');
    const from = discord.calls.length;
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ added: 1, removed: 1 });
    expect(roleCalls(from)).toEqual([`PUT ${DOUBLE_C.user} ${roles.silver}`, `DELETE ${DOUBLE_C.user} ${roles.bronze}`]);
    expect(discord.guildRoles.memberRoles(GUILD_ID, DOUBLE_C.user)).toEqual([roles.artist, roles.silver]);
  });

  it('a rank-up within the season is posted exactly once, though two processes send; its role cannot be given and /config status says why', async () => {
    // Card1gan's profile a week later: Celestial III in the same season.
    const body = structuredClone(r.dataset.players.get(CARD1GAN.uid)) as {
      player: { rank: { rank: string }; info: { rank_game_season: Record<string, Record<string, number>> } };
    };
    body.player.rank.rank = 'Celestial III';
    const season = body.player.info.rank_game_season['1001003']!;
    Object.assign(season, { level: 19, rank_score: 4812.5, max_level: 19, max_rank_score: 4812.5, update_time: (season.update_time ?? 0) + 7 * 86_400 });
    r.dataset.players.set(CARD1GAN.uid, body);
    await standingIn(CARD1GAN.uid, 'Celestial III');

    // Two sends at once, as two processes would: the delivery ledger lets one post it.
    const sent = await Promise.all([bot.background.moments.send(), bot.background.moments.send()]);
    expect(sent.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    await bot.background.moments.send();
    const posts = (discord.channelMessages.get(MOMENTS_CHANNEL) ?? []).map((m) => JSON.stringify(m.embeds));
    expect(posts.filter((p) => p.includes('ranked up') && p.includes('Card1gan'))).toHaveLength(1);
    expect(posts.find((p) => p.includes('ranked up'))).toContain('Grandmaster III → **Celestial III**');

    // The admin moved Celestial above the bot's role meanwhile: nothing is asked for it, and status names the member.
    discord.guildRoles.editRole(GUILD_ID, roles.celestial, { position: 25 });
    const from = discord.calls.length;
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ added: 0, failed: 1 });
    expect(roleCalls(from)).toEqual([]);
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ held: 1 });
    const status = await asAdmin({}, 'status');
    const field = status.embeds[0]!.fields!.find((f) => f.name === 'Rank roles')!;
    expect(field.value).toContain(`⚠️ Not updated, role at or above mine: <@${CARD1GAN.user}> (<@&${roles.celestial}>)`);

    // Fixed and re-mapped: tried again at once.
    discord.guildRoles.editRole(GUILD_ID, roles.celestial, { position: 8 });
    await asAdmin({ tier: 'Celestial', role: { role: roles.celestial } }, 'rank-roles');
    const again = discord.calls.length;
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ added: 1, removed: 1, failed: 0 });
    expect(roleCalls(again)).toEqual([`PUT ${CARD1GAN.user} ${roles.celestial}`, `DELETE ${CARD1GAN.user} ${roles.grandmaster}`]);
  });

  it('without Manage Roles nothing is asked, /config refuses new roles and status says what is missing; leaving the ladder later takes the role back', async () => {
    discord.guildRoles.editRole(GUILD_ID, roles.bot, { permissions: 0x4c00n });
    const refused = await asAdmin({ tier: 'Gold', role: { role: roles.gold } }, 'rank-roles');
    expect(refused.embeds[0]!.description).toMatch(/^I need the \*\*Manage Roles\*\* permission/);
    await send(commandInteraction(DOUBLE_C.user, 'ladder', {}, { subcommand: 'leave' }));
    const from = discord.calls.length;
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ failed: 1 });
    expect(roleCalls(from)).toEqual([]);
    const status = await asAdmin({}, 'status');
    expect(status.embeds[0]!.fields!.find((f) => f.name === 'Rank roles')!.value).toContain('I need the **Manage Roles** permission');

    // Held while nothing changes; given back in Discord, the next sync sees it and goes on.
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ held: 1 });
    discord.guildRoles.editRole(GUILD_ID, roles.bot, { permissions: MANAGE_ROLES | 0x4c00n });
    const again = discord.calls.length;
    expect(await bot.background.rankRoles!.syncGuild(GUILD_ID)).toMatchObject({ removed: 1 });
    expect(roleCalls(again)).toEqual([`DELETE ${DOUBLE_C.user} ${roles.silver}`]);
    expect(discord.guildRoles.memberRoles(GUILD_ID, DOUBLE_C.user)).toEqual([roles.artist]);
  });

  it('turning rank roles off takes back every role the bot gave, and only those', async () => {
    await asAdmin({ enabled: false }, 'rank-roles');
    const from = discord.calls.length;
    await bot.background.rankRoles!.run();
    expect(roleCalls(from).every((c) => c.startsWith('DELETE '))).toBe(true);
    expect(roleCalls(from)).toHaveLength(4);
    for (const p of PLAYERS) expect(discord.guildRoles.memberRoles(GUILD_ID, p.user)).toEqual([roles.artist]);
  });

  it('the weekly recap goes out once at its day and hour on the feeds’ clock, with the week’s tracked matches', async () => {
    r.serveCapture('player/doublec8-double-c-1786151874-2025-08-05.json');
    await standingIn(DOUBLE_C.uid, 'Gold II');
    await send(commandInteraction(DOUBLE_C.user, 'ladder', {}, { subcommand: 'join' }));
    const set = await asAdmin({ enabled: true, recap: '1', at: '18:00', timezone: 'UTC' }, 'ladder');
    expect(set.embeds[0]!.description).toContain('Weekly recap: Monday at 18:00 (UTC).');
    const recaps = () => (discord.channelMessages.get(MOMENTS_CHANNEL) ?? []).filter((m) => JSON.stringify(m.embeds).includes('This week on the ladder'));
    // Double C's last capture holds matches up to Friday 1 August 2025; the recap is the Monday after, at 18:00.
    feedTime = Date.UTC(2025, 7, 4, 17, 59);
    await bot.background.moments.send();
    expect(recaps()).toHaveLength(0);
    feedTime = Date.UTC(2025, 7, 4, 18, 1);
    await Promise.all([bot.background.moments.send(), bot.background.moments.send()]);
    await bot.background.moments.send();
    expect(recaps()).toHaveLength(1);
    const fields = (recaps()[0]!.embeds as { fields: { name: string; value: string }[] }[])[0]!.fields;
    expect(fields.find((f) => f.name === 'Most matches')!.value).toMatch(new RegExp(`^<@${DOUBLE_C.user}> Double C · \\d+$`));
    expect(fields.find((f) => f.name === 'Most played hero')!.value).not.toBe('Nobody this week');
  });
});
