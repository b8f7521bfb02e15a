/**
 * `/ladder`: a server's own ladder of its members, by the rank score of the account each proved is theirs
 * (src/store/ladder/; standings from the tracker, src/jobs/tracker.ts), and a member's place on it.
 */
import type { APIEmbed } from 'discord-api-types/v10';
import { isPlatform, PLATFORM_NAMES, PLATFORMS, type Platform } from '../src/api/endpoints.js';
import { UserFacingError } from '../src/core/errors.js';
import type { CommandContext, CommandModule, Invoker } from '../src/discord/command.js';
import { SERVER_ONLY, slashCommand } from '../src/discord/command.js';
import { LADDER_PAGE_SIZE, LADDER_PERIODS, LADDER_ROLES, LEFT_OUT_REASONS, type LadderPeriod } from '../src/game/ladder.js';
import { rankScore, rankScoreChange, scoreChangeArrow } from '../src/game/ranks.js';
import { choiceName, describe } from '../src/i18n/commands.js';
import { integer, ratioPercent, winLoss } from '../src/i18n/format.js';
import { currentLocale, tr } from '../src/i18n/index.js';
import { roleName, tierName } from '../src/i18n/names.js';
import { listOf } from '../src/render/common.js';
import { DEFAULT_MIN_TOGETHER, duosOf, type WinLoss } from '../src/game/duos.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { emojiBefore } from '../src/render/emojis.js';
import { clampPage, pageCount, pageFromArgs, pageRow } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';
import { chartOf, withChart } from '../src/render/view-charts.js';
import { LADDER_CARD_ROWS, LADDER_CHART_PLAYERS, type LadderCard } from '../src/charts/specs.js';
import type { LadderPage, LadderRow } from '../src/store/ladder/index.js';

/** The part of a command's context /ladder uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'charts' | 'ladder' | 'links' | 'now' | 'tracking' | 'serverMatches'>;

const COLOUR = 0xf59e0b;
const privately = (description: string): View => ({ ephemeral: true, embeds: [{ color: COLOUR, description }] });

const platformOf = (v: unknown): Platform | null => (isPlatform(v) ? v : null);
const roleOf = (v: unknown): (typeof LADDER_ROLES)[number] | null => LADDER_ROLES.find((r) => r.toLowerCase() === String(v).toLowerCase()) ?? null;
const periodOf = (v: unknown): LadderPeriod => LADDER_PERIODS.find((p) => p === v) ?? 'season';

/** The ladder's store and the server. @throws {UserFacingError} outside a server, or when this run keeps no store. */
function ladderOf(user: Invoker, ctx: Ctx) {
  if (!user.guildId) throw new UserFacingError(tr('ladder:guildOnly'));
  if (!ctx.ladder) throw new UserFacingError(tr('ladder:unavailable'));
  return { guildId: user.guildId, store: ctx.ladder };
}

/** Duos a page: one line each, well within an embed's description. */
const DUOS_PER_PAGE = 10;
/** Rivalries shown beside the duos: the most played. */
const RIVALS_SHOWN = 5;
const MAX_MIN_TOGETHER = 100;

const definition = slashCommand('ladder', SERVER_ONLY)
  .addSubcommand((s) =>
    s
      .setName('show')
      .setDescription(describe('ladder.subcommands.show'))
      .addStringOption((o) =>
        o
          .setName('role')
          .setDescription(describe('ladder.subcommands.show.options.role'))
          .addChoices(...LADDER_ROLES.map((r) => ({ name: choiceName('ladder.subcommands.show.options.role', r.toLowerCase()), value: r.toLowerCase() }))),
      )
      .addStringOption((o) =>
        o
          .setName('period')
          .setDescription(describe('ladder.subcommands.show.options.period'))
          .addChoices(...LADDER_PERIODS.map((p) => ({ name: choiceName('ladder.subcommands.show.options.period', p), value: p }))),
      )
      .addStringOption((o) =>
        o
          .setName('platform')
          .setDescription(describe('ladder.subcommands.show.options.platform'))
          .addChoices(...PLATFORMS.map((p) => ({ name: choiceName('ladder.subcommands.show.options.platform', p), value: p }))),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('join')
      .setDescription(describe('ladder.subcommands.join'))
      .addStringOption((o) => o.setName('account').setDescription(describe('ladder.subcommands.join.options.account')).setAutocomplete(true).setMaxLength(100))
      .addStringOption((o) =>
        o
          .setName('platform')
          .setDescription(describe('ladder.subcommands.join.options.platform'))
          .addChoices(...PLATFORMS.map((p) => ({ name: choiceName('ladder.subcommands.join.options.platform', p), value: p }))),
      )
      .addBooleanOption((o) => o.setName('mentions').setDescription(describe('ladder.subcommands.join.options.mentions'))),
  )
  .addSubcommand((s) => s.setName('leave').setDescription(describe('ladder.subcommands.leave')))
  .addSubcommand((s) =>
    s
      .setName('duos')
      .setDescription(describe('ladder.subcommands.duos'))
      .addIntegerOption((o) => o.setName('min').setDescription(describe('ladder.subcommands.duos.options.min')).setMinValue(1).setMaxValue(MAX_MIN_TOGETHER)),
  )
  .toJSON();

/** A whole number of matches from 1 to {@link MAX_MIN_TOGETHER}; the default for anything else. */
const minOf = (v: unknown): number => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 && n <= MAX_MIN_TOGETHER ? n : DEFAULT_MIN_TOGETHER;
};

