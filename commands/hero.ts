/**
 * `/hero name:<hero>`: a hero's overview, and through a select menu its abilities (grouped by
 * transformation), costumes, transformations, lore (paged), statistics, leaderboard and balance
 * history (paged: every balance post and patch note that changed the hero, newest first, read from
 * the store the balance indexer fills, src/game/balance-indexer.ts).
 * The real hero list (api-samples/heroes) repeats abilities (Hulk's four, once a form, with
 * `transformation_id` null), lists "Base Stat" entries and empty team-up placeholders among them, and
 * gives forms without health: see {@link heroKit} and the transformations section.
 * Data: api-spec.md endpoints 2 (hero), 3 (stats), 5 (leaderboard), via the hero list (1) for lookup;
 * the balance history from endpoints 12 and 13, through the store (src/store/balance-history.ts).
 */
import { SlashCommandBuilder } from '@discordjs/builders';
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed, type APIEmbedField } from 'discord-api-types/v10';
import type { Fetched } from '../src/api/client.js';
import type { Ability, Hero, Transformation } from '../src/api/schemas.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { CustomIdTooLongError, encodeCustomId } from '../src/discord/custom-id.js';
import { aside, compactNumber, decimal, duration, integer, kda, percent, ratioPercent, winRate } from '../src/render/format.js';
import { heroDisplayName } from '../src/hero-directory.js';
import { describe } from '../src/i18n/commands.js';
import { heroName, roleName, teamName } from '../src/render/names.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { clampPage, pageCount, pageFromArgs, pageRow, splitPages } from '../src/render/paginate.js';
import { calendarDate, roleColour, staleFooter } from '../src/render/common.js';
import type { View } from '../src/render/view.js';
import type { Verdict } from '../src/game/balance.js';
import type { HistoryEntry } from '../src/store/balance-history.js';
import { t } from '../src/strings.js';
import { tr } from '../src/i18n/index.js';

/** The sections of a hero, in select-menu order. */
export const HERO_SECTIONS = ['overview', 'abilities', 'costumes', 'transformations', 'lore', 'stats', 'leaderboard', 'balance'] as const;
export type HeroSection = (typeof HERO_SECTIONS)[number];

/** A section's name in the current locale (`hero:sections.<section>`), for the menu and the author line. */
const sectionLabel = (section: HeroSection) => tr(`hero:sections.${section}`);

const ABILITIES_PER_PAGE = 6;
const COSTUMES_PER_PAGE = 10;
const LORE_PAGE_CHARS = 1_800;
const LEADERBOARD_ROWS = 10;
/** Posts a page of the balance history shows (one read button each, so at most 5: a row). */
export const BALANCE_PER_PAGE = 5;
/** Characters of the description each post of the balance history may take. */
const BALANCE_ENTRY_CHARS = Math.floor((LIMITS.description - 100) / BALANCE_PER_PAGE);
/** Characters of one quoted line, escaped. */
const BALANCE_LINE_CHARS = 220;
/** The marker shown before each verdict. */
export const VERDICT_MARKERS: Record<Verdict, string> = { buff: '▲', nerf: '▼', adjusted: '◆', fixed: '✔' };

/** Ability fields shown in this order after the description; the rest follow. */
const ABILITY_FIELD_ORDER = ['Key', 'Cooldown', 'Energy Cost', 'Casting', 'Damage', 'Duration', 'Range', 'Special Effect'];

const definition = new SlashCommandBuilder()
  .setName('hero')
  .setDescription(describe('hero'))
  .addStringOption((o) => o.setName('name').setDescription(describe('hero.options.name')).setRequired(true).setAutocomplete(true))
  .toJSON();

function sectionMenu(heroId: string, current: HeroSection): APIActionRowComponent<APIComponentInMessageActionRow> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: encodeCustomId('hero.s', heroId),
        placeholder: tr('hero:menuPlaceholder'),
        options: HERO_SECTIONS.map((s) => ({ label: sectionLabel(s), value: s, default: s === current })),
      },
    ],
  };
}

