import Keyv from 'keyv';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/core/api-errors.js';
import { DEFAULT_RECHECK_MS, ResponseCache } from '../../src/cache/response-cache.js';
import { LruStore } from '../../src/cache/store.js';
import { DEFAULT_TTLS, STALE_RETENTION_MS } from '../../src/cache/ttl.js';
import type { Replica } from '../../src/replica/server.js';
import { clientFor, replica } from '../helpers/replica.js';
import { settledAt } from '../helpers/timing.js';

const MINUTE = 60_000;

/** A cache on a fresh in-memory store with a clock the test moves. */
function fakeClockCache(ttls = {}) {
  const clock = { now: 1_750_000_000_000 };
  const cache = new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }), ttls, now: () => clock.now });
  return { cache, clock };
}

const upstream = (kind: ApiError['kind']) => new ApiError({ kind, endpoint: 'player', status: kind === 'unavailable' ? 503 : undefined });

describe('expiry with a fake clock', () => {
  it('serves from cache within the TTL and reloads after it', async () => {
    const { cache, clock } = fakeClockCache();
    let loads = 0;
    const load = async () => ++loads;
    expect((await cache.get('k', 'player', load)).source).toBe('upstream');
    clock.now += DEFAULT_TTLS.player - 1;
    const hit = await cache.get('k', 'player', load);
    expect(hit).toMatchObject({ data: 1, source: 'cache', stale: false, ageMs: DEFAULT_TTLS.player - 1 });
    clock.now += 2;
    expect((await cache.get('k', 'player', load)).data).toBe(2);
  });

  it('keeps a match detail forever', async () => {
    const { cache, clock } = fakeClockCache();
    let loads = 0;
    await cache.get('m', 'match', async () => ++loads);
    clock.now += 10 * 365 * 24 * 60 * MINUTE;
    expect((await cache.get('m', 'match', async () => ++loads)).source).toBe('cache');
    expect(loads).toBe(1);
  });

  it('honours TTL overrides', async () => {
    const { cache, clock } = fakeClockCache({ heroes: 1_000 });
    let loads = 0;
    await cache.get('h', 'heroes', async () => ++loads);
    clock.now += 1_001;
    await cache.get('h', 'heroes', async () => ++loads);
    expect(loads).toBe(2);
  });

  it('fresh bypasses the TTL and refreshes the stored value', async () => {
    const { cache } = fakeClockCache();
    let loads = 0;
    await cache.get('k', 'patchNotes', async () => ++loads);
    expect((await cache.get('k', 'patchNotes', async () => ++loads, { fresh: true })).data).toBe(2);
    expect((await cache.get('k', 'patchNotes', async () => ++loads)).data).toBe(2);
  });
});

describe('stale-if-error', () => {
  it.each(['unavailable', 'timeout', 'rate_limited'] as const)('serves the last good value marked stale on %s', async (kind) => {
    const { cache, clock } = fakeClockCache();
    await cache.get('k', 'player', async () => 'good');
    clock.now += 12 * MINUTE;
    const got = await cache.get('k', 'player', async () => {
      throw upstream(kind);
    });
    expect(got).toEqual({ data: 'good', fetchedAt: clock.now - 12 * MINUTE, ageMs: 12 * MINUTE, stale: true, source: 'stale' });
    expect(cache.stats.stale).toBe(1);
  });

  it('serves stale on a fresh request too (a Refresh button during an outage)', async () => {
    const { cache } = fakeClockCache();
    await cache.get('k', 'player', async () => 'good');
    const got = await cache.get(
      'k',
      'player',
      async () => {
        throw upstream('unavailable');
      },
      { fresh: true },
    );
    expect(got).toMatchObject({ data: 'good', stale: true });
  });

  it('rethrows when there is nothing to fall back on, and for errors that are not transient', async () => {
    const { cache, clock } = fakeClockCache();
    await expect(
      cache.get('none', 'player', async () => {
        throw upstream('unavailable');
      }),
    ).rejects.toMatchObject({ kind: 'unavailable' });
    await cache.get('k', 'player', async () => 'good');
    clock.now += 12 * MINUTE;
    await expect(
      cache.get('k', 'player', async () => {
        throw upstream('unauthorized');
      }),
    ).rejects.toMatchObject({ kind: 'unauthorized' });
  });

  it('keeps entries for the TTL plus the stale retention window, then drops them', async () => {
    const { cache, clock } = fakeClockCache();
    const load = async () => ({ name: 'good' });
    const first = await cache.get('k', 'player', load);
    const failing = async () => {
      throw upstream('unavailable');
    };
    clock.now += DEFAULT_TTLS.player + STALE_RETENTION_MS - 1_000;
    const stale = await cache.get('k', 'player', failing);
    expect(stale).toMatchObject({ stale: true, ageMs: DEFAULT_TTLS.player + STALE_RETENTION_MS - 1_000 });
    expect(stale.data).toBe(first.data);
    clock.now += 2_000;
    await expect(cache.get('k', 'player', failing)).rejects.toMatchObject({ kind: 'unavailable' });
  });
});

