/**
 * `/hero name:<hero>`: a hero's overview and other sections (select menu). Data: api-spec.md endpoints 1, 2, 3 and 5; the balance
 * history from the store the balance indexer fills. The real hero list repeats abilities, mixes in "Base Stat" entries and empty
 * team-up placeholders, and leaves forms without health.
 */
import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIEmbedField,
} from 'discord-api-types/v10';
import type { Fetched } from '../src/api/client.js';
import type { Ability, Hero, Transformation } from '../src/api/schemas.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { seasonChoices } from '../src/catalog/choices.js';
import { seasonOption } from '../src/catalog/players.js';
import { listedOrThrow, listedSeasonLabel, listedSeasons, readHeroLeaderboard, readSeason, seasonNote } from '../src/catalog/season-list.js';
import type { Season } from '../src/game/seasons.js';
import { slashCommand } from '../src/discord/command.js';
import { CustomIdTooLongError, encodeCustomId } from '../src/render/custom-id.js';
import { aside, compactNumber, decimal, duration, integer, kda, percent, ratioPercent, titleCase, winRate } from '../src/i18n/format.js';
import { foldName } from '../src/game/fold.js';
import { describe } from '../src/i18n/commands.js';
import { heroDisplayName, heroName, roleName, teamName } from '../src/i18n/names.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { emojiBefore } from '../src/render/emojis.js';
import { clampPage, pageCount, pageFromArgs, pageRow, splitPages } from '../src/render/paginate.js';
import { calendarDate, roleColour, staleFooter } from '../src/render/common.js';
import type { View } from '../src/render/view.js';
import type { Verdict } from '../src/game/balance.js';
import type { HistoryEntry } from '../src/store/balance-history.js';
import { t } from '../src/render/strings.js';
import { tr } from '../src/i18n/index.js';

/** The part of a command's context /hero uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'balance' | 'heroes' | 'links' | 'logger' | 'now'>;

export const HERO_SECTIONS = ['overview', 'abilities', 'costumes', 'transformations', 'lore', 'stats', 'leaderboard', 'balance'] as const;
export type HeroSection = (typeof HERO_SECTIONS)[number];

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

const definition = slashCommand('hero')
  .addStringOption((o) => o.setName('name').setDescription(describe('hero.options.name')).setRequired(true).setAutocomplete(true))
  .addNumberOption((o) => o.setName('season').setDescription(describe('hero.options.season')).setMinValue(0).setMaxValue(99).setAutocomplete(true))
  .toJSON();

/** A season asked for, as custom IDs carry it after the hero (absent when none was). */
const seasonArgs = (season: Season | null): string[] => (season ? [season.number] : []);

function sectionMenu(heroId: string, current: HeroSection, season: Season | null): APIActionRowComponent<APIComponentInMessageActionRow> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: encodeCustomId('hero.s', heroId, ...seasonArgs(season)),
        placeholder: tr('hero:menuPlaceholder'),
        options: HERO_SECTIONS.map((s) => ({ label: sectionLabel(s), value: s, default: s === current })),
      },
    ],
  };
}