function baseEmbed(hero: Hero, section: HeroSection): APIEmbed {
  // Titles and author names are plain text here (the author line renders no markdown), so no escaping.
  const name = truncate(heroDisplayName(hero), LIMITS.title);
  return {
    color: roleColour(hero.role),
    author: { name: section === 'overview' ? (roleName(hero.role) ?? tr('hero:heroFallback')) : tr('hero:author', { hero: name, section: sectionLabel(section) }) },
    title: section === 'overview' ? name : undefined,
    thumbnail: hero.transformations[0]?.icon ? { url: hero.transformations[0].icon } : undefined,
  };
}

function overview(hero: Hero): APIEmbed {
  const difficulty = hero.difficulty === null ? '—' : `${'★'.repeat(Math.round(hero.difficulty))}${'☆'.repeat(Math.max(0, 5 - Math.round(hero.difficulty)))}`;
  const abilityCount = heroKit(hero).length;
  const costumeCount = hero.costumes.length;
  const kit = tr('hero:overview.kitValue', {
    abilities: tr('hero:overview.abilityCount', { count: abilityCount, n: integer(abilityCount) }),
    costumes: tr('hero:overview.costumeCount', { count: costumeCount, n: integer(costumeCount) }),
  });
  const fields: APIEmbedField[] = [
    { name: tr('hero:overview.realName'), value: escapeText(hero.real_name ?? '—', LIMITS.fieldValue), inline: true },
    { name: tr('hero:overview.role'), value: roleName(hero.role) ?? '—', inline: true },
    // The API says "Melee Heroes", "Hitscan Heroes": the kind is the word players use.
    { name: tr('hero:overview.attackType'), value: escapeText(hero.attack_type?.replace(/\s+heroes?$/i, '') || '—', 100), inline: true },
    { name: tr('hero:overview.teams'), value: escapeText(teams(hero).join(', ') || '—', LIMITS.fieldValue), inline: true },
    { name: tr('hero:overview.difficulty'), value: difficulty, inline: true },
    { name: tr('hero:overview.kit'), value: kit, inline: true },
  ];
  return {
    ...baseEmbed(hero, 'overview'),
    description: escapeText(hero.bio ?? '', LIMITS.description) || undefined,
    fields,
    image: hero.image ? { url: hero.image } : undefined,
  };
}

function abilityText(fields: Record<string, string>, description: string | null): string {
  const ordered = [...ABILITY_FIELD_ORDER.filter((k) => k in fields), ...Object.keys(fields).filter((k) => !ABILITY_FIELD_ORDER.includes(k))];
  const lines = ordered.filter((k) => k !== 'Key').map((k) => `**${escapeText(k)}:** ${escapeText(fields[k]!)}`);
  return [description ? escapeText(description) : '', ...lines].filter(Boolean).join('\n') || '—';
}

/** The hero's teams as people write them ("Web Warriors", "X-Men"), each once. */
function teams(hero: Hero): string[] {
  return [...new Set(hero.team.map(teamName).filter(Boolean))];
}

/** One entry of a hero's kit, as the abilities section shows it. */
export interface KitAbility {
  ability: Ability;
  /** The form the ability belongs to (its transformation's name, game casing), when `transformation_id` names one. */
  form: string | null;
  /** 1, 2... for abilities that share name, key, type and form but differ otherwise (shown as "variant 1"); else null. */
  variant: number | null;
}

const nameKey = (a: Ability) => (a.name ?? '').trim().toLowerCase();
/** "Base Stat 1", "Base Stat 2": health and movement speed of a form, not abilities. */
const isBaseStat = (a: Ability) => /^base stats?\b/.test(nameKey(a));
/** Name spelled all in capitals ("FLEET FOOT"), where another record may spell it as the game does. */
const shouted = (name: string | null) => !!name && name === name.toUpperCase() && name !== name.toLowerCase();

/**
 * A hero's abilities as the kit players know: no "Base Stat" entries, no empty placeholders (no
 * description and no fields, such as the team-up "UNITED SIBLINGS"), exact duplicates (same name in
 * any case, type, form, description and fields) merged, grouped by form in the hero's transformation
 * order, same-named abilities next to each other in order of first appearance. Same-named abilities
 * that still differ are told apart by key, type or form, else by {@link KitAbility.variant}.
 * Source: api-spec.md Hero/Ability; the real list in api-samples/heroes (where `transformation_id` is null).
 */
