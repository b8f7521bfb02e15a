import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readInteraction } from '../../src/discord/interactions.js';
import { settingsServer } from '../../src/discord/command.js';
import { autocompleteInteraction, commandInteraction, componentInteraction, interactionBase, userCommandInteraction } from '../e2e/fake-discord.js';

const USER = '300000000000000001';
const OTHER = '300000000000000002';

describe('readInteraction', () => {
  it('reads a slash command with its options, the member, guild, locale and permissions', () => {
    const raw = commandInteraction(USER, 'leaderboard', { hero: 'storm', page: 2, mine: true }, { permissions: '8' });
    expect(readInteraction(raw)).toEqual({
      kind: 'command',
      id: raw.id,
      token: raw.token,
      applicationId: raw.application_id,
      commandName: 'leaderboard',
      user: { userId: USER, guildId: raw.guild_id, locale: 'en-US', guildLocale: 'en-US', permissions: '8', serverInstall: true },
      input: {
        subcommand: undefined,
        options: { hero: 'storm', page: 2, mine: true },
        user: { userId: USER, guildId: raw.guild_id, locale: 'en-US', guildLocale: 'en-US', permissions: '8', serverInstall: true },
      },
    });
    // The member's client language and the server's, as Discord sends them.
    expect(readInteraction({ ...raw, locale: 'ja', guild_locale: 'de' })?.user).toMatchObject({ locale: 'ja', guildLocale: 'de' });
  });

  it('tells the bot’s server install from the member’s own install alone, by authorizing_integration_owners', () => {
    const raw = commandInteraction(USER, 'leaderboard', { hero: 'storm' });
    const guild = raw.guild_id;
    // Brought by both installs: the server's settings apply.
    expect(readInteraction({ ...raw, authorizing_integration_owners: { '0': guild, '1': USER } })?.user.serverInstall).toBe(true);
    // Only the member's install, in a server that never added the bot: they do not.
    expect(readInteraction({ ...raw, authorizing_integration_owners: { '1': USER } })?.user.serverInstall).toBe(false);
    // No such field (an older payload): the server is taken as installed, as before.
    const { authorizing_integration_owners: _owners, ...older } = raw;
    expect(readInteraction(older)?.user).not.toHaveProperty('serverInstall');
    expect(settingsServer(readInteraction(older)!.user)).toBe(guild);
    expect(settingsServer(readInteraction({ ...raw, authorizing_integration_owners: { '1': USER } })!.user)).toBeNull();
  });

  it('reads a subcommand and its options, and a channel option as its id', () => {
    const raw = commandInteraction(USER, 'config', { type: 'patch-notes', channel: { channel: '400000000000000009' } }, { subcommand: 'feed' });
    const call = readInteraction(raw);
    expect(call).toMatchObject({
      kind: 'command',
      commandName: 'config',
      input: { subcommand: 'feed', options: { type: 'patch-notes', channel: '400000000000000009' } },
    });
  });

  it('reads a subcommand inside a subcommand group as that subcommand', () => {
    const raw = {
      ...commandInteraction(USER, 'x'),
      data: {
        id: '1',
        name: 'x',
        type: 1,
        options: [{ name: 'group', type: 2, options: [{ name: 'sub', type: 1, options: [{ name: 'q', type: 3, value: 'v' }] }] }],
      },
    };
    expect(readInteraction(raw)).toMatchObject({ kind: 'command', input: { subcommand: 'sub', options: { q: 'v' } } });
  });

  it('reads a user context-menu command with its target and the target username', () => {
    const raw = userCommandInteraction(USER, 'Rivals profile', OTHER);
    const call = readInteraction(raw);
    expect(call).toMatchObject({ kind: 'command', commandName: 'Rivals profile', input: { options: {}, targetUserId: OTHER } });
    const target = (raw.data.resolved.users as Record<string, { username: string }>)[OTHER]!;
    expect(call?.kind === 'command' && call.input.targetName).toBe(target.username);
  });

  it('reads a button press with the invoker of the message it is on', () => {
    const raw = componentInteraction(OTHER, USER, 'lb.p:1015:pc:2:n');
    expect(readInteraction(raw)).toMatchObject({ kind: 'component', customId: 'lb.p:1015:pc:2:n', values: [], invokerId: USER, user: { userId: OTHER } });
  });

  it('reads a string select with its values', () => {
    const raw = componentInteraction(USER, USER, 'hero.s:1011', ['lore']);
    expect(readInteraction(raw)).toMatchObject({ kind: 'component', customId: 'hero.s:1011', values: ['lore'], invokerId: USER });
  });

  it('reads the invoker from the deprecated message.interaction of an older message', () => {
    const raw = componentInteraction(OTHER, USER, 'lb.p:1015:pc:2:n');
    const message = raw.message as Record<string, unknown>;
    message.interaction = { id: '1', type: 2, name: 'leaderboard', user: (message.interaction_metadata as { user: unknown }).user };
    delete message.interaction_metadata;
    expect(readInteraction(raw)).toMatchObject({ kind: 'component', invokerId: USER });
  });

  it('reads a component on a message without interaction metadata as having no invoker', () => {
    const raw = componentInteraction(USER, USER, 'feed.x');
    delete (raw.message as Record<string, unknown>).interaction_metadata;
    expect(readInteraction(raw)).toMatchObject({ kind: 'component', invokerId: undefined });
  });

  it('reads autocomplete with the focused option, inside a subcommand too', () => {
    const raw = autocompleteInteraction(USER, 'hero', 'name', 'spid');
    expect(readInteraction(raw)).toMatchObject({
      kind: 'autocomplete',
      commandName: 'hero',
      input: { focused: { name: 'name', value: 'spid' }, options: { name: 'spid' } },
    });
    const nested = { ...raw, data: { ...raw.data, options: [{ name: 'sub', type: 1, options: [{ name: 'season', type: 4, value: '3', focused: true }] }] } };
    expect(readInteraction(nested)).toMatchObject({ kind: 'autocomplete', input: { subcommand: 'sub', focused: { name: 'season', value: '3' } } });
  });

  it('reads a DM interaction from `user`, with no guild and no permissions', () => {
    const base = interactionBase(USER);
    const { member, guild_id: _g, ...rest } = base;
    const raw = { ...rest, user: member.user, type: 2, data: { id: '1', name: 'maps', type: 1 } };
    expect(readInteraction(raw)).toMatchObject({ kind: 'command', user: { userId: USER, guildId: null, permissions: undefined } });
  });

  it('reads what the bot does not answer (PING, modals, other components) as "other"', () => {
    const base = interactionBase(USER);
    expect(readInteraction({ ...base, type: 1 })).toMatchObject({ kind: 'other', type: 1 });
    expect(readInteraction({ ...base, type: 5, data: { custom_id: 'm', components: [] } })).toMatchObject({ kind: 'other', type: 5 });
    expect(readInteraction({ ...base, type: 3, data: { custom_id: 'u', component_type: 5, values: ['1'] } })).toMatchObject({ kind: 'other', type: 3 });
  });

  it('drops option values of a shape no option has', () => {
    const raw = commandInteraction(USER, 'player');
    raw.data.options = [{ name: 'query', type: 3, value: { nested: true } as unknown as string }];
    expect(readInteraction(raw)).toMatchObject({ kind: 'command', input: { options: { query: undefined } } });
  });

  it('is undefined without an id, a token, an application id or a user', () => {
    const raw = commandInteraction(USER, 'maps');
    for (const field of ['id', 'token', 'application_id', 'member'] as const) {
      const copy: Record<string, unknown> = { ...raw };
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- removes one field from a copy of the payload
      delete copy[field];
      expect(readInteraction(copy)).toBeUndefined();
    }
    expect(readInteraction(null)).toBeUndefined();
    expect(readInteraction('INTERACTION_CREATE')).toBeUndefined();
  });

  it('never throws, whatever the payload (property)', () => {
    const base = commandInteraction(USER, 'player', { query: 'x' });
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), fc.anything(), (data, member, message, type) => {
        expect(() => readInteraction({ ...base, data, member, message, type })).not.toThrow();
        expect(() => readInteraction(data)).not.toThrow();
      }),
      { numRuns: 2_000 },
    );
  });
});
