import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InteractionCallbackError, InteractionCallbacks, multipartBody, multipartParts } from '../../src/discord/interaction-callback.js';

type Seen = { method?: string; url?: string; headers: IncomingMessage['headers']; body: string };

let server: Server | undefined;
let callbacks: InteractionCallbacks | undefined;

afterEach(async () => {
  await callbacks?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = callbacks = undefined;
});

/** A REST API that records each request and answers with `answer`. */
async function api(answer: (res: ServerResponse) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, seen };
}

describe('InteractionCallbacks', () => {
  it('POSTs the response as JSON to /v10/interactions/{id}/{token}/callback under the API base path, without the bot token', async () => {
    const { url, seen } = await api((res) => res.writeHead(204).end());
    callbacks = new InteractionCallbacks(url, 4);
    await callbacks.send('111', 'tok-abc', { type: 5, data: { flags: 64 } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/v10/interactions/111/tok-abc/callback' });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(JSON.parse(seen[0]!.body)).toEqual({ type: 5, data: { flags: 64 } });
  });

  it('sends files as multipart/form-data: the JSON in payload_json, each file in files[n]', async () => {
    const { url, seen } = await api((res) => res.writeHead(204).end());
    const raw: Buffer[] = [];
    server!.prependListener('request', (req: IncomingMessage) => req.on('data', (c: Buffer) => raw.push(c)));
    callbacks = new InteractionCallbacks(url, 4);
    const data = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    await callbacks.send('555', 'tok', { type: 4, data: { content: 'x', attachments: [{ id: 0, filename: 'chart.png' }] } }, [
      { name: 'chart.png', data, contentType: 'image/png' },
    ]);
    expect(seen[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- a test reading the multipart body back; no server load
    const form = await new Response(Buffer.concat(raw), { headers: { 'content-type': seen[0]!.headers['content-type']! } }).formData();
    expect(JSON.parse(form.get('payload_json') as string)).toEqual({ type: 4, data: { content: 'x', attachments: [{ id: 0, filename: 'chart.png' }] } });
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- formData() makes a File for a file part
    const file = form.get('files[0]') as File;
    expect(file.name).toBe('chart.png');
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(data);
  });

  it('sends two files with their length given (not chunked), each byte as drawn, a name escaped as browsers escape it', async () => {
    const { url, seen } = await api((res) => res.writeHead(204).end());
    const raw: Buffer[] = [];
    server!.prependListener('request', (req: IncomingMessage) => req.on('data', (c: Buffer) => raw.push(c)));
    callbacks = new InteractionCallbacks(url, 4);
    // Bytes that look like multipart syntax inside a file must come through untouched.
    const card = new Uint8Array(Buffer.from('\r\n--not-the-boundary\r\n\u0000\u00ff'));
    const chart = new Uint8Array(200_000).map((_, i) => i % 251);
    await callbacks.send('556', 'tok', { type: 4, data: { content: 'y' } }, [
      { name: 'card"x.png', data: card, contentType: 'image/png' },
      { name: 'chart.png', data: chart, contentType: 'image/png' },
    ]);
    const body = Buffer.concat(raw);
    expect(seen[0]!.headers['transfer-encoding']).toBeUndefined();
    expect(Number(seen[0]!.headers['content-length'])).toBe(body.byteLength);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- a test reading the multipart body back; no server load
    const form = await new Response(body, { headers: { 'content-type': seen[0]!.headers['content-type']! } }).formData();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- formData() makes a File for a file part
    const [first, second] = [form.get('files[0]') as File, form.get('files[1]') as File];
    // The standard parser reads the browser's escape back.
    expect(first.name).toBe('card"x.png');
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(card);
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(chart);
  });

  it('multipartBody is the parts of multipartParts in one buffer, under a boundary of its own each time', () => {
    const files = [{ name: 'a.png', data: new Uint8Array([1, 2, 3]), contentType: 'image/png' as const }];
    const { parts, length, contentType } = multipartParts({ a: 1 }, files);
    expect(parts.reduce((n, p) => n + p.byteLength, 0)).toBe(length);
    // The file's own bytes are one of the parts, not a copy.
    expect(parts).toContain(files[0]!.data);
    const one = multipartBody({ a: 1 }, files);
    expect(one.contentType).not.toBe(contentType);
    const boundary = (c: string) => c.slice(c.indexOf('boundary=') + 'boundary='.length);
    expect(one.body.toString('latin1').replaceAll(boundary(one.contentType), 'B')).toBe(
      Buffer.concat(parts).toString('latin1').replaceAll(boundary(contentType), 'B'),
    );
  });

  it("throws Discord's JSON error code and message, and never the token", async () => {
    const { url } = await api((res) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Unknown interaction', code: 10062 })),
    );
    callbacks = new InteractionCallbacks(url, 4);
    const err = await callbacks.send('222', 'secret-token-9', { type: 6 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InteractionCallbackError);
    expect(err).toMatchObject({ status: 404, code: 10062 });
    expect((err as Error).message).toContain('Unknown interaction');
    expect((err as Error).message).not.toContain('secret-token-9');
  });

  it('throws the status and the start of a body that is not JSON', async () => {
    const { url } = await api((res) => res.writeHead(502).end('<html>bad gateway</html>'));
    callbacks = new InteractionCallbacks(url, 4);
    await expect(callbacks.send('333', 't', { type: 6 })).rejects.toMatchObject({
      status: 502,
      code: undefined,
      message: expect.stringContaining('bad gateway'),
    });
  });

  it('rejects when the API does not listen', async () => {
    const { url } = await api((res) => res.end());
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    callbacks = new InteractionCallbacks(url, 4);
    await expect(callbacks.send('444', 't', { type: 6 })).rejects.toThrow();
  });

  it('sends many callbacks at once over its few connections', async () => {
    const { url, seen } = await api((res) => res.writeHead(204).end());
    callbacks = new InteractionCallbacks(url, 2);
    await Promise.all(Array.from({ length: 50 }, (_, i) => callbacks!.send(String(i), `t${i}`, { type: 6 })));
    expect(new Set(seen.map((s) => s.url)).size).toBe(50);
  });
});
