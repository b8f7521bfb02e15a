/** `/achievements [hero] [name]`: achievements, filtered by hero, or one with its mission. Data: api-spec.md endpoints 6 and 7. */
import type { AchievementSummary } from '../src/api/schemas.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { describe } from '../src/i18n/commands.js';
import { API_PAGE_SIZE, apiListView } from '../src/render/api-list.js';
import { staleFooter } from '../src/render/common.js';
import { integer, titleCase } from '../src/i18n/format.js';
import { tr } from '../src/i18n/index.js';
import { heroName } from '../src/i18n/names.js';
import { escapeText, LIMITS } from '../src/render/limits.js';
import { pageFromArgs } from '../src/render/paginate.js';
import { achievementChoices } from '../src/catalog/choices.js';

/** The part of a command's context /achievements uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'heroes'>;

const COLOUR = 0xf97316;

const definition = slashCommand('achievements')
  .addStringOption((o) => o.setName('hero').setDescription(describe('achievements.options.hero')).setAutocomplete(true))
  .addStringOption((o) => o.setName('name').setDescription(describe('achievements.options.name')).setMaxLength(100).setAutocomplete(true))
  .toJSON();

const line = (a: AchievementSummary) =>
  `**${escapeText(a.name ?? a.id, 80)}** · ${escapeText(titleCase(a.category ?? '—'), 40)} · ${tr('achievements:points', { count: a.points ?? 0, n: integer(a.points) })}`;

/** The list's title: "<hero> achievements" for a hero's (`heroName` in the game's spelling), "Achievements" for all. */
const listTitle = (hero: string | null) => (hero === null ? tr('achievements:title') : tr('achievements:heroTitle', { hero }));

/** A page of achievements; `hero` is a hero id or name, or "" for all. */
function achievementListView(hero: string, title: string, page: number, ctx: Ctx) {
  return apiListView({
    load: (p) => ctx.api.achievements({ query: hero || undefined, page: p, limit: API_PAGE_SIZE }),
    page,
    route: 'ach.p',
    args: [hero],
    embed: { color: COLOUR, title },
    line,
    empty: tr(hero ? 'achievements:emptyHero' : 'achievements:empty'),
  });
}

export const achievements: CommandModule = {
  apiOptions: { achievement: 'name', achievements: 'name' },
  definition,
  async execute(input, ctx: Ctx) {
    if (input.options.name !== undefined) {
      const fetched = await ctx.api.achievement(String(input.options.name));
      const a = fetched.data;
      return {
        embeds: [
          {
            color: COLOUR,
            author: { name: a.category ? titleCase(a.category) : tr('achievements:fallbackCategory') },
            title: escapeText(a.name, LIMITS.title),
            description: a.mission ? escapeText(a.mission, LIMITS.description) : tr('achievements:noMission'),
            thumbnail: a.icon ? { url: a.icon } : undefined,
            fields: [
              { name: tr('achievements:pointsField'), value: integer(a.points), inline: true },
              { name: tr('achievements:rarity'), value: escapeText(a.rarity ?? '—', 100), inline: true },
            ],
            footer: staleFooter(fetched),
          },
        ],
      };
    }
    if (input.options.hero !== undefined) {
      const hero = await ctx.heroes.resolve(String(input.options.hero));
      return achievementListView(hero.id, listTitle(heroName(hero.name) ?? hero.name), 1, ctx);
    }
    return achievementListView('', listTitle(null), 1, ctx);
  },
  components: {
    /** Paginator: `ach.p:<heroId or "">:<page>:<kind>`. */
    'ach.p': async (input, ctx: Ctx) => {
      const heroId = input.args[0] ?? '';
      const title = listTitle(heroId ? (heroName((await ctx.heroes.resolve(heroId)).name) ?? heroId) : null);
      return achievementListView(heroId, title, pageFromArgs(input.args), ctx);
    },
  },
  /** `hero`: heroes as typed; `name`: the achievements (of the hero chosen) named as typed, from the cached list, with their category. */
  async autocomplete(input, ctx: Ctx) {
    if (input.focused.name === 'name') {
      const hero = typeof input.options.hero === 'string' ? input.options.hero : undefined;
      return achievementChoices(input.focused.value, hero, ctx, (a) => (a.category ? `${a.name ?? a.id} · ${titleCase(a.category)}` : (a.name ?? a.id)));
    }
    return ctx.heroes.suggest(input.focused.value);
  },
};
