/**
 * `/meta [role] [sort] [scope] [period] [bracket]`: every hero's win rate, pick share and KDA, paged, with a scatter chart.
 * The game's (default; src/game/meta.ts) is gathered in the background by {@link HeroMeta} (api-spec.md endpoints 1 and 3),
 * so only the very first gathering is waited for. The server's (`scope:server`; src/game/server-meta.ts) counts its ladder
 * members' recorded ranked matches, over this season or the last 30 days, in one bracket or all.
 */
import type { APIEmbed } from 'discord-api-types/v10';
import { SPEC_LIMITS, type MetaScatterChart } from '../src/charts/specs.js';
import { currentDeadline, settleWithin } from '../src/core/deadline.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import {
  groupMetaRows,
  META_ROLES,
  META_SORTS,
  metaRole,
  sortMetaRows,
  type MetaRole,
  type MetaRow,
  type MetaSnapshot,
  type MetaSort,
} from '../src/game/meta.js';
import { type HeroMeta } from '../src/jobs/hero-meta.js';
import { BRACKETS, MIN_SAMPLE, RECENT_MS, rankServerRows, SERVER_META_PERIODS, serverMeta, type ServerMetaRow } from '../src/game/server-meta.js';
import { seasonFromIndex } from '../src/game/seasons.js';
import { periodStart } from '../src/store/server-matches.js';
import { UserFacingError } from '../src/core/errors.js';
import { heroDisplayName, tierName } from '../src/i18n/names.js';
import { choiceName, describe } from '../src/i18n/commands.js';
import { currentLocale, tr } from '../src/i18n/index.js';
import { chartOf, withChart } from '../src/render/view-charts.js';
import { humanAge, roleColour, seasonLabel } from '../src/render/common.js';
import { decimal, integer, ratioPercent } from '../src/i18n/format.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { emojiBefore } from '../src/render/emojis.js';
import { roleName } from '../src/i18n/names.js';
import { clampPage, pageCount, pageFromArgs, pageRow } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';
import { t } from '../src/render/strings.js';

/** The part of a command's context /meta uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'meta' | 'now' | 'heroes' | 'ladder' | 'serverMatches'>;

/** Heroes a page: a page and its chart fit a phone's first screen, well within an embed's limits. */
export const META_PER_PAGE = 10;

/** Shown in the embed as `attachment://meta.png`. */
export const META_CHART_FILE = 'meta.png';

const ALL_ROLES = 'all';
const ALL_BRACKETS = 'all';
const SCOPES = ['game', 'server', 'bot'] as const;
/** What the server meta counts: the heroes members played, those they met, or every stored player (`scope:bot`). */
type MetaSource = 'played' | 'met' | 'bot';
const VIEWS = ['played', 'met'] as const;
const sourceOf = (v: unknown): MetaSource => (v === 'met' || v === 'bot' ? v : 'played');

const definition = slashCommand('meta')
  .addStringOption((o) =>
    o
      .setName('role')
      .setDescription(describe('meta.options.role'))
      .addChoices(...META_ROLES.map((r) => ({ name: choiceName('meta.options.role', r), value: r }))),
  )
  .addStringOption((o) =>
    o
      .setName('sort')
      .setDescription(describe('meta.options.sort'))
      .addChoices(...META_SORTS.map((s) => ({ name: choiceName('meta.options.sort', s), value: s }))),
  )
  .addStringOption((o) =>
    o
      .setName('scope')
      .setDescription(describe('meta.options.scope'))
      .addChoices(...SCOPES.map((s) => ({ name: choiceName('meta.options.scope', s), value: s }))),
  )
  .addStringOption((o) =>
    o
      .setName('period')
      .setDescription(describe('meta.options.period'))
      .addChoices(...SERVER_META_PERIODS.map((p) => ({ name: choiceName('meta.options.period', p), value: p }))),
  )
  .addStringOption((o) =>
    o
      .setName('view')
      .setDescription(describe('meta.options.view'))
      .addChoices(...VIEWS.map((v) => ({ name: choiceName('meta.options.view', v), value: v }))),
  )
  .addStringOption((o) =>
    o
      .setName('bracket')
      .setDescription(describe('meta.options.bracket'))
      .addChoices(...BRACKETS.map((b) => ({ name: choiceName('meta.options.bracket', b), value: b }))),
  )
  .toJSON();

