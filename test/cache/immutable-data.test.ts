/**
 * A memory hit returns the cached object itself, so nothing may mutate `Fetched.data`. Proof by
 * freezing: every value the client loads is deep-frozen before the cache stores it, and every command
 * runs, with every button and menu option of its answers pressed, three times (the first answer from
 * upstream, the next two from memory). A write to frozen data throws in ES modules (strict mode), and
 * the router would turn that into its unexpected-error View and an error log line.
 */
import Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { ResponseCache, type Fetched, type GetOptions } from '../../src/cache/response-cache.js';
import { LruStore } from '../../src/cache/store.js';
import type { Resource } from '../../src/cache/ttl.js';
import type { CommandContext, CommandInput } from '../../src/discord/command.js';
import { Router } from '../../src/discord/router.js';
import { toMessagePayload, type MessagePayload, type View } from '../../src/render/view.js';
import type { Replica } from '../../src/replica/server.js';
import { createCommandContext } from '../../src/app/services.js';
import { MEMBER } from '../helpers/bot.js';
import { capturingLogger, clientFor, replica } from '../helpers/replica.js';
import { memoryState } from '../helpers/state.js';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** A response cache whose loaded values are deep-frozen, as a memory hit must treat them. */
class FreezingCache extends ResponseCache {
  override get<T>(key: string, resource: Resource, load: () => Promise<T>, options?: GetOptions): Promise<Fetched<T>> {
    return super.get(key, resource, async () => deepFreeze(await load()), options);
  }
}

const INVOCATIONS: [string, CommandInput['options'], string?][] = [
  ['player', { query: 'HayamaKen' }],
  ['player', { query: 'Sir Final' }],
  ['player', { query: '1786151874' }],
  ['player', { query: '1403392756', season: 1 }],
  ['match', { match: '6713371_1740603484_820_11001_10' }],
  ['match', { match: '4890922_1741035286_222_11001_10' }],
  ['hero', { name: 'hulk' }],
  ['hero', { name: 'spider man' }],
  ['hero', { name: 'jeff' }],
  ['leaderboard', { hero: 'storm' }],
  ['leaderboard', { hero: 'hela', platform: 'ps' }],
  ['maps', {}],
  ['items', {}],
  ['items', { type: 'spray' }],
  ['achievements', {}],
  ['achievements', { hero: 'loki' }],
  ['battlepass', {}],
  ['patch-notes', {}],
  ['patch-notes', { type: 'balances' }],
  ['patch-notes', { type: 'dev-diaries' }],
  ['patch-notes', { type: 'game-versions' }],
];

/** Each custom ID of a payload with the values to send: [] for a button, each option (at most 8) for a menu. */
function presses(payload: MessagePayload): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const row of payload.components) {
    for (const c of row.components as { custom_id?: string; disabled?: boolean; options?: { value: string }[] }[]) {
      if (!c.custom_id || c.disabled) continue;
      if (c.options) for (const o of c.options.slice(0, 8)) out.push([c.custom_id, [o.value]]);
      else out.push([c.custom_id, []]);
    }
  }
  return out;
}

let r: Replica;
beforeAll(async () => {
  r = await replica();
});
afterAll(() => r.close());

describe('cached data is never mutated', () => {
  it('every command and component answers the same, with no error, over deep-frozen cached data', async () => {
    const now = () => 1_750_000_000_000;
    const { logger, lines } = capturingLogger();
    const api = clientFor(r, { cache: new FreezingCache({ store: new Keyv({ store: new LruStore(1000) }), now }), now });
    const state = memoryState({ now });
    const ctx: CommandContext = { ...createCommandContext(api, state, new Keyv({ store: new LruStore(1000) }), undefined, now), logger };
    const router = new Router(commands);

    /** Every answer of one pass, in order: the command, then each press of its components and of theirs (two levels). */
    const pass = async (): Promise<{ what: string; view: View; payload: MessagePayload }[]> => {
      const answers: { what: string; view: View; payload: MessagePayload }[] = [];
      for (const [name, options, subcommand] of INVOCATIONS) {
        const view = await router.command(name, { options, subcommand, user: MEMBER }, ctx);
        const payload = toMessagePayload(view);
        answers.push({ what: `/${name} ${JSON.stringify(options)}`, view, payload });
        for (const [id, values] of presses(payload).slice(0, 12)) {
          const first = (await router.component(id, values, MEMBER, MEMBER.userId, ctx)).view;
          const firstPayload = toMessagePayload(first);
          answers.push({ what: `${id} ${values.join(',')}`, view: first, payload: firstPayload });
          for (const [id2, values2] of presses(firstPayload).slice(0, 6)) {
            const second = (await router.component(id2, values2, MEMBER, MEMBER.userId, ctx)).view;
            answers.push({ what: `${id2} ${values2.join(',')}`, view: second, payload: toMessagePayload(second) });
          }
        }
      }
      return answers;
    };

    const upstream = await pass();
    const requests = api.stats.upstreamRequests;
    const hits = await pass();
    const afterHits = api.stats.upstreamRequests;
    const again = await pass();
    expect(upstream.length).toBeGreaterThan(100);
    // Expected errors (a match's player the API has no profile for) are fine; an unexpected one (a
    // TypeError from writing to frozen data) is logged at error level with its reference.
    const unexpected = lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message?: string } }).filter((l) => l.level >= 50);
    expect(unexpected.map((l) => `${l.msg}: ${l.err?.message ?? ''}`)).toEqual([]);
    expect(upstream.filter((a) => !a.view.isError).length).toBeGreaterThan(100);
    // The later passes were served from memory (but for the Refresh buttons, which ask fresh), and answered alike.
    expect(afterHits - requests).toBeLessThan(requests / 4);
    expect(api.stats.upstreamRequests - afterHits).toBe(afterHits - requests);
    expect(again.map((a) => a.payload)).toEqual(hits.map((a) => a.payload));
    await api.close();
    await state.close();
  }, 60_000);
});
