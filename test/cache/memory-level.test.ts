/** The response cache's memory level: objects kept as they are, no JSON on a hit, bounded in bytes. */
import Keyv from 'keyv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonSize, knownJsonSize, MemoryLevel, noteJsonSize } from '../../src/cache/memory-level.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { createCacheStore, LruStore } from '../../src/cache/store.js';

/** A value whose JSON is about `kb` KiB (a player profile is 20-70 KiB). */
const payload = (id: string, kb: number) => ({ id, rows: Array.from({ length: kb }, (_, i) => ({ i, text: 'x'.repeat(1000) })) });

const memoryCache = (memory: ConstructorParameters<typeof ResponseCache>[0]['memory'] = {}) =>
  new ResponseCache({ store: new Keyv({ store: new LruStore(10_000) }), memory });

afterEach(() => vi.restoreAllMocks());

describe('a memory hit', () => {
  it('returns the same object every time, with no JSON.parse or JSON.stringify', async () => {
    const cache = memoryCache();
    const profile = payload('p', 60);
    let loads = 0;
    const first = await cache.get('player:p', 'player', async () => (loads++, profile));
    expect(first.data).toBe(profile);
    const parse = vi.spyOn(JSON, 'parse');
    const stringify = vi.spyOn(JSON, 'stringify');
    for (let i = 0; i < 100; i++) {
      const hit = await cache.get('player:p', 'player', async () => (loads++, profile));
      expect(hit.source).toBe('cache');
      expect(hit.data).toBe(profile);
    }
    expect(parse).not.toHaveBeenCalled();
    expect(stringify).not.toHaveBeenCalled();
    expect(loads).toBe(1);
    expect(cache.stats.hits).toBe(100);
  });

  it('measures an entry once, when it is written', async () => {
    const cache = memoryCache();
    const stringify = vi.spyOn(JSON, 'stringify');
    await cache.get('k', 'player', async () => payload('k', 5));
    expect(stringify).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) await cache.get('k', 'player', async () => payload('k', 5));
    expect(stringify).toHaveBeenCalledTimes(1);
  });

  it('measures an API answer by its response body, with no JSON.stringify at all', async () => {
    const cache = memoryCache();
    const answer = payload('k', 5);
    // As src/api/client.ts does with the body's length (here deliberately not the JSON length, to tell them apart).
    noteJsonSize(answer, 12_345);
    const stringify = vi.spyOn(JSON, 'stringify');
    const set = vi.spyOn(MemoryLevel.prototype, 'set');
    await cache.get('k', 'player', async () => answer);
    expect(stringify).not.toHaveBeenCalled();
    expect(set).toHaveBeenCalledWith('k', expect.objectContaining({ v: answer }), expect.objectContaining({ bytes: 12_345 + 25 }));
  });

  it('needs no Redis or keyv: a bot without REDIS_URL keeps answers out of the keyv store', async () => {
    const store = createCacheStore({ maxEntries: 100 });
    const lru = store.store as LruStore;
    const cache = new ResponseCache({ store });
    await cache.get('k', 'player', async () => payload('k', 1));
    expect((await cache.get('k', 'player', async () => payload('k', 1))).source).toBe('cache');
    expect(lru.size).toBe(0);
    expect(cache.levelStats.sharedReads).toBe(0);
  });

  it('with the memory level off (maxBytes 0) goes through keyv and its JSON, as the former design did', async () => {
    const cache = memoryCache({ maxBytes: 0 });
    const profile = payload('p', 2);
    await cache.get('k', 'player', async () => profile);
    const parse = vi.spyOn(JSON, 'parse');
    const hit = await cache.get('k', 'player', async () => profile);
    expect(hit.source).toBe('cache');
    expect(hit.data).toEqual(profile);
    expect(hit.data).not.toBe(profile);
    expect(parse).toHaveBeenCalled();
  });
});

describe('jsonSize', () => {
  it('is the JSON length, or the size noted for the object or for the value of an entry ({ v, at })', () => {
    const value = { name: 'Storm', matches: [1, 2, 3] };
    expect(jsonSize(value)).toBe(JSON.stringify(value).length);
    expect(knownJsonSize(value)).toBeUndefined();
    noteJsonSize(value, 999);
    expect([jsonSize(value), knownJsonSize(value), jsonSize({ v: value, at: 1 })]).toEqual([999, 999, 999 + 25]);
    // Nothing is noted for what is not an object, or for a size that is not one.
    const other = {};
    for (const bad of [0, -1, Number.NaN]) noteJsonSize(other, bad);
    noteJsonSize('text', 10);
    expect([knownJsonSize(other), knownJsonSize('text'), jsonSize('text')]).toEqual([undefined, undefined, 6]);
  });
});

