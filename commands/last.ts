/**
 * `/last [player] [user]`: the player's most recent match (the newest row of their history: api-spec.md endpoints 17–19) as
 * its scoreboard (endpoint 20); from the history row alone when the API has no scoreboard for it or cannot give it now.
 * @throws {NotLinkedError} with nothing typed and no linked account; {@link NotFoundError} for no such player.
 */
import type { CommandContext, CommandInput, CommandModule } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { describe } from '../src/i18n/commands.js';
import { tr } from '../src/i18n/index.js';
import { matchView, newestRow, noScoreboard, rowView } from '../src/catalog/match-answer.js';
import { loadNamedProfile, playerChoices } from '../src/catalog/players.js';
import { escapeText } from '../src/render/limits.js';
import { encodeMatchOrigin } from '../src/render/match-origin.js';
import { lastAuthor, NEUTRAL_COLOUR } from '../src/render/scoreboard.js';
import type { View } from '../src/render/view.js';

/** The part of a command's context /last uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'heroes' | 'links' | 'logger' | 'maps' | 'matches' | 'now' | 'recent' | 'tracking'>;

async function lastMatch(input: CommandInput, ctx: Ctx): Promise<View> {
  const typed = typeof input.options.player === 'string' ? input.options.player : '';
  const whose = String(input.options.user ?? input.user.userId);
  const { fetched } = await loadNamedProfile(typed, whose, null, input.user.userId, ctx, 'last');
  const p = fetched.data;
  const row = await newestRow(p, ctx);
  if (!row) return { embeds: [{ color: NEUTRAL_COLOUR, author: lastAuthor(p), description: tr('match:last.none', { player: escapeText(p.name, 60) }) }] };
  try {
    const view = await matchView(
      encodeMatchOrigin({ matchUid: row.match_uid, mapId: row.map_id, modeId: row.game_mode_id, duration: row.duration, time: row.time, score: row.score }),
      ctx,
      true,
      {
        seenBy: input.user.userId,
      },
    );
    const [summary, ...teams] = view.embeds ?? [];
    return { ...view, embeds: summary ? [{ ...summary, author: lastAuthor(p) }, ...teams] : [] };
  } catch (err) {
    const reason = noScoreboard(err);
    if (!reason) throw err;
    ctx.logger.info({ err, matchUid: row.match_uid }, 'no scoreboard for the latest match: showing its history row');
    return rowView({ profile: p, row, author: lastAuthor(p) }, reason, ctx);
  }
}

export const last: CommandModule = {
  draws: true,
  apiOptions: { player: 'player', matchHistoryV1: 'player', matchHistoryV2: 'player' },
  definition: slashCommand('last')
    .addStringOption((o) => o.setName('player').setDescription(describe('last.options.player')).setMaxLength(100).setAutocomplete(true))
    .addUserOption((o) => o.setName('user').setDescription(describe('last.options.user')))
    .toJSON(),
  execute: lastMatch,
  async autocomplete(input, ctx: Ctx) {
    return playerChoices(input.user.userId, input.focused.value, ctx);
  },
};
