/** `/config rank-roles` and the rank roles' part of `/config status`: the mapping, the bot's checks, the dry run, and members not updated. */
import { describe, expect, it } from 'vitest';
import { ROLE_BACKOFF_FIRST_MS, type GuildRoles } from '../../src/game/rank-roles.js';
import { ADMIN, MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
/** An admin who may also give roles (Manage Roles). */
const ROLES_ADMIN = { ...ADMIN, permissions: String(0x20 | 0x400 | 0x800 | 0x10000000) };
const GUILD = ADMIN.guildId;
const embed = (p: { embeds: { title?: string; description?: string; fields?: { name: string; value: string }[] }[] }) => p.embeds[0]!;

/** The server's roles: the bot's at 10 with Manage Roles unless told, Gold and Gold II below it, Staff above it, an integration's role. */
const server = (manageRoles = true): GuildRoles => ({
  guildId: GUILD,
  manageRoles,
  botTop: 10,
  roles: [
    { id: GUILD, name: '@everyone', position: 0, managed: false },
    { id: '700', name: 'Rivals Bot', position: 10, managed: true },
    { id: '701', name: 'Gold', position: 3, managed: false },
    { id: '702', name: 'Gold II', position: 4, managed: false },
    { id: '703', name: 'Staff', position: 11, managed: false },
    { id: '704', name: 'Booster', position: 2, managed: true },
    { id: '705', name: 'Moderators', position: 5, managed: false, permissions: String(1n << 1n) },
  ],
});

/** `user` proved account `uid`, with a standing in `tier`, on the ladder. */
async function ranked(user: string, uid: string, tier: string, score: number) {
  const { state, clock } = env.b;
  await state.links.link(user, { uid, name: `P${uid}` }, false, clock.now);
  await state.database.db.updateTable('account_links').set({ verified_at: clock.now }).where('user_id', '=', user).execute();
  await state.ladder.setStanding(uid, { season: 9, tier, score, peak: score, matches: 5, role: 'Duelist', weekDelta: null, private: false }, clock.now);
  await state.ladder.join(GUILD, user, clock.now);
}

describe('/config rank-roles', () => {
  it('is for admins; with nothing mapped says how to map a tier, and that the ladder is off', async () => {
    expect((await env.b.run('config', {}, 'rank-roles', MEMBER)).view.isError).toBe(true);
    // Manage Server alone may look, not choose the roles the bot gives.
    expect(embed((await env.b.run('config', { tier: 'Gold', role: '701' }, 'rank-roles', ADMIN)).payload).description).toBe(
      'Giving <@&701> to ranked members needs the **Manage Roles** permission, and you do not have it here: ask an admin who has it.',
    );
    const shown = embed((await env.b.run('config', {}, 'rank-roles', ROLES_ADMIN)).payload);
    expect(shown.title).toBe('Rank roles');
    expect(shown.description).toMatch(/^Rank roles are \*\*off\*\*\./);
    expect(shown.description).toContain('The ladder is off, so nobody is ranked');
    // Without Discord (the playground), nothing is checked and nothing changes.
    expect(shown.description).toContain("This run has no Discord server: the roles are not checked, and nobody's roles change.");
    expect(shown.fields![0]!.value).toMatch(/^No tier has a role yet\./);
    expect(shown.fields![1]).toEqual({ name: 'Dry run: what would change', value: 'Nothing: every member already holds the role of their tier.' });
  });

  it('refuses a role the bot cannot give, saying why and how to fix it, and keeps nothing', async () => {
    env.b.ctx.rankRoles!.discord = { guildRoles: async () => server() };
    const above = embed((await env.b.run('config', { tier: 'Gold', role: '703' }, 'rank-roles', ROLES_ADMIN)).payload);
    expect(above.description).toBe(
      '<@&703> is at or above my highest role, so Discord does not let me give it. In Server Settings → Roles, drag my role above it, then map Gold again.',
    );
    expect(embed((await env.b.run('config', { tier: 'Gold', role: '704' }, 'rank-roles', ROLES_ADMIN)).payload).description).toMatch(
      /belongs to an integration/,
    );
    // Below the bot, but it can kick members: the ladder would hand that out.
    expect(embed((await env.b.run('config', { tier: 'Gold', role: '705' }, 'rank-roles', ROLES_ADMIN)).payload).description).toMatch(
      /^<@&705> carries moderation or administration permissions/,
    );
    expect(embed((await env.b.run('config', { tier: 'Gold', role: GUILD }, 'rank-roles', ROLES_ADMIN)).payload).description).toMatch(
      /^@everyone cannot be a rank role/,
    );
    env.b.ctx.rankRoles!.discord = { guildRoles: async () => server(false) };
    expect(embed((await env.b.run('config', { tier: 'Gold', division: 'II', role: '702' }, 'rank-roles', ROLES_ADMIN)).payload).description).toBe(
      'I need the **Manage Roles** permission to give <@&702>. Turn it on for my role in Server Settings → Roles, then map Gold II again.',
    );
    expect((await env.b.state.rankRoles.settings(GUILD)).roles).toEqual({});
    expect(embed((await env.b.run('config', { role: '701' }, 'rank-roles', ROLES_ADMIN)).payload).description).toMatch(
      /^Choose the tier the role is for with `tier:`/,
    );
  });

  it('maps tiers and divisions, and the dry run names who would get which role before it is turned on', async () => {
    env.b.ctx.rankRoles!.discord = { guildRoles: async () => server() };
    await env.b.run('config', { enabled: true }, 'ladder', ADMIN);
    await ranked('400000000000000001', '9001', 'Gold II', 3900);
    await ranked('400000000000000002', '9002', 'Gold I', 3950);
    await ranked('400000000000000003', '9003', 'Silver I', 3500);
    await env.b.run('config', { tier: 'Gold', role: '701' }, 'rank-roles', ROLES_ADMIN);
    const view = embed((await env.b.run('config', { tier: 'Gold', division: 'II', role: '702' }, 'rank-roles', ROLES_ADMIN)).payload);
    expect(view.fields![0]!.value).toBe('Gold → <@&701>\nGold II → <@&702>');
    expect(view.fields![1]).toEqual({
      name: 'Dry run: what would change',
      value: 'Roles to give: 2 · roles to take back: 0\n<@400000000000000001> +<@&702> (Gold II)\n<@400000000000000002> +<@&701> (Gold I)',
    });
    expect(await env.b.state.rankRoles.guildsToSync()).toEqual([]);

    const on = embed((await env.b.run('config', { enabled: true }, 'rank-roles', ROLES_ADMIN)).payload);
    expect(on.description).toMatch(/^Rank roles are \*\*on\*\*/);
    expect(on.fields![1]!.name).toBe('Changes waiting for the next sync');
    expect(await env.b.state.rankRoles.guildsToSync()).toEqual([GUILD]);

    // A role moved above the bot's after it was mapped is flagged in the list.
    env.b.ctx.rankRoles!.discord = { guildRoles: async () => ({ ...server(), botTop: 3 }) };
    const flagged = embed((await env.b.run('config', {}, 'rank-roles', ROLES_ADMIN)).payload);
    expect(flagged.fields![0]!.value).toBe(
      'Gold → <@&701> ⚠️ at or above my highest role: I cannot give it\nGold II → <@&702> ⚠️ at or above my highest role: I cannot give it',
    );

    // Unmapping: the tier alone.
    const unmapped = embed((await env.b.run('config', { tier: 'Gold', division: 'II' }, 'rank-roles', ROLES_ADMIN)).payload);
    expect(unmapped.fields![0]!.value).toMatch(/^Gold → <@&701>/);
    expect((await env.b.state.rankRoles.settings(GUILD)).roles).toEqual({ Gold: '701' });
  });

  it('/config status lists every member not updated, by reason, and when they are tried again', async () => {
    const store = env.b.state.rankRoles;
    const { generation } = await store.settings(GUILD);
    await store.recordFailure(GUILD, '400000000000000001', { reason: 'role-above', roleId: '701', generation }, env.b.clock.now);
    await store.recordFailure(GUILD, '400000000000000003', { reason: 'member-gone', roleId: '701', generation }, env.b.clock.now);
    const status = embed((await env.b.run('config', {}, 'status', ADMIN)).payload);
    const field = status.fields!.find((f) => f.name === 'Rank roles')!;
    expect(field.value).toBe(
      [
        "On: members' roles follow their rank.",
        '⚠️ Not updated, role at or above mine: <@400000000000000001> (<@&701>)',
        '⚠️ Not updated, no longer in the server: <@400000000000000003>',
        'These members are tried again after you change `/config rank-roles`, or after a day.',
      ].join('\n'),
    );
  });

  it('/config status names Discord’s refusal as Discord gave it, and the members set aside with how Discord failed and their next try', async () => {
    const store = env.b.state.rankRoles;
    const { generation } = await store.settings(GUILD);
    const now = env.b.clock.now;
    await store.clearFailures(GUILD, ['400000000000000001', '400000000000000003']);
    await store.recordFailure(
      GUILD,
      '400000000000000002',
      { reason: 'refused', roleId: '701', generation, detail: { code: 50013, status: 403, message: 'Missing *Permissions*' } },
      now,
    );
    await store.recordFailure(
      GUILD,
      '400000000000000004',
      { reason: 'discord-error', roleId: '702', generation, detail: { kind: 'rate-limited', status: 429 } },
      now,
    );
    await store.recordFailure(
      GUILD,
      '400000000000000005',
      { reason: 'discord-error', roleId: '701', generation, detail: { kind: 'server-error', status: 503 } },
      now,
    );
    await store.recordFailure(GUILD, '400000000000000006', { reason: 'managed', roleId: '704', generation }, now);
    await store.setProblem(GUILD, { kind: 'mfa-required', at: now });
    const next = `<t:${Math.ceil((now + ROLE_BACKOFF_FIRST_MS) / 1000)}:R>`;
    const field = embed((await env.b.run('config', {}, 'status', ADMIN)).payload).fields!.find((f) => f.name === 'Rank roles')!;
    expect(field.value).toBe(
      [
        "On: members' roles follow their rank.",
        "⚠️ This server requires two-factor authentication for moderation and my owner's account has none, so Discord refuses every role change: my owner can turn on 2FA, or an admin can drop the requirement in the server's settings.",
        '⚠️ Not updated, role managed by an integration: <@400000000000000006> (<@&704>)',
        '⚠️ Not updated, Discord refused: <@400000000000000002> (<@&701>: 50013 Missing \\*Permissions\\*)',
        `⚠️ Set aside for now, Discord kept failing on their role: <@400000000000000004> (<@&702>: rate limited, next try ${next}), <@400000000000000005> (<@&701>: Discord error 503, next try ${next})`,
        'These members are tried again after you change `/config rank-roles`, or after a day.',
      ].join('\n'),
    );
    // Members set aside alone: their own next try says when, and nothing more.
    await store.clearFailures(GUILD, ['400000000000000002', '400000000000000006']);
    await store.setProblem(GUILD, null);
    const aside = embed((await env.b.run('config', {}, 'status', ADMIN)).payload).fields!.find((f) => f.name === 'Rank roles')!;
    expect(aside.value.split('\n').at(-1)).toMatch(/^⚠️ Set aside for now, Discord kept failing on their role: /);
  });
});
