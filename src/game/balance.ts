/**
 * Which lines of a balance post or patch note (api-spec.md "Post" `fullContent`) changed which hero, and
 * whether for better or worse. Real posts use two layouts: hero headings with bullet lines, and one-line
 * "Hulk: …" changes. Names match on whole words only, so "Thor" is not found in "Author". Never throws.
 */

export type Verdict = 'buff' | 'nerf' | 'adjusted' | 'fixed';

export const VERDICTS: readonly Verdict[] = ['buff', 'nerf', 'adjusted', 'fixed'];

export interface ChangeLine {
  /** Prefixed with its sub-headings ("Bruce Banner · Gamma Ray Gun · Damage…"); at most {@link MAX_LINE_CHARS}. */
  text: string;
  verdict: Verdict;
}

/** `lines` in post order, never empty, at most {@link MAX_LINES}. */
export interface HeroChange {
  heroId: string;
  verdict: Verdict;
  lines: ChangeLine[];
}

export const MAX_LINES = 40;
export const MAX_LINE_CHARS = 300;

export interface CatalogHero {
  id: string;
  /** Lower-case, as the API gives it ("cloak & dagger"). */
  name: string;
  transformations?: { name: string | null }[];
  abilities?: { name: string | null }[];
}

/** Other names, by the API's name. `heading` ones only count as a whole heading: "Thing" is a common word. */
export const HERO_ALIASES: Readonly<Record<string, { text?: string[]; heading?: string[] }>> = {
  'cloak & dagger': { text: ['cloak and dagger'] },
  'jeff the land shark': { text: ['jeff'] },
  'the thing': { heading: ['thing'] },
  'the punisher': { text: ['punisher'] },
  'spider-man': { text: ['spiderman'] },
  'star-lord': { text: ['starlord'] },
  'doctor strange': { text: ['dr. strange', 'dr strange'] },
  'mister fantastic': { text: ['mr. fantastic', 'mr fantastic'] },
  'rocket raccoon': { heading: ['rocket'] },
  'human torch': { text: ['johnny storm'] },
  'invisible woman': { text: ['sue storm'] },
};

interface Pattern {
  /** Null for an ability name that only hides the hero names inside it. */
  heroId: string | null;
  regex: RegExp;
  ability: boolean;
}

/** `exact`: {@link nameKey} of a name, form or alias → hero; `abilities`: lower-cased, by hero id. */
export interface HeroCatalog {
  readonly ids: readonly string[];
  readonly exact: ReadonlyMap<string, { heroId: string; form: string | null }>;
  readonly abilities: ReadonlyMap<string, ReadonlySet<string>>;
  readonly patterns: readonly Pattern[];
}

/** "Spider-Man" and "spider man" are one key; `&` reads as "and". */
export function nameKey(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Shared by every catalog and post; cleared past {@link MAX_PATTERNS}, as the API decides how many names there are. */
const patternCache = new Map<string, RegExp | null>();
const MAX_PATTERNS = 5_000;

/**
 * Global, case-insensitive, shared. No word boundaries of its own (use {@link wholeWords}): Unicode-aware
 * lookbehinds are slow to compile, and hundreds are compiled at start-up.
 */
function namePattern(name: string): RegExp | null {
  const lower = name.toLowerCase();
  const cached = patternCache.get(lower);
  if (cached !== undefined) return cached;
  const tokens = lower.split(/[\s\-\u2010\u2013]+/).filter(Boolean);
  const body = tokens.map((t) => (t === '&' || t === 'and' ? '(?:&|and)' : escapeRegex(t).replace(/\\\./g, '\\.?'))).join('[\\s\\-\\u2010\\u2013]*');
  const regex = tokens.length === 0 ? null : new RegExp(body, 'gi');
  if (patternCache.size >= MAX_PATTERNS) patternCache.clear();
  patternCache.set(lower, regex);
  return regex;
}

const WORD_CHAR_BEFORE = /[\p{L}\p{N}]$/u;
const WORD_CHAR_AFTER = /^[\p{L}\p{N}]/u;

/** Non-overlapping; a match that fails the test is retried one character later, as a lookbehind would be. */
function* wholeWords(regex: RegExp, text: string): Generator<{ start: number; end: number }> {
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (end > start && !WORD_CHAR_BEFORE.test(text.slice(Math.max(0, start - 2), start)) && !WORD_CHAR_AFTER.test(text.slice(end, end + 2))) {
      // Read before yielding: the consumer may run the same shared pattern.
      const next = end;
      yield { start, end };
      regex.lastIndex = next;
    } else {
      regex.lastIndex = start + 1;
    }
  }
}

