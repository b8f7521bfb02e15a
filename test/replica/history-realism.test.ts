/**
 * The replica reproduces the real API where it hurts (api-samples/README.md): v2 match histories that
 * 404 for players whose history was never refreshed, pages larger than asked, and the player update
 * with its cooldown. Real HTTP over loopback, exact bodies.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatUpdateTime, parseUpdateTime } from '../../src/game/update-times.js';
import { loadDataset, SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import { faultsFromEnv } from '../../src/replica/faults.js';
import type { Replica } from '../../src/replica/server.js';
import { replica, TEST_KEY } from '../helpers/replica.js';

type Json = Record<string, unknown>;

/** 8/4/2025, 2:42:17 PM US Eastern (EDT, UTC-4): the `last_update_request` of the August 2025 capture. */
const T0 = Date.UTC(2025, 7, 4, 18, 42, 17);
const MINUTE = 60_000;

const NO_HISTORY = { error: true, message: 'Player not found or match data unavailable for the specified query', status: 404 };
const UPDATE_OK = { success: true, message: 'Player update requested.', status: 200 };
const cooldown = (minutes: number) => ({ error: true, message: `You can request an update in ${minutes} minutes.`, status: 429 });

async function get(r: Replica, path: string, key: string | null = TEST_KEY): Promise<{ status: number; body: Json; provenance: string | null }> {
  const res = await fetch(`${r.url}${path}`, { headers: key === null ? {} : { 'x-api-key': key } });
  return { status: res.status, body: (await res.json()) as Json, provenance: res.headers.get('x-replica-provenance') };
}

const sample = (path: string) => JSON.parse(readFileSync(join(SAMPLES_DIR, path), 'utf8')) as Json;

/** A replica with a clock the test moves. */
async function clocked(options: Parameters<typeof replica>[0] = {}) {
  const clock = { now: T0 };
  const r = await replica({ now: () => clock.now, ...options });
  return { r, clock };
}

describe('match history v2 of players whose history was never refreshed', () => {
  let r: Replica;
  beforeAll(async () => {
    r = await replica();
  });
  afterAll(() => r.close());

  it('404s with the exact spec body while the profile loads (uid 1402468705 HayamaKen, 1117455441 Sir Final)', async () => {
    for (const [uid, name] of [
      ['1402468705', 'HayamaKen'],
      ['1117455441', 'Sir%20Final'],
    ]) {
      const profile = await get(r, `/api/v1/player/${uid}`);
      expect(profile.status).toBe(200);
      expect((profile.body.updates as Json).last_history_update).toBeNull();
      expect(await get(r, `/api/v2/player/${uid}/match-history`)).toMatchObject({ status: 404, body: NO_HISTORY });
      expect(await get(r, `/api/v2/player/${name}/match-history?limit=20&page=1`)).toMatchObject({ status: 404, body: NO_HISTORY });
    }
  });

  it("version 1 still answers for them, from the profile's embedded match_history", async () => {
    const sir = await get(r, '/api/v1/player/1117455441/match-history');
    expect(sir.status).toBe(200);
    expect(sir.provenance).toBe('derived');
    const embedded = sample('player/autumnnippert-sir-final-1117455441.json').match_history as Json[];
    expect((sir.body.match_history as Json[]).map((e) => e.match_uid)).toEqual(embedded.map((e) => e.match_uid));
    expect(sir.body.match_history).toHaveLength(20);
    const hayama = await get(r, '/api/v1/player/HayamaKen/match-history');
    expect(hayama.body.match_history).toHaveLength(1);
  });

  it('answers for refreshed players: captured (1786151874) and derived (1403392756, last_history_update set)', async () => {
    expect((await get(r, '/api/v2/player/1786151874/match-history')).status).toBe(200);
    const card = await get(r, '/api/v2/player/1403392756/match-history');
    expect(card).toMatchObject({ status: 200, provenance: 'derived' });
    expect(card.body.match_history).toHaveLength(20);
  });
});