export function heroKit(hero: Hero): KitAbility[] {
  const formOrder = new Map(hero.transformations.map((t, i) => [t.id, i]));
  const formName = new Map(hero.transformations.map((t) => [t.id, heroName(t.name)]));
  const kept = new Map<string, { ability: Ability; index: number }>();
  hero.abilities.forEach((a, index) => {
    if (isBaseStat(a) || (!a.description?.trim() && Object.keys(a.fields).length === 0)) return;
    const fields = Object.entries(a.fields).sort(([x], [y]) => x.localeCompare(y));
    // The type is left out: Hulk's Heavy Blow is listed as a Weapon and as a Normal ability with the same content.
    const key = JSON.stringify([nameKey(a), a.transformation_id, a.description?.trim() ?? '', fields]);
    const seen = kept.get(key);
    if (!seen) kept.set(key, { ability: a, index });
    // Keep the first record's place, and the spelling that is not all capitals.
    else if (shouted(seen.ability.name) && !shouted(a.name)) seen.ability = a;
  });
  const firstOfName = new Map<string, number>();
  for (const { ability, index } of kept.values()) if (!firstOfName.has(nameKey(ability))) firstOfName.set(nameKey(ability), index);
  const order = (a: Ability) => formOrder.get(a.transformation_id) ?? -1;
  const sorted = [...kept.values()].sort(
    (x, y) => order(x.ability) - order(y.ability) || firstOfName.get(nameKey(x.ability))! - firstOfName.get(nameKey(y.ability))! || x.index - y.index,
  );
  const kit: KitAbility[] = sorted.map(({ ability }) => ({ ability, form: (ability.transformation_id && formName.get(ability.transformation_id)) || null, variant: null }));
  // Same name, key, type and form but different content: number them.
  const alike = new Map<string, KitAbility[]>();
  for (const k of kit) {
    const key = JSON.stringify([nameKey(k.ability), k.ability.fields.Key ?? '', (k.ability.type ?? '').toLowerCase(), k.form ?? '']);
    alike.set(key, [...(alike.get(key) ?? []), k]);
  }
  for (const group of alike.values()) if (group.length > 1) group.forEach((k, i) => (k.variant = i + 1));
  return kit;
}

/** Abilities ({@link heroKit}) grouped by transformation, then paged. */
function abilities(hero: Hero, page: number): { embed: APIEmbed; pages: number } {
  const kit = heroKit(hero);
  const pages = pageCount(kit.length, ABILITIES_PER_PAGE);
  const p = clampPage(page, pages);
  const fields = kit.slice((p - 1) * ABILITIES_PER_PAGE, p * ABILITIES_PER_PAGE).map(({ ability: a, form, variant }) => {
    const key = a.fields.Key ? `[${a.fields.Key}] ` : '';
    const suffix = [form, variant === null ? null : tr('hero:abilities.variant', { n: integer(variant) })].filter(Boolean).map((s) => ` · ${s}`).join('');
    return { name: escapeText(`${key}${a.name ?? tr('hero:abilities.fallbackName')}${aside(a.type)}${suffix}`, LIMITS.fieldName), value: abilityText(a.fields, a.description) };
  });
  return { embed: { ...baseEmbed(hero, 'abilities'), fields, description: fields.length === 0 ? tr('hero:abilities.none') : undefined }, pages };
}

/** Costumes from the costume endpoint (4), falling back to those embedded in the hero. */
async function costumes(hero: Hero, page: number, ctx: CommandContext): Promise<{ embed: APIEmbed; pages: number; fetched?: Fetched<unknown> }> {
  let list: { name: string | null; icon: string | null; label: string | null }[];
  let fetched: Fetched<unknown> | undefined;
  try {
    const got = await ctx.api.heroCostumes(hero.id);
    list = got.data.map((c) => ({ name: c.name, icon: c.icon, label: c.rarity }));
    fetched = got;
  } catch (err) {
    ctx.logger.warn({ err, hero: hero.id }, 'costume endpoint failed; using the costumes in the hero');
    list = hero.costumes.map((c) => ({ name: c.name, icon: c.icon, label: c.quality }));
  }
  const pages = pageCount(list.length, COSTUMES_PER_PAGE);
  const p = clampPage(page, pages);
  const shown = list.slice((p - 1) * COSTUMES_PER_PAGE, p * COSTUMES_PER_PAGE);
  const lines = shown.map((c) => `**${escapeText(c.name ?? tr('hero:costumes.fallbackName'))}**${c.label ? ` · ${escapeText(c.label)}` : ''}`);
  return { embed: { ...baseEmbed(hero, 'costumes'), description: lines.join('\n') || tr('hero:costumes.none'), image: shown[0]?.icon ? { url: shown[0].icon } : undefined }, pages, fetched };
}

