/** The "Rivals profile" user context-menu command: a member's linked profile, from their name. */
import { ContextMenuCommandBuilder } from '@discordjs/builders';
import { ApplicationCommandType } from 'discord-api-types/v10';
import type { CommandModule } from '../src/discord/command.js';
import { profileFor } from './player.js';

export const rivalsProfile: CommandModule = {
  definition: new ContextMenuCommandBuilder().setName('Rivals profile').setType(ApplicationCommandType.User).toJSON(),
  async execute(input, ctx) {
    return profileFor({ ...input, options: {} }, ctx);
  },
};