function replaceWholeWords(text: string, regex: RegExp, by: string): string {
  let out = '';
  let last = 0;
  for (const w of wholeWords(regex, text)) {
    out += text.slice(last, w.start) + by;
    last = w.end;
  }
  return last === 0 ? text : out + text.slice(last);
}

const titleCase = (s: string) => s.replace(/(^|[\s\-&])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());

/** From the hero list (api-spec.md endpoint 1). A name shared by two heroes is given to neither. */
export function heroCatalog(heroes: readonly CatalogHero[]): HeroCatalog {
  const exact = new Map<string, { heroId: string; form: string | null }>();
  const ambiguous = new Set<string>();
  const inText = new Map<string, string>();
  const abilities = new Map<string, Set<string>>();
  const put = (name: string, heroId: string, form: string | null, text: boolean) => {
    const key = nameKey(name);
    if (key === '') return;
    const seen = exact.get(key);
    if (seen && seen.heroId !== heroId) ambiguous.add(key);
    else if (!seen || (seen.form !== null && form === null)) exact.set(key, { heroId, form });
    if (text) {
      const prior = inText.get(name.toLowerCase());
      if (prior !== undefined && prior !== heroId) ambiguous.add(key);
      else inText.set(name.toLowerCase(), heroId);
    }
  };
  for (const hero of heroes) {
    const main = hero.name.trim().toLowerCase();
    if (!main) continue;
    put(main, hero.id, null, true);
    const aliases = Object.hasOwn(HERO_ALIASES, main) ? HERO_ALIASES[main]! : {};
    for (const alias of aliases.text ?? []) put(alias, hero.id, null, true);
    for (const alias of aliases.heading ?? []) put(alias, hero.id, null, false);
    for (const t of hero.transformations ?? []) {
      const form = t.name?.trim();
      if (form && nameKey(form) !== nameKey(main)) put(form, hero.id, titleCase(form.toLowerCase()), true);
    }
    abilities.set(hero.id, new Set((hero.abilities ?? []).map((a) => a.name?.trim().toLowerCase() ?? '').filter(Boolean)));
  }
  for (const key of ambiguous) exact.delete(key);
  const patterns: Pattern[] = [];
  for (const [name, heroId] of inText) {
    if (ambiguous.has(nameKey(name))) continue;
    const regex = namePattern(name);
    if (regex) patterns.push({ heroId, regex, ability: false });
  }
  // Multi-word ability names that hold a hero's name ("Dagger Storm" holds Storm's) hide it; one that
  // holds its own hero's name ("Thor's Hammer" of Thor's) names that hero.
  const heroPatterns = [...patterns];
  const owners = new Map<string, Set<string>>();
  for (const [heroId, names] of abilities) for (const ability of names) owners.set(ability, (owners.get(ability) ?? new Set()).add(heroId));
  for (const [ability, heroIds] of owners) {
    if (!/\s/.test(ability) || exact.has(nameKey(ability))) continue;
    const inside = heroPatterns.filter((p) => !wholeWords(p.regex, ability).next().done).map((p) => p.heroId);
    if (inside.length === 0) continue;
    const owner = heroIds.size === 1 ? [...heroIds][0]! : null;
    const regex = namePattern(ability);
    if (regex) patterns.push({ heroId: owner !== null && inside.includes(owner) ? owner : null, regex, ability: true });
  }
  return { ids: [...new Set(heroes.map((h) => h.id))].sort(), exact, abilities, patterns };
}

