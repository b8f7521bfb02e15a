/** The image cards' image store (src/api/image-store.ts): one download per image, a bounded disk folder, failures as null. */
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageStore } from '../../src/api/image-store.js';
import { cachedCharts, withCardImages } from '../../src/discord/chart-attachments.js';
import type { ProfileCard } from '../../src/charts/specs.js';
import { recordingCharts } from '../helpers/charts.js';

const logger = pino({ level: 'silent' });
const png = (color: string) => {
  const c = createCanvas(40, 40);
  const ctx = c.getContext('2d');
  ctx.fillStyle = color;
  ctx.fillRect(0, 0, 40, 40);
  return c.toBuffer('image/png');
};
const IMAGES: Record<string, Buffer> = { '/a.png': png('#ff0000'), '/b.png': png('#00ff00'), '/c.png': png('#0000ff') };

let server: Server;
let base: string;
const hits = new Map<string, number>();
/** Answers to /held.png wait here until the test lets them go. */
const held: (() => void)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const image = IMAGES[path];
    if (image) return res.writeHead(200, { 'content-type': 'image/png' }).end(image);
    if (path === '/page') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    if (path === '/huge.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(300_000));
    if (path === '/held.png') return void held.push(() => res.writeHead(200, { 'content-type': 'image/png' }).end(IMAGES['/a.png']));
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const folder = () => mkdtempSync(join(tmpdir(), 'images-'));

describe('ImageStore', () => {
  it('downloads an image once: then from memory, and after a restart from its folder', async () => {
    const dir = folder();
    try {
      const first = new ImageStore({ dir, maxDiskBytes: 1_000_000, logger });
      const bytes = await first.get(`${base}/a.png`);
      expect(Buffer.from(bytes!).equals(IMAGES['/a.png']!)).toBe(true);
      expect(await first.get(`${base}/a.png`)).toBe(bytes);
      expect(first.stats).toMatchObject({ downloads: 1, memoryHits: 1 });
      expect(readdirSync(dir).filter((f) => f.endsWith('.img'))).toHaveLength(1);
      const before = hits.get('/a.png');
      const restarted = new ImageStore({ dir, maxDiskBytes: 1_000_000, logger });
      const again = await restarted.get(`${base}/a.png`);
      expect(Buffer.from(again!).equals(IMAGES['/a.png']!)).toBe(true);
      expect(restarted.stats).toMatchObject({ downloads: 0, diskHits: 1 });
      expect(hits.get('/a.png')).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps its folder under the bound: the least recently used file goes first', async () => {
    const dir = folder();
    try {
      const size = Math.max(...Object.values(IMAGES).map((b) => b.byteLength));
      const store = new ImageStore({ dir, maxDiskBytes: Math.floor(size * 2.5), logger });
      await store.get(`${base}/a.png`);
      await store.get(`${base}/b.png`);
      await store.get(`${base}/c.png`);
      // The deletion runs when the third is stored; wait for the folder to hold two.
      await expect.poll(() => readdirSync(dir).filter((f) => f.endsWith('.img')).length).toBe(2);
      const restarted = new ImageStore({ dir, maxDiskBytes: Math.floor(size * 2.5), logger });
      const aHits = hits.get('/a.png')!;
      await restarted.get(`${base}/c.png`);
      await restarted.get(`${base}/a.png`);
      expect(restarted.stats).toMatchObject({ diskHits: 1, downloads: 1 });
      expect(hits.get('/a.png')).toBe(aHits + 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers null for a missing image, a page that is no image, or one over the size limit, and does not ask again soon', async () => {
    const store = new ImageStore({ dir: null, maxDiskBytes: 1_000_000, maxImageBytes: 200_000, logger });
    for (const path of ['/missing.png', '/page', '/huge.png']) {
      expect(await store.get(`${base}${path}`), path).toBeNull();
      const asked = hits.get(path);
      expect(await store.get(`${base}${path}`), path).toBeNull();
      expect(hits.get(path), path).toBe(asked);
    }
    expect(store.stats.failures).toBe(3);
    expect(await store.get('http://127.0.0.1:1/closed.png')).toBeNull();
  });

  it('a caller out of time goes on without the image; the download still lands for the next one', async () => {
    const store = new ImageStore({ dir: null, maxDiskBytes: 1_000_000, logger });
    const controller = new AbortController();
    const waiting = store.get(`${base}/held.png`, controller.signal);
    await expect.poll(() => held.length).toBe(1);
    controller.abort();
    expect(await waiting).toBeNull();
    held.shift()!();
    await expect.poll(() => store.stats.downloads).toBe(1);
    expect(await store.get(`${base}/held.png`)).not.toBeNull();
    expect(hits.get('/held.png')).toBe(1);
  });

  it('leaves no listener on a caller’s signal once an image is had: a card’s dozen images share one signal', async () => {
    const store = new ImageStore({ dir: null, maxDiskBytes: 1_000_000, logger });
    const signal = new AbortController().signal;
    const waiting = store.get(`${base}/c.png`, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    expect(await waiting).not.toBeNull();
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});

describe('withCardImages', () => {
  it('puts the bytes of the images a card names into its spec, and leaves out the ones not had', async () => {
    const charts = recordingCharts();
    const store = new ImageStore({ dir: null, maxDiskBytes: 1_000_000, logger });
    const card: ProfileCard = {
      kind: 'profile-card',
      title: 'P',
      subtitle: '',
      season: '',
      icon: `${base}/a.png`,
      rank: { tier: 'Gold II', score: '3,752 RS', peak: null, season: null, icon: `${base}/missing.png` },
      tiles: [],
      heroes: [{ name: 'Hulk', role: 'Vanguard', lines: [], image: `${base}/b.png` }],
      roles: [],
      form: [],
      labels: { heroes: '', roles: '', form: '', record: '' },
    };
    await withCardImages(charts, store).render(card);
    const drawn = charts.specs[0] as ProfileCard;
    expect(Object.keys(drawn.images!).sort()).toEqual([`${base}/a.png`, `${base}/b.png`]);
    // Other specs pass through untouched.
    await withCardImages(charts, store).render({ kind: 'hero-performance', title: 't', heroes: [] });
    expect(charts.specs[1]).toEqual({ kind: 'hero-performance', title: 't', heroes: [] });
  });

  it('around the chart cache: a card drawn with a placeholder is drawn again once its image comes, then kept', async () => {
    const charts = recordingCharts();
    let had: Uint8Array | null = null;
    const source = { get: async () => had };
    const rendered = withCardImages(cachedCharts(charts), source);
    const card: ProfileCard = {
      kind: 'profile-card',
      title: 'P',
      subtitle: '',
      season: '',
      icon: `${base}/a.png`,
      rank: { tier: 'Gold II', score: '3,752 RS', peak: null, season: null, icon: null },
      tiles: [],
      heroes: [],
      roles: [],
      form: [],
      labels: { heroes: '', roles: '', form: '', record: '' },
    };
    await rendered.render(card);
    await rendered.render(card);
    // The image missing twice: one draw, with the placeholder, kept.
    expect(charts.specs.map((s) => Object.keys((s as ProfileCard).images ?? {}))).toEqual([[]]);
    had = IMAGES['/a.png']!;
    await rendered.render(card);
    await rendered.render(card);
    expect(charts.specs.map((s) => Object.keys((s as ProfileCard).images ?? {}))).toEqual([[], [`${base}/a.png`]]);
  });
});
