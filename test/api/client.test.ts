import { readFileSync } from 'node:fs';
import Keyv from 'keyv';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiArgumentError } from '../../src/core/api-errors.js';
import { UpstreamRateLimiter } from '../../src/api/rate-limiter.js';
import { knownJsonSize } from '../../src/cache/memory-level.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { LruStore } from '../../src/cache/store.js';
import type { RivalsApi } from '../../src/api/client.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import type { Replica } from '../../src/replica/server.js';
import { cannedServer, capturingLogger, clientFor, replica, TEST_KEY, apiError } from '../helpers/replica.js';

let r: Replica;
let api: RivalsApi;

beforeAll(async () => {
  r = await replica();
  api = clientFor(r);
});
afterEach(() => r.setFaults({}));
afterAll(async () => {
  await api.close();
  await r.close();
});

describe('every endpoint against the replica', () => {
  it('1 heroes', async () => {
    const { data, source, stale } = await api.heroes();
    expect(data).toHaveLength(37);
    expect(source).toBe('upstream');
    expect(stale).toBe(false);
  });
  it('2 hero by name (any case, spaces for hyphens) and by id', async () => {
    expect((await api.hero('Spider Man')).data.id).toBe('1036');
    expect((await api.hero(1011)).data.name).toBe('hulk');
  });
  it('3 hero stats', async () => {
    const { data } = await api.heroStats('hulk');
    expect(data.hero_id).toBe('1011');
    expect(data.matches).toBeGreaterThan(0);
    expect(data.play_time).toBeGreaterThan(0);
  });
  it('4 hero costumes', async () => {
    const { data } = await api.heroCostumes('hulk');
    expect(data.length).toBeGreaterThan(0);
    expect(data[0]!.icon).toMatch(/^https:\/\/img\.test\/rivals\/costumes\//);
  });
  it('5 hero leaderboard on each platform', async () => {
    for (const platform of ['pc', 'ps', 'xbox'] as const) {
      const { data } = await api.heroLeaderboard('storm', { platform });
      expect(data.players.length).toBe(25);
      expect(typeof data.players[0]!.total_hero_damage).toBe('number');
    }
    const pc = await api.heroLeaderboard('storm');
    const xbox = await api.heroLeaderboard('storm', { platform: 'XBOX' });
    expect(pc.data.players[0]!.player_uid).not.toBe(xbox.data.players[0]!.player_uid);
  });
  it('6 achievements: paging and the hero filter', async () => {
    const first = await api.achievements();
    expect(first.data.total).toBe(20);
    expect(first.data.entries).toHaveLength(10);
    const third = await api.achievements({ page: 3, limit: 8 });
    expect(third.data.entries).toHaveLength(4);
    const hulk = await api.achievements({ query: 'hulk' });
    expect(hulk.data.total).toBe(2);
    const byId = await api.achievements({ query: '1011' });
    expect(byId.data.entries.map((a) => a.id)).toEqual(hulk.data.entries.map((a) => a.id));
    expect((await apiError(() => api.achievements({ query: 'nobody' }))).kind).toBe('not_found');
  });
  it('7 achievement by id and by name', async () => {
    const { data } = await api.achievement('10001');
    expect(data.points).toBe(10);
    expect((await api.achievement(data.name)).data.mission).toBe(data.mission);
  });
  it('8 battle pass: default season and season 1', async () => {
    expect((await api.battlePass()).data.season).toBe(1.5);
    expect((await api.battlePass({ season: 1 })).data.items.length).toBeGreaterThan(0);
    expect((await apiError(() => api.battlePass({ season: 9 }))).kind).toBe('not_found');
  });
  it('9 items: type filter and paging count', async () => {
    const all = await api.items({ limit: 100 });
    expect(all.data.total).toBeGreaterThanOrEqual(20);
    expect(new Set(all.data.entries.map((i) => i.type?.toLowerCase()))).toEqual(new Set(['emote', 'mvp', 'nameplate', 'spray']));
    const sprays = await api.items({ type: 'spray' });
    expect(sprays.data.entries.every((i) => i.type === 'Spray')).toBe(true);
    expect(sprays.data.total).toBe(6);
  });
  it('10 item by id and name', async () => {
    const { data } = await api.items();
    const one = data.entries[0]!;
    expect((await api.item(one.id)).data.name).toBe(one.name);
    expect((await api.item(one.name!)).data.id).toBe(one.id);
  });
  it('11 maps with the spec count field', async () => {
    const { data } = await api.maps({ page: 4 });
    expect(data.total).toBe(38);
    expect(data.entries).toHaveLength(8);
  });
  it('12-14 balances, patch notes, dev diaries', async () => {
    expect((await api.balances()).data.total).toBe(8);
    const notes = await api.patchNotes({ limit: 5 });
    expect(notes.data.total).toBe(12);
    expect(notes.data.entries).toHaveLength(5);
    expect(notes.data.entries[0]!.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await api.devDiaries()).data.total).toBe(6);
  });
  it('15 dev diary by id', async () => {
    const { data } = await api.devDiary('6');
    expect(data.title).toMatch(/Dev Diary #6/);
    expect(data.full_content).toContain('\n');
  });
  it('16 game versions whose patch notes resolve', async () => {
    const { data } = await api.gameVersions();
    expect(data.total).toBe(8);
    for (const v of data.entries) {
      const res = await fetch(`${r.url}${v.patch_notes_url}`, { headers: { 'x-api-key': TEST_KEY } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { id: string }).id).toBe(v.version);
    }
  });
  it('17 player by uid and by name, for every sample player', async () => {
    for (const [uid, profile] of r.dataset.players) {
      expect((await api.player(uid)).data.uid).toBe(uid);
      expect((await api.player(String(profile.name).toUpperCase())).data.uid).toBe(uid);
    }
  });
  it('18 match history v1 with skip and game mode', async () => {
    const all = await api.matchHistoryV1('1403392756');
    expect(all.data.matches).toHaveLength(20);
    expect((await api.matchHistoryV1('Card1gan', { skip: 15 })).data.matches).toHaveLength(5);
    const ranked = await api.matchHistoryV1('1403392756', { game_mode: 2 });
    expect(ranked.data.matches.every((m) => m.game_mode_id === 2)).toBe(true);
  });
  it('19 match history v2 with pagination: pages of at least 40, as the real API answers', async () => {
    // The captured history holds 40 entries: one page of 40 even when 15 are asked.
    const page1 = await api.matchHistoryV2('1786151874', { limit: 15 });
    expect(page1.data.matches).toHaveLength(40);
    expect(page1.data.pagination).toEqual({ page: 1, limit: 40, total_matches: 40, total_pages: 1, has_more: false });
    const page2 = await api.matchHistoryV2('1786151874', { limit: 15, page: 2 });
    expect(page2.data.matches).toHaveLength(0);
    expect(page2.data.pagination).toEqual({ page: 2, limit: 40, total_matches: 40, total_pages: 1, has_more: false });
    // A refreshed player (last_history_update set) without a captured v2 history gets one derived from v1.
    const derived = await api.matchHistoryV2('1403392756');
    expect(derived.data.matches).toHaveLength(20);
    expect(derived.data.pagination).toEqual({ page: 1, limit: 40, total_matches: 20, total_pages: 1, has_more: false });
    // A player whose history was never refreshed: the spec's 404, while the profile loads.
    expect((await api.player('1117455441')).data.uid).toBe('1117455441');
    expect(await apiError(() => api.matchHistoryV2('1117455441'))).toMatchObject({
      kind: 'not_found',
      status: 404,
      upstreamMessage: 'Player not found or match data unavailable for the specified query',
    });
  });
  it('20 match detail for every sample match', async () => {
    for (const uid of r.dataset.matches.keys()) expect((await api.match(uid)).data.match_uid).toBe(uid);
  });
});

describe('the size the cache counts', () => {
  it('is the length of the response body, noted on the parsed answer, so the cache need not serialise it', async () => {
    const { data } = await api.player('1403392756');
    const body = await (await fetch(`${r.url}/api/v1/player/1403392756`, { headers: { 'x-api-key': TEST_KEY } })).text();
    expect(body.length).toBeGreaterThan(10_000);
    expect(knownJsonSize(data)).toBe(body.length);
    // An estimate of the parsed answer's own JSON length, within a factor the cache's bound can live with.
    const parsed = JSON.stringify(data).length;
    expect(body.length / parsed).toBeGreaterThan(0.5);
    expect(body.length / parsed).toBeLessThan(2);
  });
});

describe('a read given up by a caller’s signal (a background job that stops)', () => {
  /** A cached client whose key has spent its one request of a 400 ms window: the next read waits for the window. */
  async function waitingClient() {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 400 });
    await limiter.schedule(async () => undefined);
    const client = clientFor(r, { limiter, cache: new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }) }) });
    return { limiter, client, close: async () => (limiter.stop(), await client.close()) };
  }
  const heroListReads = () => r.requests.byPath.get('/api/v1/heroes') ?? 0;

  it('alone, is given up at once: it leaves the rate limiter’s queue and is never sent', async () => {
    const { limiter, client, close } = await waitingClient();
    const before = heroListReads();
    const job = new AbortController();
    const read = client.heroes({ signal: job.signal });
    await vi.waitFor(() => expect(limiter.waiting).toBe(1));
    job.abort(new Error('stopping'));
    await expect(read).rejects.toThrow('stopping');
    expect(limiter.waiting).toBe(0);
    // The window's next slot: a read queued after it is sent there, and the hero list read, had it stayed in the queue, would have gone first.
    const maps = await client.maps();
    expect(maps.source).toBe('upstream');
    expect(heroListReads()).toBe(before);
    await close();
  });

  it('joined by a member’s command, still answers the member: only the job stops waiting', async () => {
    const { client, close } = await waitingClient();
    const job = new AbortController();
    const jobRead = client.heroes({ signal: job.signal });
    const memberRead = client.heroes();
    job.abort(new Error('stopping'));
    await expect(jobRead).rejects.toThrow('stopping');
    const member = await memberRead;
    expect(member.data).toHaveLength(37);
    expect(member.source).toBe('upstream');
    await close();
  });

  it('joining a member’s read, gives up only its own wait', async () => {
    const { client, close } = await waitingClient();
    const memberRead = client.heroes();
    const job = new AbortController();
    const jobRead = client.heroes({ signal: job.signal });
    job.abort(new Error('stopping'));
    await expect(jobRead).rejects.toThrow('stopping');
    expect((await memberRead).data).toHaveLength(37);
    await close();
  });
});

