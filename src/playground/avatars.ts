/** Avatars drawn as SVG, a coloured disc with an initial like Discord's defaults, so the page loads nothing from the internet. */
import { BOT, PEOPLE, type GuildDirectory } from './guild.js';

/** Discord's brand red for the bot, and a neutral grey for an unknown id. */
const BOT_COLOUR = '#ed4245';
const UNKNOWN_COLOUR = '#80848e';

/** A 128×128 SVG avatar by id, of `guild`'s members and the bot; an unknown id gets a grey disc. */
export function avatarSvg(id: string, guild: GuildDirectory = PEOPLE): string {
  const member = guild.members.find((m) => m.id === id);
  const [colour, initial] = id === BOT.id ? [BOT_COLOUR, 'R'] : member ? [member.colour, member.name[0]!.toUpperCase()] : [UNKNOWN_COLOUR, '?'];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">` +
    `<circle cx="64" cy="64" r="64" fill="${colour}"/>` +
    `<text x="64" y="84" fill="#fff" font-family="sans-serif" font-size="60" font-weight="700" text-anchor="middle">${initial}</text></svg>`
  );
}