describe('v2 pages larger than asked', () => {
  let r: Replica;
  beforeAll(async () => {
    r = await replica();
  });
  afterAll(() => r.close());

  it('answers the 40 captured entries of 1786151874 when 20 are asked, with pagination.limit 40', async () => {
    const res = await get(r, '/api/v2/player/1786151874/match-history?page=1&limit=20');
    expect(res.status).toBe(200);
    expect(res.provenance).toBe('real');
    const captured = sample('match-history-v2/doublec8-double-c-1786151874-page1-limit40-2025-05-26.json');
    expect(res.body.match_history).toEqual(captured.match_history);
    expect(res.body.match_history).toHaveLength(40);
    expect(res.body.pagination).toEqual({ page: 1, limit: 40, total_matches: 40, total_pages: 1, has_more: false });
  });

  it('counts pages in the effective size, and keeps a limit above 40', async () => {
    // 20 derived entries, limit 5 asked: one page of 40, so page 2 is past the end.
    expect((await get(r, '/api/v2/player/1403392756/match-history?limit=5&page=2')).body).toEqual({
      match_history: [],
      pagination: { page: 2, limit: 40, total_matches: 20, total_pages: 1, has_more: false },
    });
    expect((await get(r, '/api/v2/player/1786151874/match-history?limit=50')).body.pagination).toEqual({
      page: 1,
      limit: 50,
      total_matches: 40,
      total_pages: 1,
      has_more: false,
    });
  });
});