/** What is known of a form: health and movement speed (m/s) when the API gives them (forms after the first often have "0"), as lines. */
function formStats(t: Transformation): string[] {
  const speed = (v: number) => (Number.isInteger(v) ? integer(v) : decimal(v, Number.isInteger(v * 10) ? 1 : 2));
  return [t.health ? tr('hero:transformations.health', { health: integer(t.health) }) : '', t.movement_speed ? tr('hero:transformations.speed', { speed: speed(t.movement_speed) }) : ''].filter(Boolean);
}

/**
 * The hero's forms with what is known of each. A form repeating an earlier form's name with nothing of
 * its own (Hulk lists "Bruce Banner" twice, the second without health) is shown once; a form with
 * neither health nor speed reads "Form of <hero>".
 */
function transformations(hero: Hero): APIEmbed {
  const shown = new Set<string>();
  const fields: APIEmbedField[] = [];
  for (const t of hero.transformations) {
    const name = heroName(t.name) ?? tr('hero:transformations.fallbackName');
    const stats = formStats(t);
    if (shown.has(name.toLowerCase()) && stats.length === 0) continue;
    shown.add(name.toLowerCase());
    fields.push({ name: escapeText(name, LIMITS.fieldName), value: stats.join('\n') || tr('hero:transformations.noStats'), inline: true });
  }
  return { ...baseEmbed(hero, 'transformations'), fields: fields.slice(0, 25), description: fields.length === 0 ? tr('hero:transformations.none') : undefined };
}

function lore(hero: Hero, page: number): { embed: APIEmbed; pages: number } {
  const parts = splitPages(hero.lore ?? '', LORE_PAGE_CHARS);
  const p = clampPage(page, parts.length);
  return { embed: { ...baseEmbed(hero, 'lore'), description: escapeText(parts[p - 1] ?? '', LIMITS.description) || tr('hero:lore.none') }, pages: parts.length };
}

async function stats(hero: Hero, ctx: CommandContext): Promise<{ embed: APIEmbed; fetched: Fetched<unknown> }> {
  const fetched = await ctx.api.heroStats(hero.id);
  const s = fetched.data;
  const per = (total: number | null) => (total === null || s.matches === 0 ? '—' : compactNumber(total / s.matches));
  const fields: APIEmbedField[] = [
    { name: tr('hero:stats.matches'), value: compactNumber(s.matches), inline: true },
    { name: tr('hero:stats.winRate'), value: winRate(s.wins, s.matches), inline: true },
    { name: tr('hero:stats.playTime'), value: duration(s.play_time), inline: true },
    { name: tr('hero:stats.averageKda'), value: s.k === null ? '—' : kda(s.k, s.d ?? 0, s.a ?? 0), inline: false },
    { name: tr('hero:stats.damage'), value: per(s.total_hero_damage), inline: true },
    { name: tr('hero:stats.healing'), value: per(s.total_hero_heal), inline: true },
    { name: tr('hero:stats.damageTaken'), value: per(s.total_damage_taken), inline: true },
    { name: tr('hero:stats.hitRate'), value: ratioPercent(s.session_hit_rate), inline: true },
    { name: tr('hero:stats.soloKills'), value: decimal(s.solo_kill, 2), inline: true },
  ];
  return { embed: { ...baseEmbed(hero, 'stats'), fields }, fetched };
}