describe('the byte bound (CACHE_MAX_BYTES)', () => {
  it('evicts the least recently used entries once the total passes the bound', async () => {
    // 10 KiB entries under a 64 KiB bound: six fit.
    const cache = memoryCache({ maxBytes: 64 * 1024 });
    const loads = new Map<string, number>();
    const get = (id: string) => cache.get(id, 'player', async () => (loads.set(id, (loads.get(id) ?? 0) + 1), payload(id, 10)));
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) await get(id);
    await get('a'); // a is now the most recently used; b the least
    await get('g'); // over the bound: b goes
    expect(loads.get('a')).toBe(1);
    await get('b');
    expect(loads.get('b')).toBe(2);
    // b came back and pushed out the next least recently used, c; a is still there.
    await get('a');
    expect(loads.get('a')).toBe(1);
    await get('c');
    expect(loads.get('c')).toBe(2);
  });

  it('keeps the total within the bound, measured as JSON length', () => {
    const level = new MemoryLevel<object>({ maxBytes: 50_000, maxEntries: 1_000 });
    for (let i = 0; i < 40; i++) {
      const value = payload(String(i), 4);
      level.set(String(i), value, { bytes: jsonSize(value) });
      expect(level.bytes).toBeLessThanOrEqual(50_000);
    }
    expect(level.size).toBe(Math.floor(50_000 / jsonSize(payload('39', 4))));
    expect(level.get('39')).toBeDefined();
    expect(level.get('0')).toBeUndefined();
  });

  it('also honours the entry bound (CACHE_MAX_ENTRIES)', async () => {
    const cache = memoryCache({ maxEntries: 3 });
    let loads = 0;
    for (const id of ['a', 'b', 'c', 'd']) await cache.get(id, 'player', async () => (loads++, id));
    await cache.get('a', 'player', async () => (loads++, 'a'));
    expect(loads).toBe(5);
  });

  it('takes its entry bound from the LruStore when none is given', async () => {
    const cache = new ResponseCache({ store: new Keyv({ store: new LruStore(2) }) });
    let loads = 0;
    for (const id of ['a', 'b', 'c', 'a']) await cache.get(id, 'player', async () => (loads++, id));
    expect(loads).toBe(4);
  });

  it('does not keep an entry over a quarter of the bound, but still serves it', async () => {
    const cache = memoryCache({ maxBytes: 40 * 1024 });
    let loads = 0;
    const small = payload('small', 2);
    await cache.get('small', 'player', async () => small);
    const big = payload('big', 20);
    const first = await cache.get('big', 'player', async () => (loads++, big));
    expect(first).toMatchObject({ source: 'upstream', stale: false });
    expect(first.data).toBe(big);
    const second = await cache.get('big', 'player', async () => (loads++, big));
    expect(second.source).toBe('upstream');
    expect(loads).toBe(2);
    expect(cache.levelStats.oversized).toBe(2);
    // It evicted nothing to make room.
    expect((await cache.get('small', 'player', async () => payload('small', 2))).data).toBe(small);
  });

  it('removes the older value of a key whose new value is too large (it is no longer the latest)', () => {
    const level = new MemoryLevel<object>({ maxBytes: 1_000, maxEntries: 10 });
    expect(level.set('k', { v: 1 }, { bytes: 10 })).toBe(true);
    expect(level.set('k', { v: 2 }, { bytes: 900 })).toBe(false);
    expect(level.get('k')).toBeUndefined();
  });

  it('rejects bounds that are not positive integers', () => {
    expect(() => new MemoryLevel({ maxBytes: 0, maxEntries: 1 })).toThrow(RangeError);
    expect(() => new MemoryLevel({ maxBytes: 10, maxEntries: 1.5 })).toThrow(RangeError);
    expect(() => memoryCache({ maxBytes: -1 })).toThrow(RangeError);
  });
});

describe('TTL of the memory level', () => {
  it('follows the clock it is given', () => {
    const clock = { now: 1_750_000_000_000 };
    const level = new MemoryLevel<object>({ maxBytes: 1_000, maxEntries: 10, now: () => clock.now });
    level.set('k', { v: 1 }, { bytes: 10, ttlMs: 1_000 });
    level.set('forever', { v: 1 }, { bytes: 10 });
    expect(level.remainingTtl('k')).toBe(1_000);
    clock.now += 999;
    expect(level.get('k')).toEqual({ v: 1 });
    clock.now += 2;
    expect(level.get('k')).toBeUndefined();
    clock.now += 10 * 365 * 86_400_000;
    expect(level.get('forever')).toEqual({ v: 1 });
    expect(level.remainingTtl('forever')).toBe(Number.POSITIVE_INFINITY);
  });
});
