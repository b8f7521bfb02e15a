/** {@link FeedTransport} over discord.js's REST client, whose queue keeps each route within Discord's rate limits. */
import type { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import type { FeedTransport } from './delivery.js';

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
  };
}