interface Found {
  heroId: string;
  start: number;
  end: number;
  /** Followed by `'s` or `'`: the subject of the sentence. */
  possessive: boolean;
  ability: boolean;
}

function findHeroes(text: string, catalog: HeroCatalog): Found[] {
  const all: { heroId: string | null; start: number; end: number; ability: boolean }[] = [];
  for (const p of catalog.patterns) {
    for (const w of wholeWords(p.regex, text)) all.push({ heroId: p.heroId, start: w.start, end: w.end, ability: p.ability });
  }
  all.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const chosen: typeof all = [];
  for (const f of all) {
    const last = chosen[chosen.length - 1];
    if (!last || f.start >= last.end) chosen.push(f);
    else if (f.end - f.start > last.end - last.start) chosen[chosen.length - 1] = f;
  }
  const kept: Found[] = [];
  for (const f of chosen) {
    if (f.heroId === null) continue;
    kept.push({
      heroId: f.heroId,
      start: f.start,
      end: f.end,
      ability: f.ability,
      possessive: /^['\u2019]s?(?![\p{L}\p{N}])/u.test(text.slice(f.end, f.end + 3)),
    });
  }
  return kept;
}

/** For a bug-fix line: heroes named possessively ("Storm's Bolt Rush"), else all named; each once. */
export function heroesNamedIn(text: string, catalog: HeroCatalog): string[] {
  const found = findHeroes(text, catalog);
  const subjects = found.some((f) => f.possessive) ? found.filter((f) => f.possessive) : found;
  return [...new Set(subjects.map((f) => f.heroId))];
}

function headingHero(text: string, catalog: HeroCatalog): { heroId: string; form: string | null } | null {
  const bare = text.replace(/\s*[([][^)\]]*[)\]]\s*/g, ' ').replace(/[:\uFF1A]\s*$/, '');
  return catalog.exact.get(nameKey(bare)) ?? null;
}

