/** What the replica holds to try: the welcome's list from the replica's data, and docs/playground.md's copy of it. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/replica/data/dataset.js';
import { replicaSamples, samplesMarkdown } from '../../src/playground/samples.js';
import { FREE_PLAYER, ladderSeats } from '../../src/playground/seed-ladder.js';

const dataset = loadDataset();
const samples = replicaSamples(dataset, ladderSeats(dataset.profileCaptures));

describe('the replica’s samples', () => {
  it('list every player the replica serves, by name, the free one without a ladder member, and every match', () => {
    expect(samples.players.map((p) => p.uid).sort()).toEqual([...dataset.players.keys()].sort());
    expect(samples.players.map((p) => p.name)).toEqual([...samples.players.map((p) => p.name)].sort((a, b) => a.localeCompare(b, 'en')));
    expect(samples.players.filter((p) => p.member === null).map((p) => p.uid)).toEqual([FREE_PLAYER]);
    expect(samples.players.find((p) => p.uid === '1403392756')).toEqual({ uid: '1403392756', name: 'Card1gan', member: 'Card1gan' });
    expect(samples.matches).toEqual([...dataset.matches.keys()].sort());
  });

  it('are listed in docs/playground.md as the data has them', () => {
    const docs = readFileSync(new URL('../../docs/playground.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## What the replica holds'), docs.indexOf('## Every flow'));
    expect(section).toContain(`\n${samplesMarkdown(samples)}\n`);
    // Nothing else listed: one line per player and the matches.
    expect(section.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(samples.players.length + 1);
  });
});
