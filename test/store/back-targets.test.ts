/** A Back button kept under a short key (src/store/back-targets.ts): the same key for the same target, a TTL, and a miss for anything else. */
import fc from 'fast-check';
import Keyv from 'keyv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LruStore } from '../../src/cache/store.js';
import { storeKeyArg } from '../../src/render/custom-id.js';
import { BACK_KEY_LENGTH, BACK_TTL_MS, BackTargets, backKey } from '../../src/store/back-targets.js';

const TARGET = 'mt.o:6713355_1740604074_322_11001_10~1170~1~403~1740604635~0-2:1403392756::2:';

/** A keyv over an in-memory store that records the TTL of each write. */
function recordingCache(): { cache: Keyv; ttls: (number | undefined)[] } {
  const ttls: (number | undefined)[] = [];
  const store = new LruStore(100);
  const set = store.set.bind(store);
  store.set = (key, value, ttl) => (ttls.push(ttl), set(key, value, ttl));
  return { cache: new Keyv({ store }), ttls };
}

afterEach(() => vi.useRealTimers());

describe('BackTargets', () => {
  it('keeps a target under its key for a week and finds it again; the same target gets the same key', async () => {
    const { cache, ttls } = recordingCache();
    const backs = new BackTargets(cache);
    const key = await backs.keep(TARGET);
    expect(key).toBe(backKey(TARGET));
    expect(key).toHaveLength(BACK_KEY_LENGTH);
    expect(ttls).toEqual([BACK_TTL_MS]);
    expect(await backs.find(key!)).toBe(TARGET);
    // Kept again (the same player opened again from the same match): one entry, its week started again.
    expect(await backs.keep(TARGET)).toBe(key);
    expect(ttls).toEqual([BACK_TTL_MS, BACK_TTL_MS]);
    // Another process over the same store reads it.
    expect(await new BackTargets(cache).find(key!)).toBe(TARGET);
  });

  it('makes keys the codec reads back, different for different targets', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 100 }), fc.string({ minLength: 1, maxLength: 100 }), (a, b) => {
        expect(storeKeyArg(backKey(a))).toBe(backKey(a));
        if (a !== b) expect(backKey(a)).not.toBe(backKey(b));
      }),
    );
  });

  it('an expired key reads as none', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const backs = new BackTargets(new Keyv({ store: new LruStore(100) }));
    const key = (await backs.keep(TARGET))!;
    vi.setSystemTime(Date.now() + BACK_TTL_MS - 1_000);
    expect(await backs.find(key)).toBe(TARGET);
    vi.setSystemTime(Date.now() + 2_000);
    expect(await backs.find(key)).toBeNull();
  });

  it('a key never kept, or one whose entry is not what the key was made from, reads as none', async () => {
    const cache = new Keyv({ store: new LruStore(100) });
    const backs = new BackTargets(cache);
    const key = (await backs.keep(TARGET))!;
    expect(await backs.find('AAAAAAAAAA')).toBeNull();
    for (const entry of [{ v: 1, id: 'mt.o:another' }, { v: 2, id: TARGET }, { v: 1, id: 'x'.repeat(101) }, 'mt.o:x', null]) {
      await cache.set(`back:${key}`, entry);
      expect(await backs.find(key), JSON.stringify(entry)).toBeNull();
    }
    await cache.set(`back:${key}`, { v: 1, id: TARGET });
    expect(await backs.find(key)).toBe(TARGET);
  });

  it('keeps nothing that is not a custom ID: empty, or over 100 characters', async () => {
    const { cache, ttls } = recordingCache();
    const backs = new BackTargets(cache);
    expect(await backs.keep('')).toBeNull();
    expect(await backs.keep('x'.repeat(101))).toBeNull();
    expect(await backs.keep('x'.repeat(100))).toBe(backKey('x'.repeat(100)));
    expect(ttls).toHaveLength(1);
  });

  it('a cache that fails or hangs gives no key and finds nothing, and never rejects', async () => {
    const failing = new Keyv({ store: new LruStore(100) });
    failing.set = () => Promise.reject(new Error('store down'));
    failing.get = (() => Promise.reject(new Error('store down'))) as Keyv['get'];
    const refused = new Keyv({ store: new LruStore(100) });
    refused.set = async () => false;
    const hung = new Keyv({ store: new LruStore(100) });
    let asked = 0;
    hung.set = () => (asked++, new Promise<boolean>(() => undefined));
    hung.get = () => (asked++, new Promise<never>(() => undefined));
    for (const cache of [failing, refused, hung]) {
      const backs = new BackTargets(cache, 20);
      expect(await backs.keep(TARGET)).toBeNull();
      expect(await backs.find(backKey(TARGET))).toBeNull();
    }
    // The hung cache was asked both times: the answers above are its deadline's.
    expect(asked).toBe(2);
  });
});