/** "Hulk: …", "Hulk (Hero Hulk): …", "Hulk's Gamma Burst: …", "Hulk - Gamma Burst: …". */
function oneLineHero(text: string, catalog: HeroCatalog): { heroId: string; rest: string } | null {
  const m = /^([^:\uFF1A]{1,60})[:\uFF1A]\s*(\S.*)$/su.exec(text);
  if (!m) return null;
  const prefix = m[1]!.trim();
  const rest = m[2]!;
  const whole = headingHero(prefix, catalog);
  if (whole) return { heroId: whole.heroId, rest };
  const first = findHeroes(prefix, catalog)[0];
  if (first && !first.ability && first.start === 0 && /^(?:\s*[-\u2013\u2014(,/]|['\u2019]s?(?![\p{L}\p{N}])|\s*$)/u.test(prefix.slice(first.end)))
    return { heroId: first.heroId, rest };
  return null;
}

const ROLE_HEADING = /^(?:vanguards?|duelists?|strategists?|tanks?|supports?)(?:\s+(?:heroes|changes|adjustments|balance))?$/i;
const BUG_HEADING = /^(?:[\p{L}&'\u2019-]+\s+){0,3}(?:bug\s*fix(?:es)?|fixes|fixed\s+issues|known\s+issues|bugs)[:\uFF1A]?$/iu;
/** "Balance Changes": a heading even though it says "changes". */
const SECTION_TITLE =
  /^(?:[\p{L}\d&'\u2019-]+\s+){0,4}(?:changes|adjustments|updates|balance|content|notes|comments|heroes|improvements|optimi[sz]ations|issues)[:\uFF1A]?$/iu;
/** Ends a "Bug Fixes" section; others inside it ("Heroes", "Maps") are its parts. */
const TOP_SECTION = /\b(?:balance|adjustments?|changes|content|optimi[sz]ations?|improvements?|events?|store|shop|updates?|seasons?|launch|new)\b/i;
const COMMENT_HEADING = /^(?:dev(?:eloper)?s?['\u2019]?\s*|designer['\u2019]?s?\s*)?(?:comments?|notes?|insights?|thoughts?)$/i;
/** Ends a hero's paragraph; any other heading inside one is a sub-heading. */
const SECTION_HEADING =
  /\b(?:balance|adjustments?|changes|updates?|heroes|hero\s+(?:changes|balance|adjustments|updates)|new|content|events?|store|shop|maps?|modes?|seasons?|competitive|ranked|matchmaking|optimi[sz]ations?|performance|systems?|audio|ui|interface|general|other|team[-\s]?ups?|launch|patch|version|achievements?|cosmetics?|costumes?|rewards?|progression|social|settings|overview|summary|highlights?|gameplay|battle\s*pass)\b/i;
const COMMENT_LABEL =
  /^(?:dev(?:eloper)?s?['\u2019]?\s*(?:comments?|notes?|insights?|thoughts?)|designer['\u2019]?s?\s*(?:comments?|notes?)|note)\b\s*[:\uFF1A-]?/i;
const FIRST_PERSON =
  /^(?:we|we['\u2019](?:re|ve|ll|d)|our|us|this\s+(?:change|update|adjustment|should|will|means)|these\s+(?:changes|adjustments)|with\s+(?:this|these)\b)\b/i;
const FIX_LINE =
  /^(?:fixed|fixes|resolved|addressed|corrected)\b(?!\s+(?:damage|amount|value|rate|number)\b)|\bfix(?:ed|es)?\s+(?:an?\s+|the\s+|some\s+|several\s+|a\s+rare\s+)?(?:issues?|bugs?|problems?)\b/i;

const NUM = String.raw`[-+]?\d[\d,]*(?:\.\d+)?(?:\s*\/\s*[-+]?\d[\d,]*(?:\.\d+)?)*`;
const UNIT = String.raw`(?:\s*(?:%|m\/s|seconds?|secs?|ms|s|meters?|metres?|m|hp|points?|pts|x|units?|per\s+(?:second|round|shot|hit|tick)))?`;
const FROM_TO = new RegExp(String.raw`\bfrom\s+(${NUM})${UNIT}\s+to\s+(${NUM})`, 'giu');
const ARROW = new RegExp(String.raw`(${NUM})${UNIT}\s*(?:->|\u2192|\u21D2|=>|\u279C|\u2794)\s*(${NUM})`, 'giu');
const WAS = new RegExp(String.raw`(${NUM})${UNIT}(?:\s+[\p{L}-]+){0,3}\s*\(\s*(?:was|previously|formerly|from|up\s+from|down\s+from)\s+(${NUM})`, 'giu');
const UP_WORDS =
  /\b(?:increase[sd]?|increasing|raise[sd]?|raising|extend(?:s|ed|ing)?|lengthen(?:s|ed|ing)?|grow(?:s|n)?|grew|higher|greater|larger|longer)\b/i;
const DOWN_WORDS = /\b(?:reduce[sd]?|reducing|decrease[sd]?|decreasing|lower(?:s|ed|ing)?|shorten(?:s|ed|ing)?|diminish(?:es|ed)?|smaller|shorter)\b/i;
const BETTER_WORDS = /\b(?:improve[sd]?|improving|enhance[sd]?|strengthen(?:s|ed)?|buff(?:s|ed)?)\b/i;
const WORSE_WORDS = /\b(?:weaken(?:s|ed)?|nerf(?:s|ed)?|worsen(?:s|ed)?)\b/i;
const NEUTRAL_WORDS =
  /\b(?:adjust(?:s|ed|ment)?|rework(?:s|ed)?|redesign(?:s|ed)?|chang(?:e|es|ed)|modif(?:y|ies|ied)|replace[sd]?|no\s+longer|now|removed?|added?|swap(?:s|ped)?)\b/i;
/** Stats where more is worse for the hero (cooldown, cost, spread, damage taken…). */
const INVERTED_STAT =
  /\b(?:cool[\s-]?downs?|cds?|costs?|energy\s+(?:required|requirements?|needed)|(?:ultimate\s+)?charge\s+(?:required|needed)|cast(?:ing)?\s+(?:times?|delay)|wind[\s-]?ups?|start[\s-]?up|recovery|spread|recoil|fall[\s-]?off|falloff|reload\s+(?:times?|duration)|charge\s+times?|delays?|intervals?|self[\s-]?damage|damage\s+taken|incoming\s+damage|lockout|penalty)\b/i;
/** Read as inverted above but are not ("health recovery", "cooldown reduction"). */
const POSITIVE_OVERRIDE =
  /\b(?:(?:health|hp|shield|energy|ammo)\s+(?:recovery|regen(?:eration)?)|(?:cool[\s-]?down|cost|spread|recoil|damage\s+taken|incoming\s+damage)\s+reduction)\b/i;
const ANY_STAT = new RegExp(
  String.raw`${INVERTED_STAT.source}|\b(?:damage|health|hp|healing|heal|range|radius|duration|speed|ammo|magazine|shield|bonus|lifesteal|energy|charges?|distance|width|size|knockback|slow|stun|projectiles?|rate|multiplier|armor|armour|regen(?:eration)?)\b`,
  'i',
);

const toNumbers = (s: string) => s.split('/').map((n) => Number(n.replace(/[,\s]/g, '')));

/** "from 5 to 6", "5 → 6", "6 (was 5)": 1 up, -1 down, 0 same or mixed, null none. */
function numberDirection(clause: string): 1 | -1 | 0 | null {
  const pairs: [string, string][] = [];
  for (const re of [FROM_TO, ARROW]) {
    re.lastIndex = 0;
    for (const m of clause.matchAll(re)) pairs.push([m[1]!, m[2]!]);
  }
  WAS.lastIndex = 0;
  for (const m of clause.matchAll(WAS)) pairs.push([m[2]!, m[1]!]);
  if (pairs.length === 0) return null;
  const signs = new Set<number>();
  for (const [from, to] of pairs) {
    const a = toNumbers(from);
    const b = toNumbers(to);
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (Number.isFinite(a[i]!) && Number.isFinite(b[i]!)) signs.add(Math.sign(b[i]! - a[i]!));
    }
  }
  if (signs.size === 0) return null;
  if (signs.size > 1) return signs.has(1) && signs.has(-1) ? 0 : signs.has(1) ? 1 : signs.has(-1) ? -1 : 0;
  const only = [...signs][0]!;
  return only > 0 ? 1 : only < 0 ? -1 : 0;
}

/** Keeps number groups ("3,400") whole. */
function clauses(text: string): string[] {
  return text
    .split(/;|,\s+(?:and\s+|but\s+|while\s+)?|\s+(?:and|but|while|whereas|plus)\s+/i)
    .map((c) => c.trim())
    .filter(Boolean);
}

function clauseVerdict(text: string, inverted: boolean): Verdict | null {
  const clause = text.replace(/\bno\s+longer\b/gi, 'now not');
  const numbers = numberDirection(clause);
  let direction: 1 | -1 | 0 | null = numbers;
  if (direction === null) {
    const up = UP_WORDS.test(clause);
    const down = DOWN_WORDS.test(clause);
    if (up && down) direction = 0;
    else if (up) direction = 1;
    else if (down) direction = -1;
  }
  if (direction === null) {
    if (BETTER_WORDS.test(clause) && !WORSE_WORDS.test(clause)) return 'buff';
    if (WORSE_WORDS.test(clause) && !BETTER_WORDS.test(clause)) return 'nerf';
    return NEUTRAL_WORDS.test(clause) || BETTER_WORDS.test(clause) ? 'adjusted' : null;
  }
  if (direction === 0) return 'adjusted';
  return direction > 0 !== inverted ? 'buff' : 'nerf';
}

const isInverted = (text: string) => INVERTED_STAT.test(text) && !POSITIVE_OVERRIDE.test(text);

/**
 * Per clause, a direction from its numbers or else its verbs, turned around where more is worse
 * ("Cooldown increased" is a nerf); a mix or no direction is `adjusted`. `bugFix`: always `fixed`.
 */
export function classifyLine(text: string, options: { bugFix?: boolean; abilities?: Iterable<string> } = {}): Verdict {
  if (options.bugFix || FIX_LINE.test(text.trim())) return 'fixed';
  // Ability names say nothing of the stat ("Harmony Recovery"): read without them.
  let plain = text;
  for (const ability of options.abilities ?? []) {
    const re = namePattern(ability);
    if (re && ability.length > 2) plain = replaceWholeWords(plain, re, 'ability');
  }
  // "Ability: Cooldown reduced…": the change is after the colon; "Cooldown: reduced…": the stat is before it.
  const labelled = /^([^:\uFF1A]{1,60})[:\uFF1A]\s*(\S.*)$/su.exec(plain);
  let body = plain;
  let inverted = false;
  if (labelled && hasChangeSignal(labelled[2]!)) {
    body = labelled[2]!;
    inverted = isInverted(labelled[1]!);
  }
  const verdicts = new Set<Verdict>();
  // A clause without a stat of its own ("…and from 8 s to 10 s") speaks of the one before it.
  if (ANY_STAT.test(body)) inverted = isInverted(body.split(/\s+(?:from|by)\s+/i)[0] ?? '');
  for (const clause of clauses(body)) {
    if (ANY_STAT.test(clause)) inverted = isInverted(clause);
    const v = clauseVerdict(clause, inverted);
    if (v) verdicts.add(v);
  }
  if (verdicts.size === 1) return [...verdicts][0]!;
  return 'adjusted';
}

/** Bug fixes beside balance changes do not change the verdict (a buff and a fix is a `buff`). */
export function heroVerdict(lines: readonly Verdict[]): Verdict {
  const balance = lines.filter((v) => v !== 'fixed');
  if (balance.length === 0) return lines.length > 0 ? 'fixed' : 'adjusted';
  if (balance.every((v) => v === 'buff')) return 'buff';
  if (balance.every((v) => v === 'nerf')) return 'nerf';
  return 'adjusted';
}

function unbullet(line: string): { text: string; bulleted: boolean } {
  let text = line.trim().replace(/^#{1,6}\s+/, '');
  const m = /^(?:[-*\u2022\u00B7\u25E6\u25AA\u25BA\u2013\u2014]|\d{1,2}[.)])\s+/u.exec(text);
  const bulleted = m !== null;
  if (m) text = text.slice(m[0].length);
  text = text.replace(/^(\*\*|__)(.*)\1$/su, '$2').trim();
  return { text, bulleted };
}

function hasChangeSignal(text: string): boolean {
  FROM_TO.lastIndex = 0;
  ARROW.lastIndex = 0;
  WAS.lastIndex = 0;
  return (
    FROM_TO.test(text) ||
    ARROW.test(text) ||
    WAS.test(text) ||
    UP_WORDS.test(text) ||
    DOWN_WORDS.test(text) ||
    BETTER_WORDS.test(text) ||
    WORSE_WORDS.test(text) ||
    NEUTRAL_WORDS.test(text) ||
    FIX_LINE.test(text)
  );
}

function withoutTrailingColon(text: string): string {
  return text.replace(/[:\uFF1A]$/, '');
}

function isHeading(text: string): boolean {
  if (text.length === 0 || text.length > 60) return false;
  if (/[.!?;,]$/.test(text) || /[:\uFF1A]\s*\S/.test(text)) return false;
  if (text.split(/\s+/).length > 7) return false;
  return !hasChangeSignal(withoutTrailingColon(text)) || ROLE_HEADING.test(text) || BUG_HEADING.test(text) || SECTION_TITLE.test(text);
}

/**
 * In order of first appearance; developer comments are never change lines. A bug fix belongs to the hero
 * it names possessively, else those it names, else the paragraph's hero.
 * @param content api-spec.md "Post" `fullContent`.
 */
export function heroChanges(content: string, catalog: HeroCatalog): HeroChange[] {
  const byHero = new Map<string, ChangeLine[]>();
  const add = (heroId: string, text: string, verdict: Verdict) => {
    const lines = byHero.get(heroId) ?? [];
    if (lines.length >= MAX_LINES) return;
    const shown = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS - 1)}…` : text;
    if (!lines.some((l) => l.text === shown)) lines.push({ text: shown, verdict });
    byHero.set(heroId, lines);
  };
  let section: 'bugfix' | 'comment' | 'other' = 'other';
  let hero: string | null = null;
  let form: string | null = null;
  let sub: string | null = null;
  let inComment = false;
  const label = (text: string) => [form, sub, text].filter(Boolean).join(' · ');

  for (const raw of content.replace(/\r\n?/g, '\n').split('\n')) {
    if (raw.trim() === '') {
      inComment = false;
      continue;
    }
    const { text, bulleted } = unbullet(raw);
    if (text === '') continue;

    if (!bulleted && isHeading(text)) {
      inComment = false;
      const named = headingHero(text, catalog);
      if (named) {
        hero = named.heroId;
        form = named.form;
        sub = null;
        if (section === 'comment') section = 'other';
      } else if (ROLE_HEADING.test(text)) {
        hero = form = sub = null;
        if (section === 'comment') section = 'other';
      } else if (COMMENT_HEADING.test(withoutTrailingColon(text))) {
        hero = form = sub = null;
        section = 'comment';
      } else if (BUG_HEADING.test(text)) {
        hero = form = sub = null;
        section = 'bugfix';
      } else if (section === 'bugfix' && hero === null && !TOP_SECTION.test(text)) {
        // "Bug Fixes" then "Heroes", "Maps", "Audio": parts of the fixes.
      } else if (hero !== null && (catalog.abilities.get(hero)?.has(withoutTrailingColon(text).toLowerCase()) || !SECTION_HEADING.test(text))) {
        sub = withoutTrailingColon(text);
      } else {
        hero = form = sub = null;
        section = 'other';
      }
      continue;
    }

    if (section === 'comment') continue;
    if (COMMENT_LABEL.test(text) || (FIRST_PERSON.test(text) && !bulleted)) {
      inComment = true;
      continue;
    }
    if (bulleted && FIRST_PERSON.test(text)) continue;
    if (inComment && !bulleted) continue;
    inComment = false;

    const fix = FIX_LINE.test(text) || (section === 'bugfix' && (bulleted || hero === null));
    const oneLine = oneLineHero(text, catalog);
    if (oneLine) {
      add(oneLine.heroId, text, fix ? 'fixed' : classifyLine(oneLine.rest, { abilities: catalog.abilities.get(oneLine.heroId) }));
      continue;
    }
    if (fix) {
      if (hero !== null) add(hero, label(text), 'fixed');
      else for (const id of heroesNamedIn(text, catalog)) add(id, text, 'fixed');
      continue;
    }
    if (hero !== null && (bulleted || hasChangeSignal(text)))
      add(hero, label(text), classifyLine(sub && !/[:\uFF1A]/.test(text) ? `${sub}: ${text}` : text, { abilities: catalog.abilities.get(hero) }));
  }
  return [...byHero].map(([heroId, lines]) => ({ heroId, verdict: heroVerdict(lines.map((l) => l.verdict)), lines }));
}
