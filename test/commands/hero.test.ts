import { describe, expect, it } from 'vitest';
import { HERO_SECTIONS } from '../../commands/hero.js';
import { embedLength, LIMITS } from '../../src/render/limits.js';
import { useReplicaBot, customIds, OTHER_MEMBER } from '../helpers/bot.js';

const env = useReplicaBot();

describe('/hero', () => {
  it('shows the overview: name, real name, role, attack type, teams, difficulty, bio, image', async () => {
    const { payload, view } = await env.b.run('hero', { name: 'spider man' });
    expect(view.isError).toBeFalsy();
    const e = payload.embeds[0]!;
    expect(e.title).toBe('Spider-Man');
    expect(e.description).toMatch(/friendly neighborhood Spider-Man/);
    const fields = Object.fromEntries(e.fields!.map((f) => [f.name, f.value]));
    expect(fields).toMatchObject({ 'Real name': 'Peter Parker', Role: 'Duelist', 'Attack type': 'Melee Heroes', Difficulty: '★★★★★' });
    expect(e.image?.url).toBe('https://img.test/rivals/heroes/card/spider-man.png');
    expect(e.color).toBe(0xef4444);
    expect(payload.flags).toBe(0);
    expect(customIds(payload)).toEqual(['hero.s:1036']);
  });

  it('finds heroes by id and by a clear typo', async () => {
    expect((await env.b.run('hero', { name: '1011' })).payload.embeds[0]!.title).toBe('Hulk');
    expect((await env.b.run('hero', { name: 'Scarlet Wich' })).payload.embeds[0]!.title).toBe('Scarlet Witch');
    expect((await env.b.run('hero', { name: 'spidr man' })).payload.embeds[0]!.title).toBe('Spider-Man');
    expect((await env.b.run('hero', { name: 'cap' })).payload.embeds[0]!.title).toBe('Captain America');
  });

  it('answers an unknown hero with did-you-mean suggestions, ephemeral', async () => {
    const { payload, view } = await env.b.run('hero', { name: 'iron' });
    expect(view.isError).toBe(true);
    expect(payload.flags).toBe(64);
    expect(payload.embeds[0]!.description).toMatch(/^No hero is called “iron”\. Did you mean \*\*Iron (Man|Fist)\*\*, \*\*Iron (Man|Fist)\*\*/);
    const nothing = await env.b.run('hero', { name: 'zzqqxx' });
    expect(nothing.payload.embeds[0]!.description).toBe('No hero is called “zzqqxx”. Start typing a name and pick one from the list.');
  });

  it('renders every section of every hero within Discord limits', async () => {
    const heroes = env.r.dataset.heroes.map((h) => String(h.id));
    for (const id of heroes) {
      for (const section of HERO_SECTIONS) {
        const { payload, view } = await env.b.press(`hero.s:${id}`, [section]);
        expect(view.isError, `${id} ${section}`).toBeFalsy();
        expect(payload.embeds.reduce((s, e) => s + embedLength(e), 0)).toBeLessThanOrEqual(LIMITS.embedTotal);
        for (const cid of customIds(payload)) expect(cid.length).toBeLessThanOrEqual(100);
      }
    }
  });

  it('abilities: keys, cooldowns and energy costs, paged', async () => {
    const first = await env.b.press('hero.s:1011', ['abilities']);
    const e = first.payload.embeds[0]!;
    expect(e.author?.name).toBe('Hulk · Abilities');
    expect(e.fields!.length).toBeLessThanOrEqual(6);
    const all = e.fields!.map((f) => `${f.name}\n${f.value}`).join('\n');
    expect(all).toMatch(/\[Right Click\] Gamma Burst \(Normal\)/);
    expect(all).toMatch(/\*\*Cooldown:\*\* 8s/);
    const next = customIds(first.payload).find((id) => id.endsWith(':n'))!;
    expect(next).toBe('hero.p:1011:abilities:2:n');
    const second = await env.b.press(next);
    expect(second.mode).toBe('update');
    expect(second.payload.embeds[0]!.fields!.map((f) => f.name)).toContain('[E] Radioactive Lockdown (Normal)');
    expect(customIds(second.payload)).toContain('hero.p:1011:abilities:2:i');
  });

  it('lore is split across pages on paragraph boundaries', async () => {
    const hulk = env.r.dataset.heroes.find((h) => h.id === 1011)!;
    const { payload } = await env.b.press('hero.s:1011', ['lore']);
    const text = payload.embeds[0]!.description!;
    expect(String(hulk.lore).replace(/\\/g, '')).toContain(text.split('\n')[0]!.replace(/\\/g, '').slice(0, 50));
  });

  it('statistics and the leaderboard come from their endpoints', async () => {
    const stats = await env.b.press('hero.s:1011', ['stats']);
    const fields = Object.fromEntries(stats.payload.embeds[0]!.fields!.map((f) => [f.name, f.value]));
    expect(fields['Win rate']).toMatch(/^\d+\.\d %$/);
    expect(fields['Average K / D / A']).toMatch(/KDA \d+\.\d\d/);
    const board = await env.b.press('hero.s:1011', ['leaderboard']);
    expect(board.payload.embeds[0]!.description!.split('\n')).toHaveLength(10);
  });

  it('gives another member their own ephemeral copy instead of changing the message', async () => {
    const result = await env.b.press('hero.p:1011:abilities:2:n', [], OTHER_MEMBER);
    expect(result.mode).toBe('reply');
    expect(result.payload.flags).toBe(64);
    expect(result.payload.embeds[0]!.author?.name).toBe('Hulk · Abilities');
  });

  it('answers an unknown custom ID with a clear ephemeral message', async () => {
    const result = await env.b.press('legacy-button:42');
    expect(result.mode).toBe('reply');
    expect(result.payload.flags).toBe(64);
    expect(result.payload.embeds[0]!.description).toMatch(/older version of the bot or has expired/);
  });

  it('autocompletes hero names fuzzily, with ids as values', async () => {
    const choices = await env.b.router.autocomplete('hero', { focused: { name: 'name', value: 'iron' }, options: {}, user: OTHER_MEMBER }, env.b.ctx);
    expect(choices.slice(0, 2).map((c) => c.name).sort()).toEqual(['Iron Fist', 'Iron Man']);
    expect(choices.every((c) => /^\d+$/.test(String(c.value)))).toBe(true);
    const all = await env.b.router.autocomplete('hero', { focused: { name: 'name', value: '' }, options: {}, user: OTHER_MEMBER }, env.b.ctx);
    expect(all).toHaveLength(25);
  });

  it('says how old the data is when the API is down', async () => {
    await env.b.press('hero.s:1011', ['stats']);
    env.b.clock.now += 2 * 60 * 60_000;
    env.r.setFaults({ forceStatus: 503 });
    try {
      const stale = await env.b.press('hero.s:1011', ['stats']);
      expect(stale.payload.embeds[0]!.footer?.text).toBe('API unavailable: showing data as of 2 hours ago');
    } finally {
      env.r.setFaults({});
    }
  });

  it('tells the member when the API is down and nothing is cached', async () => {
    env.r.setFaults({ forceStatus: 503 });
    try {
      const { payload } = await env.b.run('hero', { name: 'doesnotmatter' });
      expect(payload.flags).toBe(64);
      expect(payload.embeds[0]!.description).toMatch(/not answering|No hero is called/);
    } finally {
      env.r.setFaults({});
    }
  });
});