describe('error kinds', () => {
  it('unauthorized: a wrong key, in both body shapes', async () => {
    const bad = clientFor(r, { apiKey: 'wrong' });
    const common = await apiError(() => bad.heroes());
    expect(common).toMatchObject({ kind: 'unauthorized', status: 401, upstreamMessage: 'Invalid or missing API key.' });
    const player = await apiError(() => bad.player('1403392756'));
    expect(player).toMatchObject({ kind: 'unauthorized', status: 401, upstreamMessage: 'Invalid or missing API key' });
    await bad.close();
  });
  it('not_found: unknown player, match, hero (the spec answers 400 for an unknown hero on stats)', async () => {
    expect(await apiError(() => api.player('nobody-here'))).toMatchObject({ kind: 'not_found', status: 404 });
    expect(await apiError(() => api.match('1_2_3'))).toMatchObject({ kind: 'not_found', status: 404 });
    expect(await apiError(() => api.heroStats('nobody'))).toMatchObject({ kind: 'not_found', status: 400 });
    expect(await apiError(() => api.matchHistoryV2('nobody'))).toMatchObject({ kind: 'not_found', status: 404 });
  });
  it('bad_request: a page past the item list is the spec 404, a bad filter a 400', async () => {
    expect(await apiError(() => api.items({ page: 99 }))).toMatchObject({ kind: 'not_found', upstreamMessage: 'No items found matching the filter criteria' });
    const res = await fetch(`${r.url}/api/v1/items?type=hat`, { headers: { 'x-api-key': TEST_KEY } });
    expect(res.status).toBe(400);
  });
  it('rate_limited: 429 with Retry-After gives the delay', async () => {
    r.setFaults({ forceStatus: 429, retryAfterSeconds: 7 });
    const e = await apiError(() => api.heroes());
    expect(e).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 7_000, retryAfterFromHeader: true });
  });
  it('rate_limited: the real 429 body without a header gives the delay from its message', async () => {
    const server = await cannedServer(429, '{"error": true, "message": "You can request an update in 16 minutes.", "status": 429}');
    const c = clientFor({ ...r, url: server.url });
    expect(await apiError(() => c.player('x'))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 16 * 60_000, retryAfterFromHeader: false });
    await c.close();
    server.close();
  });
  it("unavailable: 500 and 503, and the player endpoint's own 500 body", async () => {
    r.setFaults({ forceStatus: 500 });
    expect(await apiError(() => api.maps())).toMatchObject({ kind: 'unavailable', status: 500, upstreamMessage: 'An error occurred while fetching data.' });
    expect(await apiError(() => api.player('1403392756'))).toMatchObject({
      kind: 'unavailable',
      upstreamMessage: 'An unexpected error occurred. Please try again later.',
    });
    r.setFaults({ forceStatus: 503 });
    expect((await apiError(() => api.maps())).kind).toBe('unavailable');
  });
  it('unavailable: connection refused', async () => {
    const c = clientFor({ ...r, url: 'http://127.0.0.1:9' });
    expect((await apiError(() => c.heroes())).kind).toBe('unavailable');
    await c.close();
  });
  it('timeout: a hung response', async () => {
    r.setFaults({ hang: true });
    const c = clientFor(r, { timeoutMs: 300 });
    // The client's own timeout, not the test's, ended the request: it says so in its kind.
    expect((await apiError(() => c.heroes())).kind).toBe('timeout');
    await c.close();
  });
  it('timeout: a body that stalls halfway', async () => {
    r.setFaults({ hangBody: true });
    const c = clientFor(r, { timeoutMs: 300 });
    expect((await apiError(() => c.heroLeaderboard('hulk'))).kind).toBe('timeout');
    await c.close();
  });
  it('bad_response: malformed JSON and a wrong top-level shape', async () => {
    r.setFaults({ malformed: true });
    expect((await apiError(() => api.match('x'))).kind).toBe('bad_response');
    r.setFaults({});
    const server = await cannedServer(200, '{"heroes": "not an array"}');
    const c = clientFor({ ...r, url: server.url });
    expect((await apiError(() => c.heroes())).kind).toBe('bad_response');
    await c.close();
    server.close();
  });
  it('an error envelope in a 200 is an error', async () => {
    const server = await cannedServer(200, '{"error": "Invalid query parameter or missing query"}');
    const c = clientFor({ ...r, url: server.url });
    expect(await apiError(() => c.player('x'))).toMatchObject({ kind: 'bad_request', status: 400 });
    await c.close();
    server.close();
  });
});