/**
 * Page `page` of the server's duos over every recorded match (src/game/duos.ts): members of its ladder who played on one team at least
 * `min` times, with their record together, its 95 % range and each one's rate apart; the most played rivalries beside them.
 */
async function duosView(user: Invoker, min: number, page: number, ctx: Ctx): Promise<View> {
  const { guildId, store } = ladderOf(user, ctx);
  if (!ctx.serverMatches) throw new UserFacingError(tr('ladder:unavailable'));
  if (!(await store.enabled(guildId))) return privately(tr('ladder:off'));
  const counted = ctx.serverMatches;
  const [members, pairs, totals] = await Promise.all([counted.members(guildId), counted.pairCounts(guildId), counted.resultCounts(guildId)]);
  if (totals.length === 0) return privately(tr('ladder:duos.noMatches'));
  const { duos, rivals } = duosOf(pairs, totals, min);
  const byUid = new Map(members.map((m) => [m.uid, m]));
  const who = (uid: string) => {
    const m = byUid.get(uid);
    return m ? `<@${m.userId}> ${escapeText(m.name ?? uid, 40)}` : escapeText(uid, 40);
  };
  const rate = (r: WinLoss) =>
    r.matches === 0 ? tr('ladder:duos.apartNone') : tr('ladder:duos.apart', { count: r.matches, n: integer(r.matches), rate: ratioPercent(r.winRate) });
  const pages = pageCount(duos.length, DUOS_PER_PAGE);
  const at = clampPage(page, pages);
  const first = (at - 1) * DUOS_PER_PAGE;
  const shown = duos.slice(first, first + DUOS_PER_PAGE);
  const lines = shown.map((d, i) =>
    tr('ladder:duos.line', {
      position: integer(first + i + 1),
      a: who(d.a),
      b: who(d.b),
      record: winLoss(d.together),
      rate: ratioPercent(d.together.winRate),
      low: ratioPercent(d.interval?.low),
      high: ratioPercent(d.interval?.high),
      aRate: rate(d.aApart),
      bRate: rate(d.bApart),
    }),
  );
  const how = tr('ladder:duos.how', { count: min, min: integer(min) });
  const embed: APIEmbed = {
    color: COLOUR,
    title: tr('ladder:duos.title'),
    description: truncate(
      [how, '', ...(lines.length > 0 ? lines : [tr('ladder:duos.none', { count: min, min: integer(min) })])].join('\n'),
      LIMITS.description,
    ),
    ...(rivals.length > 0
      ? {
          fields: [
            {
              name: tr('ladder:duos.rivals'),
              value: truncate(
                rivals
                  .slice(0, RIVALS_SHOWN)
                  .map((r) => tr('ladder:duos.rival', { a: who(r.a), b: who(r.b), aWins: integer(r.aWins), bWins: integer(r.bWins) }))
                  .join('\n'),
                LIMITS.fieldValue,
              ),
            },
          ],
        }
      : {}),
    footer: { text: tr('ladder:duos.footer', { count: duos.length, n: integer(duos.length) }) },
  };
  const nav = pageRow('ld.d', [min], at, pages);
  const view: View = { embeds: [embed], ...(nav ? { components: [nav] } : {}) };
  // The page's duos as a card, by their game names: the members' mentions stay in the text the card stands for.
  const name = (uid: string) => truncate(byUid.get(uid)?.name ?? uid, 60) || '?';
  const asker = new Set(members.filter((m) => m.userId === user.userId).map((m) => m.uid));
  const apart = (r: WinLoss) => (r.matches === 0 ? '—' : ratioPercent(r.winRate));
  const card = chartOf(
    {
      kind: 'table-card',
      locale: currentLocale(),
      title: truncate(tr('ladder:duos.title'), 200),
      subtitle: truncate(tr('ladder:duos.card.subtitle', { count: min, min: integer(min) }), 200),
      tiles: [],
      columns: [tr('ladder:duos.card.duo'), tr('ladder:duos.card.together'), tr('ladder:duos.card.rate'), tr('ladder:duos.card.apart')],
      rows: shown.map((d) => ({
        cells: [
          { text: `${name(d.a)} + ${name(d.b)}`, tone: 'plain' },
          { text: winLoss(d.together), tone: d.together.wins > d.together.losses ? 'win' : d.together.wins < d.together.losses ? 'loss' : 'plain' },
          {
            text: tr('ladder:duos.card.range', {
              rate: ratioPercent(d.together.winRate),
              low: ratioPercent(d.interval?.low),
              high: ratioPercent(d.interval?.high),
            }),
            tone: 'plain',
          },
          { text: `${apart(d.aApart)} · ${apart(d.bApart)}`, tone: 'muted' },
        ],
        you: asker.has(d.a) || asker.has(d.b),
      })),
    },
    'duos.png',
    tr('ladder:duos.card.alt', { count: shown.length, n: integer(shown.length) }),
  );
  if (!card) return view;
  const short = { ...embed, description: truncate(how, LIMITS.description) };
  return withChart({ ...view, embeds: [short] }, { ...card, text: { description: embed.description } });
}

