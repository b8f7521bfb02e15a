import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { faultsFromEnv } from '../../src/replica/faults.js';
import { MESSAGES, type Replica } from '../../src/replica/server.js';
import { replica, TEST_KEY } from '../helpers/replica.js';

let r: Replica;
beforeAll(async () => {
  r = await replica();
});
afterEach(() => r.setFaults({}));
afterAll(() => r.close());

async function get(path: string, key: string | null = TEST_KEY): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(`${r.url}${path}`, { headers: key === null ? {} : { 'x-api-key': key } });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* kept as text */
  }
  return { status: res.status, body, headers: res.headers };
}

const common = (status: number, message: string) => ({ status, body: { error: true, message, status } });

describe('authentication (spec: Authentication, Errors)', () => {
  it('401 with the exact common body, with no key or a wrong key', async () => {
    expect(await get('/api/v1/heroes', null)).toMatchObject(common(401, 'Invalid or missing API key.'));
    expect(await get('/api/v1/maps', 'nope')).toMatchObject(common(401, 'Invalid or missing API key.'));
    expect(await get('/api/v2/player/1403392756/match-history', 'nope')).toMatchObject(common(401, 'Invalid or missing API key.'));
  });
  it("401 with the player endpoint's own body", async () => {
    expect(await get('/api/v1/player/1403392756', null)).toMatchObject({ status: 401, body: { status: 'error', message: 'Invalid or missing API key' } });
  });
});

describe('the error table of the spec, status and message exactly', () => {
  const cases: [string, number, string][] = [
    ['/api/v1/balances?page=0', 400, MESSAGES.badPagination],
    ['/api/v1/patch-notes?limit=x', 400, MESSAGES.badPagination],
    ['/api/v1/dev-diaries?page=-2', 400, MESSAGES.badPagination],
    ['/api/v1/game-versions?limit=0', 400, MESSAGES.badPagination],
    ['/api/v1/maps?page=abc', 400, 'Invalid query parameters or filters.'],
    ['/api/v1/items?type=hat', 400, 'Invalid query parameters or filters.'],
    ['/api/v1/achievements?limit=0', 400, 'Invalid query parameters or filters.'],
    ['/api/v1/item/%20', 400, 'Invalid query parameters.'],
    ['/api/v1/achievement/%20', 400, 'Invalid query parameters.'],
    ['/api/v1/battlepass?season=abc', 400, 'Invalid season query parameter. The specified season is not available or invalid.'],
    ['/api/v1/heroes/hero/nobody/stats', 400, 'Invalid hero name or ID. The provided name or ID does not match any known hero.'],
    ['/api/v1/heroes/hero/nobody/costumes', 400, 'Invalid hero name or ID. The provided name or ID does not match any known hero.'],
    ['/api/v2/player/1403392756/match-history?page=0', 400, 'Invalid query parameter (e.g., missing player UID or username).'],
    ['/api/v1/balances?page=50', 404, 'No balances found'],
    ['/api/v1/patch-notes?page=50', 404, 'No Patch Note found'],
    ['/api/v1/dev-diaries?page=50', 404, 'No Dev Diaries found'],
    ['/api/v1/dev-diary/999', 404, 'No Dev Diary found'],
    ['/api/v1/game-versions?page=50', 404, 'No Game versions found'],
    ['/api/v1/maps?page=50', 404, 'No maps found.'],
    ['/api/v1/items?page=50', 404, 'No items found matching the filter criteria'],
    ['/api/v1/item/no-such-item', 404, 'No item found with the provided ID or name.'],
    ['/api/v1/achievements?query=nobody', 404, 'No achievements found matching the filter criteria'],
    ['/api/v1/achievement/no-such', 404, 'No achievements found'],
    ['/api/v1/battlepass?season=7', 404, 'Battlepass for the selected season not found'],
    ['/api/v2/player/nobody/match-history', 404, 'Player not found or match data unavailable for the specified query'],
    // A known player whose history was never refreshed (see history-realism.test.ts).
    ['/api/v2/player/1402468705/match-history', 404, 'Player not found or match data unavailable for the specified query'],
  ];
  it.each(cases)('%s -> %i', async (path, status, message) => {
    const res = await get(path);
    expect(res).toMatchObject(common(status, message));
  });

  it("400 with the player endpoint's own body for a blank query or a bad season", async () => {
    expect(await get('/api/v1/player/%20')).toMatchObject({ status: 400, body: { error: 'Invalid query parameter or missing query' } });
    expect(await get('/api/v1/player/1403392756?season=x')).toMatchObject({ status: 400, body: { error: 'Invalid query parameter or missing query' } });
  });

  it("500 bodies: common, and the player endpoint's own", async () => {
    r.setFaults({ forceStatus: 500 });
    expect(await get('/api/v1/heroes')).toMatchObject(common(500, 'An error occurred while fetching data.'));
    expect(await get('/api/v1/player/1403392756')).toMatchObject({
      status: 500,
      body: { status: 'error', message: 'An unexpected error occurred. Please try again later.' },
    });
  });
});

