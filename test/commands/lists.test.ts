import { describe, expect, it } from 'vitest';
import { runInLocale } from '../../src/i18n/index.js';
import { bot, customIds, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();

describe('/leaderboard', () => {
  it('lists ten ranked players a page with rank, score, matches, win rate, KDA and MVPs, the hero icon beside the author', async () => {
    const { payload } = await env.b.run('leaderboard', { hero: 'storm', platform: 'ps' });
    const e = payload.embeds[0]!;
    expect(e.author?.name).toBe('Leaderboard · PlayStation · Season 3');
    expect(e.title).toBe('Storm');
    const entries = e.description!.split('\n').filter((l) => /^\*\*\d+\. /.test(l));
    expect(entries).toHaveLength(10);
    expect(e.description).toMatch(/^\*\*1\. .+\*\* · [\d,]+ pts\n[\d,]+ matches · [\d.]+ % · KDA [\d.]+ · MVP [\d,]+\n/);
    // No thumbnail: it would narrow every line on a phone.
    expect(e.thumbnail).toBeUndefined();
    expect(e.author?.icon_url).toMatch(/^https:\/\/img\.test\/rivals\//);
    const last = customIds(payload).find((id) => id.endsWith(':l'))!;
    expect(last).toBe('lb.p:1015:ps:3:l');
    const page3 = await env.b.press(last);
    expect(page3.payload.embeds[0]!.description).toMatch(/^\*\*21\. /);
  });
  it('defaults to PC and autocompletes heroes', async () => {
    expect((await env.b.run('leaderboard', { hero: 'hela' })).payload.embeds[0]!.author?.name).toBe('Leaderboard · PC · Season 3');
    const choices = await env.b.router.autocomplete('leaderboard', { focused: { name: 'hero', value: 'mag' }, options: {}, user: { userId: '1' } }, env.b.ctx);
    expect(choices.map((c) => c.name)).toEqual(expect.arrayContaining(['Magneto', 'Magik']));
  });
});

describe('/patch-notes', () => {
  it('lists the latest patch notes, newest first, and opens one with its full text paged', async () => {
    const list = await env.b.run('patch-notes', {});
    const fields = list.payload.embeds[0]!.fields!;
    // Five a page, so that a page fits a phone's first screen; the API pages by ten.
    expect(fields).toHaveLength(5);
    expect(fields[0]!.name).toMatch(/^Version 20251113 Patch Notes.* · Nov 13, 2025$/);
    const second = await env.b.press('pn.l:patch-notes:2:n');
    const more = second.payload.embeds[0]!.fields!;
    expect(more).toHaveLength(5);
    expect(new Set([...fields, ...more].map((f) => f.name)).size).toBe(10);
    expect(customIds(second.payload)).toContain('pn.o:patch-notes:2');
    expect(customIds(list.payload)).toContain('pn.o:patch-notes:1');
    const open = await env.b.press('pn.o:patch-notes:1', ['20251113']);
    const e = open.payload.embeds[0]!;
    expect(e.title).toBe('Version 20251113 Patch Notes: Season 5 begins');
    // Shown as the API wrote it: its "- " lines are text, not a Discord list (the escapes are not drawn).
    expect(e.description).toContain('Balance adjustments\n\\- Hulk\\: Gamma Burst damage increased from 70 to 75.');
    expect(e.image?.url).toBe('https://img.test/rivals/patch-notes/20251113.jpg');
    expect(customIds(open.payload)).toContain('pn.l:patch-notes:1:b');
    const back = await env.b.press('pn.l:patch-notes:1:b');
    expect(back.payload.embeds[0]!.title).toBe('Patch notes');
  });
  it('splits a long post across pages on paragraph boundaries', async () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1}. ${'Lorem ipsum dolor sit amet. '.repeat(8)}`);
    env.r.dataset.posts.balances.unshift({
      id: 'long-1',
      title: 'A very long balance post',
      date: '2026/11/20',
      overview: 'Long.',
      fullContent: paragraphs.join('\n\n'),
      imagePath: '/env.b.jpg',
    });
    try {
      const fresh = bot(env.r);
      const first = await fresh.press('pn.o:balances:1', ['long-1']);
      const nav = customIds(first.payload).filter((id) => id.startsWith('pn.r:'));
      expect(nav).toHaveLength(5);
      const indicator = first.payload.components[0]!.components[2]!;
      const pages = Number(('label' in indicator ? indicator.label! : '').match(/of (\d+)/)![1]);
      expect(pages).toBeGreaterThan(1);
      let text = first.payload.embeds[0]!.description!;
      for (let p = 2; p <= pages; p++) text += `\n\n${(await fresh.press(`pn.r:balances:1:long-1:${p}:n`)).payload.embeds[0]!.description!}`;
      expect(text.replace(/\\/g, '')).toBe(paragraphs.map((p) => p.trim()).join('\n\n'));
      await fresh.close();
    } finally {
      env.r.dataset.posts.balances.shift();
    }
  });
  it('lists balance posts, dev diaries and game versions; a game version opens its patch note', async () => {
    const balances = await env.b.run('patch-notes', { type: 'balances' });
    expect(balances.payload.embeds[0]!.fields).toHaveLength(5);
    expect((await env.b.press('pn.l:balances:2:n')).payload.embeds[0]!.fields).toHaveLength(3);
    expect(customIds(balances.payload)).toContain('pn.l:balances:2:l');
    const diaries = await env.b.run('patch-notes', { type: 'dev-diaries' });
    expect(diaries.payload.embeds[0]!.fields![0]!.name).toMatch(/^Dev Diary #6/);
    expect((await env.b.press('pn.o:dev-diaries:1', ['4'])).payload.embeds[0]!.title).toMatch(/^Dev Diary #4/);
    const versions = await env.b.run('patch-notes', { type: 'game-versions' });
    expect(versions.payload.embeds[0]!.description!.split('\n')).toHaveLength(8);
    expect((await env.b.press('pn.o:game-versions:1', ['20250410'])).payload.embeds[0]!.title).toMatch(/^Version 20250410 Patch Notes/);
  });
});

describe('reference commands', () => {
  it('/items: by type, paged, and one item', async () => {
    const all = await env.b.run('items', {});
    expect(all.payload.embeds[0]!.description!.split('\n')).toHaveLength(10);
    expect(customIds(all.payload)).toContain('items.p:all:3:l');
    const sprays = await env.b.run('items', { type: 'spray' });
    expect(sprays.payload.embeds[0]!.title).toBe('Sprays');
    expect(sprays.payload.embeds[0]!.description!.split('\n').every((l) => l.includes('· Spray ·') || l.endsWith('· Spray'))).toBe(true);
    const one = await env.b.run('items', { name: 'Hammer Drop' });
    expect(one.payload.embeds[0]!.title).toBe('Hammer Drop');
    expect((await env.b.run('items', { name: 'nothing-like-this' })).payload.embeds[0]!.description).toMatch(/^No item “nothing-like-this” was found/);
  });
  it('/items names item types in the member’s language (the API’s value for a type it does not filter by)', async () => {
    const sprays = await runInLocale('fr', () => env.b.run('items', { type: 'spray' }));
    expect(sprays.payload.embeds[0]!.title).toBe('Tags');
    const lines = sprays.payload.embeds[0]!.description!.split('\n');
    expect(lines.every((l) => / · Tag( ·|$)/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes('Spray'))).toBe(false);
    const one = await runInLocale('de', () => env.b.run('items', { name: 'Hammer Drop' }));
    expect(one.payload.embeds[0]!.author?.name).toBe('MVP-Animation');
    // A type the API does not filter by (read once: answers are cached) keeps the API's word.
    const item = env.r.dataset.items.find((i) => i.name === 'Gamma Flex')!;
    const type = item.type;
    item.type = 'Banner';
    try {
      expect((await runInLocale('de', () => env.b.run('items', { name: 'Gamma Flex' }))).payload.embeds[0]!.author?.name).toBe('Banner');
    } finally {
      item.type = type;
    }
  });
  it('/items names rarities as the game does, not by the API’s colour codes', async () => {
    const lines: string[] = [];
    for (let p = 1; p <= 3; p++) lines.push(...(await env.b.press(`items.p:all:${p}:n`)).payload.embeds[0]!.description!.split('\n'));
    // The handwritten items (spec: `quality` e.g. BLUE) hold PURPLE, BLUE and GOLD.
    expect(lines).toHaveLength(env.r.dataset.items.length);
    expect(lines).toContain('**Gamma Flex** · Emote · Epic · Hulk');
    expect(lines).toContain('**Thwip Salute** · Emote · Rare · Spider-Man');
    expect(lines).toContain('**Wakanda Stance** · Emote · Legendary · Black Panther');
    for (const l of lines) expect(l).not.toMatch(/PURPLE|BLUE|GOLD/);
    const quality = (v: { payload: { embeds: { fields?: { name: string; value: string }[] }[] } }, name = 'Quality') =>
      v.payload.embeds[0]!.fields!.find((f) => f.name === name)!.value;
    expect(quality(await env.b.run('items', { name: 'Hammer Drop' }))).toBe('Legendary');
    expect(quality(await runInLocale('fr', () => env.b.run('items', { name: 'Hammer Drop' })), 'Qualité')).toBe('Légendaire');
    expect(quality(await runInLocale('ja', () => env.b.run('items', { name: 'Gamma Flex' })), '品質')).toBe('エピック');
    // A value the bot does not know is title-cased, never shown in capitals; NO_QUALITY is no rarity at all.
    const items = env.r.dataset.items;
    const saved = items.map((i) => i.quality);
    items.find((i) => i.name === 'Gamma Flex')!.quality = 'SILVER_STAR';
    items.find((i) => i.name === 'Thwip Salute')!.quality = 'NO_QUALITY';
    const fresh = bot(env.r);
    try {
      expect(quality(await fresh.run('items', { name: 'Gamma Flex' }))).toBe('Silver Star');
      expect(quality(await fresh.run('items', { name: 'Thwip Salute' }))).toBe('—');
      const first = (await fresh.run('items', { type: 'emote' })).payload.embeds[0]!.description!.split('\n');
      expect(first).toContain('**Gamma Flex** · Emote · Silver Star · Hulk');
      expect(first).toContain('**Thwip Salute** · Emote · Spider-Man');
    } finally {
      await fresh.close();
      items.forEach((i, n) => (i.quality = saved[n]));
    }
  });
  it('/maps pages through every map', async () => {
    // 38 records of 35 maps (three listed twice): the last page of 10 has 5 maps, under their location heading.
    const last = await env.b.press('maps.p:4:l');
    expect(last.payload.embeds[0]!.description!.split('\n').filter((l) => l.startsWith('**'))).toHaveLength(5);
  });
  it('/achievements: all, by hero, and one', async () => {
    expect((await env.b.run('achievements', {})).payload.embeds[0]!.description!.split('\n')).toHaveLength(10);
    const loki = await env.b.run('achievements', { hero: 'loki' });
    expect(loki.payload.embeds[0]!.title).toBe('Loki achievements');
    expect(loki.payload.embeds[0]!.description!.split('\n')).toHaveLength(2);
    const one = await env.b.run('achievements', { name: 'Worthy' });
    expect(one.payload.embeds[0]!.description).toBe('Win 50 matches as Thor.');
  });
  it('/battlepass: by season, with a clear message for a season without one', async () => {
    const s1 = await env.b.run('battlepass', { season: 1 });
    expect(s1.payload.embeds[0]!.title).toBe('Eternal Night Falls');
    expect((await env.b.run('battlepass', {})).payload.embeds[0]!.author?.name).toBe('Battle pass · season 1.5');
    expect((await env.b.run('battlepass', { season: 7 })).payload.embeds[0]!.description).toMatch(/^There is no battle pass for season 7\./);
  });
});

describe('every endpoint of the spec is reachable from a command', () => {
  it('a session of commands touches all 20', async () => {
    const fresh = bot(env.r);
    const before = new Map(env.r.requests.byPath);
    await fresh.run('hero', { name: 'hulk' });
    for (const s of ['costumes', 'stats', 'leaderboard']) await fresh.press('hero.s:1011', [s]);
    await fresh.run('player', { query: '1403392756' });
    await fresh.press('pl.s:1403392756:', ['matches']);
    await fresh.press('mt.l:1403392756', ['6713355_1740604074_322_11001_10']);
    env.r.setFaults({ forceStatus: 500, pathPrefix: '/api/v2/' });
    await fresh.press('pl.s:1117455441:', ['matches']);
    env.r.setFaults({});
    await fresh.run('achievements', {});
    await fresh.run('achievements', { name: 'Worthy' });
    await fresh.run('battlepass', {});
    await fresh.run('items', {});
    await fresh.run('items', { name: 'Hammer Drop' });
    await fresh.run('maps', {});
    for (const type of ['patch-notes', 'balances', 'dev-diaries', 'game-versions']) await fresh.run('patch-notes', { type });
    await fresh.press('pn.o:dev-diaries:1', ['4']);
    const touched = [...env.r.requests.byPath].filter(([path, n]) => n > (before.get(path) ?? 0)).map(([path]) => path);
    const patterns = [
      /^\/api\/v1\/heroes$/,
      /^\/api\/v1\/heroes\/hero\/[^/]+$/,
      /^\/api\/v1\/heroes\/hero\/[^/]+\/stats$/,
      /^\/api\/v1\/heroes\/hero\/[^/]+\/costumes$/,
      /^\/api\/v1\/heroes\/leaderboard\/[^/]+$/,
      /^\/api\/v1\/achievements$/,
      /^\/api\/v1\/achievement\/[^/]+$/,
      /^\/api\/v1\/battlepass$/,
      /^\/api\/v1\/items$/,
      /^\/api\/v1\/item\/[^/]+$/,
      /^\/api\/v1\/maps$/,
      /^\/api\/v1\/balances$/,
      /^\/api\/v1\/patch-notes$/,
      /^\/api\/v1\/dev-diaries$/,
      /^\/api\/v1\/dev-diary\/[^/]+$/,
      /^\/api\/v1\/game-versions$/,
      /^\/api\/v1\/player\/[^/]+$/,
      /^\/api\/v1\/player\/[^/]+\/match-history$/,
      /^\/api\/v2\/player\/[^/]+\/match-history$/,
      /^\/api\/v1\/match\/[^/]+$/,
    ];
    for (const p of patterns)
      expect(
        touched.some((path) => p.test(path)),
        String(p),
      ).toBe(true);
    await fresh.close();
  });
});