async function leaderboard(hero: Hero, ctx: CommandContext): Promise<{ embed: APIEmbed; fetched: Fetched<unknown> }> {
  const fetched = await ctx.api.heroLeaderboard(hero.id, { platform: 'pc' });
  const lines = fetched.data.players.slice(0, LEADERBOARD_ROWS).map((p, i) => {
    const values = { count: p.matches ?? 0, rank: integer(i + 1), name: escapeText(p.name ?? p.player_uid), winRate: percent(p.win_rate), matches: integer(p.matches) };
    // Whole points, cut toward zero as src/game/ranks.ts rankScore does, but in the member's locale (rankScore formats in English).
    const score = p.rank?.rank_score;
    return score === null || score === undefined ? tr('hero:leaderboard.line', values) : tr('hero:leaderboard.lineWithScore', { ...values, score: integer(Math.trunc(score)) });
  });
  return {
    embed: { ...baseEmbed(hero, 'leaderboard'), description: lines.join('\n') || tr('hero:leaderboard.none'), footer: { text: tr('hero:leaderboard.footer') } },
    fetched,
  };
}

/**
 * One post of a hero's balance history as markdown of at most `budget` characters: its number on the
 * page, the verdict as a marker and a bold word, the date, the post's title (posts have no URL: the
 * read button numbered alike opens it, as /patch-notes does), then the lines the verdict was decided
 * from, quoted, each with its own marker, as many as fit.
 */
function balanceEntry(entry: HistoryEntry, n: number, budget: number): string {
  const head = truncate(
    `**${n}.** ${VERDICT_MARKERS[entry.verdict]} **${t.balanceVerdict(entry.verdict)}** · ${entry.date ? calendarDate(entry.date) : t.balanceNoDate()} · ${escapeText(entry.title, 150)}${aside(t.balanceKind(entry.kind))}`,
    budget,
  );
  const out = [head];
  let used = head.length;
  for (let i = 0; i < entry.lines.length; i++) {
    const line = entry.lines[i]!;
    const quoted = `> ${VERDICT_MARKERS[line.verdict]} ${escapeText(line.text, BALANCE_LINE_CHARS)}`;
    const left = entry.lines.length - i - 1;
    // Room for this line, and for the "and N more" line after it if any are left out.
    const more = left > 0 ? t.balanceMoreLines(left).length + 3 : 0;
    if (used + 1 + quoted.length + more > budget) {
      const rest = `> ${t.balanceMoreLines(entry.lines.length - i)}`;
      if (used + 1 + rest.length <= budget) out.push(rest);
      break;
    }
    out.push(quoted);
    used += 1 + quoted.length;
  }
  return out.join('\n');
}

/** The custom ID of the read button of a post (commands/patch-notes.ts `feed.read`); null for an id too long for one. */
function readPostId(entry: HistoryEntry): string | null {
  try {
    return encodeCustomId('feed.read', entry.kind === 'balance' ? 'balances' : 'patch-notes', entry.postId);
  } catch (err) {
    if (err instanceof CustomIdTooLongError) return null;
    throw err;
  }
}

/**
 * A hero's balance history (issue 13) at a page, newest post first, {@link BALANCE_PER_PAGE} a page,
 * with a row of buttons reading each post (the feed's `feed.read` button of /patch-notes). Without
 * entries it says whether the index is still being built or no post changed the hero.
 * @throws {StoreUnavailableError} when the store does not answer within its deadline.
 */
