/** `/items [type] [name]`: cosmetic items, filtered by type, or one by id or name. Data: api-spec.md endpoints 9 and 10. */
import { ITEM_TYPES, type ItemType } from '../src/api/endpoints.js';
import type { Item } from '../src/api/schemas.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { choiceName, describe } from '../src/i18n/commands.js';
import { API_PAGE_SIZE, apiListView } from '../src/render/api-list.js';
import { staleFooter } from '../src/render/common.js';
import { tr } from '../src/i18n/index.js';
import { heroName } from '../src/i18n/names.js';
import { escapeText, LIMITS } from '../src/render/limits.js';
import { pageFromArgs } from '../src/render/paginate.js';
import { titleCase } from '../src/i18n/format.js';
import { itemChoices } from '../src/catalog/choices.js';

/** The part of a command's context /items uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api'>;

const COLOUR = 0xeab308;

const definition = slashCommand('items')
  .addStringOption((o) =>
    o
      .setName('type')
      .setDescription(describe('items.options.type'))
      .addChoices(...ITEM_TYPES.map((t) => ({ name: choiceName('items.options.type', t), value: t }))),
  )
  .addStringOption((o) => o.setName('name').setDescription(describe('items.options.name')).setMaxLength(100).setAutocomplete(true))
  .toJSON();

const typeOf = (v: unknown): ItemType | undefined => ((ITEM_TYPES as readonly string[]).includes(String(v)) ? (v as ItemType) : undefined);
/** A type the API filters by, in the current locale; any other as the API gives it. */
function typeName(raw: string | null | undefined): string {
  const text = raw?.trim();
  if (!text) return tr('items:fallbackType');
  const known = typeOf(text.toLowerCase());
  return known ? tr(`items:type.${known}`) : text;
}

/** The game's rarity tiers of cosmetics (`items:rarities.<tier>`). */
type RarityTier = 'uncommon' | 'rare' | 'epic' | 'legendary';

/**
 * The API's item `quality` values by tier, letters only, lower-case: its colour codes (the spec's example is BLUE) and the tier
 * words, should it send those. The game frames Uncommon green, Rare blue, Epic purple, Legendary gold.
 */
const RARITY_BY_CODE: Record<string, RarityTier> = {
  green: 'uncommon',
  uncommon: 'uncommon',
  blue: 'rare',
  rare: 'rare',
  purple: 'epic',
  violet: 'epic',
  epic: 'epic',
  gold: 'legendary',
  golden: 'legendary',
  orange: 'legendary',
  yellow: 'legendary',
  legendary: 'legendary',
};

/**
 * An item's rarity (api-spec.md Item `quality`) as the game names it, in the current locale: a colour code or tier word in any case,
 * `QUALITY_` prefix or not, by its tier; another value title-cased ("ULTRA_RARE" → "Ultra Rare"); null for none or NO_QUALITY.
 */
export function rarityName(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const code = text
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .replace(/^quality(?=.)/, '');
  if (code === 'noquality' || code === 'none' || code === '') return null;
  const tier = Object.hasOwn(RARITY_BY_CODE, code) ? RARITY_BY_CODE[code] : undefined;
  return tier ? tr(`items:rarities.${tier}`) : titleCase(text.toLowerCase().replace(/_+/g, ' ').trim());
}

const line = (i: Item) => {
  const rarity = rarityName(i.quality);
  return `**${escapeText(i.name ?? i.id, 80)}** · ${escapeText(typeName(i.type), 30)}${rarity ? ` · ${escapeText(rarity, 30)}` : ''}${i.associated_hero ? ` · ${escapeText(heroName(i.associated_hero) ?? i.associated_hero, 40)}` : ''}`;
};

/** A page of the item list, of one type or all. */
function itemListView(type: ItemType | undefined, page: number, ctx: Ctx) {
  return apiListView({
    load: (p) => ctx.api.items({ type, page: p, limit: API_PAGE_SIZE }),
    page,
    route: 'items.p',
    args: [type ?? 'all'],
    embed: { color: COLOUR, title: tr(type ? `items:types.${type}` : 'items:title') },
    line,
    empty: tr('items:empty'),
  });
}

export const items: CommandModule = {
  apiOptions: { type: 'type', item: 'name' },
  definition,
  async execute(input, ctx: Ctx) {
    if (input.options.name !== undefined) {
      const fetched = await ctx.api.item(String(input.options.name));
      const i = fetched.data;
      return {
        embeds: [
          {
            color: COLOUR,
            author: { name: typeName(i.type) },
            title: escapeText(i.name ?? i.id, LIMITS.title),
            description: i.description ? escapeText(i.description, LIMITS.description) : tr('items:noDescription'),
            thumbnail: i.icon ? { url: i.icon } : undefined,
            fields: [
              { name: tr('items:quality'), value: escapeText(rarityName(i.quality) ?? '—', 100), inline: true },
              {
                name: tr('items:hero'),
                value: i.associated_hero ? escapeText(heroName(i.associated_hero) ?? i.associated_hero, 100) : '—',
                inline: true,
              },
              { name: tr('items:id'), value: escapeText(i.id, 100), inline: true },
            ],
            footer: staleFooter(fetched),
          },
        ],
      };
    }
    return itemListView(typeOf(input.options.type), 1, ctx);
  },
  /** `name`: the items of the type chosen (all without one) named as typed, from the cached list; "Name · Type". */
  async autocomplete(input, ctx: Ctx) {
    if (input.focused.name !== 'name') return [];
    return itemChoices(input.focused.value, typeOf(input.options.type), ctx.api, (i) => `${i.name ?? i.id} · ${typeName(i.type)}`);
  },
  components: {
    /** Paginator: `items.p:<type|all>:<page>:<kind>`. */
    'items.p': async (input, ctx: Ctx) => itemListView(typeOf(input.args[0]), pageFromArgs(input.args), ctx),
  },
};
