/** The playground gives the replica's players to the players the bot has seen, so autocomplete and suggestions know them offline. */
import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { LruStore } from '../../src/cache/store.js';
import { seedKnownPlayers } from '../../src/playground/seed-players.js';
import { loadDataset } from '../../src/replica/data/dataset.js';
import { RecentLookups } from '../../src/store/recent-lookups.js';

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
