/**
 * `/status`: whether the bot and the game API answer now, how fresh the bot's data is, the shard serving the server,
 * and where to report a problem. It answers within a second when the API is down: that is when members ask.
 */
import { SlashCommandBuilder } from '@discordjs/builders';
import { readBotStatus } from '../src/catalog/bot-status.js';
import type { CommandModule } from '../src/discord/command.js';
import { EVERYWHERE } from '../src/discord/command.js';
import { describe } from '../src/i18n/commands.js';
import { statusView } from '../src/render/status.js';

const definition = new SlashCommandBuilder()
  .setName('status')
  .setDescription(describe('status'))
  .setIntegrationTypes(...EVERYWHERE.integrationTypes)
  .setContexts(...EVERYWHERE.contexts)
  .toJSON();

export const status: CommandModule = {
  definition,
  async execute(input, ctx) {
    return statusView(await readBotStatus(ctx, input.user.guildId ?? null));
  },
};
