/**
 * The playground's flows that need the game and the server's roles, without a browser: a member links a player, proves
 * it by equipping another icon in game, joins the ladder, and the rank roles follow a rank reached in game, on the
 * pretend server's members. The seeded ladder's members are members of that server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, GUILD, MEMBERS, ROLES, type PlaygroundGuild } from '../../src/playground/guild.js';
import type { MessageEvent, PlaygroundMessage } from '../../src/playground/messages.js';
import { coalesced, playgroundRoleTransport } from '../../src/playground/roles.js';
import { FREE_PLAYER, ladderSeats } from '../../src/playground/seed-ladder.js';
import { duoSeats } from '../../src/playground/seed-duos.js';
import { pollUntil } from '../helpers/until.js';
import { loadConfig } from '../../src/app/config.js';
import { startPlayground } from '../../src/playground/start.js';
import { bootPlayground } from '../helpers/playground.js';
import { capturingLogger } from '../helpers/replica.js';

const [ALEX, SAM] = MEMBERS as [(typeof MEMBERS)[number], (typeof MEMBERS)[number]];
const GENERAL = CHANNELS[0]!.id;
const role = (name: string) => ROLES.find((r) => r.name === name)!;

let boot: Awaited<ReturnType<typeof bootPlayground>>;
beforeAll(async () => {
  boot = await bootPlayground();
});
afterAll(() => boot.close());

/** The message an interaction leaves done in `channel` (one it creates or changes) outside #ladder, once it is there. */
function answerOf(start: () => { ok: boolean }, channel = GENERAL): Promise<PlaygroundMessage> {
  return new Promise((resolve, reject) => {
    const stop = boot.playground.messages.subscribe((e: MessageEvent) => {
      if (e.type !== 'message' || e.message.channelId !== channel || e.message.state !== 'done' || !e.message.interaction) return;
      stop();
      resolve(structuredClone(e.message));
    });
    const accepted = start();
    if (!accepted.ok) reject(new Error(JSON.stringify(accepted)));
  });
}

const command = (memberId: string, command: string, options: Record<string, string> = {}, subcommand?: string) =>
  answerOf(() => boot.playground.interactions.command(memberId, GENERAL, { command, subcommand, options }));
const press = (memberId: string, message: PlaygroundMessage, label: string) => {
  const button = message.payload!.components.flatMap((r) => r.components).find((c) => 'label' in c && c.label === label);
  if (!button || !('custom_id' in button)) throw new Error(`no button ${label} in ${JSON.stringify(message.payload)}`);
  return answerOf(() => boot.playground.interactions.component(memberId, message.id, button.custom_id, []));
};
const text = (m: PlaygroundMessage) =>
  m.payload!.embeds.map((e) => `${e.title ?? ''} ${e.description ?? ''} ${(e.fields ?? []).map((f) => `${f.name} ${f.value}`).join(' ')}`).join(' ');

describe('the pretend server', () => {
  it('has the seeded ladder’s members as its own, a role for each tier and the bot’s role above them', () => {
    const guild = boot.playground.guild;
    const seats = ladderSeats(boot.services.replica!.dataset.profileCaptures);
    expect(seats.map((s) => s.uid)).not.toContain(FREE_PLAYER);
    // The captured players, then the duo partners the recorded matches show (src/playground/seed-duos.ts).
    const partners = duoSeats(boot.services.replica!.dataset, seats, 'https://img.test/rivals');
    expect(partners).toHaveLength(2);
    expect(guild.members.map((m) => m.id)).toEqual([...MEMBERS.map((m) => m.id), ...seats.map((s) => s.userId), ...partners.map((s) => s.userId)]);
    expect(guild.member(seats[0]!.userId)).toMatchObject({ name: seats[0]!.name, admin: false });
    expect(ROLES.filter((r) => r.hoist).map((r) => r.name)).toEqual([
      'One Above All',
      'Eternity',
      'Celestial',
      'Grandmaster',
      'Diamond',
      'Platinum',
      'Gold',
      'Silver',
      'Bronze',
    ]);
    expect(ROLES[0]).toMatchObject({ name: 'Rivals Bot', managed: true });
    expect(ROLES.every((r, i) => i === 0 || r.position < ROLES[i - 1]!.position)).toBe(true);
  });

  it('changes roles as Discord would, refusing what Discord refuses with its codes', async () => {
    const guild: PlaygroundGuild = boot.playground.guild;
    const roles = playgroundRoleTransport(guild);
    const events: unknown[] = [];
    const stop = guild.subscribe((e) => events.push(e));
    const jordan = MEMBERS[2]!.id;
    await roles.add(GUILD.id, jordan, role('Gold').id, 'test');
    await roles.add(GUILD.id, jordan, role('Gold').id, 'test');
    expect(await roles.memberRoles(GUILD.id, jordan)).toEqual([role('Gold').id]);
    await roles.remove(GUILD.id, jordan, role('Gold').id, 'test');
    stop();
    // Once each: adding a role held, or taking one not held, changes nothing.
    expect(events).toEqual([
      { type: 'member-roles', memberId: jordan, roles: [role('Gold').id] },
      { type: 'member-roles', memberId: jordan, roles: [] },
    ]);
    await expect(roles.add(GUILD.id, '42', role('Gold').id, 'test')).rejects.toMatchObject({ code: 10007, status: 404 });
    await expect(roles.add(GUILD.id, jordan, '42', 'test')).rejects.toMatchObject({ code: 10011 });
    await expect(roles.add(GUILD.id, jordan, role('Rivals Bot').id, 'test')).rejects.toMatchObject({ code: 50013, status: 403 });
    await expect(roles.guildRoles('42')).rejects.toMatchObject({ code: 10004 });
    expect(await roles.guildRoles(GUILD.id)).toMatchObject({ manageRoles: true, botTop: role('Rivals Bot').position });
  });
});