async function balanceHistory(hero: Hero, page: number, ctx: CommandContext): Promise<{ embed: APIEmbed; pages: number; rows: APIActionRowComponent<APIComponentInMessageActionRow>[] }> {
  const base = baseEmbed(hero, 'balance');
  const name = escapeText(heroDisplayName(hero), 100);
  if (!ctx.balance) return { embed: { ...base, description: t.balanceUnavailable() }, pages: 1, rows: [] };
  const { history } = ctx.balance;
  let p = Math.max(1, Number.isFinite(page) ? Math.trunc(page) : 1);
  let found = await history.forHero(hero.id, { limit: BALANCE_PER_PAGE, offset: (p - 1) * BALANCE_PER_PAGE });
  const pages = pageCount(found.total, BALANCE_PER_PAGE);
  if (found.entries.length === 0 && found.total > 0) {
    // A button from when the history was longer, or a page past the end: the last page.
    p = clampPage(p, pages);
    found = await history.forHero(hero.id, { limit: BALANCE_PER_PAGE, offset: (p - 1) * BALANCE_PER_PAGE });
  }
  if (found.total === 0) {
    const building = (await history.completedAt()) === null;
    return { embed: { ...base, description: building ? t.balanceBuilding(name) : t.balanceNone(name) }, pages: 1, rows: [] };
  }
  const description = found.entries.map((e, i) => balanceEntry(e, (p - 1) * BALANCE_PER_PAGE + i + 1, BALANCE_ENTRY_CHARS)).join('\n\n');
  const buttons = found.entries.flatMap((e, i) => {
    const customId = readPostId(e);
    return customId ? [{ type: ComponentType.Button as const, style: ButtonStyle.Secondary as const, label: t.balanceRead((p - 1) * BALANCE_PER_PAGE + i + 1), custom_id: customId }] : [];
  });
  return {
    embed: { ...base, description, footer: { text: t.balanceFooter(found.total) } },
    pages,
    rows: buttons.length > 0 ? [{ type: ComponentType.ActionRow, components: buttons }] : [],
  };
}

/** Builds the view of one section of a hero at a page. */
export async function heroView(hero: Hero, section: HeroSection, page: number, ctx: CommandContext, heroFetched?: Fetched<unknown>): Promise<View> {
  let embed: APIEmbed;
  let pages = 1;
  let fetched = heroFetched;
  let rows: APIActionRowComponent<APIComponentInMessageActionRow>[] = [];
  switch (section) {
    case 'overview':
      embed = overview(hero);
      break;
    case 'abilities':
      ({ embed, pages } = abilities(hero, page));
      break;
    case 'costumes': {
      const c = await costumes(hero, page, ctx);
      ({ embed, pages } = c);
      fetched = c.fetched ?? fetched;
      break;
    }
    case 'transformations':
      embed = transformations(hero);
      break;
    case 'lore':
      ({ embed, pages } = lore(hero, page));
      break;
    case 'stats':
      ({ embed, fetched } = await stats(hero, ctx));
      break;
    case 'leaderboard':
      ({ embed, fetched } = await leaderboard(hero, ctx));
      break;
    case 'balance':
      ({ embed, pages, rows } = await balanceHistory(hero, page, ctx));
      break;
  }
  const footer = staleFooter(fetched);
  if (footer) embed = { ...embed, footer };
  const nav = pageRow('hero.p', [hero.id, section], clampPage(page, pages), pages);
  return { embeds: [embed], components: [sectionMenu(hero.id, section), ...(nav ? [nav] : []), ...rows] };
}

async function loadHero(idOrName: string, ctx: CommandContext) {
  const resolved = await ctx.heroes.resolve(idOrName);
  // The detail endpoint is the authority for one hero; the list copy is the fallback.
  try {
    return await ctx.api.hero(resolved.id);
  } catch {
    return { data: resolved, fetchedAt: ctx.now(), ageMs: 0, stale: false, source: 'cache' as const };
  }
}

const sectionOf = (value: string | undefined): HeroSection => ((HERO_SECTIONS as readonly string[]).includes(value ?? '') ? (value as HeroSection) : 'overview');

export const hero: CommandModule = {
  definition,
  async execute(input, ctx) {
    const fetched = await loadHero(String(input.options.name ?? ''), ctx);
    return heroView(fetched.data, 'overview', 1, ctx, fetched);
  },
  components: {
    /** Section select: `hero.s:<heroId>` with the section as the chosen value. */
    'hero.s': async (input, ctx) => {
      const fetched = await loadHero(input.args[0] ?? '', ctx);
      return heroView(fetched.data, sectionOf(input.values[0]), 1, ctx, fetched);
    },
    /** Paginator: `hero.p:<heroId>:<section>:<page>:<kind>`. */
    'hero.p': async (input, ctx) => {
      const fetched = await loadHero(input.args[0] ?? '', ctx);
      return heroView(fetched.data, sectionOf(input.args[1]), pageFromArgs(input.args), ctx, fetched);
    },
  },
  async autocomplete(input, ctx) {
    return ctx.heroes.suggest(input.focused.value);
  },
};