describe('paging, filters and lookups', () => {
  it('uses the count field each list names', async () => {
    const fields: [string, string, string][] = [
      ['/api/v1/balances', 'total_balances', 'balances'],
      ['/api/v1/patch-notes', 'total_patches', 'formatted_patches'],
      ['/api/v1/dev-diaries', 'total_entries', 'dev_diaries'],
      ['/api/v1/game-versions', 'total_versions', 'versions'],
      ['/api/v1/maps', 'total_maps', 'maps'],
      ['/api/v1/items', 'total_items', 'items'],
      ['/api/v1/achievements', 'total_achievements', 'achievements'],
    ];
    for (const [path, count, array] of fields) {
      const { body } = await get(path);
      const b = body as Record<string, unknown>;
      expect(typeof b[count]).toBe('number');
      expect((b[array] as unknown[]).length).toBeLessThanOrEqual(10);
    }
  });
  it('limit and page slice the list', async () => {
    const a = (await get('/api/v1/items?limit=4&page=2')).body as { items: { id: string }[] };
    const all = (await get('/api/v1/items?limit=100')).body as { items: { id: string }[] };
    expect(a.items.map((i) => i.id)).toEqual(all.items.slice(4, 8).map((i) => i.id));
  });
  it('looks heroes up by id or name, case-insensitively', async () => {
    for (const q of ['1036', 'SPIDER-MAN', 'spider%20man']) expect(((await get(`/api/v1/heroes/hero/${q}`)).body as { id: number }).id).toBe(1036);
  });
  it('marks where data comes from', async () => {
    expect((await get('/api/v1/heroes')).headers.get('x-replica-provenance')).toBe('real');
    expect((await get('/api/v1/items')).headers.get('x-replica-provenance')).toBe('handwritten');
  });
});

describe('dataset minimums of the issue', () => {
  it('has the fixtures the issue asks for', () => {
    const d = r.dataset;
    expect(d.heroStats.size).toBeGreaterThanOrEqual(10);
    expect(new Set([...d.leaderboards.keys()].map((k) => k.split(':')[0])).size).toBeGreaterThanOrEqual(5);
    expect(new Set([...d.leaderboards.keys()].map((k) => k.split(':')[1]))).toEqual(new Set(['pc', 'ps', 'xbox']));
    expect(d.items.length).toBeGreaterThanOrEqual(20);
    expect(d.achievements.length).toBeGreaterThanOrEqual(20);
    expect(d.battlePasses.size).toBeGreaterThanOrEqual(2);
    expect(d.posts.patchNotes.length).toBeGreaterThanOrEqual(12);
    expect(d.posts.balances.length).toBeGreaterThanOrEqual(8);
    expect(d.posts.devDiaries.length).toBeGreaterThanOrEqual(6);
    expect(d.gameVersions.length).toBeGreaterThanOrEqual(8);
    expect(d.players.size).toBe(7);
    expect(d.profileCaptures).toHaveLength(9);
    expect(d.matches.size).toBe(4);
  });
});

