/** Every command module, in the order they are registered (STYLE.md: a static list, no directory scanning). */
import type { CommandModule } from '../src/discord/command.js';
import { achievements } from './achievements.js';
import { alerts } from './alerts.js';
import { battlepass } from './battlepass.js';
import { compare } from './compare.js';
import { config } from './config/index.js';
import { hero } from './hero.js';
import { items } from './items.js';
import { ladder } from './ladder.js';
import { leaderboard } from './leaderboard.js';
import { link, unlink } from './link.js';
import { maps } from './maps.js';
import { last } from './last.js';
import { match } from './match.js';
import { scout } from './scout.js';
import { meta } from './meta.js';
import { patchNotes } from './patch-notes.js';
import { player, rivalsProfile } from './player.js';
import { privacy } from './privacy.js';
import { session } from './session.js';
import { settings } from './settings.js';
import { status } from './status.js';

export const commands: CommandModule[] = [
  player,
  compare,
  hero,
  match,
  last,
  session,
  scout,
  leaderboard,
  ladder,
  meta,
  patchNotes,
  items,
  maps,
  achievements,
  battlepass,
  link,
  unlink,
  alerts,
  settings,
  privacy,
  status,
  rivalsProfile,
  config,
];