describe('GET /api/v1/player/{query}/update', () => {
  const opened: Replica[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((r) => r.close()));
  });
  async function start(options: Parameters<typeof replica>[0] = {}) {
    const c = await clocked(options);
    opened.push(c.r);
    return c;
  }

  it('200, then 429 "You can request an update in 30 minutes." within the cooldown, then 200 once it has passed', async () => {
    const { r, clock } = await start();
    expect(await get(r, '/api/v1/player/1402468705/update')).toMatchObject({ status: 200, body: UPDATE_OK, provenance: 'handwritten' });
    expect(await get(r, '/api/v1/player/1402468705/update')).toMatchObject({ status: 429, body: cooldown(30) });
    // By name too: the cooldown is the player's, whatever the query form.
    expect(await get(r, '/api/v1/player/hayamaken/update')).toMatchObject({ status: 429, body: cooldown(30) });
    clock.now += 1;
    expect((await get(r, '/api/v1/player/1402468705/update')).body).toEqual(cooldown(30));
    clock.now = T0 + 20 * MINUTE + 30_000;
    expect((await get(r, '/api/v1/player/1402468705/update')).body).toEqual(cooldown(10));
    clock.now = T0 + 30 * MINUTE - 1;
    expect((await get(r, '/api/v1/player/1402468705/update')).body).toEqual(cooldown(1));
    // Another player has a cooldown of their own.
    expect((await get(r, '/api/v1/player/1117455441/update')).status).toBe(200);
    clock.now = T0 + 30 * MINUTE;
    expect(await get(r, '/api/v1/player/1402468705/update')).toMatchObject({ status: 200, body: UPDATE_OK });
    expect((await get(r, '/api/v1/player/1402468705/update')).body).toEqual(cooldown(30));
  });

  it('404 in the common shape for an unknown player', async () => {
    const { r } = await start();
    expect(await get(r, '/api/v1/player/nobody-here/update')).toMatchObject({ status: 404, body: { error: true, message: 'Player not found', status: 404 } });
  });

  it('after an update v2 answers for the player, and the profile shows the update time in US-locale text', async () => {
    const { r, clock } = await start();
    expect((await get(r, '/api/v2/player/1402468705/match-history')).status).toBe(404);
    const before = await get(r, '/api/v1/player/1402468705');
    expect(before.body.updates).toEqual({
      info_update_time: '1/22/2025, 12:44:09 PM',
      last_history_update: null,
      last_inserted_match: null,
      last_update_request: '3/6/2025, 12:10:36 AM',
    });
    expect((await get(r, '/api/v1/player/1402468705/update')).status).toBe(200);
    clock.now += 5 * MINUTE;
    const history = await get(r, '/api/v2/player/1402468705/match-history?limit=20');
    expect(history).toMatchObject({ status: 200, provenance: 'derived' });
    expect(history.body.match_history).toHaveLength(1);
    expect(history.body.pagination).toEqual({ page: 1, limit: 40, total_matches: 1, total_pages: 1, has_more: false });
    const after = await get(r, '/api/v1/player/HayamaKen');
    expect(after.provenance).toBe('derived');
    expect(after.body.updates).toEqual({
      info_update_time: '1/22/2025, 12:44:09 PM',
      last_history_update: '8/4/2025, 2:42:17 PM',
      last_inserted_match: null,
      last_update_request: '8/4/2025, 2:42:17 PM',
    });
    // The rest of the profile is served as captured.
    const { updates: _a, ...rest } = after.body;
    const { updates: _b, ...restBefore } = before.body;
    expect(rest).toEqual(restBefore);
  });

  it('keeps its state per replica: the shared dataset is not changed', async () => {
    const dataset = loadDataset();
    const first = await start({ dataset });
    expect((await get(first.r, '/api/v1/player/1117455441/update')).status).toBe(200);
    expect((await get(first.r, '/api/v2/player/1117455441/match-history')).status).toBe(200);
    const second = await start({ dataset });
    expect(await get(second.r, '/api/v2/player/1117455441/match-history')).toMatchObject({ status: 404, body: NO_HISTORY });
    expect((await get(second.r, '/api/v1/player/1117455441/update')).status).toBe(200);
    expect((dataset.players.get('1117455441')!.updates as Json).last_history_update).toBeNull();
  });

  it('takes its cooldown from the option, and from the updateCooldownSeconds fault (REPLICA_UPDATE_COOLDOWN_S) while set', async () => {
    const { r, clock } = await start({ updateCooldownMs: 5 * MINUTE });
    await get(r, '/api/v1/player/1402468705/update');
    expect((await get(r, '/api/v1/player/1402468705/update')).body).toEqual(cooldown(5));
    r.setFaults({ updateCooldownSeconds: 90 });
    expect((await get(r, '/api/v1/player/1402468705/update')).body).toEqual(cooldown(2));
    clock.now += 90_000;
    expect((await get(r, '/api/v1/player/1402468705/update')).status).toBe(200);
    r.setFaults({ updateCooldownSeconds: 0 });
    expect((await get(r, '/api/v1/player/1402468705/update')).status).toBe(200);
    r.setFaults({});
    expect((await get(r, '/api/v1/player/1402468705/update')).body).toEqual(cooldown(5));

    expect(faultsFromEnv({ REPLICA_UPDATE_COOLDOWN_S: '120' })).toEqual({ updateCooldownSeconds: 120 });
    expect(() => faultsFromEnv({ REPLICA_UPDATE_COOLDOWN_S: 'soon' })).toThrow(/REPLICA_UPDATE_COOLDOWN_S/);
    expect(() => faultsFromEnv({ REPLICA_UPDATE_COOLDOWN_S: '-1' })).toThrow(/updateCooldownSeconds/);
  });

  it("applies the key check and faults in the common body shape (not the player endpoint's own)", async () => {
    const { r } = await start();
    expect(await get(r, '/api/v1/player/1402468705/update', null)).toMatchObject({
      status: 401,
      body: { error: true, message: 'Invalid or missing API key.', status: 401 },
    });
    r.setFaults({ forceStatus: 500, pathPrefix: '/api/v1/player' });
    expect(await get(r, '/api/v1/player/1402468705/update')).toMatchObject({
      status: 500,
      body: { error: true, message: 'An error occurred while fetching data.', status: 500 },
    });
    expect(await get(r, '/api/v1/player/1402468705')).toMatchObject({
      status: 500,
      body: { status: 'error', message: 'An unexpected error occurred. Please try again later.' },
    });
    r.setFaults({ forceStatus: 429, retryAfterSeconds: 4 });
    const res = await fetch(`${r.url}/api/v1/player/1402468705/update`, { headers: { 'x-api-key': TEST_KEY } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('4');
    r.setFaults({});
    // Neither a 401 nor a faulted request started the cooldown.
    expect((await get(r, '/api/v1/player/1402468705/update')).status).toBe(200);
  });

  it('is its own route: the player route does not take /update, and nothing deeper matches', async () => {
    const { r } = await start();
    expect((await get(r, '/api/v1/player/1402468705/update')).body).toEqual(UPDATE_OK);
    expect(await get(r, '/api/v1/player/1402468705/update/now')).toMatchObject({ status: 404, body: { error: true, message: 'Not found', status: 404 } });
    expect(r.requests.byPath.get('/api/v1/player/1402468705/update')).toBe(1);
  });
});