describe('negative caching', () => {
  it('remembers not-found for the notFound TTL without calling upstream', async () => {
    const { cache, clock } = fakeClockCache();
    let loads = 0;
    const load = async () => {
      loads++;
      throw new ApiError({ kind: 'not_found', endpoint: 'player', status: 404, upstreamMessage: 'Player not found' });
    };
    await expect(cache.get('p', 'player', load)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(cache.get('p', 'player', load)).rejects.toMatchObject({ kind: 'not_found', upstreamMessage: 'Player not found' });
    expect(loads).toBe(1);
    clock.now += DEFAULT_TTLS.notFound + 1;
    await expect(cache.get('p', 'player', load)).rejects.toMatchObject({ kind: 'not_found' });
    expect(loads).toBe(2);
  });
});

describe('LRU bound of the memory store', () => {
  it('evicts the least recently used entry', () => {
    const store = new LruStore<number>(3);
    store.set('a', 1);
    store.set('b', 2);
    store.set('c', 3);
    store.get('a');
    store.set('d', 4);
    expect(store.has('b')).toBe(false);
    expect(store.has('a')).toBe(true);
    expect(store.size).toBe(3);
  });
});

describe('peek: what is held, without loading', () => {
  it('gives a fresh value as cached, one past its TTL as stale with its age, and nothing for a miss or a remembered 404', async () => {
    const { cache, clock } = fakeClockCache();
    await cache.get('k', 'matchHistoryV2', async () => 'rows');
    await expect(cache.get('gone', 'matchHistoryV2', () => Promise.reject(upstream('not_found')))).rejects.toMatchObject({ kind: 'not_found' });
    const stats = { ...cache.stats };
    expect(await cache.peek('k', 'matchHistoryV2')).toMatchObject({ data: 'rows', stale: false, source: 'cache', ageMs: 0 });
    clock.now += DEFAULT_TTLS.matchHistoryV2 + 5;
    expect(await cache.peek('k', 'matchHistoryV2')).toMatchObject({ data: 'rows', stale: true, source: 'stale', ageMs: DEFAULT_TTLS.matchHistoryV2 + 5 });
    expect(await cache.peek('gone', 'matchHistoryV2')).toBeUndefined();
    expect(await cache.peek('never-asked', 'matchHistoryV2')).toBeUndefined();
    // A peek is no read of the API's: no hit, miss or stale answer is counted.
    expect(cache.stats).toEqual(stats);
    // Gone once the stale copy's retention is over.
    clock.now += STALE_RETENTION_MS;
    expect(await cache.peek('k', 'matchHistoryV2')).toBeUndefined();
  });

  it('reads what another process wrote to the shared level, and a failing shared level as nothing held', async () => {
    const shared = new Keyv();
    await new ResponseCache({ store: shared }).get('k', 'matchHistoryV1', async () => 'theirs');
    expect(await new ResponseCache({ store: shared }).peek('k', 'matchHistoryV1')).toMatchObject({ data: 'theirs', stale: false });
    const broken = new Keyv({
      store: {
        get: () => Promise.reject(new Error('connection refused')),
        set: () => Promise.reject(new Error('connection refused')),
        delete: () => Promise.reject(new Error('connection refused')),
        clear: () => Promise.resolve(),
      },
    });
    expect(await new ResponseCache({ store: broken }).peek('k', 'matchHistoryV1')).toBeUndefined();
  });
});

describe('through the client, against the replica', () => {
  let r: Replica;
  beforeAll(async () => {
    r = await replica();
  });
  afterEach(() => r.setFaults({}));
  afterAll(() => r.close());

  const cachedClient = () => clientFor(r, { cache: new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }) }) });

  it('single-flight: 100 concurrent requests for an uncached player make one upstream request', async () => {
    r.setFaults({ latencyMs: 100 });
    const api = cachedClient();
    const path = '/api/v1/player/1117455441';
    const before = r.requests.byPath.get(path) ?? 0;
    const results = await Promise.all(Array.from({ length: 100 }, () => api.player('1117455441')));
    expect(r.requests.byPath.get(path)! - before).toBe(1);
    expect(api.stats.upstreamRequests).toBe(1);
    expect(new Set(results.map((x) => x.data.uid))).toEqual(new Set(['1117455441']));
    await api.close();
  });

  it('negative cache: repeated lookups of an unknown player spend one request', async () => {
    const api = cachedClient();
    for (let i = 0; i < 5; i++) await expect(api.player('no-such-player')).rejects.toMatchObject({ kind: 'not_found' });
    expect(api.stats.upstreamRequests).toBe(1);
    await api.close();
  });

  it('stale-if-error when the replica fails after a good answer', async () => {
    const clock = { now: Date.now() };
    const api = clientFor(r, { cache: new ResponseCache({ store: new Keyv({ store: new LruStore(100) }), now: () => clock.now }), now: () => clock.now });
    const good = await api.maps();
    clock.now += 7 * 60 * MINUTE;
    r.setFaults({ forceStatus: 503 });
    const stale = await api.maps();
    expect(stale.stale).toBe(true);
    expect(stale.ageMs).toBe(7 * 60 * MINUTE);
    expect(stale.data).toEqual(good.data);
    await api.close();
  });

  it('a held history answer is read from the cache with no request, and nothing is held before the first read', async () => {
    const api = cachedClient();
    const path = '/api/v1/player/1403392756/match-history';
    const before = r.requests.total;
    expect(await api.heldMatchHistoryV1('1403392756', { skip: 0 })).toBeUndefined();
    expect(r.requests.total).toBe(before);
    const read = await api.matchHistoryV1('1403392756', { skip: 0 });
    const asked = r.requests.byPath.get(path);
    expect((await api.heldMatchHistoryV1('1403392756', { skip: 0 }))?.data).toBe(read.data);
    // Another query is another answer: none held.
    expect(await api.heldMatchHistoryV1('1403392756', { skip: 0, season: 2 })).toBeUndefined();
    expect(r.requests.byPath.get(path)).toBe(asked);
    expect(api.stats.upstreamRequests).toBe(1);
    // Without a cache nothing is held.
    const bare = clientFor(r);
    expect(await bare.heldMatchHistoryV2('1786151874', { page: 1 })).toBeUndefined();
    await Promise.all([api.close(), bare.close()]);
  });

  it('fresh: a new post is seen by a fresh call and then by ordinary calls', async () => {
    const api = cachedClient();
    const before = await api.patchNotes();
    r.dataset.posts.patchNotes.unshift({ id: '20991231', title: 'Brand new', date: '2099/12/31', overview: 'x', fullContent: 'y', imagePath: '/x.png' });
    try {
      expect((await api.patchNotes()).data.entries[0]!.id).toBe(before.data.entries[0]!.id);
      expect((await api.patchNotes({}, { fresh: true })).data.entries[0]!.id).toBe('20991231');
      expect((await api.patchNotes()).data.entries[0]!.id).toBe('20991231');
    } finally {
      r.dataset.posts.patchNotes.shift();
    }
    await api.close();
  });
});

