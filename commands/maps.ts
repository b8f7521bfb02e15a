/** `/maps`: every map with its location and game mode. Data: api-spec.md endpoint 11. */
import { SlashCommandBuilder } from '@discordjs/builders';
import type { GameMap } from '../src/api/schemas.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { API_PAGE_SIZE, apiListView } from '../src/render/api-list.js';
import { escapeText } from '../src/render/limits.js';
import { pageFromArgs } from '../src/render/paginate.js';

const definition = new SlashCommandBuilder().setName('maps').setDescription('Every map, with its location and game mode').toJSON();

const line = (m: GameMap) =>
  `**${escapeText(m.full_name ?? m.name ?? `Map ${m.id}`, 100)}** · ${escapeText(m.game_mode ?? 'Unknown mode', 40)}${m.is_competitive ? ' · competitive' : ''}${m.video ? ` · [video](${m.video.replace(/[()]/g, '')})` : ''}`;

function mapListView(page: number, ctx: CommandContext) {
  return apiListView({
    load: (p) => ctx.api.maps({ page: p, limit: API_PAGE_SIZE }),
    page,
    route: 'maps.p',
    args: [],
    embed: { color: 0x10b981, title: 'Maps' },
    line,
    empty: 'No maps.',
  });
}

export const maps: CommandModule = {
  definition,
  async execute(_input, ctx) {
    return mapListView(1, ctx);
  },
  components: {
    /** Paginator: `maps.p:<page>:<kind>`. */
    'maps.p': async (input, ctx) => mapListView(pageFromArgs(input.args), ctx),
  },
};