const roleOf = (value: unknown): MetaRole | null => (value === undefined || value === ALL_ROLES ? null : metaRole(String(value)));
const sortOf = (value: unknown): MetaSort => ((META_SORTS as readonly string[]).includes(String(value)) ? (value as MetaSort) : 'win-rate');
const periodOf = (value: unknown): 'season' | '30d' => (value === '30d' ? '30d' : 'season');
/** The index in {@link BRACKETS}; null for all (or a name no bracket has). */
const bracketOf = (value: unknown): number | null => {
  const i = (BRACKETS as readonly string[]).indexOf(String(value));
  return i < 0 ? null : i;
};

/** A note, not an error: nothing failed. */
const noteView = (text: string): View => ({ ephemeral: true, embeds: [{ color: roleColour(null), description: text }] });

/**
 * The latest snapshot: in memory, else the stored one, else the first gathering, waited for until the interaction's
 * deadline; undefined when none is ready by then (the gathering goes on). @throws {ApiError} when the gathering fails in time.
 */
async function latestSnapshot(meta: HeroMeta): Promise<MetaSnapshot | undefined> {
  const deadline = currentDeadline();
  // settleWithin keeps handlers on `work`: a failure after the deadline is handled (and logged by HeroMeta).
  const inTime = <T>(work: Promise<T>) => (deadline === undefined ? work : settleWithin(work, deadline - Date.now(), () => undefined));
  const have = meta.snapshot() ?? (await inTime(meta.restore()));
  if (have) return have;
  return inTime(meta.refresh());
}

/** The note while the first gathering runs: progress and time left, once the hero list is in. */
function gatheringNote(meta: HeroMeta): View {
  const progress = meta.progress();
  if (progress?.total === undefined || progress.etaMs === undefined) return noteView(t.metaGathering());
  return noteView(t.metaGatheringEta(progress.done, progress.total, progress.etaMs));
}

/** One line a hero: name, win rate, pick share and KDA in the current locale; em dashes where unknown. */
export function metaLine(row: MetaRow): string {
  return t.metaLine(escapeText(row.name, 60), ratioPercent(row.winRate), ratioPercent(row.pickShare), decimal(row.kda));
}

/**
 * A page's lines under role headings (none with a role filter: the title names it); `first` the page's first index in
 * `all`, so that a group carried over from the page before is headed "continued".
 */
function groupedList<R extends MetaRow>(
  page: { row: R; group: MetaRole | null }[],
  first: number,
  all: { group: MetaRole | null }[],
  role: MetaRole | null,
  line: (row: R) => string,
): string {
  const blocks: string[] = [];
  let group: MetaRole | null | undefined;
  page.forEach(({ row, group: g }, i) => {
    if (blocks.length === 0 || g !== group) {
      group = g;
      const continued = first + i > 0 && all[first + i - 1]!.group === g;
      blocks.push(role ? '' : `${emojiBefore('role', g)}${t.metaRoleHeading(roleName(g), continued)}`);
    }
    blocks[blocks.length - 1]! += `${blocks[blocks.length - 1] ? '\n' : ''}${emojiBefore('hero', row.name)}${line(row)}`;
  });
  return blocks.join('\n\n');
}

/** Rows in display order, each with its role group (null: "Other", or no grouping with a role filter). */
function ordered(snapshot: MetaSnapshot, role: MetaRole | null, sort: MetaSort): { row: MetaRow; group: MetaRole | null }[] {
  if (role)
    return sortMetaRows(
      snapshot.rows.filter((r) => metaRole(r.role) === role),
      sort,
    ).map((row) => ({ row, group: role }));
  return groupMetaRows(snapshot.rows, sort).flatMap((g) => g.rows.map((row) => ({ row, group: g.role })));
}

/** The scatter of the listed heroes with both a win rate and a pick share, at most {@link SPEC_LIMITS.scatterHeroes} most picked. */
export function metaChartSpec(rows: MetaRow[], role: MetaRole | null): MetaScatterChart {
  const plotted = rows
    .filter((r): r is MetaRow & { winRate: number; pickShare: number } => r.winRate !== null && r.pickShare !== null)
    .sort((a, b) => b.pickShare - a.pickShare)
    .slice(0, SPEC_LIMITS.scatterHeroes);
  return {
    kind: 'meta-scatter',
    locale: currentLocale(),
    title: truncate(t.metaChartTitle(roleName(role)), SPEC_LIMITS.titleLength),
    heroes: plotted.map((r) => ({ name: truncate(r.name || r.heroId, SPEC_LIMITS.nameLength), role: r.role, winRate: r.winRate, pickShare: r.pickShare })),
  };
}

