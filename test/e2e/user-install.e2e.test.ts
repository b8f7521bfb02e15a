/**
 * End to end: the answers about the game where a member installed the bot themselves (Discord: user-installable apps):
 * in a private channel between users, and in a server that never installed the bot. The bot has no server there:
 * the answer comes through the interaction alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Replica } from '../../src/replica/server.js';
import { replica } from '../helpers/replica.js';
import { commandInteraction, startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { answerOf, bootBot } from './helpers.js';

const MEMBER = '517000000000000001';

let r: Replica;
let discord: FakeDiscord;
let bot: Awaited<ReturnType<typeof bootBot>>;

beforeAll(async () => {
  r = await replica();
  discord = await startFakeDiscord();
  bot = await bootBot(discord, r);
});
afterAll(async () => {
  await bot.close();
  await discord.close();
  await r.close();
});

/** `/name options` used through the member's own install: context 2 (a private channel) or 0 in a server the bot is not in. */
function userInstalled(
  name: string,
  options: Parameters<typeof commandInteraction>[2],
  where: 'private-channel' | 'other-server',
): Record<string, unknown> & { id: string; token: string } {
  const base: Record<string, unknown> & { id: string; token: string } = commandInteraction(MEMBER, name, options);
  const user = (base.member as { user: Record<string, unknown> }).user;
  if (where === 'private-channel') {
    const { guild_id: _guild, member: _member, guild_locale: _locale, ...rest } = base;
    return {
      ...rest,
      id: base.id,
      token: base.token,
      user,
      channel_id: '930000000000000001',
      channel: { id: '930000000000000001', type: 3 },
      context: 2,
      authorizing_integration_owners: { '1': MEMBER },
    };
  }
  const guildId = '940000000000000001';
  return {
    ...base,
    guild_id: guildId,
    channel_id: '940000000000000002',
    channel: { id: '940000000000000002', type: 0, guild_id: guildId },
    context: 0,
    authorizing_integration_owners: { '1': MEMBER },
  };
}

describe('a member’s own install', () => {
  it.each(['private-channel', 'other-server'] as const)('answers /hero and /player in a %s', async (where) => {
    const hero = userInstalled('hero', { name: 'hulk' }, where);
    discord.dispatchInteraction(hero);
    expect((await answerOf(discord, hero)).embeds[0]!.title).toBe('Hulk');
    const player = userInstalled('player', { query: 'Card1gan' }, where);
    discord.dispatchInteraction(player);
    expect(JSON.stringify((await answerOf(discord, player)).embeds[0])).toContain('Card1gan');
  });

  it('a member’s own settings stand in for a server’s there: /settings platform, then /leaderboard in a server that never added the bot', async () => {
    const set = userInstalled('settings', { platform: 'ps' }, 'private-channel');
    (set.data as { options: unknown[] }).options = [{ type: 1, name: 'platform', options: [{ type: 3, name: 'platform', value: 'ps' }] }];
    discord.dispatchInteraction(set);
    expect((await answerOf(discord, set)).embeds[0]!.description).toContain('**PlayStation**');
    for (const where of ['other-server', 'private-channel'] as const) {
      const board = userInstalled('leaderboard', { hero: 'hulk' }, where);
      discord.dispatchInteraction(board);
      expect(JSON.stringify((await answerOf(discord, board)).embeds[0])).toContain('"name":"Leaderboard · PlayStation · Season 3"');
    }
  });
});