/** The section's embed header; `season` a season label the section's figures are of, after the section's name. */
function baseEmbed(hero: Hero, section: HeroSection, season?: string): APIEmbed {
  // Titles and author names are plain text here (the author line renders no markdown), so no escaping.
  const name = truncate(heroDisplayName(hero), LIMITS.title);
  const author = section === 'overview' ? (roleName(hero.role) ?? tr('hero:heroFallback')) : tr('hero:author', { hero: name, section: sectionLabel(section) });
  return {
    color: roleColour(hero.role),
    author: { name: season ? `${author} · ${season}` : author },
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
    { name: tr('hero:overview.role'), value: roleName(hero.role) ? `${emojiBefore('role', hero.role)}${roleName(hero.role)}` : '—', inline: true },
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

/** An ability's description and its fields ({@link KitAbility.fields}) as the lines of its embed field ("**Cooldown:** 8s"). */
function abilityText(fields: readonly AbilityField[], description: string | null): string {
  const lines = fields.map(([label, value]) => `**${escapeText(label)}:** ${escapeText(value)}`);
  return [description ? escapeText(description) : '', ...lines].filter(Boolean).join('\n') || '—';
}

/** The hero's teams as people write them ("Web Warriors", "X-Men"), each once. */
function teams(hero: Hero): string[] {
  return [...new Set(hero.team.map(teamName).filter(Boolean))];
}

/** One line of an ability's details: its label in one casing ("Team-Up Bonus", "Cooldown") and the API's value. */
export type AbilityField = readonly [label: string, value: string];

/** One entry of a hero's kit, as the abilities section shows it. */
export interface KitAbility {
  ability: Ability;
  /** The key binding in one casing ("Shift", "Left Click", "Q"), see {@link keyBinding}; null when the API gives none or "None". */
  key: string | null;
  /** The details after the description, without the key binding: labels in one casing ({@link fieldLabel}), {@link ABILITY_FIELD_ORDER} first, then the API's order. */
  fields: AbilityField[];
  /** The form the ability belongs to (its transformation's name, game casing), when `transformation_id` names one. */
  form: string | null;
  /** 1, 2... for abilities that share name, key, type and form but differ otherwise (shown as "variant 1"); else null. */
  variant: number | null;
}

const nameKey = (a: Ability) => (a.name ?? '').trim().toLowerCase();
/** A name folded for comparison ({@link foldName}: "Cloak & Dagger" = "cloak and dagger"); "" for none. */
const fold = (name: string | null | undefined) => foldName(name ?? '');
/** The start of a "Base Stat" entry's name or type ("Base Stat 1", "BaseStats", "base_stat"). */
const BASE_STAT = /^\s*base[\s_-]*stats?\b/i;
/** "Base Stat 1", "Base Stat 2" (by name, or by type where the API moves the word there): health and movement speed of a form, not abilities. */
const isBaseStat = (a: Ability) => BASE_STAT.test(a.name ?? '') || BASE_STAT.test(a.type ?? '');
/** Name spelled all in capitals ("FLEET FOOT"), where another record may spell it as the game does. */
const shouted = (name: string | null) => !!name && name === name.toUpperCase() && name !== name.toLowerCase();

/** Key values that mean "no key": the real data's "None" on a team-up passive, and its likely spellings. */
const NO_KEY = /^[[(]?\s*(none|n\/?a|null|-|\u2014)?\s*[\])]?$/i;

/** A key binding in one casing (the real data writes "SHIFT" and "Shift"): "q" → "Q", else title case; null for none ("None", "N/A"). */
export function keyBinding(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text || NO_KEY.test(text)) return null;
  return text.length === 1 ? text.toUpperCase() : titleCase(text.toLowerCase());
}

/** Words kept lower-case inside a field label (never first), as most of the API's labels write them ("Time Required to Leave Combat"). */
const MINOR_WORDS = new Set(['a', 'an', 'and', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'vs']);
/** Minor words inside a hyphenated word: the particles of "Pull-In" and "Locked-On" are capitalised, the "of" of "Out-of-Combat" is not. */
const MINOR_IN_COMPOUND = new Set(['a', 'an', 'and', 'of', 'or', 'the']);
/** Words the API spells more than one way inside a label ("CoolDown"), by their lower-case spelling. */
const LABEL_WORDS: Record<string, string> = { cooldown: 'Cooldown' };

/**
 * An `additional_fields` key in one casing, as most real labels are written: each word and hyphen part capitalised, minor words
 * lower-case after the first ("Team-up Bonus" → "Team-Up Bonus", "CoolDown" → "Cooldown"); the rest of a word kept ("KO").
 */
export function fieldLabel(key: string): string {
  let first = true;
  return key
    .trim()
    .split(/(\s+|\/)/)
    .map((word) => {
      if (word === '' || /^(\s+|\/)$/.test(word)) return word;
      const out = word
        .split('-')
        .map((part, i) => {
          const lower = part.toLowerCase();
          const letters = lower.replace(/[^\p{L}]/gu, '');
          if (Object.hasOwn(LABEL_WORDS, letters)) return lower.replace(letters, LABEL_WORDS[letters]!);
          if (i === 0 ? !first && MINOR_WORDS.has(letters) : MINOR_IN_COMPOUND.has(letters)) return lower;
          return part.replace(/^([("'\u201c]*)(\p{L})/u, (_, open: string, ch: string) => open + ch.toUpperCase());
        })
        .join('-');
      first = false;
      return out;
    })
    .join('');
}

/**
 * An ability's fields but the key binding, labelled by {@link fieldLabel} (keys differing only in casing are one), {@link ABILITY_FIELD_ORDER}
 * first, then the API's order. A key-binding field ("Key (Enhanced)") is cased by {@link keyBinding} and left out when none.
 */
function abilityFields(a: Ability): AbilityField[] {
  const byLabel = new Map<string, string>();
  for (const [key, value] of Object.entries(a.fields)) {
    if (key === 'Key') continue;
    const label = fieldLabel(key);
    const shownValue = /^key\b/i.test(label) ? keyBinding(value) : value.trim();
    if (!shownValue || [...byLabel.keys()].some((k) => k.toLowerCase() === label.toLowerCase())) continue;
    byLabel.set(label, shownValue);
  }
  const labels = [...byLabel.keys()];
  const ordered = [...ABILITY_FIELD_ORDER.filter((k) => byLabel.has(k)), ...labels.filter((k) => !ABILITY_FIELD_ORDER.includes(k))];
  return ordered.map((k) => [k, byLabel.get(k)!] as const);
}

/**
 * The hero's forms by transformation id: name (game casing), a grouping key, order. Same-named forms are one group (Hulk
 * lists "Bruce Banner" twice) unless more than one of them holds abilities of its own: then each is its own group, numbered
 * in the hero's order (Magik and her Darkchild form are both named "Magik").
 */
function formsById(hero: Hero): Map<string, { name: string; key: string; order: number }> {
  const used = new Set(hero.abilities.flatMap((a) => (a.transformation_id && !isBaseStat(a) ? [a.transformation_id] : [])));
  const holding = new Map<string, string[]>();
  for (const t of hero.transformations) {
    if (t.id && t.name?.trim() && used.has(t.id)) holding.set(fold(t.name), [...(holding.get(fold(t.name)) ?? []), t.id]);
  }
  const orderOf = new Map<string, number>();
  const out = new Map<string, { name: string; key: string; order: number }>();
  for (const t of hero.transformations) {
    const plain = heroName(t.name) ?? tr('hero:transformations.fallbackName');
    const twins = t.name?.trim() ? (holding.get(fold(t.name)) ?? []) : [];
    const apart = twins.length > 1 && !!t.id && twins.includes(t.id);
    // An unnamed form is its own group, never merged with another unnamed one.
    const key = apart ? `#${t.id}` : t.name?.trim() ? fold(t.name) : `#${t.id}`;
    const name = apart ? tr('hero:abilities.formNumbered', { form: plain, n: integer(twins.indexOf(t.id!) + 1) }) : plain;
    if (!orderOf.has(key)) orderOf.set(key, orderOf.size);
    if (t.id) out.set(t.id, { name, key, order: orderOf.get(key)! });
  }
  return out;
}

/**
 * A hero's abilities as players know the kit (api-spec.md Hero/Ability): no "Base Stat" entries or empty placeholders (the team-up
 * "UNITED SIBLINGS"), exact duplicates merged whatever their casing, grouped by form in the hero's order (no form last), same-named
 * ones together; those that still differ are told apart by key, type or form, else by {@link KitAbility.variant}.
 */
export function heroKit(hero: Hero): KitAbility[] {
  const forms = formsById(hero);
  const formOf = (a: Ability) => (a.transformation_id ? forms.get(a.transformation_id) : undefined);
  const kept = new Map<string, { entry: KitAbility; index: number }>();
  hero.abilities.forEach((ability, index) => {
    if (isBaseStat(ability)) return;
    const key = keyBinding(ability.fields.Key);
    const fields = abilityFields(ability);
    const description = ability.description?.trim() ?? '';
    if (!description && !key && fields.length === 0) return;
    const sortedFields = [...fields].sort(([x], [y]) => x.localeCompare(y));
    // The type is left out: Hulk's Heavy Blow is listed as a Weapon and as a Normal ability with the same content.
    const id = JSON.stringify([nameKey(ability), formOf(ability)?.key ?? null, description, key, sortedFields]);
    const seen = kept.get(id);
    if (!seen) kept.set(id, { entry: { ability, key, fields, form: formOf(ability)?.name ?? null, variant: null }, index });
    // Keep the first record's place, and the spelling that is not all capitals.
    else if (shouted(seen.entry.ability.name) && !shouted(ability.name)) seen.entry.ability = ability;
  });
  const firstOfName = new Map<string, number>();
  for (const { entry, index } of kept.values()) if (!firstOfName.has(nameKey(entry.ability))) firstOfName.set(nameKey(entry.ability), index);
  const order = (a: Ability) => formOf(a)?.order ?? Number.MAX_SAFE_INTEGER;
  const kit = [...kept.values()]
    .sort(
      (x, y) =>
        order(x.entry.ability) - order(y.entry.ability) ||
        firstOfName.get(nameKey(x.entry.ability))! - firstOfName.get(nameKey(y.entry.ability))! ||
        x.index - y.index,
    )
    .map(({ entry }) => entry);
  // Same name, key, type and form but different content: number them.
  const alike = new Map<string, KitAbility[]>();
  for (const k of kit) {
    const id = JSON.stringify([nameKey(k.ability), k.key ?? '', (k.ability.type ?? '').toLowerCase(), formOf(k.ability)?.key ?? '']);
    alike.set(id, [...(alike.get(id) ?? []), k]);
  }
  for (const group of alike.values()) if (group.length > 1) group.forEach((k, i) => (k.variant = i + 1));
  return kit;
}

/** The abilities section's pages: each form's abilities ({@link heroKit}) on pages of their own under its name; one group has no headings. */
function abilityPages(hero: Hero): { heading: string | null; abilities: KitAbility[] }[] {
  const groups: KitAbility[][] = [];
  for (const k of heroKit(hero)) {
    const last = groups.at(-1);
    if (last && last[0]!.form === k.form) last.push(k);
    else groups.push([k]);
  }
  const forms = formsById(hero);
  const formNames = new Set([...forms.values()].map((f) => f.key));
  const headed = groups.length > 1 || (groups.length === 1 && groups[0]![0]!.form !== null && formNames.size > 1);
  // A hero of several forms whose abilities name none (the real list): said, rather than leaving the reader to wonder.
  const untold = forms.size > 1 && groups.every((g) => g[0]!.form === null);
  return groups.flatMap((group) => {
    const form = group[0]!.form;
    const heading = untold
      ? tr('hero:abilities.formsUntold', { hero: escapeText(heroDisplayName(hero), 100) })
      : !headed
        ? null
        : form === null
          ? tr('hero:abilities.noForm')
          : tr('hero:abilities.formHeading', { form: escapeText(form, 100) });
    const pages: { heading: string | null; abilities: KitAbility[] }[] = [];
    for (let i = 0; i < group.length; i += ABILITIES_PER_PAGE) pages.push({ heading, abilities: group.slice(i, i + ABILITIES_PER_PAGE) });
    return pages;
  });
}

/** Key values that name a kind of ability, not a key to press ("Passive"). */
const KIND_KEYS = /^passive$/i;

/**
 * What an ability's title says of it: its key binding in brackets, and its kind beside the name, each word once. "Normal" is
 * every ability's type and says nothing; a key that names a kind ("Passive") goes beside the name with the type, not in brackets:
 * "[Q] Darkchild (Ultimate)", "Disc Master (Passive)", "[Shift] Stepping Discs".
 */
export function abilityKinds(key: string | null, type: string | null): { key: string | null; kind: string | null } {
  const words = [key && KIND_KEYS.test(key) ? key : null, type?.trim() && !/^normal$/i.test(type.trim()) ? type.trim() : null].filter(
    (w): w is string => w !== null,
  );
  const once = words.filter((w, i) => words.findIndex((x) => x.toLowerCase() === w.toLowerCase()) === i);
  return { key: key && !KIND_KEYS.test(key) ? key : null, kind: once.length > 0 ? once.join(' · ') : null };
}

/** The abilities section at a page ({@link abilityPages}). */
function abilities(hero: Hero, page: number): { embed: APIEmbed; pages: number } {
  const all = abilityPages(hero);
  const pages = Math.max(1, all.length);
  const shown = all[clampPage(page, pages) - 1];
  const fields = (shown?.abilities ?? []).map(({ ability: a, key, fields: details, variant }) => {
    const suffix = variant === null ? '' : ` · ${tr('hero:abilities.variant', { n: integer(variant) })}`;
    const kinds = abilityKinds(key, a.type);
    return {
      name: escapeText(
        `${kinds.key ? `[${kinds.key}] ` : ''}${a.name ?? tr('hero:abilities.fallbackName')}${kinds.kind ? aside(kinds.kind) : ''}${suffix}`,
        LIMITS.fieldName,
      ),
      value: abilityText(details, a.description),
    };
  });
  const description = fields.length === 0 ? tr('hero:abilities.none') : (shown?.heading ?? undefined);
  return { embed: { ...baseEmbed(hero, 'abilities'), fields, description }, pages };
}

/** Quality values that say nothing of a costume: the spec's NO_QUALITY, the real data's "Default" (every costume of the real list), none. */
const BLANK_QUALITY = /^(no[\s_-]*quality|default|none)$/i;
/** Values that name no quality at all, never shown even beside costumes that have one. */
const NO_QUALITY = /^(no[\s_-]*quality|none)$/i;

/** Each costume's quality label in list order: none when all are {@link BLANK_QUALITY}; else as given, a shouted one title-cased, none for NO_QUALITY. */
function costumeLabels(labels: (string | null)[]): (string | null)[] {
  if (labels.every((l) => !l?.trim() || BLANK_QUALITY.test(l.trim()))) return labels.map(() => null);
  return labels.map((l) => {
    const text = l?.trim();
    if (!text || NO_QUALITY.test(text)) return null;
    return shouted(text) ? titleCase(text.toLowerCase().replace(/_+/g, ' ')) : text;
  });
}

/** Costumes from the costume endpoint (4), falling back to those embedded in the hero. */
async function costumes(hero: Hero, page: number, ctx: Ctx): Promise<{ embed: APIEmbed; pages: number; fetched?: Fetched<unknown> }> {
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
  const labels = costumeLabels(list.map((c) => c.label));
  list = list.map((c, i) => ({ ...c, label: labels[i]! }));
  const pages = pageCount(list.length, COSTUMES_PER_PAGE);
  const p = clampPage(page, pages);
  const shown = list.slice((p - 1) * COSTUMES_PER_PAGE, p * COSTUMES_PER_PAGE);
  const lines = shown.map((c) => `**${escapeText(c.name ?? tr('hero:costumes.fallbackName'))}**${c.label ? ` · ${escapeText(c.label)}` : ''}`);
  return {
    embed: {
      ...baseEmbed(hero, 'costumes'),
      description: lines.join('\n') || tr('hero:costumes.none'),
      image: shown[0]?.icon ? { url: shown[0].icon } : undefined,
    },
    pages,
    fetched,
  };
}

/** A form's health (points) and movement speed (m/s); null for what is not known. */
export interface FormStats {
  health: number | null;
  speed: number | null;
}

/** Labels, letters only and lower-case, of a "Base Stat" entry's health and movement speed. */
const HEALTH_FIELDS = new Set(['health', 'maxhealth', 'basehealth', 'hp', 'maxhp']);
const SPEED_FIELDS = new Set(['movementspeed', 'movespeed', 'speed', 'basespeed', 'basemovementspeed']);

/** A "Base Stat" number ("1,200", "6 m/s", "250 HP"); null for 0, the API's "not given"; NaN for anything else, not guessed at. */
function baseStatNumber(value: string): number | null {
  const text = value.trim().replace(/\s*(m\/s|hp)$/i, '');
  const n = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) ? Number(text.replace(/,/g, '')) : /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  return n === 0 ? null : n;
}

/**
 * Health and speed from "Base Stat" entries by the form they describe: the one their `transformation_id` or name names, else
 * the hero's own form. Disagreeing entries or a value that is not one number give nothing. Real forms may have health "0".
 */
export function baseStats(hero: Hero): Map<string, FormStats> {
  const own = hero.transformations.find((t) => t.name && fold(t.name) === fold(hero.name)) ?? hero.transformations[0];
  const found = new Map<string, { health: Set<number>; speed: Set<number> }>();
  for (const a of hero.abilities) {
    if (!isBaseStat(a)) continue;
    const named = fold((a.name ?? '').replace(BASE_STAT, ''));
    const form =
      hero.transformations.find((t) => a.transformation_id && t.id === a.transformation_id) ??
      (named ? hero.transformations.find((t) => t.name && fold(t.name) === named) : undefined) ??
      own;
    if (!form?.id) continue;
    const stats = found.get(form.id) ?? { health: new Set<number>(), speed: new Set<number>() };
    for (const [key, value] of Object.entries(a.fields)) {
      const label = key.toLowerCase().replace(/[^a-z]/g, '');
      const n = baseStatNumber(value);
      if (n === null) continue;
      if (HEALTH_FIELDS.has(label)) stats.health.add(n);
      else if (SPEED_FIELDS.has(label)) stats.speed.add(n);
    }
    found.set(form.id, stats);
  }
  // NaN (unreadable) is a value of its own: with it the set never holds exactly one number.
  const one = (values: Set<number>) => (values.size === 1 && !values.has(Number.NaN) ? [...values][0]! : null);
  return new Map([...found].map(([id, s]) => [id, { health: one(s.health), speed: one(s.speed) }]));
}

/** A form's health and speed as lines: its own, else its "Base Stat" entry's. */
function formStats(t: Transformation, fill: FormStats | undefined): string[] {
  const health = t.health || fill?.health;
  const movement = t.movement_speed || fill?.speed;
  const speed = (v: number) => (Number.isInteger(v) ? integer(v) : decimal(v, Number.isInteger(v * 10) ? 1 : 2));
  return [
    health ? tr('hero:transformations.health', { health: integer(health) }) : '',
    movement ? tr('hero:transformations.speed', { speed: speed(movement) }) : '',
  ].filter(Boolean);
}

/** The hero's forms with health and speed (m/s), from {@link baseStats} when a form has none; a repeated name with nothing of its own shown once. */
function transformations(hero: Hero): APIEmbed {
  const fills = baseStats(hero);
  const shown = new Set<string>();
  const fields: APIEmbedField[] = [];
  for (const t of hero.transformations) {
    const name = heroName(t.name) ?? tr('hero:transformations.fallbackName');
    const stats = formStats(t, t.id ? fills.get(t.id) : undefined);
    if (shown.has(name.toLowerCase()) && stats.length === 0) continue;
    shown.add(name.toLowerCase());
    fields.push({ name: escapeText(name, LIMITS.fieldName), value: stats.join('\n') || tr('hero:transformations.noStats'), inline: true });
  }
  return { ...baseEmbed(hero, 'transformations'), fields: fields.slice(0, 25), description: fields.length === 0 ? tr('hero:transformations.none') : undefined };
}

function lore(hero: Hero, page: number): { embed: APIEmbed; pages: number } {
  const parts = splitPages(hero.lore ?? '', LORE_PAGE_CHARS);
  const p = clampPage(page, parts.length);
  return {
    embed: { ...baseEmbed(hero, 'lore'), description: escapeText(parts[p - 1] ?? '', LIMITS.description) || tr('hero:lore.none') },
    pages: parts.length,
  };
}

/**
 * A hero's statistics, of `season` when asked. The spec documents no season on them and their body names none: an answer
 * the same as the current season's (matches, wins and play time) is said to be the current season's, a refusal too.
 */
async function stats(hero: Hero, season: Season | null, ctx: Ctx): Promise<{ embed: APIEmbed; fetched: Fetched<unknown> }> {
  const current = () => ctx.api.heroStats(hero.id);
  const listed = season ? await listedSeasons(ctx) : [];
  listedOrThrow(season, listed);
  const [{ fetched, refused }, now] = await Promise.all([
    readSeason(season, () => ctx.api.heroStats(hero.id, { season: season?.number }), current),
    season ? current().catch(() => null) : Promise.resolve(null),
  ]);
  const s = fetched.data;
  const same = now !== null && now.data.matches === s.matches && now.data.wins === s.wins && now.data.play_time === s.play_time;
  const note =
    season && !refused && same
      ? tr('leaderboard:season.current', { asked: listedSeasonLabel(season, listed) })
      : seasonNote(season, refused ? null : season, refused, listed);
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
  const base = baseEmbed(hero, 'stats', season && !refused && !same ? listedSeasonLabel(season, listed) : undefined);
  return { embed: { ...base, fields, description: note ?? undefined }, fetched };
}

/** The hero's PC leaderboard's top ten, of `season` when asked; the season its entries are ranked in is named. */
async function leaderboard(hero: Hero, season: Season | null, ctx: Ctx): Promise<{ embed: APIEmbed; fetched: Fetched<unknown> }> {
  const { fetched, listed, answered, note } = await readHeroLeaderboard(hero.id, 'pc', season, ctx);
  const lines = fetched.data.players.slice(0, LEADERBOARD_ROWS).map((p, i) => {
    const values = {
      count: p.matches ?? 0,
      rank: integer(i + 1),
      name: escapeText(p.name ?? p.player_uid),
      winRate: percent(p.win_rate),
      matches: integer(p.matches),
    };
    // Whole points, cut toward zero as rankScore does, but in the member's locale (rankScore formats in English).
    const score = p.rank?.rank_score;
    return score === null || score === undefined
      ? tr('hero:leaderboard.line', values)
      : tr('hero:leaderboard.lineWithScore', { ...values, score: integer(Math.trunc(score)) });
  });
  return {
    embed: {
      ...baseEmbed(hero, 'leaderboard', answered ? listedSeasonLabel(answered, listed) : undefined),
      description: [lines.join('\n') || tr('hero:leaderboard.none'), ...(note ? ['', note] : [])].join('\n'),
      footer: { text: tr('hero:leaderboard.footer') },
    },
    fetched,
  };
}

/**
 * One post of a hero's balance history in at most `budget` characters: number, verdict, date and title (posts have no URL:
 * the read button numbered alike opens it), then as many of the lines the verdict was decided from as fit.
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
 * A hero's balance history at a page, newest first, with a button reading each post (`feed.read` of /patch-notes); without entries,
 * whether the index is still being built. @throws {StoreUnavailableError} when the store does not answer within its deadline.
 */
async function balanceHistory(
  hero: Hero,
  page: number,
  ctx: Ctx,
): Promise<{ embed: APIEmbed; pages: number; rows: APIActionRowComponent<APIComponentInMessageActionRow>[] }> {
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
    return customId
      ? [
          {
            type: ComponentType.Button as const,
            style: ButtonStyle.Secondary as const,
            label: t.balanceRead((p - 1) * BALANCE_PER_PAGE + i + 1),
            custom_id: customId,
          },
        ]
      : [];
  });
  return {
    embed: { ...base, description, footer: { text: t.balanceFooter(found.total) } },
    pages,
    rows: buttons.length > 0 ? [{ type: ComponentType.ActionRow, components: buttons }] : [],
  };
}

/** Builds the view of one section of a hero at a page. */
export async function heroView(
  hero: Hero,
  section: HeroSection,
  page: number,
  ctx: Ctx,
  heroFetched?: Fetched<unknown>,
  season: Season | null = null,
): Promise<View> {
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
      ({ embed, fetched } = await stats(hero, season, ctx));
      break;
    case 'leaderboard':
      ({ embed, fetched } = await leaderboard(hero, season, ctx));
      break;
    case 'balance':
      ({ embed, pages, rows } = await balanceHistory(hero, page, ctx));
      break;
  }
  const footer = staleFooter(fetched);
  if (footer) embed = { ...embed, footer };
  const nav = pageRow('hero.p', [hero.id, section, ...seasonArgs(season)], clampPage(page, pages), pages);
  return { embeds: [embed], components: [sectionMenu(hero.id, section, season), ...(nav ? [nav] : []), ...rows] };
}

async function loadHero(idOrName: string, ctx: Ctx) {
  const resolved = await ctx.heroes.resolve(idOrName);
  // The detail endpoint is the authority for one hero; the list copy is the fallback.
  try {
    return await ctx.api.hero(resolved.id);
  } catch {
    return { data: resolved, fetchedAt: ctx.now(), ageMs: 0, stale: false, source: 'cache' as const };
  }
}

const sectionOf = (value: string | undefined): HeroSection =>
  (HERO_SECTIONS as readonly string[]).includes(value ?? '') ? (value as HeroSection) : 'overview';

export const hero: CommandModule = {
  apiOptions: { hero: 'name', heroStats: 'name', heroCostumes: 'name', season: 'season' },
  definition,
  async execute(input, ctx: Ctx) {
    // A season asked for opens the statistics of that season: the overview has none.
    const season = seasonOption(input.options.season);
    const fetched = await loadHero(String(input.options.name ?? ''), ctx);
    return heroView(fetched.data, season ? 'stats' : 'overview', 1, ctx, fetched, season);
  },
  components: {
    /** Section select: `hero.s:<heroId>[:<season>]` with the section as the chosen value. */
    'hero.s': async (input, ctx: Ctx) => {
      const fetched = await loadHero(input.args[0] ?? '', ctx);
      return heroView(fetched.data, sectionOf(input.values[0]), 1, ctx, fetched, input.args[1] ? seasonOption(input.args[1]) : null);
    },
    /** Paginator: `hero.p:<heroId>:<section>[:<season>]:<page>:<kind>`. */
    'hero.p': async (input, ctx: Ctx) => {
      const fetched = await loadHero(input.args[0] ?? '', ctx);
      const season = input.args.length >= 5 ? seasonOption(input.args[2]) : null;
      return heroView(fetched.data, sectionOf(input.args[1]), pageFromArgs(input.args), ctx, fetched, season);
    },
  },
  async autocomplete(input, ctx: Ctx) {
    if (input.focused.name === 'season') return seasonChoices(input.focused.value, null, input.user.userId, ctx);
    return ctx.heroes.suggest(input.focused.value);
  },
};