/** What the chart shows and its two most telling points (ties: the first listed). */
function chartAlt(spec: MetaScatterChart, role: MetaRole | null): string {
  const top = (key: 'winRate' | 'pickShare') =>
    spec.heroes.reduce<MetaScatterChart['heroes'][number] | undefined>((m, h) => (!m || h[key] > m[key] ? h : m), undefined);
  const best = top('winRate');
  const most = top('pickShare');
  const text = t.metaChartAlt(
    spec.heroes.length,
    roleName(role),
    best ? `${best.name} ${ratioPercent(best.winRate)}` : '—',
    most ? `${most.name} ${ratioPercent(most.pickShare)}` : '—',
  );
  return truncate(text, LIMITS.attachmentDescription);
}

/**
 * Page `page` of the meta for `role` (null: all, grouped by role) sorted by `sort`, with page buttons and the scatter chart; a
 * private note without a snapshot in time or without `ctx.meta`. @throws {ApiError} when the first gathering fails in time.
 */
export async function metaView(role: MetaRole | null, sort: MetaSort, page: number, ctx: Ctx): Promise<View> {
  if (!ctx.meta) return noteView(t.metaUnavailable());
  const snapshot = await latestSnapshot(ctx.meta);
  if (!snapshot) return gatheringNote(ctx.meta);
  const rows = ordered(snapshot, role, sort);
  const pages = pageCount(rows.length, META_PER_PAGE);
  const p = clampPage(page, pages);
  const first = (p - 1) * META_PER_PAGE;
  const list = groupedList(rows.slice(first, first + META_PER_PAGE), first, rows, role, metaLine);
  const spec = metaChartSpec(
    rows.map((r) => r.row),
    role,
  );
  const embed: APIEmbed = {
    color: roleColour(role),
    title: t.metaTitle(roleName(role)),
    description: list ? `${t.metaSortedBy(t.metaSort(sort))}\n\n${list}` : t.metaNoHeroes(roleName(role)),
    footer: { text: t.metaFooter(humanAge(ctx.now() - snapshot.gatheredAt), snapshot.answered, snapshot.total, snapshot.stale) },
    timestamp: new Date(snapshot.gatheredAt).toISOString(),
  };
  const nav = pageRow('meta.p', [role ?? ALL_ROLES, sort], p, pages);
  return withChart({ embeds: [embed], components: nav ? [nav] : [] }, chartOf(spec, META_CHART_FILE, chartAlt(spec, role)));
}

/** What `/meta scope:server` shows: `bracket` an index in {@link BRACKETS}, null for all. */
interface ServerMetaQuery {
  role: MetaRole | null;
  sort: MetaSort;
  period: 'season' | '30d';
  bracket: number | null;
  source: MetaSource;
}

/** One hero's line: ranked with its interval, or marked as too few to rank. */
function serverMetaLine(row: ServerMetaRow): string {
  const name = escapeText(row.name, 60);
  if (!row.enough) return t.serverMetaFew(name, `${integer(row.wins)}–${integer(row.matches - row.wins)}`, row.matches);
  return t.serverMetaLine(
    name,
    ratioPercent(row.winRate),
    ratioPercent(row.interval?.low),
    ratioPercent(row.interval?.high),
    ratioPercent(row.pickShare),
    decimal(row.kda),
    row.matches,
  );
}

/**
 * Page `page` of `guildId`'s server meta: its ladder members' recorded ranked matches by hero (src/game/server-meta.ts), in
 * role groups unless `q.role` picks one, ranked heroes first; with page buttons and the scatter of the ranked heroes.
 * @throws {UserFacingError} outside a server. A server with its ladder off, or a bot without a store, gets a private note.
 */
