/** The playground's HTTP surface: the page, its guards, and the event stream. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT, CHANNELS, MEMBERS } from '../../src/playground/guild.js';
import type { Bootstrap, MessageEvent } from '../../src/playground/protocol.js';
import { bootPlayground } from '../helpers/playground.js';

let boot: Awaited<ReturnType<typeof bootPlayground>>;
let url: string;

beforeAll(async () => {
  boot = await bootPlayground();
  url = boot.playground.url;
});
afterAll(() => boot.close());

const post = (path: string, body: unknown, type = 'application/json') => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(body) });

/** A GET with a Host header of our choosing (fetch does not allow setting it). */
function getWithHost(path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the playground server', () => {
  it('serves the page, its bundle and stylesheet, and the bootstrap with the registered commands', async () => {
    const page = await fetch(url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<script type="module" src="/app.js">');
    const js = await fetch(`${url}/app.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await js.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(`${url}/app.css`)).status).toBe(200);
    const data = (await (await fetch(`${url}/api/bootstrap`)).json()) as Bootstrap;
    expect(data.commands.map((c) => c.name)).toEqual(expect.arrayContaining(['player', 'hero', 'match', 'leaderboard', 'patch-notes', 'config', 'Rivals profile']));
    expect(data.members.filter((m) => m.admin)).toHaveLength(1);
    expect(data.replica).toBe(true);
  });

  it('draws avatars itself and answers an unknown route with 404', async () => {
    const avatar = await fetch(`${url}/avatar/${BOT.id}.svg`);
    expect(avatar.headers.get('content-type')).toBe('image/svg+xml');
    expect(await avatar.text()).toContain('<svg');
    expect((await fetch(`${url}/nope`)).status).toBe(404);
  });

  it('refuses another Host (DNS rebinding) and a POST that is not JSON (a cross-site form)', async () => {
    expect(await getWithHost('/api/bootstrap', 'evil.example')).toBe(421);
    const form = await post('/api/interactions/command', { memberId: MEMBERS[0]!.id }, 'text/plain');
    expect(form.status).toBe(415);
  });

  it('explains a malformed request, and a command the definitions refuse', async () => {
    const bad = await post('/api/interactions/command', { memberId: 1 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/memberId/);
    const refused = await post('/api/interactions/command', { memberId: MEMBERS[0]!.id, channelId: CHANNELS[0]!.id, command: 'hero', options: {} });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ ok: false, error: 'The option “name” is required.' });
  });

  it('streams message events to the page as server-sent events', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${url}/api/events`, { signal: controller.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = stream.body!.getReader();
    const accepted = await post('/api/interactions/command', { memberId: MEMBERS[1]!.id, channelId: CHANNELS[0]!.id, command: 'maps', options: {} });
    expect(accepted.status).toBe(202);
    let text = '';
    while (!text.includes('\n\ndata: ') || !/"state":"done"/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const event = JSON.parse(text.split('data: ')[1]!.split('\n\n')[0]!) as MessageEvent;
    expect(event).toMatchObject({ type: 'message', message: { channelId: CHANNELS[0]!.id, interaction: { userId: MEMBERS[1]!.id, command: '/maps' } } });
  });

  it('autocompletes from the bot’s handlers', async () => {
    const res = await post('/api/interactions/autocomplete', { memberId: MEMBERS[0]!.id, command: 'hero', options: { name: 'spid' }, focused: 'name' });
    const { choices } = (await res.json()) as { choices: { name: string }[] };
    expect(choices.map((c) => c.name)).toContain('Spider-Man');
  });

  it('adds a post to the replica’s feed and polls at once', async () => {
    const res = await post('/api/replica/posts', { feed: 'devDiaries', title: 'Dev diary: the playground', overview: 'Hello.' });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const diaries = await boot.services.api.devDiaries({ page: 1, limit: 10 }, { fresh: true });
    expect(diaries.data.entries[0]).toMatchObject({ id, title: 'Dev diary: the playground' });
    expect((await post('/api/replica/posts', { feed: 'rumours', title: 'x' })).status).toBe(400);
  });
});
