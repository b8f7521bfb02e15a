/**
 * The API's player search (`GET /api/v1/find-player/{name}`): a misspelt name no known name is close to gets the search's
 * answer as "Did you mean", at one request more and none when typed again; `/link` resolves a name to a UID through it
 * before it links, and links nobody on a name the search corrects.
 */
import { describe, expect, it } from 'vitest';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const description = (p: { embeds: { description?: string }[] }) => p.embeds[0]!.description;
const LINKER = { ...MEMBER, userId: '200000000000000081' };

/** `work`'s requests to the replica for players, by path (the hero and map lists a first answer reads once are not counted). */
async function requestsOf(work: () => Promise<unknown>): Promise<Map<string, number>> {
  const before = new Map(env.r.requests.byPath);
  await work();
  return new Map(
    [...env.r.requests.byPath].flatMap(([path, n]) => (n > (before.get(path) ?? 0) && /player/.test(path) ? [[path, n - (before.get(path) ?? 0)]] : [])),
  );
}

describe('a misspelt name nobody known is close to', () => {
  it('gets the API search’s answer, at one request more, and none when typed again', async () => {
    const ask = () => env.b.run('player', { query: 'Sir Finl' });
    const first = await requestsOf(async () => {
      const answer = await ask();
      expect(answer.view.isError).toBe(true);
      expect(description(answer.payload)).toBe('No player called “Sir Finl”. Did you mean **Sir Final**? Otherwise check the spelling, or use the UID.');
    });
    expect(first).toEqual(
      new Map([
        ['/api/v1/player/Sir%20Finl', 1],
        ['/api/v1/find-player/Sir%20Finl', 1],
      ]),
    );
    const again = await requestsOf(async () => expect(description((await ask()).payload)).toContain('Did you mean **Sir Final**?'));
    expect(again).toEqual(new Map());
  });

  it('says only that nobody is called so when the search finds nobody either, or cannot answer', async () => {
    const none = await env.b.run('player', { query: 'Qqqzzz Xxyyww' });
    expect(description(none.payload)).toBe('No player called “Qqqzzz Xxyyww”. Check the spelling, or use the UID.');
    env.r.setFaults({ forceStatus: 503, pathPrefix: '/api/v1/find-player/' });
    try {
      const down = await env.b.run('player', { query: 'Hayamakenn' });
      expect(description(down.payload)).toBe('No player called “Hayamakenn”. Check the spelling, or use the UID.');
      expect(env.b.logLines.some((l) => l.includes('player search unavailable'))).toBe(true);
    } finally {
      env.r.setFaults({});
    }
  });
});

describe('/link', () => {
  it('links nobody on a name the search corrects and no profile has, and offers the name found, at one request more', async () => {
    const requests = await requestsOf(async () => {
      const answer = await env.b.run('link', { player: 'Mrblungyy' }, undefined, LINKER);
      expect(description(answer.payload)).toBe('No player called “Mrblungyy”. Did you mean **Mrblungy**? Otherwise check the spelling, or use the UID.');
    });
    expect(requests).toEqual(
      new Map([
        ['/api/v1/find-player/Mrblungyy', 1],
        ['/api/v1/player/Mrblungyy', 1],
      ]),
    );
    expect((await env.b.ctx.links.get(LINKER.userId)).accounts).toEqual([]);
  });

  it('resolves a name to its UID through the search, then links the profile read by UID', async () => {
    const requests = await requestsOf(() => env.b.run('link', { player: 'mrblungy' }, undefined, LINKER));
    expect(requests).toEqual(
      new Map([
        ['/api/v1/find-player/mrblungy', 1],
        ['/api/v1/player/450703773', 1],
      ]),
    );
    expect((await env.b.ctx.links.get(LINKER.userId)).accounts.map((a) => [a.uid, a.name])).toEqual([['450703773', 'Mrblungy']]);
    // A UID needs no search.
    expect([...(await requestsOf(() => env.b.run('link', { player: '1402468705' }, undefined, LINKER))).keys()]).toEqual(['/api/v1/player/1402468705']);
  });

  it('links by the name alone when the search cannot answer', async () => {
    env.r.setFaults({ forceStatus: 503, pathPrefix: '/api/v1/find-player/' });
    try {
      await env.b.run('link', { player: 'Chob Bob' }, undefined, LINKER);
      expect((await env.b.ctx.links.get(LINKER.userId)).accounts.map((a) => a.name)).toContain('Chob Bob');
    } finally {
      env.r.setFaults({});
    }
  });
});

describe('a private profile', () => {
  it('answered 403 is said to be private, never that the bot’s key is refused', async () => {
    env.r.setFaults({ forceStatus: 403, pathPrefix: '/api/v1/player/' });
    try {
      const answer = await env.b.run('player', { query: 'Freddyhun' });
      expect(answer.view.isError).toBe(true);
      expect(description(answer.payload)).toBe('Freddyhun’s profile is private. They can make it public in the game’s settings.');
    } finally {
      env.r.setFaults({});
    }
  });
});
