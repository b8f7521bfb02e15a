/**
 * `/status`: whether the bot and the game API answer now, how fresh the bot's data is, the shard serving the server,
 * and where to report a problem. It answers within a second when the API is down: that is when members ask.
 */
import { readBotStatus } from '../src/catalog/bot-status.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { statusView } from '../src/render/status.js';

/** The part of a command's context /status uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'logger' | 'now'>;

const definition = slashCommand('status').toJSON();

export const status: CommandModule = {
  definition,
  async execute(input, ctx: Ctx) {
    return statusView(await readBotStatus(ctx, input.user.guildId ?? null));
  },
};
