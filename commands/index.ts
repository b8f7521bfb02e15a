/** Every command module, in the order they are registered (STYLE.md: a static list, no directory scanning). */
import type { CommandModule } from '../src/discord/command.js';
import { hero } from './hero.js';

export const commands: CommandModule[] = [hero];
