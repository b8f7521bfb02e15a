/** `/maps`: every map once, grouped by location, via the map catalogue (api-spec.md endpoint 11). */
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { mapName, type MapInfo } from '../src/render/map-names.js';
import { modeName } from '../src/i18n/names.js';
import { staleFooter } from '../src/render/common.js';
import { tr } from '../src/i18n/index.js';
import { integer } from '../src/i18n/format.js';
import { escapeText } from '../src/render/limits.js';
import { clampPage, pageCount, pageFromArgs, pageRow } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';

/** The part of a command's context /maps uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'maps'>;

export const MAPS_PER_PAGE = 10;

const definition = slashCommand('maps').toJSON();

const title = (m: MapInfo) => `${escapeText(mapName(m), 100)}${m.subMap ? `: ${escapeText(m.subMap, 100)}` : ''}`;

/** One line a map; maps alike in name, sub-map, mode and competitive flag also get their id. */
function lines(maps: MapInfo[]): Map<MapInfo, string> {
  const key = (m: MapInfo) => `${title(m)}|${m.mode ?? ''}|${m.competitive}`;
  const seen = new Map<string, number>();
  for (const m of maps) seen.set(key(m), (seen.get(key(m)) ?? 0) + 1);
  return new Map(
    maps.map((m) => [
      m,
      [
        `**${title(m)}**`,
        m.mode ? escapeText(modeName(m.mode)!, 40) : tr('maps:unknownMode'),
        m.competitive ? tr('maps:competitive') : '',
        (seen.get(key(m)) ?? 0) > 1 ? tr('maps:mapId', { id: escapeText(m.id, 20) }) : '',
        m.video ? `[${tr('maps:video')}](${m.video.replace(/[()\s]/g, '')})` : '',
      ]
        .filter(Boolean)
        .join(' · '),
    ]),
  );
}

/** Page `page` of the map list: the page's maps under their location headings, the first map's image as thumbnail. */
async function mapListView(page: number, ctx: Ctx): Promise<View> {
  const catalogue = await ctx.maps.catalogue();
  const { maps } = catalogue;
  const pages = pageCount(maps.length, MAPS_PER_PAGE);
  const p = clampPage(page, pages);
  const shown = maps.slice((p - 1) * MAPS_PER_PAGE, p * MAPS_PER_PAGE);
  const text = lines(maps);
  const blocks: string[] = [];
  let location: string | null | undefined;
  for (const m of shown) {
    if (m.location !== location || blocks.length === 0) {
      location = m.location;
      blocks.push(`__${m.location ? escapeText(m.location, 100) : tr('maps:otherLocations')}__`);
    }
    blocks[blocks.length - 1]! += `\n${text.get(m)}`;
  }
  const image = shown.find((m) => m.image)?.image;
  const nav = pageRow('maps.p', [], p, pages);
  return {
    embeds: [
      {
        color: 0x10b981,
        title: tr('maps:title'),
        description: blocks.join('\n\n') || tr('maps:none'),
        thumbnail: image ? { url: image } : undefined,
        footer: staleFooter(catalogue) ?? { text: tr('maps:count', { count: maps.length, n: integer(maps.length) }) },
      },
    ],
    components: nav ? [nav] : [],
  };
}

export const maps: CommandModule = {
  definition,
  async execute(_input, ctx: Ctx) {
    return mapListView(1, ctx);
  },
  components: {
    /** Paginator: `maps.p:<page>:<kind>`. */
    'maps.p': async (input, ctx: Ctx) => mapListView(pageFromArgs(input.args), ctx),
  },
};
