import { REST } from '@discordjs/rest';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createImageResolver } from '../../src/api/images.js';
import type { ImageSource } from '../../src/api/image-store.js';
import { EMOJI_SIZE } from '../../src/charts/emoji-art.js';
import { emojiSources, loadAppEmojis, syncEmojis, tierIconPath, type EmojiSource } from '../../src/discord/application-emojis.js';
import { emojiBefore, parseEmojiName, setAppEmojis } from '../../src/render/emojis.js';
import { APP_ID, startFakeDiscord, type FakeDiscord } from '../e2e/fake-discord.js';

const BASE = 'https://images.example/rivals';
const resolve = createImageResolver(BASE);

async function png(color: string, w = 40, h = 60): Promise<Uint8Array> {
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = color;
  ctx.fillRect(0, 0, w, h);
  return new Uint8Array(await canvas.encode('png'));
}

/** Image bytes by URL; a URL it does not hold has no image (as a failed download). Counts reads. */
function images(files: Map<string, Uint8Array>): ImageSource & { reads: string[] } {
  const reads: string[] = [];
  return { reads, get: async (url) => (reads.push(url), files.get(url) ?? null) };
}

const hero = (name: string, icon: string | null, image: string | null = null) => ({
  name,
  image,
  transformations: icon ? [{ id: '1', name, icon, health: null, movement_speed: null }] : [],
});

let discord: FakeDiscord;
let rest: REST;
beforeAll(async () => {
  discord = await startFakeDiscord();
  rest = new REST({ api: discord.apiUrl, retries: 0 }).setToken('emoji-token');
});
afterAll(() => discord.close());
afterEach(() => {
  discord.appEmojis.splice(0);
  discord.refuseEmojiUploads(undefined);
  setAppEmojis([]);
});

async function allSources(hulkColor = '#2a8f2a') {
  const files = new Map<string, Uint8Array>();
  for (const tier of ['Bronze', 'Silver', 'Gold', 'Platinum', 'Diamond', 'Grandmaster', 'Celestial', 'Eternity', 'One Above All'])
    files.set(resolve(tierIconPath(tier))!, await png('#c0a040'));
  files.set(`${BASE}/heroes/transformations/bruce-banner-headbig-0.webp`, await png(hulkColor));
  files.set(`${BASE}/heroes/card/jeff.png`, await png('#3070c0', 80, 120));
  const source = images(files);
  const heroes = [
    hero('hulk', `${BASE}/heroes/transformations/bruce-banner-headbig-0.webp`),
    hero('jeff the land shark', null, `${BASE}/heroes/card/jeff.png`),
  ];
  return { source, sources: emojiSources(heroes, resolve, source) };
}

