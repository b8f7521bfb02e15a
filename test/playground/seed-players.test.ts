/** The playground gives the replica's players to the players the bot has seen, so autocomplete and suggestions know them offline. */
import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { LruStore } from '../../src/cache/store.js';
import { seedKnownPlayers } from '../../src/playground/seed-players.js';
import { loadDataset } from '../../src/replica/data/dataset.js';
import { KNOWN_TTL_MS, RecentLookups } from '../../src/store/recent-lookups.js';

describe('seedKnownPlayers', () => {
  it('adds every replica player by UID and name, and nothing that is not a profile', () => {
    const { players } = loadDataset();
    const recent = new RecentLookups(new Keyv({ store: new LruStore(10) }));
    seedKnownPlayers(recent, new Map([...players, ['garbage', { nothing: true }]]), 'https://img.test/rivals');
    const known = recent.known();
    expect(known.map((p) => p.uid).sort()).toEqual([...players.keys()].sort());
    expect(known).toContainEqual({ uid: '1786151874', name: 'Double C' });
  });
});

describe('the players the bot has seen', () => {
  it('keeps each for an hour after it was last seen, so a deletion in another process reaches this one; the replica’s for good', () => {
    const clock = { t: 1_000, now: () => clock.t };
    const recent = new RecentLookups(new Keyv({ store: new LruStore(10) }), 300, clock);
    recent.remember([{ uid: '1', name: 'Seen once' }]);
    recent.remember([{ uid: '2', name: 'Replica' }], { forever: true });
    clock.t += KNOWN_TTL_MS - 1;
    // Seen again: its hour starts again; the replica's player stays forever even when seen again.
    recent.remember([{ uid: '2', name: 'Replica' }]);
    expect(
      recent
        .known()
        .map((p) => p.uid)
        .sort(),
    ).toEqual(['1', '2']);
    clock.t += 2;
    expect(recent.known().map((p) => p.uid)).toEqual(['2']);
    clock.t += 10 * KNOWN_TTL_MS;
    expect(recent.known().map((p) => p.uid)).toEqual(['2']);
    recent.forgetKnown(['2']);
    expect(recent.known()).toEqual([]);
  });
});