describe('fault injection', () => {
  it('is set and cleared through the loopback admin route', async () => {
    const put = await fetch(`${r.url}/__replica/faults`, { method: 'PUT', body: JSON.stringify({ forceStatus: 503, retryAfterSeconds: 3 }) });
    expect(put.status).toBe(200);
    const res = await get('/api/v1/maps');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('3');
    await fetch(`${r.url}/__replica/faults`, { method: 'DELETE' });
    expect((await get('/api/v1/maps')).status).toBe(200);
  });
  it('refuses an invalid fault setting', async () => {
    const res = await fetch(`${r.url}/__replica/faults`, { method: 'PUT', body: JSON.stringify({ forceStatus: 200 }) });
    expect(res.status).toBe(400);
  });
  it('adds latency, and limits faults to a path prefix', async () => {
    r.setFaults({ latencyMs: [150, 200], pathPrefix: '/api/v1/maps' });
    const t0 = performance.now();
    await get('/api/v1/maps');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    // The prefix, checked without timing: a forced status hits only the paths under it.
    r.setFaults({ forceStatus: 503, pathPrefix: '/api/v1/maps' });
    expect((await get('/api/v1/maps')).status).toBe(503);
    expect((await get('/api/v1/items')).status).toBe(200);
  });
  it('an error rate fails about that share of requests', async () => {
    r.setFaults({ errorRate: 0.5, errorStatus: 502 });
    const statuses = await Promise.all(Array.from({ length: 200 }, () => get('/api/v1/game-versions').then((x) => x.status)));
    const failed = statuses.filter((s) => s === 502).length;
    expect(failed).toBeGreaterThan(60);
    expect(failed).toBeLessThan(140);
  });
  it('adds posts through the admin route (for feed tests)', async () => {
    const res = await fetch(`${r.url}/__replica/posts/devDiaries`, {
      method: 'POST',
      body: JSON.stringify({ id: '99', title: 'New diary', date: '2026/11/21', overview: 'o', fullContent: 'f', imagePath: '/d.jpg' }),
    });
    expect(res.status).toBe(201);
    expect(((await get('/api/v1/dev-diaries')).body as { dev_diaries: { id: string }[] }).dev_diaries[0]!.id).toBe('99');
    expect((await fetch(`${r.url}/__replica/posts/devDiaries`, { method: 'POST', body: JSON.stringify({ id: '99', title: 'dup' }) })).status).toBe(409);
    r.dataset.posts.devDiaries.shift();
  });
  it('changes a post through the admin route (a correction at the API)', async () => {
    const [first] = r.dataset.posts.patchNotes;
    const before = { ...first! };
    const res = await fetch(`${r.url}/__replica/posts/patchNotes/${String(first!.id)}`, { method: 'PATCH', body: JSON.stringify({ overview: 'Corrected.' }) });
    expect(res.status).toBe(200);
    expect(((await get('/api/v1/patch-notes')).body as { formatted_patches: { overview: string }[] }).formatted_patches[0]!.overview).toBe('Corrected.');
    expect((await fetch(`${r.url}/__replica/posts/patchNotes/nope`, { method: 'PATCH', body: JSON.stringify({ overview: 'x' }) })).status).toBe(404);
    expect((await fetch(`${r.url}/__replica/posts/patchNotes/${String(first!.id)}`, { method: 'PATCH', body: JSON.stringify({ id: 'other' }) })).status).toBe(
      400,
    );
    expect((await fetch(`${r.url}/__replica/posts/patchNotes/${String(first!.id)}`, { method: 'PATCH', body: JSON.stringify({ overview: 5 }) })).status).toBe(
      400,
    );
    Object.assign(first!, before);
  });
  it('reads faults from the environment', () => {
    expect(faultsFromEnv({ REPLICA_LATENCY_MS: '50-300', REPLICA_FORCE_STATUS: '429', REPLICA_RETRY_AFTER: '5', REPLICA_HANG: 'true' })).toEqual({
      latencyMs: [50, 300],
      forceStatus: 429,
      retryAfterSeconds: 5,
      hang: true,
    });
    expect(() => faultsFromEnv({ REPLICA_LATENCY_MS: 'slow' })).toThrow(/REPLICA_LATENCY_MS/);
    expect(() => faultsFromEnv({ REPLICA_ERROR_RATE: '2' })).toThrow(/errorRate/);
  });
});

