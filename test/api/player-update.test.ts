/**
 * The client's player update (`GET /api/v1/player/{query}/update`): an action through the rate limiter
 * but never through the cache, whose cooldown 429 is a per-player `rate_limited` that does not pause
 * the key. Real HTTP over loopback to the replica, and the real 429 body from a canned server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Keyv from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import { RivalsApi } from '../../src/api/client.js';
import { ApiArgumentError } from '../../src/core/api-errors.js';
import { UpstreamRateLimiter } from '../../src/api/rate-limiter.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { LruStore } from '../../src/cache/store.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import type { Replica } from '../../src/replica/server.js';
import { cannedServer, clientFor, replica, TEST_KEY, apiError } from '../helpers/replica.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2025, 6, 9, 12, 0, 0);

/** The real 429 body, byte for byte (api-samples/errors/linkyy-player-update-429.json). */
const REAL_429 = readFileSync(join(SAMPLES_DIR, 'errors/linkyy-player-update-429.json'), 'utf8');

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup(options: { limiter?: UpstreamRateLimiter; cache?: ResponseCache } = {}): Promise<{ r: Replica; api: RivalsApi; clock: { now: number } }> {
  const clock = { now: T0 };
  const r = await replica({ now: () => clock.now });
  const api = clientFor(r, { now: () => clock.now, ...options });
  cleanup.push(
    () => r.close(),
    () => api.close(),
  );
  return { r, api, clock };
}

describe('playerUpdate against the replica', () => {
  it('answers the message, then rate_limited with the cooldown left during the cooldown', async () => {
    const { api, clock } = await setup();
    expect(await api.playerUpdate('1402468705')).toEqual({
      data: { message: 'Player update requested.' },
      fetchedAt: T0,
      ageMs: 0,
      stale: false,
      source: 'upstream',
    });
    clock.now += 4 * MINUTE;
    expect(await apiError(() => api.playerUpdate('HayamaKen'))).toMatchObject({
      kind: 'rate_limited',
      endpoint: 'playerUpdate',
      status: 429,
      retryAfterMs: 26 * MINUTE,
      retryAfterFromHeader: false,
      upstreamMessage: 'You can request an update in 26 minutes.',
    });
    clock.now = T0 + 30 * MINUTE;
    expect((await api.playerUpdate(1402468705)).data).toEqual({ message: 'Player update requested.' });
  });

  it('not_found for an unknown player', async () => {
    const { api } = await setup();
    expect(await apiError(() => api.playerUpdate('nobody-here'))).toMatchObject({
      kind: 'not_found',
      endpoint: 'playerUpdate',
      status: 404,
      upstreamMessage: 'Player not found',
    });
  });

  it('makes v2 match history answer for a player whose history was never refreshed', async () => {
    const { api } = await setup();
    expect(await apiError(() => api.matchHistoryV2('1117455441', { limit: 20 }))).toMatchObject({ kind: 'not_found', status: 404 });
    await api.playerUpdate('1117455441');
    const history = await api.matchHistoryV2('1117455441', { limit: 20 });
    expect(history.data.matches).toHaveLength(20);
    expect(history.data.pagination).toEqual({ page: 1, limit: 40, total_matches: 20, total_pages: 1, has_more: false });
    // The API writes US Eastern time: 12:00 UTC in July is 8:00 AM EDT.
    expect((await api.player('1117455441')).data.updates).toMatchObject({
      last_update_request: '7/9/2025, 8:00:00 AM',
      last_history_update: '7/9/2025, 8:00:00 AM',
    });
  });

  it('never goes through the cache: every call is one request, and a 200 is not replayed', async () => {
    const cache = new ResponseCache({ store: new Keyv({ store: new LruStore(100) }), now: () => T0 });
    const { r, api } = await setup({ cache });
    await api.playerUpdate('1402468705');
    expect((await apiError(() => api.playerUpdate('1402468705'))).kind).toBe('rate_limited');
    expect((await apiError(() => api.playerUpdate('1402468705', { priority: 'background' }))).kind).toBe('rate_limited');
    expect(r.requests.byPath.get('/api/v1/player/1402468705/update')).toBe(3);
    expect(api.stats.upstreamRequests).toBe(3);
    expect(cache.stats).toEqual({ hits: 0, misses: 0, stale: 0, negativeHits: 0, shared: 0 });
  });

  it('goes through the rate limiter at the given priority, and its 429 does not pause the key', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 300 });
    cleanup.push(() => limiter.stop());
    const { api } = await setup({ limiter });
    await api.heroes(); // takes the window's only slot
    const order: string[] = [];
    await Promise.all([api.playerUpdate('1402468705', { priority: 'background' }).then(() => order.push('update')), api.maps().then(() => order.push('maps'))]);
    expect(order).toEqual(['maps', 'update']);
    expect((await apiError(() => api.playerUpdate('1402468705'))).retryAfterFromHeader).toBe(false);
    expect(limiter.backoffRemaining()).toBe(0);
  });

  it('refuses a query that cannot be a path segment before any request', async () => {
    const { r, api } = await setup();
    for (const q of ['..', '  ']) {
      let caught: unknown;
      try {
        await api.playerUpdate(q);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(ApiArgumentError);
      expect(caught).toMatchObject({ endpoint: 'playerUpdate', argument: 'query' });
    }
    expect(r.requests.total).toBe(0);
  });
});

describe('playerUpdate against canned answers', () => {
  async function canned(status: number, body: string, options: { limiter?: UpstreamRateLimiter } = {}) {
    const server = await cannedServer(status, body);
    const api = new RivalsApi({ baseUrl: server.url, apiKey: TEST_KEY, timeoutMs: 2_000, ...options });
    cleanup.push(
      () => server.close(),
      () => api.close(),
    );
    return api;
  }

  it('maps the real 429 body to rate_limited in 16 minutes, from the message, not pausing the limiter', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 60 });
    cleanup.push(() => limiter.stop());
    const api = await canned(429, REAL_429, { limiter });
    const e = await apiError(() => api.playerUpdate('ueono'));
    expect(e).toMatchObject({
      kind: 'rate_limited',
      endpoint: 'playerUpdate',
      status: 429,
      retryAfterMs: 16 * MINUTE,
      retryAfterFromHeader: false,
      upstreamMessage: 'You can request an update in 16 minutes.',
      isTransient: true,
    });
    expect(e.message).toBe('playerUpdate: rate_limited (HTTP 429), retry in 960 s: You can request an update in 16 minutes.');
    expect(limiter.backoffRemaining()).toBe(0);
  });

  it('reads the real body even inside a 200 (an error envelope)', async () => {
    const api = await canned(200, REAL_429);
    expect(await apiError(() => api.playerUpdate('ueono'))).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterMs: 16 * MINUTE,
      retryAfterFromHeader: false,
    });
  });

  it('parses any JSON object leniently into { message }', async () => {
    const cases: [string, string | null][] = [
      ['{"success": true, "message": "Update queued", "status": 200, "eta": "2m"}', 'Update queued'],
      ['{"ok": 1}', null],
      ['{"message": 5}', null],
      ['{}', null],
    ];
    for (const [body, message] of cases) {
      const api = await canned(200, body);
      expect((await api.playerUpdate('1')).data, body).toEqual({ message });
    }
  });

  it('a body that is not an object is bad_response', async () => {
    for (const body of ['[1, 2]', '"done"', 'true']) {
      const api = await canned(200, body);
      expect((await apiError(() => api.playerUpdate('1'))).kind, body).toBe('bad_response');
    }
  });
});
