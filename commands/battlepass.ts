/** `/battlepass [season]`: a season's battle pass rewards, paged. Data: api-spec.md endpoint 8. */
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { describe } from '../src/i18n/commands.js';
import { staleFooter } from '../src/render/common.js';
import { tr } from '../src/i18n/index.js';
import { escapeText } from '../src/render/limits.js';
import { clampPage, pageCount, pageFromArgs, pageRow } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';

/** The part of a command's context /battlepass uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api'>;

const PER_PAGE = 10;

const definition = slashCommand('battlepass')
  .addNumberOption((o) => o.setName('season').setDescription(describe('battlepass.options.season')).setMinValue(0.5).setMaxValue(99))
  .toJSON();

/** A page of a season's battle pass; `season` "" for the API's default. */
async function battlePassView(season: string, page: number, ctx: Ctx): Promise<View> {
  const fetched = await ctx.api.battlePass({ season: season || undefined });
  const bp = fetched.data;
  const pages = pageCount(bp.items.length, PER_PAGE);
  const p = clampPage(page, pages);
  const lines = bp.items
    .slice((p - 1) * PER_PAGE, p * PER_PAGE)
    .map((i) => `${i.is_luxury ? '💎' : '▫️'} **${i.name ? escapeText(i.name, 100) : tr('battlepass:fallbackReward')}** · ${escapeText(i.cost ?? '—', 100)}`);
  const nav = pageRow('bp.p', [season], p, pages);
  return {
    embeds: [
      {
        color: 0xa855f7,
        author: { name: tr('battlepass:author', { season: bp.season ?? (season || '1.5') }) },
        title: bp.season_name ? escapeText(bp.season_name, 200) : tr('battlepass:title'),
        description: lines.join('\n') || tr('battlepass:none'),
        thumbnail: bp.items[(p - 1) * PER_PAGE]?.image ? { url: bp.items[(p - 1) * PER_PAGE]!.image! } : undefined,
        footer: staleFooter(fetched) ?? { text: tr('battlepass:luxury') },
      },
    ],
    components: nav ? [nav] : [],
  };
}

export const battlepass: CommandModule = {
  apiOptions: { season: 'season' },
  definition,
  async execute(input, ctx: Ctx) {
    return battlePassView(input.options.season === undefined ? '' : String(input.options.season), 1, ctx);
  },
  components: {
    /** Paginator: `bp.p:<season or "">:<page>:<kind>`. */
    'bp.p': async (input, ctx: Ctx) => battlePassView(input.args[0] ?? '', pageFromArgs(input.args), ctx),
  },
};