describe('a caller with a deadline (an interaction budget)', () => {
  const never = () => new Promise<number>(() => undefined);
  // Deadlines are on the wall clock (`Date.now()` and timers): these tests run on vitest's fake one, which moves only when told.
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gets the older value, marked stale with its true age, when the load outlasts the deadline; the load still fills the cache', async () => {
    vi.useFakeTimers();
    const cache = new ResponseCache({ store: new Keyv({ store: new LruStore(100) }), ttls: { player: 1 } });
    await cache.get('k', 'player', async () => 1);
    const fetchedAt = Date.now();
    // Past the 1 ms TTL.
    vi.advanceTimersByTime(20);
    let finish: (v: number) => void = () => undefined;
    const slow = () => new Promise<number>((resolve) => (finish = resolve));
    const deadline = Date.now() + 150;
    const answer = cache.get('k', 'player', slow, { deadline });
    const answered = settledAt(answer);
    await vi.advanceTimersByTimeAsync(1_000);
    // Not before the deadline (the load is still running), and at it.
    expect(answered.at).toBe(deadline);
    const got = await answer;
    expect(got).toMatchObject({ data: 1, stale: true, source: 'stale', fetchedAt });
    expect(got.ageMs).toBe(deadline - fetchedAt);
    finish(2);
    // A caller without a deadline gets the load's answer (joining it if it is still running)...
    expect((await cache.get('k', 'player', never)).data).toBe(2);
    // ...which is in the cache: the next caller's loader is never called.
    const next = await cache.get('k', 'player', async () => 3, { deadline: Date.now() + 50 });
    expect(next).toMatchObject({ data: 2, source: 'cache' });
  });

  it('throws a timeout at the deadline when nothing older is stored', async () => {
    vi.useFakeTimers();
    const cache = new ResponseCache({ store: new Keyv({ store: new LruStore(100) }) });
    const deadline = Date.now() + 50;
    const failure = cache.get('new', 'player', never, { deadline }).catch((err: unknown) => err);
    const failed = settledAt(failure);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(failed.at).toBe(deadline);
    const error = await failure;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'timeout' });
  });

  it('a caller joining a load in flight keeps its own deadline', async () => {
    const cache = new ResponseCache({ store: new Keyv({ store: new LruStore(100) }) });
    let finish: (v: number) => void = () => undefined;
    const first = cache.get('k', 'player', () => new Promise<number>((resolve) => (finish = resolve)));
    const joined = await cache.get('k', 'player', never, { deadline: Date.now() + 30 }).catch((err: unknown) => err);
    expect(joined).toMatchObject({ kind: 'timeout' });
    finish(7);
    expect((await first).data).toBe(7);
  });

  it('serves the older value on a malformed body (bad_response), as on any transient failure', async () => {
    const { cache, clock } = fakeClockCache();
    await cache.get('k', 'player', async () => 1);
    clock.now += DEFAULT_TTLS.player + 3_000;
    const got = await cache.get('k', 'player', async () => {
      throw new ApiError({ kind: 'bad_response', endpoint: 'player', upstreamMessage: 'body is not JSON' });
    });
    expect(got).toMatchObject({ data: 1, stale: true, ageMs: DEFAULT_TTLS.player + 3_000 });
  });
});

