/**
 * `/items [type] [name]`: cosmetic items (emotes, MVP animations, nameplates, sprays), filtered by
 * type, or one item by id or name. Data: api-spec.md endpoints 9 and 10.
 */
import { SlashCommandBuilder } from '@discordjs/builders';
import { ITEM_TYPES, type ItemType } from '../src/api/endpoints.js';
import type { Item } from '../src/api/schemas.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { choiceName, describe } from '../src/i18n/commands.js';
import { API_PAGE_SIZE, apiListView } from '../src/render/api-list.js';
import { staleFooter } from '../src/render/common.js';
import { tr } from '../src/i18n/index.js';
import { heroName } from '../src/render/names.js';
import { escapeText, LIMITS } from '../src/render/limits.js';
import { pageFromArgs } from '../src/render/paginate.js';

const COLOUR = 0xeab308;

const definition = new SlashCommandBuilder()
  .setName('items')
  .setDescription(describe('items'))
  .addStringOption((o) => o.setName('type').setDescription(describe('items.options.type')).addChoices(...ITEM_TYPES.map((t) => ({ name: choiceName('items.options.type', t), value: t }))))
  .addStringOption((o) => o.setName('name').setDescription(describe('items.options.name')).setMaxLength(100))
  .toJSON();

const typeOf = (v: unknown): ItemType | undefined => ((ITEM_TYPES as readonly string[]).includes(String(v)) ? (v as ItemType) : undefined);
/**
 * An item's type as shown: a type the API filters by (Emote, MVP, Nameplate, Spray, in any case) by its
 * name in the current locale (`catalog:items.type`, singular: "Spray"), any other as the API gives it;
 * the fallback when it gives none.
 */
function typeName(raw: string | null | undefined): string {
  const text = raw?.trim();
  if (!text) return tr('catalog:items.fallbackType');
  const known = typeOf(text.toLowerCase());
  return known ? tr(`catalog:items.type.${known}`) : text;
}

const line = (i: Item) => `**${escapeText(i.name ?? i.id, 80)}** · ${escapeText(typeName(i.type), 30)}${i.quality ? ` · ${escapeText(i.quality, 20)}` : ''}${i.associated_hero ? ` · ${escapeText(heroName(i.associated_hero) ?? i.associated_hero, 40)}` : ''}`;

/** A page of the item list, of one type or all. */
function itemListView(type: ItemType | undefined, page: number, ctx: CommandContext) {
  return apiListView({
    load: (p) => ctx.api.items({ type, page: p, limit: API_PAGE_SIZE }),
    page,
    route: 'items.p',
    args: [type ?? 'all'],
    embed: { color: COLOUR, title: tr(type ? `catalog:items.types.${type}` : 'catalog:items.title') },
    line,
    empty: tr('catalog:items.empty'),
  });
}

export const items: CommandModule = {
  definition,
  async execute(input, ctx) {
    if (input.options.name !== undefined) {
      const fetched = await ctx.api.item(String(input.options.name));
      const i = fetched.data;
      return {
        embeds: [
          {
            color: COLOUR,
            author: { name: typeName(i.type) },
            title: escapeText(i.name ?? i.id, LIMITS.title),
            description: i.description ? escapeText(i.description, LIMITS.description) : tr('catalog:items.noDescription'),
            thumbnail: i.icon ? { url: i.icon } : undefined,
            fields: [
              { name: tr('catalog:items.quality'), value: escapeText(i.quality ?? '—', 100), inline: true },
              { name: tr('catalog:items.hero'), value: i.associated_hero ? escapeText(heroName(i.associated_hero) ?? i.associated_hero, 100) : '—', inline: true },
              { name: tr('catalog:items.id'), value: escapeText(i.id, 100), inline: true },
            ],
            footer: staleFooter(fetched),
          },
        ],
      };
    }
    return itemListView(typeOf(input.options.type), 1, ctx);
  },
  components: {
    /** Paginator: `items.p:<type|all>:<page>:<kind>`. */
    'items.p': async (input, ctx) => itemListView(typeOf(input.args[0]), pageFromArgs(input.args), ctx),
  },
};
