/**
 * `/achievements [hero] [name]`: achievements, filtered by hero, or one achievement with its mission.
 * Data: api-spec.md endpoints 6 and 7.
 */
import { SlashCommandBuilder } from '@discordjs/builders';
import type { AchievementSummary } from '../src/api/schemas.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { describe } from '../src/i18n/commands.js';
import { API_PAGE_SIZE, apiListView } from '../src/render/api-list.js';
import { staleFooter } from '../src/render/common.js';
import { integer, titleCase } from '../src/render/format.js';
import { heroName } from '../src/render/names.js';
import { escapeText, LIMITS } from '../src/render/limits.js';
import { pageFromArgs } from '../src/render/paginate.js';

const COLOUR = 0xf97316;

const definition = new SlashCommandBuilder()
  .setName('achievements')
  .setDescription(describe('achievements'))
  .addStringOption((o) => o.setName('hero').setDescription(describe('achievements.options.hero')).setAutocomplete(true))
  .addStringOption((o) => o.setName('name').setDescription(describe('achievements.options.name')).setMaxLength(100))
  .toJSON();

const line = (a: AchievementSummary) => `**${escapeText(a.name ?? a.id, 80)}** · ${escapeText(titleCase(a.category ?? '—'), 40)} · ${integer(a.points)} points`;

/** A page of achievements; `hero` is a hero id or name, or "" for all. */
function achievementListView(hero: string, title: string, page: number, ctx: CommandContext) {
  return apiListView({
    load: (p) => ctx.api.achievements({ query: hero || undefined, page: p, limit: API_PAGE_SIZE }),
    page,
    route: 'ach.p',
    args: [hero],
    embed: { color: COLOUR, title },
    line,
    empty: hero ? 'This hero has no achievements listed.' : 'No achievements.',
  });
}

export const achievements: CommandModule = {
  definition,
  async execute(input, ctx) {
    if (input.options.name !== undefined) {
      const fetched = await ctx.api.achievement(String(input.options.name));
      const a = fetched.data;
      return {
        embeds: [
          {
            color: COLOUR,
            author: { name: titleCase(a.category ?? 'Achievement') },
            title: escapeText(a.name, LIMITS.title),
            description: escapeText(a.mission ?? 'No mission listed.', LIMITS.description),
            thumbnail: a.icon ? { url: a.icon } : undefined,
            fields: [
              { name: 'Points', value: integer(a.points), inline: true },
              { name: 'Rarity', value: escapeText(a.rarity ?? '—', 100), inline: true },
            ],
            footer: staleFooter(fetched),
          },
        ],
      };
    }
    if (input.options.hero !== undefined) {
      const hero = await ctx.heroes.resolve(String(input.options.hero));
      return achievementListView(hero.id, `${heroName(hero.name) ?? hero.name} achievements`, 1, ctx);
    }
    return achievementListView('', 'Achievements', 1, ctx);
  },
  components: {
    /** Paginator: `ach.p:<heroId or "">:<page>:<kind>`. */
    'ach.p': async (input, ctx) => {
      const heroId = input.args[0] ?? '';
      const title = heroId ? `${heroName((await ctx.heroes.resolve(heroId)).name) ?? heroId} achievements` : 'Achievements';
      return achievementListView(heroId, title, pageFromArgs(input.args), ctx);
    },
  },
  async autocomplete(input, ctx) {
    return ctx.heroes.suggest(input.focused.value);
  },
};