describe('profile captures of one uid', () => {
  it('serves the newest of the three 1786151874 captures and keeps all nine captures loadable', () => {
    const d = loadDataset();
    expect(d.profileCaptures.map((c) => c.file)).toEqual(
      readdirSync(join(SAMPLES_DIR, 'player'))
        .sort()
        .map((f) => `player/${f}`),
    );
    expect(d.profileCaptures).toHaveLength(9);
    const doubles = d.profileCaptures.filter((c) => c.uid === '1786151874');
    expect(doubles.map((c) => c.file)).toEqual([
      'player/doublec8-double-c-1786151874-2025-05-26.json',
      'player/doublec8-double-c-1786151874-2025-06-05.json',
      'player/doublec8-double-c-1786151874-2025-08-05.json',
    ]);
    expect(d.players.get('1786151874')).toBe(doubles[2]!.body);
    expect(d.players.size).toBe(7);
    for (const c of d.profileCaptures) expect(c.body).toEqual(sample(c.file));
  });

  it("chooses by the captures' update times, not by file order", () => {
    // A copy of the samples where the newest capture sorts first.
    const dir = mkdtempSync(join(tmpdir(), 'samples-'));
    try {
      for (const folder of readdirSync(SAMPLES_DIR, { withFileTypes: true }).filter((e) => e.isDirectory())) {
        mkdirSync(join(dir, folder.name));
        for (const f of readdirSync(join(SAMPLES_DIR, folder.name))) {
          const target = f === 'doublec8-double-c-1786151874-2025-08-05.json' ? '0-newest.json' : f;
          copyFileSync(join(SAMPLES_DIR, folder.name, f), join(dir, folder.name, target));
        }
      }
      const d = loadDataset(dir);
      expect(d.profileCaptures[0]!.file).toBe('player/0-newest.json');
      expect((d.players.get('1786151874')!.updates as Json).last_update_request).toBe('8/4/2025, 2:42:17 PM');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads and writes every real updates.* timestamp in the API's US-locale form", () => {
    let seen = 0;
    for (const c of loadDataset().profileCaptures) {
      for (const value of Object.values(c.body.updates as Json)) {
        if (value === null) continue;
        const seconds = parseUpdateTime(value);
        expect(seconds, String(value)).not.toBeNull();
        expect(formatUpdateTime(seconds! * 1000)).toBe(value);
        seen++;
      }
    }
    expect(seen).toBe(28);
    expect(formatUpdateTime(T0)).toBe('8/4/2025, 2:42:17 PM');
    // Eastern Standard Time in winter (UTC-5), across midnight and the year's end.
    expect(formatUpdateTime(Date.UTC(2025, 0, 1, 5, 5, 9))).toBe('1/1/2025, 12:05:09 AM');
    expect(formatUpdateTime(Date.UTC(2026, 0, 1, 4, 59, 59))).toBe('12/31/2025, 11:59:59 PM');
    expect(parseUpdateTime('yesterday')).toBeNull();
    expect(parseUpdateTime(null)).toBeNull();
  });
});
