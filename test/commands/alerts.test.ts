/** `/alerts` and `/config alerts` on the replica: mains from the linked account, hero watches, where alerts go. */
import { describe, expect, it } from 'vitest';
import { ADMIN, MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const text = (p: { content: string; embeds: { description?: string; fields?: { name: string; value: string }[] }[] }) =>
  [p.content, ...p.embeds.map((e) => [e.description ?? '', ...(e.fields ?? []).map((f) => `${f.name}: ${f.value}`)].join('\n'))].join('\n');
const alerts = (sub: string, options: Record<string, string | boolean> = {}, user: typeof MEMBER = MEMBER) => env.b.run('alerts', options, sub, user);

describe('/alerts', () => {
  it('mains need a linked account; once linked, they are read at once from its profile and listed, privately', async () => {
    const refused = await alerts('mains', { enabled: true });
    expect(refused.payload.flags).toBe(64);
    expect(text(refused.payload)).toMatch(/Your mains come from your linked account: link it first with `\/link`/);
    expect(await env.b.ctx.alerts!.members.member(MEMBER.userId, MEMBER.guildId)).toBeNull();

    await env.b.ctx.links.link(MEMBER.userId, { uid: '1786151874', name: 'Double C' }, true);
    const on = await alerts('mains', { enabled: true });
    const mains = (await env.b.ctx.alerts!.members.mainsOf([MEMBER.userId])).get(MEMBER.userId)!;
    expect(mains.uid).toBe('1786151874');
    expect(mains.heroes.length).toBeGreaterThan(0);
    expect(mains.heroes.length).toBeLessThanOrEqual(3);
    const heroes = await env.b.ctx.heroes.list();
    const firstName = heroes.find((h) => h.id === mains.heroes[0])!.name;
    expect(text(on.payload).toLowerCase()).toContain(firstName.toLowerCase());
    // No alerts channel yet: the member is told what to do.
    expect(text(on.payload)).toMatch(/This server has no alerts channel yet/);
  });

  it('an admin sets the alerts channel; members see where they are told', async () => {
    const set = await env.b.run('config', { channel: '520' }, 'alerts', ADMIN);
    expect(set.payload.content).toBe('Hero alerts will be posted in <#520>, mentioning only the members they concern.');
    expect(text((await alerts('list')).payload)).toMatch(/You are told in <#520>\./);
    expect(text((await env.b.run('config', {}, 'alerts', MEMBER)).payload)).toMatch(/You need the Manage Server permission/);
  });

  it('watches up to 10 heroes, by name as typed; stops one or all', async () => {
    const w = await alerts('hero', { name: 'storm' }, OTHER_MEMBER);
    expect(text(w.payload)).toMatch(/Watching: \*\*Storm\*\*/);
    await alerts('hero', { name: 'hulk', dm: true }, OTHER_MEMBER);
    const listed = text((await alerts('list', {}, OTHER_MEMBER)).payload);
    expect(listed).toMatch(/Watching: \*\*(Storm, Hulk|Hulk, Storm)\*\*/);
    expect(listed).toMatch(/You are told by direct message/);
    expect(text((await alerts('hero', { name: 'zzzqqq' }, OTHER_MEMBER)).payload)).toMatch(/No hero is called “zzzqqq”/);
    let last = '';
    for (const h of (await env.b.ctx.heroes.list()).slice(0, 12)) last = text((await alerts('hero', { name: h.id }, OTHER_MEMBER)).payload);
    expect((await env.b.ctx.alerts!.members.member(OTHER_MEMBER.userId, OTHER_MEMBER.guildId))!.heroes).toHaveLength(10);
    expect(last).toMatch(/You already watch 10 heroes/);
    expect(text((await alerts('off', { hero: 'storm' }, OTHER_MEMBER)).payload)).not.toMatch(/Storm,|, Storm\b/);
    expect(text((await alerts('off', {}, OTHER_MEMBER)).payload)).toBe('\nEvery alert is off.');
    expect(await env.b.ctx.alerts!.members.member(OTHER_MEMBER.userId, OTHER_MEMBER.guildId)).toBeNull();
  });
});