/** One listed member on one line: position, member, account, tier and score, peak, matches, role, the week's change. */
function rowLine(r: LadderRow, you: boolean): string {
  const s = r.standing;
  const parts = [
    `**${integer(r.position)}.** <@${r.userId}> ${escapeText(r.name, 40)}${you ? ` (${tr('ladder:you')})` : ''}`,
    `${emojiBefore('tier', s.tier)}${tierName(s.tier) ?? tr('ladder:unranked')} ${rankScore(s.score)}`,
    tr('ladder:peak', { score: rankScore(s.peak) }),
    tr('ladder:matches', { count: s.matches, n: integer(s.matches) }),
    ...(s.role ? [`${emojiBefore('role', s.role)}${roleName(s.role) ?? s.role}`] : []),
    s.weekDelta === null ? tr('ladder:noWeek') : `${scoreChangeArrow(s.weekDelta)} ${rankScoreChange(s.weekDelta)}`,
  ];
  return parts.join(' · ');
}

/** "2 members not listed: 1 left the ladder, 1 has not proved an account yet."; null when nobody is left out. */
function leftOutLine(page: LadderPage): string | null {
  const reasons = LEFT_OUT_REASONS.filter((r) => page.leftOut[r] > 0).map((r) =>
    tr(`ladder:leftOut.${r}`, { count: page.leftOut[r], n: integer(page.leftOut[r]) }),
  );
  const total = LEFT_OUT_REASONS.reduce((sum, r) => sum + page.leftOut[r], 0);
  return total === 0 ? null : tr('ladder:leftOut.line', { count: total, n: integer(total), reasons: listOf(reasons) });
}

interface ShowRequest {
  role: (typeof LADDER_ROLES)[number] | null;
  period: LadderPeriod;
  platform: Platform | null;
  page: number;
}

