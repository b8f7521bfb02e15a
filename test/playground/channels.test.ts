import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/core/discord-errors.js';
import { playgroundChannelAccess, playgroundFeedTransport } from '../../src/playground/channels.js';
import { CHANNELS, GUILD } from '../../src/playground/guild.js';
import { MessageStore } from '../../src/playground/messages.js';
import { toMessagePayload } from '../../src/render/view.js';

const [GENERAL, PATCH_NOTES] = CHANNELS as [(typeof CHANNELS)[number], (typeof CHANNELS)[number]];
const body = (nonce: string) => ({ ...toMessagePayload({ content: 'New patch notes' }), nonce, enforce_nonce: true as const });

describe('the playground channels as the feed ports see them', () => {
  it('posts once per nonce, as Discord does with enforce_nonce', async () => {
    const messages = new MessageStore();
    const transport = playgroundFeedTransport(messages);
    const first = await transport.send(PATCH_NOTES.id, body('a'));
    const again = await transport.send(PATCH_NOTES.id, body('a'));
    await transport.send(PATCH_NOTES.id, body('b'));
    expect(again).toEqual(first);
    expect(messages.list(PATCH_NOTES.id).map((m) => m.payload!.content)).toEqual(['New patch notes', 'New patch notes']);
    expect(messages.list(PATCH_NOTES.id)[0]).not.toHaveProperty('payload.nonce');
  });

  it('reads back the bot’s messages created after a time, with their nonce, ephemeral answers left out', async () => {
    const clock = { t: 1_800_000_000_000 };
    const messages = new MessageStore(() => clock.t);
    const transport = playgroundFeedTransport(messages);
    await transport.send(PATCH_NOTES.id, body('old'));
    clock.t += 1_000;
    const { id } = await transport.send(PATCH_NOTES.id, body('new'));
    messages.create({ channelId: PATCH_NOTES.id, state: 'done', payload: toMessagePayload({ content: 'Only you' }), ephemeral: true, visibleTo: '1' });
    expect(await transport.ownMessagesAfter(PATCH_NOTES.id, clock.t - 500)).toEqual([{ id, nonce: 'new', content: 'New patch notes', embeds: [] }]);
    expect(await transport.ownMessagesAfter(GENERAL.id, 0)).toEqual([]);
  });

  it('answers an unknown channel as Discord does, so the subscription is marked broken', async () => {
    const err = await playgroundFeedTransport(new MessageStore())
      .send('999', body('c'))
      .catch((e: unknown) => e);
    expect(classifyError(err)).toMatchObject({ kind: 'broken', code: 10003 });
  });

  it('publishes in announcement channels and says which channels are announcement channels', async () => {
    const messages = new MessageStore();
    const transport = playgroundFeedTransport(messages);
    const { id } = await transport.send(PATCH_NOTES.id, body('d'));
    await transport.crosspost(PATCH_NOTES.id, id);
    expect(messages.get(id)!.published).toBe(true);
    const access = playgroundChannelAccess();
    expect(await access.check(GUILD.id, PATCH_NOTES.id)).toEqual({ exists: true, announcement: true, missing: [] });
    expect(await access.check(GUILD.id, GENERAL.id)).toEqual({ exists: true, announcement: false, missing: [] });
    expect(await access.check('1', GENERAL.id)).toMatchObject({ exists: false });
  });
});
