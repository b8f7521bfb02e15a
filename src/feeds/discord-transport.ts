/** {@link FeedTransport} over discord.js's REST client, whose queue keeps each route within Discord's rate limits. */
import type { REST } from '@discordjs/rest';
import { Routes, type APIMessage } from 'discord-api-types/v10';
import { type FeedTransport } from './delivery.js';
import { THREAD_ALREADY_CREATED } from '../core/discord-errors.js';
import { DISCORD_EPOCH_MS } from '../core/deadline.js';

/** The lowest snowflake minted at `ms` (ms since the Unix epoch): `after` it, the messages created from then on. */
const snowflakeAt = (ms: number): string => String(BigInt(Math.max(0, Math.floor(ms) - DISCORD_EPOCH_MS)) << 22n);

/** `botId` is the bot's user id once logged in: the messages it reads back are its own. */
export function discordFeedTransport(rest: REST, botId: () => string | undefined): FeedTransport {
  return {
    async send(channelId, body) {
      return (await rest.post(Routes.channelMessages(channelId), { body })) as { id: string };
    },
    async crosspost(channelId, messageId) {
      await rest.post(Routes.channelMessageCrosspost(channelId, messageId));
    },
    async edit(channelId, messageId, body) {
      await rest.patch(Routes.channelMessage(channelId, messageId), { body });
    },
    async ownMessagesAfter(channelId, afterMs) {
      const self = botId();
      if (!self) throw new Error('reading a channel back needs the bot to be logged in');
      const query = new URLSearchParams({ after: snowflakeAt(afterMs), limit: '100' });
      const messages = (await rest.get(Routes.channelMessages(channelId), { query })) as APIMessage[];
      return messages
        .filter((m) => m.author.id === self)
        .map((m) => ({ id: m.id, nonce: m.nonce ?? null, content: m.content, embeds: m.embeds.map((e) => ({ title: e.title, description: e.description })) }));
    },
    async openDm(userId) {
      return (await rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as { id: string };
    },
    async startThread(channelId, messageId, name) {
      try {
        return (await rest.post(Routes.threads(channelId, messageId), { body: { name, auto_archive_duration: 10080 } })) as { id: string };
      } catch (err) {
        // A retry after a crash: the thread exists, and a thread started from a message has the message's id.
        if ((err as { code?: unknown }).code === THREAD_ALREADY_CREATED) return { id: messageId };
        throw err;
      }
    },
  };
}