describe('a shared second level (any keyv store but an LruStore)', () => {
  /** A Map whose reads answer 50 ms late with the value held when they were asked, like a slow Redis. */
  class SlowMap<V> extends Map<string, V> {
    override get(key: string): V | undefined {
      const value = super.get(key);
      return new Promise((resolve) => setTimeout(() => resolve(value), 50)) as unknown as V | undefined;
    }
  }

  it('a write that lands while a shared read is in flight is not overwritten by the older value read', async () => {
    const clock = { now: 1_750_000_000_000 };
    const cache = new ResponseCache({ store: new Keyv({ store: new SlowMap() }), now: () => clock.now });
    await cache.get('k', 'player', async () => 'v1');
    clock.now += DEFAULT_RECHECK_MS + 1;
    const rechecking = cache.get('k', 'player', async () => 'never');
    clock.now += 1;
    expect((await cache.get('k', 'player', async () => 'v2', { fresh: true })).data).toBe('v2');
    expect((await rechecking).data).toBe('v2');
    expect((await cache.get('k', 'player', async () => 'never')).data).toBe('v2');
    expect(cache.levelStats.sharedReads).toBe(2);
  });

  it('concurrent readers of a key share one read of the shared store', async () => {
    const shared = new Keyv({ store: new SlowMap() });
    const writer = new ResponseCache({ store: shared });
    const reader = new ResponseCache({ store: shared });
    await writer.get('k', 'player', async () => 'v');
    const answers = await Promise.all(Array.from({ length: 20 }, () => reader.get('k', 'player', async () => 'never')));
    expect(new Set(answers.map((a) => a.data))).toEqual(new Set(['v']));
    expect(reader.levelStats).toMatchObject({ sharedReads: 1, sharedFills: 1 });
  });
});
