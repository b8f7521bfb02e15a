import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageProxy, placeholderSvg } from '../../src/playground/images.js';

/** 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let server: Server;
let origin: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    if (req.url === '/rivals/heroes/hulk.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (req.url === '/rivals/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the playground image proxy', () => {
  it('passes on an image from the API image host, once, then from memory', async () => {
    const proxy = new ImageProxy({ allowedOrigins: [origin] });
    const image = await proxy.get(`${origin}/rivals/heroes/hulk.png`, 'thumbnail');
    expect(image).toEqual({ contentType: 'image/png', body: PNG, placeholder: false });
    await proxy.get(`${origin}/rivals/heroes/hulk.png`, 'thumbnail');
    expect(hits.get('/rivals/heroes/hulk.png')).toBe(1);
  });

  it('stands a placeholder of the right shape in for a missing image, or one that is not an image', async () => {
    const proxy = new ImageProxy({ allowedOrigins: [origin] });
    const missing = await proxy.get(`${origin}/rivals/heroes/nobody.png`, 'image');
    expect(missing).toMatchObject({ contentType: 'image/svg+xml', placeholder: true });
    expect(missing.body.toString()).toContain('width="400" height="225"');
    expect(await proxy.get(`${origin}/rivals/page.html`, 'icon')).toMatchObject({ placeholder: true });
    // A failure is remembered: the host is not asked again at once.
    await proxy.get(`${origin}/rivals/heroes/nobody.png`, 'image');
    expect(hits.get('/rivals/heroes/nobody.png')).toBe(1);
  });

  it('never fetches from a host that is not the API image host, nor anything but http(s)', async () => {
    const proxy = new ImageProxy({ allowedOrigins: ['https://marvelrivalsapi.com'] });
    const before = hits.get('/rivals/heroes/hulk.png');
    expect(await proxy.get(`${origin}/rivals/heroes/hulk.png`, 'image')).toMatchObject({ placeholder: true });
    expect(await proxy.get('file:///etc/passwd', 'image')).toMatchObject({ placeholder: true });
    expect(await proxy.get('not a url', 'image')).toMatchObject({ placeholder: true });
    expect(hits.get('/rivals/heroes/hulk.png')).toBe(before);
  });

  it('draws square placeholders for thumbnails and icons, with a caption only where there is room', () => {
    expect(placeholderSvg('thumbnail').toString()).toContain('Image offline');
    expect(placeholderSvg('icon').toString()).not.toContain('Image offline');
    expect(placeholderSvg('icon').toString()).toContain('width="48" height="48"');
  });
});