describe('every flow that needs the game', () => {
  it('links, proves with an icon equipped in game, joins the ladder, and moves a rank role with a rank reached in game', async () => {
    const game = boot.services.replica!.game;
    const linked = await command(SAM.id, 'link', { player: 'Chob Bob' });
    expect(text(linked)).toContain('Chob Bob');
    const steps = await press(SAM.id, linked, 'Prove this account is yours');
    expect(text(steps)).toMatch(/player icon/i);
    // Checked before the change: the API accepts the update, the icon is the same.
    expect(text(await press(SAM.id, steps, 'Check now'))).toMatch(/^ ?Not yet/);
    const before = game.status(FREE_PLAYER)!.shown!.id;
    game.equipIcon(FREE_PLAYER, game.icons().find((i) => i.id !== before)!.id);
    // Within the API's update cooldown the profile still shows the old icon; ended early, the next check sees the new one.
    const waiting = await press(SAM.id, steps, 'Check now');
    expect(text(waiting)).toMatch(/^ ?Not yet/);
    game.skipUpdateCooldown(FREE_PLAYER);
    expect(text(await press(SAM.id, waiting, 'Check now'))).toContain('is verified as yours');

    expect(text(await command(SAM.id, 'ladder', {}, 'join'))).toContain('Chob Bob');
    // The dry run needs Chob Bob's standing: the tracker's first read of the player Sam linked.
    const standings = boot.playground.state.database.db.selectFrom('player_standings').select('uid').where('uid', '=', FREE_PLAYER);
    await pollUntil(() => standings.executeTakeFirst(), 'the tracker’s first read of Chob Bob');
    expect(text(await command(ALEX.id, 'config', { tier: 'Platinum', role: '@Platinum' }, 'rank-roles'))).toContain(`<@${SAM.id}> +<@&${role('Platinum').id}>`);
    await command(ALEX.id, 'config', { tier: 'Diamond', role: '@Diamond', enabled: 'true' }, 'rank-roles');
    // Brought in step after the command: Sam's Platinum (Chob Bob is Platinum II).
    await boot.playground.syncRoles();
    expect(boot.playground.guild.rolesOf(SAM.id)).toEqual([role('Platinum').id]);

    const moved: string[][] = [];
    const stop = boot.playground.guild.subscribe((e) => e.memberId === SAM.id && moved.push(e.roles));
    const res = await fetch(`${boot.playground.url}/api/replica/game/rank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uid: FREE_PLAYER, level: 13 }),
    });
    stop();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ uid: FREE_PLAYER, rank: { level: 13, tier: 'Diamond III' } });
    // Answered once the tracker read the player and the sync ran: the new role given, then the old one taken back.
    expect(moved).toEqual([[role('Diamond').id, role('Platinum').id], [role('Diamond').id]]);
  });

  it('gives members back, after a restart, the roles the bot recorded giving', async () => {
    const again = await startPlayground({
      config: loadConfig({ DATA_DIR: boot.dataDir }),
      services: boot.services,
      logger: capturingLogger().logger,
      port: 0,
      feedPollSeconds: 3600,
    });
    try {
      expect(again.guild.rolesOf(SAM.id)).toEqual([role('Diamond').id]);
      expect(again.guild.rolesOf(ALEX.id)).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('refuses a rank the game does not have and a player the replica does not have', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${boot.playground.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/api/replica/game/rank', { uid: FREE_PLAYER, level: 24 })).status).toBe(400);
    const unknown = await post('/api/replica/game/icon', { uid: 'nobody-here', iconId: '31029203' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ ok: false, error: 'the replica has no player nobody-here' });
  });
});

describe('coalesced', () => {
  it('runs once at a time, and once more after a run for every call made during it', async () => {
    let runs = 0;
    let release!: () => void;
    const run = coalesced(async () => {
      runs++;
      if (runs === 1) await new Promise<void>((r) => (release = r));
    });
    const first = run();
    const second = run();
    const third = run();
    expect(second).toBe(third);
    release();
    await Promise.all([first, second, third]);
    expect(runs).toBe(2);
  });
});