describe('arguments are refused before any request', () => {
  const cases: [string, (a: RivalsApi) => unknown, string][] = [
    ['page 0', (a) => a.maps({ page: 0 }), 'page'],
    ['fractional limit', (a) => a.patchNotes({ limit: 2.5 }), 'limit'],
    ['negative page', (a) => a.items({ page: -1 }), 'page'],
    ['platform', (a) => a.heroLeaderboard('hulk', { platform: 'switch' }), 'platform'],
    ['item type', (a) => a.items({ type: 'hat' }), 'type'],
    ['season text', (a) => a.player('1', { season: 'one' }), 'season'],
    ['season 1.55', (a) => a.battlePass({ season: 1.55 }), 'season'],
    ['negative season', (a) => a.matchHistoryV2('1', { season: -1 }), 'season'],
    ['season text -0.5', (a) => a.matchHistoryV1('1', { season: '-0.5' }), 'season'],
    ['empty hero', (a) => a.hero('  '), 'query'],
    ['dot segment', (a) => a.player('..'), 'query'],
    ['negative skip', (a) => a.matchHistoryV1('1', { skip: -1 }), 'skip'],
  ];
  it.each(cases)('%s', (_name, call, argument) => {
    const before = r.requests.total;
    let caught: unknown;
    try {
      call(api);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ApiArgumentError);
    expect((caught as ApiArgumentError).argument).toBe(argument);
    expect(r.requests.total).toBe(before);
  });
  it('accepts the documented forms', async () => {
    await expect(api.battlePass({ season: '1.5' })).resolves.toBeDefined();
    await expect(api.battlePass({ season: 1 })).resolves.toBeDefined();
  });
});

