import { describe, expect, it } from 'vitest';
import { HERO_SECTIONS } from '../../commands/hero.js';
import { embedLength, LIMITS } from '../../src/render/limits.js';
import { runInLocale } from '../../src/i18n/index.js';
import { bot, useReplicaBot, customIds, OTHER_MEMBER } from '../helpers/bot.js';

const env = useReplicaBot();
/** Text as Discord shows it: each markdown escape (`\[`, `\:`) drawn as its character. */
const shown = (text: string) => text.replace(/\\([^0-9A-Za-z\s])/g, '$1');

describe('/hero', () => {
  it('shows the overview: name, real name, role, attack type, teams, difficulty, bio, image', async () => {
    const { payload, view } = await env.b.run('hero', { name: 'spider man' });
    expect(view.isError).toBeFalsy();
    const e = payload.embeds[0]!;
    expect(e.title).toBe('Spider-Man');
    expect(e.description).toMatch(/friendly neighborhood Spider-Man/);
    const fields = Object.fromEntries(e.fields!.map((f) => [f.name, f.value]));
    expect(fields).toMatchObject({ 'Real name': 'Peter Parker', Role: 'Duelist', 'Attack type': 'Melee', Difficulty: '★★★★★' });
    expect(e.image?.url).toBe('https://img.test/rivals/heroes/card/spider-man.png');
    expect(e.color).toBe(0xef4444);
    expect(payload.flags).toBe(0);
    expect(customIds(payload)).toEqual(['hero.s:1036']);
  });

  it('names the role with the words of /meta’s role choices in the member’s language', async () => {
    const fr = (await runInLocale('fr', () => env.b.run('hero', { name: 'spider man' }))).payload.embeds[0]!;
    expect(fr.author?.name).toBe('Duelliste');
    expect(fr.fields!.find((f) => f.name === 'Rôle')?.value).toBe('Duelliste');
    const de = (await runInLocale('de', () => env.b.run('hero', { name: 'hulk' }))).payload.embeds[0]!;
    expect(de.author?.name).toBe('Vorhut');
    const ja = (await runInLocale('ja', () => env.b.run('hero', { name: 'luna snow' }))).payload.embeds[0]!;
    expect(ja.author?.name).toBe('ストラテジスト');
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
    const all = shown(e.fields!.map((f) => `${f.name}\n${f.value}`).join('\n'));
    expect(all).toMatch(/^\[Right Click\] Gamma Burst$/m);
    expect(all).toMatch(/\*\*Cooldown:\*\* 8s/);
    const next = customIds(first.payload).find((id) => id.endsWith(':n'))!;
    expect(next).toBe('hero.p:1011:abilities:2:n');
    const second = await env.b.press(next);
    expect(second.mode).toBe('update');
    expect(second.payload.embeds[0]!.fields!.map((f) => shown(f.name))).toContain('[Shift] Indestructible Guard');
    expect(customIds(second.payload)).toContain('hero.p:1011:abilities:2:i');
  });

  /** Every ability field name of a hero's abilities section, over all its pages, as Discord shows it. */
  async function abilityNames(heroId: string): Promise<string[]> {
    const first = await env.b.press(`hero.s:${heroId}`, ['abilities']);
    const names = first.payload.embeds[0]!.fields!.map((f) => shown(f.name));
    const last = customIds(first.payload).find((id) => id.endsWith(':l'));
    const pages = last ? Number(last.split(':').at(-2)) : 1;
    for (let p = 2; p <= pages; p++)
      names.push(...(await env.b.press(`hero.p:${heroId}:abilities:${p}:n`)).payload.embeds[0]!.fields!.map((f) => shown(f.name)));
    return names;
  }

  it("Hulk's kit lists each ability once: duplicates merged, Base Stat entries gone, same names told apart", async () => {
    const names = await abilityNames('1011');
    // The real list has 16 entries: 2 Base Stat, and Gamma Burst, Incredible Leap, Radioactive Lockdown twice with the
    // same fields; Heavy Blow twice as Weapon and Normal with the same fields (merged: the first is kept).
    expect(names).toEqual([
      '[Right Click] Gamma Burst',
      '[Q] Hulk Smash! (Ultimate)',
      '[Left Click] Heavy Blow (Weapon)',
      '[Space] Incredible Leap',
      '[E] Radioactive Lockdown',
      '[Shift] Gamma Grenade',
      '[Left Click] Gamma Ray Gun',
      '[Q] Puny Banner (Ultimate)',
      '[Q] World Breaker (Ultimate)',
      '[Shift] Indestructible Guard',
    ]);
    expect(names.filter((n) => n.includes('Gamma Burst'))).toHaveLength(1);
    const overview = (await env.b.run('hero', { name: 'hulk' })).payload.embeds[0]!;
    expect(overview.fields!.find((f) => f.name === 'Kit')!.value).toBe('10 abilities · 4 costumes');
  });

  it('no hero lists an ability twice, a Base Stat entry, or an empty placeholder', async () => {
    for (const h of env.r.dataset.heroes) {
      const names = await abilityNames(String(h.id));
      expect(new Set(names.map((n) => n.toLowerCase())).size, `${String(h.name)}: ${names.join(' | ')}`).toBe(names.length);
      expect(
        names.some((n) => /base stat/i.test(n)),
        String(h.name),
      ).toBe(false);
    }
    const torch = await abilityNames('1017');
    expect(torch.some((n) => /UNITED SIBLINGS/i.test(n))).toBe(false);
    // 8 entries: Base Stat 1 and the empty UNITED SIBLINGS are not abilities.
    expect(torch).toEqual([
      '[Q] Supernova (Ultimate)',
      '[E] Pyro-prison',
      '[F] Flaming Meteor',
      '[Right Click] Blazing Blast',
      '[Shift] Plasma Body',
      '[Left Click] Fire Cluster (Weapon)',
    ]);
    const overview = (await env.b.run('hero', { name: 'human torch' })).payload.embeds[0]!;
    expect(overview.fields!.find((f) => f.name === 'Kit')!.value).toMatch(/^6 abilities · /);
  });

  it('tells apart same-named abilities of different forms when transformation_id names them (the spec shape)', async () => {
    const hulk = env.r.dataset.heroes.find((h) => h.id === 1011)!;
    const saved = hulk.abilities;
    const abilities = saved as Record<string, unknown>[];
    // Hand-written: the spec's shape, each Gamma Burst tied to a form.
    hulk.abilities = abilities.map((a) => (a.id === 101122 ? { ...a, transformation_id: 704 } : a.id === 101123 ? { ...a, transformation_id: 705 } : a));
    try {
      const fresh = bot(env.r);
      // Transformation order: Bruce Banner, Bruce Banner, Monster Hulk (705), Hero Hulk (704); the rest, tied to none, last.
      const pages: { heading: string | undefined; names: string[] }[] = [];
      for (let p = 1; p <= 4; p++) {
        const e = (await fresh.press(`hero.p:1011:abilities:${p}:n`)).payload.embeds[0]!;
        pages.push({ heading: e.description, names: e.fields!.map((f) => shown(f.name)) });
      }
      expect(pages.slice(0, 2)).toEqual([
        { heading: 'Form: **Monster Hulk**', names: ['[Right Click] Gamma Burst'] },
        { heading: 'Form: **Hero Hulk**', names: ['[Right Click] Gamma Burst'] },
      ]);
      expect(pages.slice(2).map((p) => p.heading)).toEqual(['**Not tied to a form**', '**Not tied to a form**']);
      expect(pages.slice(2).flatMap((p) => p.names)).toHaveLength(9);
      await fresh.close();
    } finally {
      hulk.abilities = saved;
    }
  });

  it('numbers same-named abilities that differ in nothing it shows', async () => {
    const hulk = env.r.dataset.heroes.find((h) => h.id === 1011)!;
    const saved = hulk.abilities;
    const abilities = saved as { id: number; additional_fields: Record<string, string> }[];
    hulk.abilities = abilities.map((a) => (a.id === 101123 ? { ...a, additional_fields: { ...a.additional_fields, Damage: '75' } } : a));
    try {
      const fresh = bot(env.r);
      const names: string[] = [];
      for (let p = 1; p <= 2; p++) names.push(...(await fresh.press(`hero.p:1011:abilities:${p}:n`)).payload.embeds[0]!.fields!.map((f) => shown(f.name)));
      expect(names.filter((n) => n.includes('Gamma Burst'))).toEqual(['[Right Click] Gamma Burst · variant 1', '[Right Click] Gamma Burst · variant 2']);
      await fresh.close();
    } finally {
      hulk.abilities = saved;
    }
  });

  it('transformations show only what is known: no dashes for forms without health or speed', async () => {
    const { payload } = await env.b.press('hero.s:1011', ['transformations']);
    const fields = payload.embeds[0]!.fields!;
    expect(fields.map((f) => [f.name, f.value])).toEqual([
      ['Bruce Banner', 'Health: 200\nSpeed: 6 m/s'],
      ['Monster Hulk', 'No health or speed listed'],
      ['Hero Hulk', 'No health or speed listed'],
    ]);
    for (const h of env.r.dataset.heroes) {
      const t = await env.b.press(`hero.s:${String(h.id)}`, ['transformations']);
      const text = t.payload.embeds[0]!.fields!.map((f) => `${f.name}\n${f.value}`).join('\n');
      expect(text, String(h.name)).not.toMatch(/—/);
    }
    const spider = await env.b.press('hero.s:1036', ['transformations']);
    expect(spider.payload.embeds[0]!.fields!.map((f) => [f.name, f.value])).toEqual([['Spider-Man', 'Health: 250\nSpeed: 6 m/s']]);
  });

  it('names heroes and teams as players write them', async () => {
    const team = async (name: string) => (await env.b.run('hero', { name })).payload.embeds[0]!.fields!.find((f) => f.name === 'Teams')!.value;
    // The real list gives Spider-Man ["Web_warriors"], Venom ["Guardiansofthegalaxy", "Web_warriors", "Villains"].
    expect(await team('spider-man')).toBe('Web Warriors');
    expect(await team('venom')).toBe('Guardians of the Galaxy, Web Warriors, Villains');
    expect(await team('iron fist')).toBe('Agents of Atlas, Immortal Weapons');
    expect(await team('magneto')).toBe('X-Men, Mutants, Villains');
    expect(await team('the punisher')).toBe('Marvel Knights');
    const jeff = (await env.b.run('hero', { name: 'jeff' })).payload.embeds[0]!;
    expect(jeff.title).toBe('Jeff the Land Shark');
    expect((await env.b.press('hero.s:1047', ['abilities'])).payload.embeds[0]!.author?.name).toBe('Jeff the Land Shark · Abilities');
    expect((await env.b.run('hero', { name: 'the punisher' })).payload.embeds[0]!.title).toBe('The Punisher');
    expect((await env.b.run('hero', { name: 'cloak' })).payload.embeds[0]!.title).toBe('Cloak & Dagger');
    const choices = async (value: string) =>
      (await env.b.router.autocomplete('hero', { focused: { name: 'name', value }, options: {}, user: OTHER_MEMBER }, env.b.ctx)).map((c) => c.name);
    expect((await choices('jeff'))[0]).toBe('Jeff the Land Shark');
    expect((await choices('punisher'))[0]).toBe('The Punisher');
    expect(await choices('')).toContain('Cloak & Dagger');
  });

  it('suggests heroes in their game spelling', async () => {
    const { payload } = await env.b.run('hero', { name: 'the' });
    expect(payload.embeds[0]!.description).toMatch(/^No hero is called “the”\. Did you mean /);
    const suggested = [...payload.embeds[0]!.description!.matchAll(/\*\*(.+?)\*\*/g)].map((m) => m[1]);
    expect(suggested.length).toBeGreaterThan(0);
    for (const name of suggested) expect(name).toMatch(/^(The Punisher|The Thing|Jeff the Land Shark|[A-Z][^ ]*( [A-Z][^ ]*)*)$/);
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
    // Totals over every player's matches say so: "Play time 166,071h 50m" is nobody's own.
    expect(fields['Play time (all players)']).toMatch(/^[\d,]+h \d+m$/);
    expect(fields['Matches (all players)']).toBeDefined();
    expect(Object.keys(fields)).not.toContain('Play time');
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
    expect(
      choices
        .slice(0, 2)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['Iron Fist', 'Iron Man']);
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
      expect(stale.payload.embeds[0]!.footer?.text).toBe('API unavailable: showing data from 2 hours ago');
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
