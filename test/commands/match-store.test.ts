/**
 * A match the bot has read is kept for good (src/store/matches.ts) and answers again from the store: `/match`, `/last`'s and
 * a list's scoreboard and `/scout` make no API request for it (src/catalog/match-read.ts), counted at the replica.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { bot, MEMBER, useReplicaBot } from '../helpers/bot.js';

/** A real scoreboard of the replica's samples. */
const MATCH = '6713355_1740604074_322_11001_10';
const PATH = `/api/v1/match/${MATCH}`;

describe('the match store', () => {
  const env = useReplicaBot();
  /** A second bot on the first one's store: its own response cache is empty, as after a restart or on another process. */
  let restarted: ReturnType<typeof bot> | undefined;
  afterAll(async () => {
    // The store is the first bot's to close.
    await restarted?.ctx.api.close();
  });

  it('answers a match read before from the store after a restart: no API request, the same scoreboard, the API down', async () => {
    const first = await env.b.run('match', { match: MATCH });
    expect(env.r.requests.byPath.get(PATH)).toBe(1);
    // Stored off the answer's path: wait for it.
    await vi.waitFor(async () => expect(await env.b.state.matches.get(MATCH)).not.toBeNull());
    restarted = bot(env.r, { state: env.b.state });
    env.r.setFaults({ forceStatus: 503, pathPrefix: '/api/v1/match/' });
    try {
      const again = await restarted.run('match', { match: MATCH });
      expect(env.r.requests.byPath.get(PATH)).toBe(1);
      expect(again.payload.embeds).toEqual(first.payload.embeds);
      expect(again.payload.components).toEqual(first.payload.components);
      // The scout of the same match reads it from the store too (its players' profiles are other reads).
      const scout = await restarted.run('scout', { match: MATCH }, undefined, MEMBER);
      expect(scout.payload.embeds.length).toBeGreaterThan(0);
      expect(env.r.requests.byPath.get(PATH)).toBe(1);
    } finally {
      env.r.setFaults({});
    }
  });

  it('asks the API when the store cannot be read, and says so in the log', async () => {
    const failing = bot(env.r);
    try {
      failing.ctx.matches = {
        get: () => Promise.reject(new Error('disk gone')),
        put: () => Promise.reject(new Error('disk gone')),
      };
      const before = env.r.requests.byPath.get(PATH) ?? 0;
      const answer = await failing.run('match', { match: MATCH });
      expect(answer.payload.embeds[0]!.title).toBeTruthy();
      expect(env.r.requests.byPath.get(PATH)).toBe(before + 1);
      await vi.waitFor(() => expect(failing.logLines.some((l) => l.includes('a match read could not be stored'))).toBe(true));
      expect(failing.logLines.some((l) => l.includes('the match store could not be read: asking the API'))).toBe(true);
    } finally {
      await failing.close();
    }
  });
});
