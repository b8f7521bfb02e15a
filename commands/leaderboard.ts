/** `/leaderboard hero:<hero> [platform]`: a hero's ranked players, ten a page. Data: api-spec.md endpoint 5. */
import type { APIEmbed } from 'discord-api-types/v10';
import { isPlatform, PLATFORM_NAMES, PLATFORMS, type Platform } from '../src/api/endpoints.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { settingsServer, slashCommand } from '../src/discord/command.js';
import { choiceName, describe } from '../src/i18n/commands.js';
import { roleColour, staleFooter } from '../src/render/common.js';
import { tr } from '../src/i18n/index.js';
import { integer, kdaRatio, percent, shortDate } from '../src/i18n/format.js';
import { heroName } from '../src/i18n/names.js';
import { rankScore } from '../src/game/ranks.js';
import { escapeText } from '../src/render/limits.js';
import { clampPage, pageCount, pageFromArgs, pageRow } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';

/** The part of a command's context /leaderboard uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'heroes' | 'links' | 'logger' | 'recent' | 'settings'>;

const PER_PAGE = 10;

const definition = slashCommand('leaderboard')
  .addStringOption((o) => o.setName('hero').setDescription(describe('leaderboard.options.hero')).setRequired(true).setAutocomplete(true))
  .addStringOption((o) =>
    o
      .setName('platform')
      .setDescription(describe('leaderboard.options.platform'))
      .addChoices(...PLATFORMS.map((p) => ({ name: choiceName('leaderboard.options.platform', p), value: p }))),
  )
  .toJSON();

export async function leaderboardView(heroQuery: string, platform: Platform, page: number, ctx: Ctx): Promise<View> {
  const hero = await ctx.heroes.resolve(heroQuery);
  const fetched = await ctx.api.heroLeaderboard(hero.id, { platform });
  const players = fetched.data.players;
  // Names the bot has seen: a member may look one of them up, misspelt.
  ctx.recent.remember(players.flatMap((e) => (e.name ? [{ uid: String(e.player_uid), name: e.name }] : [])));
  const pages = pageCount(players.length, PER_PAGE);
  const p = clampPage(page, pages);
  const lines = players.slice((p - 1) * PER_PAGE, p * PER_PAGE).map((e, i) => {
    const rank = (p - 1) * PER_PAGE + i + 1;
    const score =
      e.rank?.rank_score === null || e.rank?.rank_score === undefined ? '' : ` · ${tr('leaderboard:points', { score: rankScore(e.rank.rank_score) })}`;
    const record = tr('leaderboard:record', {
      count: e.matches,
      n: integer(e.matches),
      winRate: percent(e.win_rate),
      kda: kdaRatio(e.kills, e.deaths, e.assists),
      mvps: integer(e.mvps),
    });
    return `**${rank}. ${escapeText(e.name ?? e.player_uid, 60)}**${score}\n${record}`;
  });
  const updated = players.reduce<number | null>((m, e) => (e.rank?.update_time && (m === null || e.rank.update_time > m) ? e.rank.update_time : m), null);
  const embed: APIEmbed = {
    color: roleColour(hero.role),
    // The hero's icon beside the author line, not as a thumbnail: a thumbnail narrows every line below it on a phone.
    author: { name: tr('leaderboard:author', { platform: PLATFORM_NAMES[platform] }), icon_url: hero.transformations[0]?.icon ?? undefined },
    title: heroName(hero.name) ?? hero.name,
    description: lines.join('\n') || tr('leaderboard:empty'),
    footer: staleFooter(fetched) ?? (updated ? { text: tr('leaderboard:asOf', { date: shortDate(updated) }) } : undefined),
  };
  const nav = pageRow('lb.p', [hero.id, platform], p, pages);
  return { embeds: [embed], components: nav ? [nav] : [] };
}

const platformOf = (v: unknown): Platform => (isPlatform(v) ? v : 'pc');

export const leaderboard: CommandModule = {
  apiOptions: { platform: 'platform', heroLeaderboard: 'hero' },
  definition,
  async execute(input, ctx: Ctx) {
    // No platform chosen: the default of the server that installed the bot (/config platform); elsewhere (a DM, the
    // member's own install) the member's own (/settings platform); else PC. PC too when the store does not answer,
    // since the leaderboard itself needs no state (the embed names the platform).
    const server = settingsServer(input.user);
    const platform =
      input.options.platform !== undefined
        ? platformOf(input.options.platform)
        : await (server ? ctx.settings.get(server).then((s) => s.leaderboardPlatform) : ctx.links.platformOf(input.user.userId).then((p) => p ?? 'pc')).catch(
            (err: unknown) => {
              ctx.logger.warn({ err }, 'settings unavailable: /leaderboard shows PC');
              return 'pc' as const;
            },
          );
    return leaderboardView(String(input.options.hero ?? ''), platform, 1, ctx);
  },
  components: {
    /** Paginator: `lb.p:<heroId>:<platform>:<page>:<kind>`. */
    'lb.p': async (input, ctx: Ctx) => leaderboardView(input.args[0] ?? '', platformOf(input.args[1]), pageFromArgs(input.args), ctx),
  },
  async autocomplete(input, ctx: Ctx) {
    return ctx.heroes.suggest(input.focused.value);
  },
};