/** Runs a script of package.json's with tsx and returns the first stdout line, then stops it. */
function firstLine(args: string[], env: Record<string, string>): Promise<{ line: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no output in time: ${out}`));
    }, 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf('\n');
      if (nl !== -1) {
        clearTimeout(timer);
        child.once('exit', (code) => resolve({ line: out.slice(0, nl), code }));
        child.kill('SIGTERM');
      }
    });
  });
}

describe('entry points', () => {
  it('npm run replica prints its URL first and accepts exactly its key', async () => {
    const { line } = await firstLine(['src/replica/main.ts'], { PORT: '0', RIVALS_API_KEY: 'only-this-key', LOG_LEVEL: 'silent' });
    expect(line).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
  it('npm start with no API key says in its first log line that it uses the in-process replica', async () => {
    const { line } = await firstLine(['src/index.ts'], { LOG_LEVEL: 'info' });
    const entry = JSON.parse(line) as { msg: string; replica: string };
    expect(entry.msg).toMatch(/in-process API replica/);
    expect(entry.replica).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('the real API’s behaviours that mislead, as the replica serves them', () => {
  type Row = { game_mode_id?: number; play_mode_id?: number; match_map_id?: number; map_id?: number; match_time_stamp?: number };
  const profile = async (uid: string) =>
    (await get(`/api/v1/player/${uid}`)).body as {
      hero_matchups: { matches: number; wins: number }[];
      overall_stats: { ranked: { total_wins: number } };
      match_history: Row[];
      updates: Record<string, string | null>;
    };

  it('matchup counts from the opposing hero’s side: a player with 2 ranked wins gets rows of 0 wins', async () => {
    const p = await profile('341932470');
    expect(p.overall_stats.ranked.total_wins).toBe(2);
    expect(p.hero_matchups.filter((m) => m.matches > 0).every((m) => m.wins === 0)).toBe(true);
  });

  it('bot matches (game mode 7), an arcade mode with a play mode of its own (4 and 7), and zone-less update times', async () => {
    const freddy = await profile('161235255');
    expect(freddy.match_history.filter((m) => m.game_mode_id === 7).length).toBe(4);
    const blungy = await profile('450703773');
    expect(blungy.match_history.some((m) => m.game_mode_id === 4 && m.play_mode_id === 7)).toBe(true);
    expect(freddy.updates.last_update_request).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2} [AP]M$/);
  });

  it('the swapped competitive flag: map 1217 is flagged competitive and 1292 not, both Central Park', async () => {
    const maps: { id: number; name: string; is_competitve: boolean }[] = [];
    for (let page = 1; page <= 10; page++) {
      const res = await get(`/api/v1/maps?page=${page}&limit=50`);
      if (res.status !== 200) break;
      const body = res.body as { maps: typeof maps };
      maps.push(...body.maps);
      if (body.maps.length < 50) break;
    }
    const central = maps.filter((m) => m.id === 1217 || m.id === 1292).map((m) => `${m.id} ${m.name} ${m.is_competitve}`);
    expect(new Set(central)).toEqual(new Set(['1217 Central Park true', '1292 Central Park false']));
    // ...while real competitive rows are played on 1292.
    const may = await get('/api/v2/player/1786151874/match-history');
    expect(may.status).toBe(200);
    expect((may.body as { match_history: Row[] }).match_history.some((m) => m.match_map_id === 1292 && m.game_mode_id === 2)).toBe(true);
  });
});
