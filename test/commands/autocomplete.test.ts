/**
 * Autocomplete of `season` (the chosen player's seasons, else the season table), `match` (the member's recent matches),
 * and the item and achievement names (from the cached lists): each within Discord's limits, at most one read the cache
 * holds after the first, and an empty or smaller list, never an error, when the API cannot answer.
 */
import { describe, expect, it } from 'vitest';
import type { APIApplicationCommandOptionChoice } from 'discord-api-types/v10';
import { readForTracking } from '../../src/game/tracking.js';
import { profiles } from '../game/samples.js';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const DOUBLE_C = { uid: '1786151874', name: 'Double C' };
const SIR = { uid: '1117455441', name: 'Sir Final' };
/** Members with their own links, so that the tests do not share a default account. */
const TRACKED = { ...MEMBER, userId: '200000000000000061' };
const UNTRACKED = { ...MEMBER, userId: '200000000000000062' };
const NOBODY = { ...MEMBER, userId: '200000000000000063' };

const complete = (command: string, focused: string, value: string, options: Record<string, string> = {}, user = MEMBER) =>
  env.b.router.autocomplete(command, { focused: { name: focused, value }, options: { ...options, [focused]: value }, user }, env.b.ctx);

/** `work`'s requests to the replica, in all. */
async function requestsOf(work: () => Promise<unknown>): Promise<number> {
  const before = env.r.requests.total;
  await work();
  return env.r.requests.total - before;
}

/** Within Discord's limits: at most 25 choices, names of 1 to 100 characters, string values within 100. */
function expectWithinLimits(choices: APIApplicationCommandOptionChoice[]) {
  expect(choices.length).toBeLessThanOrEqual(25);
  for (const c of choices) {
    expect(c.name.length).toBeGreaterThan(0);
    expect(c.name.length).toBeLessThanOrEqual(100);
    if (typeof c.value === 'string') expect(c.value.length).toBeLessThanOrEqual(100);
  }
}

describe('season', () => {
  it('offers the seasons the chosen player’s profile has, newest first, with their tier, as numbers', async () => {
    const choices = await complete('player', 'season', '', { query: DOUBLE_C.uid });
    expectWithinLimits(choices);
    expect(choices.length).toBeGreaterThan(1);
    for (const c of choices) {
      expect(typeof c.value).toBe('number');
      expect(c.name).toMatch(new RegExp(`^Season ${String(c.value).replace('.', '\\.')}( \\(current\\))?( · .+)?$`));
    }
    const values = choices.map((c) => c.value as number);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(choices.some((c) => c.name.includes(' · '))).toBe(true);
    // What is typed narrows them to the numbers starting with it.
    const typed = await complete('player', 'season', '1', { query: DOUBLE_C.uid });
    expect(typed.length).toBeGreaterThan(0);
    expect(typed.every((c) => String(c.value).startsWith('1'))).toBe(true);
  });

  it('/compare offers the first player’s seasons; with no player, the member’s default account’s', async () => {
    const compared = await complete('compare', 'season', '', { player: DOUBLE_C.uid });
    expect(compared).toEqual(await complete('player', 'season', '', { query: DOUBLE_C.uid }));
    await env.b.ctx.links.link(UNTRACKED.userId, DOUBLE_C, true);
    expect(await complete('player', 'season', '', {}, UNTRACKED)).toEqual(compared);
  });

  it('without a profile to read, offers the seasons the API lists, newest first, narrowed by what is typed', async () => {
    const unknown = { query: 'Nobody123' };
    const listed = env.r.dataset.seasons.map((s) => (typeof s === 'number' ? s : s.season)).sort((a, b) => b - a);
    // The newest listed is the current one, said so.
    expect(await complete('player', 'season', '', unknown)).toEqual(listed.map((n, i) => ({ name: `Season ${n}${i === 0 ? ' (current)' : ''}`, value: n })));
    expect(await complete('player', 'season', '2', unknown)).toEqual([
      { name: 'Season 2.5', value: 2.5 },
      { name: 'Season 2', value: 2 },
    ]);
    expect(await complete('player', 'season', '0.5', unknown)).toEqual([]);
  });

  it('reads no profile for a name typed by hand: each keystroke would cost a request', async () => {
    // A UID, as player autocomplete gives it, is read: its seasons come with their tiers; a name half typed is not read.
    expect((await complete('player', 'season', '', { query: DOUBLE_C.uid })).some((c) => c.name.includes(' · '))).toBe(true);
    for (const query of ['D', 'Do', 'Dou', 'Doub']) {
      expect(await requestsOf(async () => expect((await complete('player', 'season', '2', { query })).map((c) => c.value)).toEqual([2.5, 2]))).toBe(0);
    }
  });

  it('falls back to the table when the API does not answer in time, rather than failing', async () => {
    env.r.setFaults({ hang: true, pathPrefix: '/api/v1/player/' });
    try {
      expect(await complete('player', 'season', '2.5', { query: '999000111' })).toEqual([{ name: 'Season 2.5', value: 2.5 }]);
    } finally {
      env.r.setFaults({});
    }
  });
});

