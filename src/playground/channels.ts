/**
 * The playground's channels behind the bot's ports ({@link ChannelAccess}, {@link FeedTransport}), with Discord's behaviour for an
 * unknown channel (10003) and a repeated nonce with `enforce_nonce` (the message already created is returned).
 */
import { ChannelType } from 'discord-api-types/v10';
import type { ChannelAccess } from '../discord/command.js';
import type { FeedTransport } from '../feeds/delivery.js';
import { channelById, dmChannelOf, GUILD } from './guild.js';
import { DM_CHANNEL_PREFIX } from './protocol.js';
import type { MessageStore } from './messages.js';

/** Discord keeps nonces for a few minutes; here, the last this many. */
const NONCES_KEPT = 1_000;

/** Every channel exists and the bot may post everywhere. */
export function playgroundChannelAccess(): ChannelAccess {
  return {
    async check(guildId, channelId) {
      const channel = guildId === GUILD.id ? channelById(channelId) : undefined;
      return { exists: channel !== undefined, announcement: channel?.type === ChannelType.GuildAnnouncement, missing: [] };
    },
  };
}

/** As discord.js throws it (`code`, `status`). */
export class PlaygroundRestError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Feed messages posted as the bot's own. */
export function playgroundFeedTransport(messages: MessageStore): FeedTransport {
  const nonces = new Map<string, string>();
  return {
    async send(channelId, body) {
      if (!channelById(channelId) && !channelId.startsWith(DM_CHANNEL_PREFIX)) throw new PlaygroundRestError('Unknown Channel', 10003, 404);
      const existing = nonces.get(body.nonce);
      if (body.enforce_nonce && existing && messages.get(existing)) return { id: existing };
      const { nonce: _nonce, enforce_nonce: _enforce, ...payload } = body;
      const { id } = messages.create({ channelId, state: 'done', payload, ephemeral: false });
      nonces.set(body.nonce, id);
      if (nonces.size > NONCES_KEPT) nonces.delete(nonces.keys().next().value as string);
      return { id };
    },
    async crosspost(channelId, messageId) {
      const message = messages.get(messageId);
      if (!message || message.channelId !== channelId) throw new PlaygroundRestError('Unknown Message', 10008, 404);
      messages.update(messageId, { published: true });
    },
    async edit(channelId, messageId, body) {
      const message = messages.get(messageId);
      if (!message?.payload || message.channelId !== channelId) throw new PlaygroundRestError('Unknown Message', 10008, 404);
      // Discord: the fields given replace the message's; the others (the role ping) stay.
      messages.update(messageId, { payload: { ...message.payload, ...body }, editedAt: Date.now() });
    },
    async ownMessagesAfter(channelId, afterMs) {
      // Every message is the bot's; ephemeral ones are not in the channel. A nonce still kept is returned, as Discord does for recent messages.
      const nonceOf = new Map([...nonces].map(([nonce, id]) => [id, nonce]));
      return messages
        .list(channelId)
        .filter((m) => !m.ephemeral && m.payload && m.createdAt > afterMs)
        .slice(0, 100)
        .map((m) => ({ id: m.id, nonce: nonceOf.get(m.id) ?? null, content: m.payload!.content, embeds: m.payload!.embeds }));
    },
    async openDm(userId) {
      // The member's DM channel, which the page shows to that member (a DM alert lands beside their DM commands).
      return { id: dmChannelOf(userId) };
    },
    async startThread(channelId, messageId) {
      const message = messages.get(messageId);
      if (!message || message.channelId !== channelId) throw new PlaygroundRestError('Unknown Message', 10008, 404);
      // Discord: a thread started from a message has the message's id. The playground keeps its messages but does not draw threads.
      return { id: messageId };
    },
  };
}