/** A page of the server's ladder for `user`, whose own row is always shown. */
async function showView(user: Invoker, req: ShowRequest, ctx: Ctx): Promise<View> {
  const { guildId, store } = ladderOf(user, ctx);
  if (!(await store.enabled(guildId))) return privately(tr('ladder:off'));
  const query = { guildId, period: req.period, role: req.role, platform: req.platform, pageSize: LADDER_PAGE_SIZE, userId: user.userId };
  let page = await store.page({ ...query, page: req.page });
  const pages = pageCount(page.listed, LADDER_PAGE_SIZE);
  const at = clampPage(req.page, pages);
  if (at !== req.page) page = await store.page({ ...query, page: at });
  const filters = [...(req.role ? [roleName(req.role) ?? req.role] : []), ...(req.platform ? [PLATFORM_NAMES[req.platform]] : [])];
  const leftOut = leftOutLine(page);
  const lines =
    page.listed === 0
      ? [tr(filters.length > 0 ? 'ladder:emptyFiltered' : 'ladder:empty')]
      : [...page.rows.map((r) => rowLine(r, r.userId === user.userId)), ...(page.me ? ['…', rowLine(page.me, true)] : [])];
  const title = tr(req.period === 'week' ? 'ladder:titleWeek' : 'ladder:title');
  const description = (body: string[]) =>
    truncate([...(filters.length > 0 ? [`*${filters.join(' · ')}*`] : []), ...body, ...(leftOut ? ['', leftOut] : [])].join('\n'), LIMITS.description);
  const embed: APIEmbed = {
    color: COLOUR,
    title,
    description: description(lines),
    footer: { text: tr('ladder:footer', { count: page.listed, n: integer(page.listed) }) },
  };
  const nav = pageRow('ld.p', [req.role?.toLowerCase() ?? '-', req.period, req.platform ?? '-'], at, pages);
  const view: View = { embeds: [embed], ...(nav ? { components: [nav] } : {}) };
  if (at !== 1) return view;
  // The first page as a card: the member mentions and the member asking beyond it stay in the embed's text.
  const card = chartOf(
    ladderCardSpec(title, [...filters, tr('ladder:footer', { count: page.listed, n: integer(page.listed) })], page.rows, user.userId),
    'ladder-top.png',
    tr('ladder:cardAlt', { count: page.rows.length, n: integer(page.rows.length) }),
  );
  const chart = await topChart(page.rows, ctx);
  if (!card) return withChart(view, chart);
  const short = { ...embed, description: description(page.me ? [rowLine(page.me, true)] : []) || undefined };
  const withCard = withChart({ ...view, embeds: [short] }, { ...card, text: { description: embed.description } });
  // The season chart below the card, as an embed of its own.
  return chart ? withChart({ ...withCard, embeds: [...withCard.embeds!, { color: COLOUR }] }, chart, 1) : withCard;
}

/** The first page's members as a card (src/charts/cards.ts): position, name, tier, score and the week's change. */
function ladderCardSpec(title: string, subtitle: string[], rows: readonly LadderRow[], userId: string): LadderCard {
  return {
    kind: 'ladder-card',
    locale: currentLocale(),
    title: truncate(title, 200),
    subtitle: truncate(subtitle.join(' · '), 200),
    weekLabel: truncate(tr('ladder:card.week'), 200),
    rows: rows.slice(0, LADDER_CARD_ROWS).map((r) => {
      const s = r.standing;
      return {
        position: String(r.position),
        name: truncate(r.name, 100) || '?',
        tier: s.tier ?? tr('ladder:unranked'),
        score: rankScore(s.score),
        // An em dash for no week recorded, unlike "▬ ±0" for a week without change.
        week: s.weekDelta === null ? '—' : `${scoreChangeArrow(s.weekDelta)} ${rankScoreChange(s.weekDelta)}`,
        trend: s.weekDelta === null ? 'none' : ({ '▲': 'up', '▼': 'down', '▬': 'none' } as const)[scoreChangeArrow(s.weekDelta)],
        you: r.userId === userId,
      };
    }),
  };
}

/** The first page's top members over the season, from the tracked matches; none without tracking or charts. */
async function topChart(rows: readonly LadderRow[], ctx: Ctx) {
  const top = rows.slice(0, LADDER_CHART_PLAYERS);
  const season = top[0]?.standing.season;
  if (!ctx.tracking || !ctx.charts || top.length === 0 || season === null || season === undefined) return undefined;
  const scores = await ctx.tracking.seasonScores(
    top.map((r) => r.uid),
    season,
  );
  const names = top.map((r) => r.name);
  return chartOf(
    { kind: 'ladder-rank', title: tr('ladder:chartTitle'), players: top.map((r) => ({ name: r.name, points: scores.get(r.uid) ?? [] })) },
    'ladder.png',
    tr('ladder:chartAlt', { count: names.length, names: listOf(names) }),
  );
}

