/**
 * The API's season listing (`GET /api/v1/seasons`) over the bot's own season table: a season the listing adds shows in
 * `/player`'s season choices and in answers, named as the listing names it, with no code change; without a listing the
 * table still answers.
 */
import { describe, expect, it } from 'vitest';
import { shortDate } from '../../src/i18n/format.js';
import { useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const DOUBLE_C = '1786151874';

const complete = (command: string, focused: string, value: string, options: Record<string, string> = {}) =>
  env.b.router.autocomplete(
    command,
    { focused: { name: focused, value }, options: { ...options, [focused]: value }, user: { userId: '200000000000000071', guildId: null, locale: 'en-US' } },
    env.b.ctx,
  );

describe('the season listing', () => {
  it('without one (the API failing), the season table answers: every season up to the one typed', async () => {
    env.r.setFaults({ forceStatus: 503, pathPrefix: '/api/v1/seasons' });
    try {
      const unknown = { query: 'Nobody123' };
      expect(await complete('player', 'season', '2', unknown)).toEqual([{ name: 'Season 2', value: 2 }]);
      expect(await complete('player', 'season', '0.5', unknown)).toEqual([]);
      expect(await complete('player', 'season', '', unknown)).toEqual([]);
      // A season some profile has still works: Double C's own seasons are offered with their tiers.
      expect((await complete('player', 'season', '', { query: DOUBLE_C })).some((c) => c.name.includes(' · '))).toBe(true);
    } finally {
      env.r.setFaults({});
    }
  });

  it('a season the API starts listing appears in /player’s season choices and the season ladder, named as the API names it', async () => {
    const started = env.b.clock.now - 7 * 86_400_000;
    const named = `Season 3.5 · Eternal Night (current) · ${shortDate(Math.floor(started / 1000))}–`;
    const added = await fetch(`${env.r.url}/__replica/seasons`, {
      method: 'POST',
      // Started a week ago by the bot's clock.
      body: JSON.stringify({ season: 3.5, name: 'Eternal Night', starts_at: new Date(started).toISOString() }),
    });
    expect(added.status).toBe(201);
    // No profile in the replica has Season 3.5: it comes from the listing alone, first, as the newest.
    const offered = await complete('player', 'season', '', { query: DOUBLE_C });
    // Its start date from the listing, and current: it has started and no later season has.
    expect(offered[0]).toEqual({ name: named, value: 3.5 });
    expect(offered.find((c) => c.value === 3)?.name).toMatch(/^Season 3 · /);
    expect(await complete('player', 'season', '3.', { query: 'Nobody123' })).toEqual([{ name: named, value: 3.5 }]);
    // The season ladder's current season is the new one, named so; its season option offers it too.
    const ladder = await env.b.run('leaderboard', {});
    expect(ladder.payload.embeds[0]!.title).toBe('Season 3.5 · Eternal Night');
    expect((await complete('leaderboard', 'season', '')).map((c) => c.value)).toEqual([3.5, 3, 2.5, 2, 1.5, 1, 0]);
    // /player takes it as a season.
    const profile = await env.b.run('player', { query: DOUBLE_C, season: 3.5 });
    expect(profile.view.isError ?? false).toBe(false);
  });
});