export async function serverMetaView(guildId: string | null | undefined, q: ServerMetaQuery, page: number, ctx: Ctx): Promise<View> {
  if (!ctx.serverMatches || (q.source !== 'bot' && !ctx.ladder)) return noteView(t.metaUnavailable());
  if (q.source !== 'bot') {
    if (!guildId) throw new UserFacingError(t.configGuildOnly());
    if (!(await ctx.ladder!.enabled(guildId))) return noteView(tr('ladder:off'));
  }
  const since = periodStart(ctx.now(), RECENT_MS);
  const read = ctx.serverMatches;
  const [counts, heroes] = await Promise.all([
    q.source === 'bot' ? read.storedCounts() : q.source === 'met' ? read.metCounts(guildId!, since) : read.heroCounts(guildId!, since),
    ctx.heroes.list(),
  ]);
  const refs = heroes.map((h) => ({ id: h.id, name: heroDisplayName(h), role: h.role }));
  // Brackets are the members' own tiers: the heroes they met and the stored players have none.
  const bracket = q.source === 'played' ? q.bracket : null;
  const result = serverMeta(counts, q.source === 'bot' ? 'all' : q.period, bracket, refs);
  if (q.source === 'met') for (const r of result.rows) r.kda = null;
  const tier = bracket === null ? null : tierName(BRACKETS[bracket]);
  const listed = q.role ? result.rows.filter((r) => metaRole(r.role) === q.role) : result.rows;
  const rows = (q.role ? [{ role: q.role, rows: listed }] : groupMetaRows(listed, q.sort)).flatMap((g) =>
    rankServerRows(g.rows as ServerMetaRow[], q.sort).map((row) => ({ row, group: q.role ? q.role : g.role })),
  );
  const pages = pageCount(rows.length, META_PER_PAGE);
  const p = clampPage(page, pages);
  const first = (p - 1) * META_PER_PAGE;
  const list = groupedList(rows.slice(first, first + META_PER_PAGE), first, rows, q.role, serverMetaLine);
  const season = result.season === null ? null : seasonFromIndex(result.season);
  const basis = [
    t.serverMetaBasis(
      q.period,
      listed.reduce((n, r) => n + r.matches, 0),
      season ? seasonLabel(season) : null,
      q.source,
    ),
    ...(tier ? [t.serverMetaBracket(tier)] : []),
    t.serverMetaHow(MIN_SAMPLE),
  ].join(' ');
  const none = q.source === 'played' ? t.serverMetaNone(q.period, tier) : t.serverMetaNoneOf(q.source);
  const embed: APIEmbed = {
    color: roleColour(q.role),
    title: t.serverMetaTitle(roleName(q.role), q.source),
    description: list ? `${t.metaSortedBy(t.metaSort(q.sort))}\n${basis}\n\n${list}` : none,
    footer: { text: q.source === 'bot' ? t.serverMetaFooterBot() : t.serverMetaFooter() },
  };
  const spec = {
    ...metaChartSpec(
      rows.map((r) => r.row).filter((r) => r.enough),
      q.role,
    ),
    ...(q.source === 'bot' ? {} : { title: truncate(t.serverMetaChartTitle(), SPEC_LIMITS.titleLength) }),
  };
  const nav = pageRow('meta.s', [q.role ?? ALL_ROLES, q.sort, q.period, q.bracket === null ? ALL_BRACKETS : BRACKETS[q.bracket]!, q.source], p, pages);
  return withChart({ embeds: [embed], components: nav ? [nav] : [] }, chartOf(spec, META_CHART_FILE, chartAlt(spec, q.role)));
}

export const meta: CommandModule = {
  draws: true,
  definition,
  async execute(input, ctx: Ctx) {
    const role = roleOf(input.options.role);
    const sort = sortOf(input.options.sort);
    if (input.options.scope === 'server' || input.options.scope === 'bot') {
      const source: MetaSource = input.options.scope === 'bot' ? 'bot' : input.options.view === 'met' ? 'met' : 'played';
      return serverMetaView(
        input.user.guildId,
        { role, sort, period: periodOf(input.options.period), bracket: bracketOf(input.options.bracket), source },
        1,
        ctx,
      );
    }
    return metaView(role, sort, 1, ctx);
  },
  components: {
    /** Paginator: `meta.p:<role|all>:<sort>:<page>:<kind>`. */
    'meta.p': async (input, ctx: Ctx) => metaView(roleOf(input.args[0]), sortOf(input.args[1]), pageFromArgs(input.args), ctx),
    /** The server meta's paginator: `meta.s:<role|all>:<sort>:<period>:<bracket|all>:<played|met|bot>:<page>:<kind>`. */
    'meta.s': async (input, ctx: Ctx) =>
      serverMetaView(
        input.user.guildId,
        {
          role: roleOf(input.args[0]),
          sort: sortOf(input.args[1]),
          period: periodOf(input.args[2]),
          bracket: bracketOf(input.args[3]),
          source: sourceOf(input.args[4]),
        },
        pageFromArgs(input.args),
        ctx,
      ),
  },
};
