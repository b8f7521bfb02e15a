/**
 * A past season on `/hero` statistics and hero leaderboards, which the spec documents no season for: the bot sends
 * `season` and checks the answer, saying when the API answered with the current season, refused the season, or (for a
 * leaderboard, whose entries name their season) answered with another.
 */
import { describe, expect, it } from 'vitest';
import { encodeCustomId } from '../../src/render/custom-id.js';
import { customIds, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const HULK = '1011';
type Payload = { embeds: { author?: { name: string }; description?: string; fields?: { name: string; value: string }[] }[] };
const embed = (p: Payload) => p.embeds[0]!;
const field = (p: Payload, name: string) => embed(p).fields?.find((f) => f.name === name)?.value;

describe('/hero season', () => {
  it('opens the statistics; an answer the same as the current season’s is said to be it', async () => {
    const now = await env.b.run('hero', { name: 'hulk' });
    expect(embed(now.payload).author?.name).not.toContain('Statistics');
    const asked = await env.b.run('hero', { name: 'hulk', season: 2 });
    expect(embed(asked.payload).author?.name).toBe('Hulk · Statistics');
    expect(embed(asked.payload).description).toBe('You asked for Season 2; the API answered with the current season’s figures, the same as without a season.');
    // The season stays with the message's section menu.
    expect(customIds(asked.payload)).toContain(encodeCustomId('hero.s', HULK, '2'));
    expect(env.r.requests.byPath.get(`/api/v1/heroes/hero/${HULK}/stats`)).toBeGreaterThan(0);
  });

  it('shows a season the API answers for, named', async () => {
    const current = env.r.dataset.heroStats.get(HULK)!;
    env.r.dataset.seasonHeroStats.set(`${HULK}:1.5`, { ...current, matches: 123_456, wins: 61_728 });
    const asked = await env.b.run('hero', { name: 'hulk', season: 1.5 });
    expect(embed(asked.payload).author?.name).toBe('Hulk · Statistics · Season 1.5');
    expect(embed(asked.payload).description).toBeUndefined();
    expect(field(asked.payload, 'Matches (all players)')).toBe('123.5K');
    expect(field(asked.payload, 'Win rate')).toBe('50.0 %');
  });

  it('shows the current season when the API refuses the season, and says so', async () => {
    env.r.setFaults({ forceStatus: 400, pathPrefix: `/api/v1/heroes/hero/${HULK}/stats?season` });
    try {
      const asked = await env.b.run('hero', { name: 'hulk', season: 2.5 });
      expect(asked.view.isError ?? false).toBe(false);
      expect(embed(asked.payload).description).toBe('The API keeps no Season 2.5 of this: here is the current season.');
      expect(field(asked.payload, 'Matches (all players)')).toBe('892.8K');
    } finally {
      env.r.setFaults({});
    }
  });

  it('refuses a season the API does not list, naming the seasons it does, before any request', async () => {
    const before = env.r.requests.total;
    for (const [command, options] of [
      ['hero', { name: 'hulk', season: 9 }],
      ['leaderboard', { hero: 'hulk', season: 9 }],
    ] as const) {
      const refused = await env.b.run(command, options);
      expect(refused.view.isError).toBe(true);
      expect(embed(refused.payload).description).toBe('There is no season “9”. The API lists the seasons from 0 to 3.');
    }
    expect(env.r.requests.total).toBe(before);
  });

  it('the leaderboard section names the season its entries are ranked in, and says when it is not the one asked', async () => {
    const board = await env.b.press(encodeCustomId('hero.s', HULK, '2'), ['leaderboard']);
    expect(embed(board.payload).author?.name).toBe('Hulk · Leaderboard (PC) · Season 3');
    expect(embed(board.payload).description).toMatch(/\n\nYou asked for Season 2; the API answered with Season 3\.$/);
  });
});

describe('/leaderboard hero season', () => {
  it('shows a past season the API answers for, its entries ranked in it, with no note; the pages keep the season', async () => {
    const current = env.r.dataset.leaderboards.get(`${HULK}:pc`) as { players: { info: { name: string; rank_season: Record<string, unknown> } }[] };
    const past = {
      players: current.players.map((p) => ({
        ...p,
        info: { ...p.info, name: `Old${p.info.name}`, rank_season: { ...p.info.rank_season, rank_game_id: 3 } },
      })),
    };
    env.r.dataset.seasonLeaderboards.set(`${HULK}:pc:1.5`, past);
    const asked = await env.b.run('leaderboard', { hero: 'hulk', season: 1.5 });
    expect(embed(asked.payload).author?.name).toBe('Leaderboard · PC · Season 1.5');
    expect(embed(asked.payload).description).toMatch(/^\*\*1\. Old/);
    expect(embed(asked.payload).description).not.toContain('You asked for');
    expect(customIds(asked.payload)).toContain(encodeCustomId('lb.p', HULK, 'pc', '1.5', 2, 'n'));
    const second = await env.b.press(encodeCustomId('lb.p', HULK, 'pc', '1.5', 2, 'n'));
    expect(embed(second.payload).description).toMatch(/^\*\*11\. Old/);
    // Without a season: the current season, named, and no note.
    const now = await env.b.run('leaderboard', { hero: 'hulk' });
    expect(embed(now.payload).author?.name).toBe('Leaderboard · PC · Season 3');
    expect(embed(now.payload).description).not.toContain('You asked for');
    // A button of an older message, before seasons were carried, still pages the current leaderboard.
    const old = await env.b.press(encodeCustomId('lb.p', HULK, 'pc', 2, 'n'));
    expect(embed(old.payload).author?.name).toBe('Leaderboard · PC · Season 3');
  });
});