describe('season 0 exists', () => {
  it('is accepted by player and both match histories and sent as season=0', async () => {
    // A loopback server that records each request and answers with the real samples.
    const seen: string[] = [];
    const profile = readFileSync(join(SAMPLES_DIR, 'player/autumnnippert-hayamaken-1402468705.json'), 'utf8');
    const history = readFileSync(join(SAMPLES_DIR, 'match-history-v2/doublec8-double-c-1786151874-page1-limit40-2025-05-26.json'), 'utf8');
    const server = createServer((req, res) => {
      seen.push(req.url!);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url!.includes('/match-history') ? history : profile);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const c = clientFor({ ...r, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
    try {
      expect((await c.player('1402468705', { season: 0 })).data.uid).toBe('1402468705');
      expect((await c.matchHistoryV1('1402468705', { season: 0 })).data.matches).toHaveLength(40);
      expect((await c.matchHistoryV2('1402468705', { season: '0' })).data.matches).toHaveLength(40);
      expect(seen).toEqual([
        '/api/v1/player/1402468705?season=0',
        '/api/v1/player/1402468705/match-history?season=0',
        '/api/v2/player/1402468705/match-history?limit=40&page=1&season=0',
      ]);
    } finally {
      await c.close();
      server.closeAllConnections();
      server.close();
    }
  });
  it('is accepted by the replica', async () => {
    expect((await api.player('1403392756', { season: 0 })).data.uid).toBe('1403392756');
    expect((await api.matchHistoryV1('1403392756', { season: 0 })).data.matches).toHaveLength(20);
    expect((await api.matchHistoryV2('1786151874', { season: 0 })).data.matches).toHaveLength(40);
  });
});

describe('the API key stays secret', () => {
  it('is sent as x-api-key and never appears in errors or log lines', async () => {
    const { logger, lines } = capturingLogger([TEST_KEY]);
    const c = clientFor(r, { logger });
    await c.heroes();
    r.setFaults({ forceStatus: 500 });
    const e = await apiError(() => c.heroes());
    r.setFaults({ hang: true });
    const t = await apiError(() => clientFor(r, { logger, timeoutMs: 200 }).heroes());
    logger.error({ err: e, cause: t, config: { rivals: { apiKey: TEST_KEY } }, headers: { 'x-api-key': TEST_KEY } }, 'failure');
    logger.flush();
    const everything = [e.message, e.stack, t.message, String(t.cause), JSON.stringify(e), ...lines].join('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(everything).not.toContain(TEST_KEY);
    expect(lines.join('')).toContain('[Redacted]');
    await c.close();
  });
});
