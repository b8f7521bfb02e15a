/** {@link FeedTransport} over discord.js's REST client, whose queue keeps each route within Discord's rate limits. */
import type { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { type FeedTransport } from './delivery.js';
import { THREAD_ALREADY_CREATED } from '../core/discord-errors.js';

export function discordFeedTransport(rest: REST): FeedTransport {
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
