/**
 * A misspelt player name is answered with the names the bot has seen, as a misspelt hero is: any member's lookups and
 * matches opened, leaderboards, every member's linked accounts. At no API request; and a member who has looked nobody up
 * yet is offered those players as they type.
 */
import { describe, expect, it } from 'vitest';
import { MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
/** Members who have looked nobody up and linked nothing. */
const FRESH = { ...MEMBER, userId: '200000000000000051' };
const FRESH_TOO = { ...MEMBER, userId: '200000000000000052' };
const DOUBLE_C = { uid: '1786151874', name: 'Double C' };
const CARD = { uid: '1403392756', name: 'Card1gan' };

const description = (p: { embeds: { description?: string }[] }) => p.embeds[0]!.description;

/** `work`'s requests to the replica, by path. */
async function requestsOf(work: () => Promise<unknown>): Promise<Map<string, number>> {
  const before = new Map(env.r.requests.byPath);
  await work();
  return new Map([...env.r.requests.byPath].flatMap(([path, n]) => (n > (before.get(path) ?? 0) ? [[path, n - (before.get(path) ?? 0)]] : [])));
}

describe('a misspelt player name', () => {
  it('suggests an account another member linked, though nobody looked it up here', async () => {
    // Before anything reads the linked accounts: a read is kept a few minutes, so a link made later is suggested after that.
    await env.b.ctx.links.link(OTHER_MEMBER.userId, CARD, false);
    const requests = await requestsOf(async () => {
      const answer = await env.b.run('last', { player: 'Cardigan' }, undefined, FRESH);
      expect(description(answer.payload)).toBe('No player called “Cardigan”. Did you mean **Card1gan**? Otherwise check the spelling, or use the UID.');
    });
    expect([...requests.keys()]).toEqual(['/api/v1/player/Cardigan']);
  });

  it('suggests a player another member looked up, with no request beyond the lookup itself', async () => {
    await env.b.run('player', { query: DOUBLE_C.uid }, undefined, OTHER_MEMBER);
    let answer: Awaited<ReturnType<typeof env.b.run>> | undefined;
    const requests = await requestsOf(async () => (answer = await env.b.run('player', { query: 'Duble C' }, undefined, FRESH)));
    expect(answer!.view.isError).toBe(true);
    expect(description(answer!.payload)).toBe('No player called “Duble C”. Did you mean **Double C**? Otherwise check the spelling, or use the UID.');
    // The lookup that found nobody, and nothing else: the suggestion cost no request.
    expect(requests).toEqual(new Map([['/api/v1/player/Duble%20C', 1]]));
  });

  it('suggests a player of a hero leaderboard shown before', async () => {
    const { payload } = await env.b.run('leaderboard', { hero: 'hulk' });
    const top = /\*\*1\. ([^*]+)\*\*/.exec(payload.embeds[0]!.description!)![1]!.replaceAll('\\', '');
    const misspelt = `${top}x`;
    const answer = await env.b.run('player', { query: misspelt }, undefined, FRESH_TOO);
    expect(description(answer.payload)).toContain(`Did you mean **${top}`);
  });
});

describe('the players the bot has seen', () => {
  it('take in the players of a match scouted or opened', async () => {
    const [uid] = [...env.r.dataset.matches.keys()];
    await env.b.run('scout', { match: uid! }, undefined, FRESH_TOO);
    // As the scout read it (from the cache now).
    const players = (await env.b.ctx.api.match(uid!)).data.players.filter((p) => p.nick_name);
    expect(players.length).toBeGreaterThan(0);
    const known = new Map(env.b.ctx.recent.known().map((p) => [p.uid, p.name]));
    for (const p of players) expect(known.get(p.player_uid)).toBe(p.nick_name);
  });
});

describe('player autocomplete', () => {
  it('offers a member who has looked nobody up the players the bot has seen, at no request', async () => {
    const requests = await requestsOf(async () => {
      const all = await env.b.router.autocomplete('player', { focused: { name: 'query', value: '' }, options: {}, user: FRESH }, env.b.ctx);
      // The most recently seen first (the leaderboard's players), as many as Discord takes.
      expect(all).toHaveLength(25);
      expect(all.every((c) => c.name.endsWith(' · seen by the bot'))).toBe(true);
      const typed = await env.b.router.autocomplete('last', { focused: { name: 'player', value: 'doub' }, options: {}, user: FRESH }, env.b.ctx);
      expect(typed).toEqual([{ name: 'Double C · seen by the bot', value: DOUBLE_C.uid }]);
      // Linked by another member only.
      const card = await env.b.router.autocomplete('compare', { focused: { name: 'player', value: 'card1' }, options: {}, user: FRESH }, env.b.ctx);
      expect(card).toEqual([{ name: 'Card1gan · seen by the bot', value: CARD.uid }]);
    });
    expect(requests).toEqual(new Map());
  });

  it('still lists the member’s own accounts and lookups first', async () => {
    await env.b.ctx.links.link(FRESH.userId, CARD, true);
    const choices = await env.b.router.autocomplete('player', { focused: { name: 'query', value: '' }, options: {}, user: FRESH }, env.b.ctx);
    expect(choices[0]).toEqual({ name: 'Card1gan · your default', value: CARD.uid });
    expect(choices.filter((c) => c.value === CARD.uid)).toHaveLength(1);
  });
});