/** Puts the member on the server's ladder, listed by `account` (one of their linked accounts) when given. */
async function joinView(user: Invoker, accountText: unknown, platformText: unknown, mentions: unknown, ctx: Ctx): Promise<View> {
  const { guildId, store } = ladderOf(user, ctx);
  if (!(await store.enabled(guildId))) return privately(tr('ladder:off'));
  const links = await ctx.links.get(user.userId);
  const typed = typeof accountText === 'string' ? accountText.trim() : '';
  let chosen: (typeof links.accounts)[number] | undefined;
  if (typed !== '') {
    const folded = typed.toLowerCase();
    chosen = links.accounts.find((a) => a.uid === typed || a.name.toLowerCase() === folded);
    if (!chosen) return privately(tr('ladder:notLinked', { name: escapeText(typed, 60) }));
  }
  await store.join(guildId, user.userId, ctx.now(), {
    optedOut: false,
    ...(chosen ? { chosenUid: chosen.uid } : {}),
    ...(platformOf(platformText) ? { platform: platformOf(platformText) } : {}),
    ...(typeof mentions === 'boolean' ? { mentionsOff: !mentions } : {}),
  });
  const membership = await store.membership(guildId, user.userId);
  const verified = links.accounts.filter((a) => a.verifiedAt !== null);
  const listedBy =
    verified.find((a) => a.uid === membership?.chosenUid) ??
    verified.find((a) => a.uid === links.defaultUid) ??
    verified.sort((a, b) => a.linkedAt - b.linkedAt)[0];
  if (!listedBy) return privately(tr(links.accounts.length === 0 ? 'ladder:joinedNoLink' : 'ladder:joinedUnverified'));
  const unproven = chosen && chosen.verifiedAt === null ? `\n${tr('ladder:chosenUnverified', { name: escapeText(chosen.name, 60) })}` : '';
  const platform = membership?.platform && platformOf(membership.platform) ? ` (${PLATFORM_NAMES[platformOf(membership.platform)!]})` : '';
  const quiet = membership?.mentionsOff ? `\n${tr('ladder:mentionsOff')}` : '';
  return privately(`${tr('ladder:joined', { name: escapeText(listedBy.name, 60) })}${platform}${unproven}${quiet}`);
}

export const ladder: CommandModule = {
  draws: true,
  definition,
  async execute(input, ctx: Ctx) {
    switch (input.subcommand) {
      case 'join':
        return joinView(input.user, input.options.account, input.options.platform, input.options.mentions, ctx);
      case 'duos':
        return duosView(input.user, minOf(input.options.min), 1, ctx);
      case 'leave': {
        const { guildId, store } = ladderOf(input.user, ctx);
        await store.join(guildId, input.user.userId, ctx.now(), { optedOut: true });
        return privately(tr('ladder:left'));
      }
      default: {
        const { guildId, store } = ladderOf(input.user, ctx);
        // Asking for the ladder puts a member who linked an account on it, unless they left it: one key read once they are on it.
        if (
          (await store.enabled(guildId)) &&
          !(await store.membership(guildId, input.user.userId)) &&
          (await ctx.links.get(input.user.userId)).accounts.length > 0
        )
          await store.join(guildId, input.user.userId, ctx.now());
        return showView(
          input.user,
          { role: roleOf(input.options.role), period: periodOf(input.options.period), platform: platformOf(input.options.platform), page: 1 },
          ctx,
        );
      }
    }
  },
  components: {
    /** The duos' paginator: `ld.d:<min>:<page>:<kind>`. */
    'ld.d': async (input, ctx: Ctx) => duosView(input.user, minOf(input.args[0]), pageFromArgs(input.args), ctx),
    /** Paginator: `ld.p:<role|->:<period>:<platform|->:<page>:<kind>`; "you" is the member who pressed. */
    'ld.p': async (input, ctx: Ctx) =>
      showView(
        input.user,
        { role: roleOf(input.args[0]), period: periodOf(input.args[1]), platform: platformOf(input.args[2]), page: pageFromArgs(input.args) },
        ctx,
      ),
  },
  /** The member's linked accounts, proven ones first. */
  async autocomplete(input, ctx: Ctx) {
    const links = await ctx.links.get(input.user.userId);
    const typed = input.focused.value.trim().toLowerCase();
    return links.accounts
      .filter((a) => typed === '' || a.name.toLowerCase().includes(typed) || a.uid.includes(typed))
      .sort((a, b) => Number(b.verifiedAt !== null) - Number(a.verifiedAt !== null))
      .map((a) => ({ name: truncate(`${a.name} (UID ${a.uid})${a.verifiedAt ? ' ✓' : ''}`, LIMITS.choiceName), value: a.uid }));
  },
};