describe('application emojis', () => {
  it('uploads every tier, role and hero once, as squares Discord takes, named so the bot knows them again', async () => {
    const { sources } = await allSources();
    const r = await syncEmojis({ rest, applicationId: APP_ID, sources, complete: true });
    expect(r).toMatchObject({ kept: 0, replaced: [], removed: [], missing: [], failed: [] });
    expect(r.uploaded).toHaveLength(9 + 3 + 2);
    const names = discord.appEmojis.map((e) => e.name);
    expect(names.map((n) => parseEmojiName(n)?.slug).sort()).toEqual(
      [
        ...['bronze', 'silver', 'gold', 'platinum', 'diamond', 'grandmaster', 'celestial', 'eternity', 'one_above_all'],
        ...['vanguard', 'duelist', 'strategist', 'hulk', 'jeff_the_land_shark'],
      ].sort(),
    );
    for (const n of names) expect(n.length).toBeLessThanOrEqual(32);
    // A tall card image is fitted into the square, not stretched or cut: its edges stay clear.
    const jeff = discord.appEmojis.find((e) => e.name.startsWith('hero_jeff_the_land_shark_'))!;
    const image = await loadImage(jeff.image);
    expect([image.width, image.height]).toEqual([EMOJI_SIZE, EMOJI_SIZE]);
    const canvas = createCanvas(EMOJI_SIZE, EMOJI_SIZE);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    expect(ctx.getImageData(2, EMOJI_SIZE / 2, 1, 1).data[3]).toBe(0);
    expect(ctx.getImageData(EMOJI_SIZE / 2, EMOJI_SIZE / 2, 1, 1).data.slice(0, 4)).toEqual(new Uint8ClampedArray([0x30, 0x70, 0xc0, 255]));
  });

  it('a second deploy with the same icons uploads nothing and deletes nothing', async () => {
    await syncEmojis({ rest, applicationId: APP_ID, sources: (await allSources()).sources, complete: true });
    const before = discord.appEmojis.map((e) => e.id);
    const from = discord.calls.length;
    const { source, sources } = await allSources();
    const r = await syncEmojis({ rest, applicationId: APP_ID, sources, complete: true });
    // Every icon was read and compared.
    expect(source.reads).toHaveLength(11);
    expect(r).toMatchObject({ kept: 14, uploaded: [], replaced: [], removed: [], failed: [] });
    expect(discord.calls.slice(from).map((c) => c.method)).toEqual(['GET']);
    expect(discord.appEmojis.map((e) => e.id)).toEqual(before);
  });

  it('a changed icon is uploaded under a new name and the old emoji deleted once the new one is there', async () => {
    await syncEmojis({ rest, applicationId: APP_ID, sources: (await allSources()).sources, complete: true });
    const old = discord.appEmojis.find((e) => e.name.startsWith('hero_hulk_'))!;
    const r = await syncEmojis({ rest, applicationId: APP_ID, sources: (await allSources('#8030a0')).sources, complete: true });
    expect(r.replaced).toHaveLength(1);
    expect(r.replaced[0]).toMatch(/^hero_hulk_[0-9a-f]{6}$/);
    expect(r.replaced[0]).not.toBe(old.name);
    expect(discord.appEmojis.filter((e) => e.name.startsWith('hero_hulk_')).map((e) => e.name)).toEqual(r.replaced);
    const post = discord.calls.findIndex((c) => c.method === 'POST' && (c.body as { name?: string })?.name === r.replaced[0]);
    const del = discord.calls.findIndex((c) => c.method === 'DELETE' && c.path.endsWith(`/emojis/${old.id}`));
    expect(post).toBeGreaterThan(-1);
    expect(del).toBeGreaterThan(post);
  });

  it('an icon that cannot be read keeps the emoji uploaded before; a hero gone from a complete list is removed; the owner’s own emojis are left alone', async () => {
    await syncEmojis({ rest, applicationId: APP_ID, sources: (await allSources()).sources, complete: true });
    await rest.post(`/applications/${APP_ID}/emojis`, {
      body: { name: 'party_blob', image: `data:image/png;base64,${Buffer.from(await png('#fff')).toString('base64')}` },
    });
    const files = new Map<string, Uint8Array>();
    const source = images(files);
    // Hulk's icon fails to load; Jeff is no longer in the hero list.
    const sources = emojiSources([hero('hulk', `${BASE}/heroes/transformations/bruce-banner-headbig-0.webp`)], resolve, source);
    const partial = await syncEmojis({ rest, applicationId: APP_ID, sources, complete: false });
    expect(partial.missing).toEqual(expect.arrayContaining(['Gold', 'hulk']));
    expect(partial.removed).toEqual([]);
    expect(discord.appEmojis.some((e) => e.name.startsWith('hero_jeff_the_land_shark_'))).toBe(true);
    const complete = await syncEmojis({ rest, applicationId: APP_ID, sources, complete: true });
    expect(complete.removed).toEqual([expect.stringMatching(/^hero_jeff_the_land_shark_/)]);
    const left = discord.appEmojis.map((e) => e.name);
    expect(left.some((n) => n.startsWith('hero_hulk_'))).toBe(true);
    expect(left.some((n) => n.startsWith('tier_gold_'))).toBe(true);
    expect(left).toContain('party_blob');
  });

  it('an upload Discord refuses is reported by name and the others go on', async () => {
    discord.refuseEmojiUploads({ status: 400, code: 30018, message: 'Maximum number of emojis reached' });
    const sources: EmojiSource[] = [{ kind: 'role', label: 'Vanguard', image: () => png('#5b9bff') }];
    const r = await syncEmojis({ rest, applicationId: APP_ID, sources, complete: false });
    expect(r.failed).toEqual([{ name: expect.stringMatching(/^role_vanguard_[0-9a-f]{6}$/), message: 'Maximum number of emojis reached' }]);
    expect(r.uploaded).toEqual([]);
  });

  it('the bot reads them back: answers write the emoji before the name, and nothing without them', async () => {
    expect(emojiBefore('tier', 'Gold II')).toBe('');
    await syncEmojis({ rest, applicationId: APP_ID, sources: (await allSources()).sources, complete: true });
    expect(await loadAppEmojis(rest, APP_ID)).toBe(14);
    const gold = discord.appEmojis.find((e) => e.name.startsWith('tier_gold_'))!;
    expect(emojiBefore('tier', 'Gold II')).toBe(`<:${gold.name}:${gold.id}> `);
    expect(emojiBefore('tier', 'One Above All')).toMatch(/^<:tier_one_above_all_[0-9a-f]{6}:\d+> $/);
    const jeff = discord.appEmojis.find((e) => e.name.startsWith('hero_jeff_'))!;
    // As the API spells it and as players read it.
    expect(emojiBefore('hero', 'jeff the land shark')).toBe(`<:${jeff.name}:${jeff.id}> `);
    expect(emojiBefore('hero', 'Jeff the Land Shark')).toBe(`<:${jeff.name}:${jeff.id}> `);
    expect(emojiBefore('role', 'Strategist')).toMatch(/^<:role_strategist_[0-9a-f]{6}:\d+> $/);
    expect(emojiBefore('hero', 'Storm')).toBe('');
    expect(emojiBefore('tier', 'Unranked')).toBe('');
  });
});