describe('match', () => {
  it('offers the matches the tracker recorded of the member’s default account, from the store, at no API request', async () => {
    await env.b.ctx.links.link(TRACKED.userId, DOUBLE_C, true);
    const read = readForTracking(profiles['doublec8-double-c-1786151874-2025-08-05.json']!);
    if (read.kind !== 'read') throw new Error('not a readable capture');
    const now = env.b.ctx.now();
    await env.b.state.tracking.sync(now);
    const claim = (await env.b.state.tracking.claim(now + 1_000, 100, 1)).find((c) => c.uid === DOUBLE_C.uid)!;
    await env.b.state.tracking.recordRead(claim, { ...read, changed: true }, { intervalMs: 1 }, now + 1_000);
    const newest = [...read.matches].sort((a, b) => b.time - a.time);
    // The hero names come from the hero list, read once through the cache.
    await env.b.ctx.heroes.list();
    let choices: APIApplicationCommandOptionChoice[] = [];
    const requests = await requestsOf(async () => (choices = await complete('match', 'match', '', {}, TRACKED)));
    expect(requests).toBe(0);
    expectWithinLimits(choices);
    expect(choices.map((c) => c.value)).toEqual(newest.slice(0, 25).map((m) => m.matchUid));
    expect(choices[0]!.name).toMatch(/^(Victory|Defeat) · .*\d+\/\d+\/\d+ · \d+ \w+ \d{4}$/);
    // /scout offers the same; what is typed narrows them (here: a match's ID).
    expect(await complete('scout', 'match', '', {}, TRACKED)).toEqual(choices);
    expect((await complete('scout', 'match', newest[0]!.matchUid.slice(0, 12), {}, TRACKED)).map((c) => c.value)).toContain(newest[0]!.matchUid);
  });

  it('offers an untracked account’s recent matches from its profile: one read, none once cached', async () => {
    await env.b.ctx.links.link(NOBODY.userId, SIR, true);
    // Its rows name their heroes by id: the names come from the hero list, read through the cache.
    await env.b.ctx.heroes.list();
    const first = await requestsOf(() => complete('match', 'match', '', {}, NOBODY));
    expect(first).toBeLessThanOrEqual(1);
    let choices: APIApplicationCommandOptionChoice[] = [];
    expect(await requestsOf(async () => (choices = await complete('match', 'match', '', {}, NOBODY)))).toBe(0);
    expectWithinLimits(choices);
    const profile = (await env.b.ctx.api.player(SIR.uid)).data;
    expect(choices.length).toBe(Math.min(25, profile.recent_matches.length));
    expect(new Set(choices.map((c) => c.value))).toEqual(new Set(profile.recent_matches.slice(0, 25).map((m) => m.match_uid)));
    expect(choices[0]!.name).toMatch(/^(Victory|Defeat) · [^·]+ · [^·\d]+ \d+\/\d+\/\d+ · \d+ \w+ \d{4}$/);
  });

  it('offers nothing to a member without a linked account', async () => {
    expect(await complete('match', 'match', '', {}, { ...MEMBER, userId: '200000000000000069' })).toEqual([]);
  });
});

describe('item and achievement names', () => {
  it('offers the items named as typed, of the type chosen, their IDs as values; the list is read once', async () => {
    const all = await complete('items', 'name', '');
    expectWithinLimits(all);
    expect(all.length).toBeGreaterThan(0);
    const items = (await env.b.ctx.api.items({ page: 1, limit: 100 })).data.entries;
    const some = items[0]!;
    const typed = some.name!.slice(0, 4);
    let narrowed: APIApplicationCommandOptionChoice[] = [];
    expect(await requestsOf(async () => (narrowed = await complete('items', 'name', typed)))).toBe(0);
    expect(narrowed.map((c) => c.value)).toContain(some.id);
    expect(narrowed.every((c) => c.name.toLowerCase().includes(typed.toLowerCase()))).toBe(true);
    expect(narrowed.find((c) => c.value === some.id)!.name).toMatch(new RegExp(`^${some.name!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · `));
    const sprays = await complete('items', 'name', '', { type: 'spray' });
    const sprayIds = new Set(items.filter((i) => i.type?.toLowerCase() === 'spray').map((i) => i.id));
    expect(sprays.length).toBeGreaterThan(0);
    expect(sprays.every((c) => sprayIds.has(c.value as string))).toBe(true);
  });

  it('offers the achievements named as typed, of the hero chosen', async () => {
    const all = await complete('achievements', 'name', '');
    expectWithinLimits(all);
    expect(all.length).toBeGreaterThan(0);
    const first = (await env.b.ctx.api.achievements({ page: 1, limit: 100 })).data.entries[0]!;
    expect((await complete('achievements', 'name', first.name!.slice(0, 5))).map((c) => c.value)).toContain(first.id);
    // A hero half typed reads the page of the hero it resolves to, once, not a page a keystroke.
    const reads = await requestsOf(async () => {
      for (const hero of ['hul', 'hulk', 'Hulk']) await complete('achievements', 'name', '', { hero });
    });
    expect(reads).toBeLessThanOrEqual(1);
    // The hero option still completes heroes.
    expect((await complete('achievements', 'hero', 'hul')).map((c) => c.name)).toContain('Hulk');
  });

  it('offers nothing, quietly, when the list cannot be read', async () => {
    env.r.setFaults({ forceStatus: 503, pathPrefix: '/api/v1/achievements' });
    try {
      // A hero's list, never read before: the API is asked, and fails.
      const requests = await requestsOf(async () => expect(await complete('achievements', 'name', '', { hero: 'storm' })).toEqual([]));
      expect(requests).toBeGreaterThan(0);
    } finally {
      env.r.setFaults({});
    }
  });
});
