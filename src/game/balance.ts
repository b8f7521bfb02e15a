/**
 * A hero's balance history, the pure part: which lines of a balance post or patch note
 * (api-spec.md "Post", `fullContent`; endpoints 12 and 13) changed which hero, and whether each change
 * made the hero stronger or weaker.
 *
 * The posts are free text with line breaks. Two layouts are read (the real posts use both, and the
 * replica's hand-written posts copy their style, src/replica/data/handwritten.ts):
 * - Heading style: role headings (Vanguard / Duelist / Strategist), a hero heading ("Hulk"),
 *   optionally form sub-headings ("Bruce Banner", "Hero Hulk") and ability sub-headings, then one
 *   bullet line per change ("- Base Health decreased from 300 to 275"), often followed by a
 *   developer comment paragraph, which is not a change.
 * - One-line style: "Hulk: Gamma Burst damage increased from 70 to 75.", anywhere in the post.
 * A "Bug Fixes" section's lines, and any line opening with "Fixed…", belong to the heroes they name
 * (the possessive subject when there is one: "Fixed an issue where Storm's Bolt Rush…" is Storm's),
 * or to the hero whose paragraph they are in; their verdict is always `fixed`.
 *
 * Heroes are matched by name, the form names of their transformations and a few aliases players and
 * posts use ({@link HERO_ALIASES}), case-insensitively and on whole words only: "Thor" is not found in
 * "Author", nor "Hela" in "Helar"; multi-word ability names ("Dagger Storm") hide the hero names inside
 * them, so that Storm is not found there either. The longest name wins where names overlap.
 *
 * Nothing here throws on any text (a fast-check property checks it), and every verdict is one of
 * {@link VERDICTS}.
 */

/** The verdict of a change line, or of everything a post did to one hero. */
export type Verdict = 'buff' | 'nerf' | 'adjusted' | 'fixed';

/** Every verdict, in the order the bot explains them. */
export const VERDICTS: readonly Verdict[] = ['buff', 'nerf', 'adjusted', 'fixed'];

/** One line of a post that changed a hero, as the post wrote it, with its own verdict. */
export interface ChangeLine {
  /**
   * The line without its bullet, prefixed with the form and ability sub-headings it stood under
   * ("Bruce Banner · Gamma Ray Gun · Damage increased from 5 to 6"); at most {@link MAX_LINE_CHARS}.
   */
  text: string;
  verdict: Verdict;
}

/** What one post did to one hero. */
export interface HeroChange {
  /** The hero's id as the API gives it ("1011"). */
  heroId: string;
  /** {@link heroVerdict} of the lines. */
  verdict: Verdict;
  /** The lines the verdict was decided from, in post order; at most {@link MAX_LINES}, never empty. */
  lines: ChangeLine[];
}

/** Lines kept per hero and post (a hero's paragraph is rarely longer than a dozen). */
export const MAX_LINES = 40;
/** Characters kept per line. */
export const MAX_LINE_CHARS = 300;

/** What {@link heroCatalog} needs of a hero (src/api/schemas.ts `Hero`). */
export interface CatalogHero {
  id: string;
  /** The API's name, lower-case ("cloak & dagger"). */
  name: string;
  transformations?: { name: string | null }[];
  abilities?: { name: string | null }[];
}

/**
 * Names players and posts use for a hero besides the API's name, keyed by that name. `text`: found
 * anywhere in a line; `heading`: only a whole heading or one-line prefix ("Thing", "Rocket" are common
 * words inside a sentence).
 */
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
  /** An ability name ("Dagger Storm"), not a hero's. */
  ability: boolean;
}

/** Heroes by every name, compiled once per hero list ({@link heroCatalog}). */
export interface HeroCatalog {
  /** Hero ids, sorted. */
  readonly ids: readonly string[];
  /** Whole-heading and prefix lookup: {@link nameKey} of a name, form or alias → hero id and, for a form, its name. */
  readonly exact: ReadonlyMap<string, { heroId: string; form: string | null }>;
  /** Ability names (lower-cased) by hero id: sub-headings inside that hero's paragraph. */
  readonly abilities: ReadonlyMap<string, ReadonlySet<string>>;
  readonly patterns: readonly Pattern[];
}

/** A name reduced to its letters and digits, `&` read as "and": "Spider-Man" and "spider man" are one key. */
export function nameKey(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Compiled name patterns by lower-cased name, shared by every catalog and post (a feed poll asks for
 * the same few hundred names each time). Cleared past {@link MAX_PATTERNS}: names come from the API, so
 * their number is not ours to bound.
 */
const patternCache = new Map<string, RegExp | null>();
const MAX_PATTERNS = 5_000;

/**
 * A pattern for `name`: any spacing or hyphen between its words, `&` or "and", an optional dot; global
 * and case-insensitive, shared between callers. It has no word boundaries of its own: find it with
 * {@link wholeWords}. Unicode-aware boundaries (`(?<![\p{L}\p{N}])` with the `u` flag) cost about 1 ms
 * each to compile, and a start-up compiled some hundreds of them: the first feed poll and balance
 * index held the event loop for most of a second.
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

/** A letter or digit ends the text (one code point, so a surrogate pair counts). */
const WORD_CHAR_BEFORE = /[\p{L}\p{N}]$/u;
/** A letter or digit starts the text. */
const WORD_CHAR_AFTER = /^[\p{L}\p{N}]/u;

/**
 * Every whole-word match of a {@link namePattern} in `text`, left to right, not overlapping: neither a
 * letter nor a digit just before or after it. A match that fails the test is tried again one
 * character later, as a lookbehind would be.
 */
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

/** `text` with every whole-word match of `regex` ({@link wholeWords}) replaced by `by`. */
function replaceWholeWords(text: string, regex: RegExp, by: string): string {
  let out = '';
  let last = 0;
  for (const w of wholeWords(regex, text)) {
    out += text.slice(last, w.start) + by;
    last = w.end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** The game's casing of a name for display ("hero hulk" → "Hero Hulk"). */
const titleCase = (s: string) => s.replace(/(^|[\s\-&])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());

/**
 * Compiles the names of `heroes` (the hero list, api-spec.md endpoint 1) for {@link heroChanges}.
 * Names shared by two heroes (a form called like another hero) are left out of the lookup rather
 * than given to either.
 */
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

/** One name found in a line. */
interface Found {
  heroId: string;
  start: number;
  end: number;
  /** Followed by `'s` or `'`: the subject of the sentence. */
  possessive: boolean;
  /** Found as an ability name that holds the hero's name ("Thor's Hammer"). */
  ability: boolean;
}

/** Every hero named in `text`: whole words, longest name first where names overlap, ability names hiding the heroes inside them. */
function findHeroes(text: string, catalog: HeroCatalog): Found[] {
  const all: { heroId: string | null; start: number; end: number; ability: boolean }[] = [];
  for (const p of catalog.patterns) {
    for (const w of wholeWords(p.regex, text)) all.push({ heroId: p.heroId, start: w.start, end: w.end, ability: p.ability });
  }
  all.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  // Where names overlap the longest wins: a later, longer name displaces the shorter one it overlaps.
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

/**
 * The heroes a bug-fix line is about: those named possessively ("Storm's Bolt Rush"), else every hero
 * it names; in order of mention, each once.
 */
export function heroesNamedIn(text: string, catalog: HeroCatalog): string[] {
  const found = findHeroes(text, catalog);
  const subjects = found.some((f) => f.possessive) ? found.filter((f) => f.possessive) : found;
  return [...new Set(subjects.map((f) => f.heroId))];
}

/** The hero of a whole heading ("Hulk", "Hero Hulk", "Cloak & Dagger (Strategist)", "Thing:"), or null. */
function headingHero(text: string, catalog: HeroCatalog): { heroId: string; form: string | null } | null {
  const bare = text.replace(/\s*[([][^)\]]*[)\]]\s*/g, ' ').replace(/[:\uFF1A]\s*$/, '');
  return catalog.exact.get(nameKey(bare)) ?? null;
}

/**
 * The hero of a one-line change ("Hulk: Gamma Burst…", "Hulk (Hero Hulk): …", "Hulk's Gamma Burst: …",
 * "Hulk - Gamma Burst: …"): the text before the first colon is a hero's name, or starts with one
 * followed by a separator. Returns the hero and the rest of the line.
 */
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
/** A heading ending with a section's noun ("Balance Changes", "Hero Adjustments"): a heading even though it says "changes". */
const SECTION_TITLE =
  /^(?:[\p{L}\d&'\u2019-]+\s+){0,4}(?:changes|adjustments|updates|balance|content|notes|comments|heroes|improvements|optimi[sz]ations|issues)[:\uFF1A]?$/iu;
/** Headings that end a "Bug Fixes" section (others inside it, "Heroes", "Maps", are its parts). */
const TOP_SECTION = /\b(?:balance|adjustments?|changes|content|optimi[sz]ations?|improvements?|events?|store|shop|updates?|seasons?|launch|new)\b/i;
const COMMENT_HEADING = /^(?:dev(?:eloper)?s?['\u2019]?\s*|designer['\u2019]?s?\s*)?(?:comments?|notes?|insights?|thoughts?)$/i;
/** Headings that start another part of a post, ending a hero's paragraph (anything else inside one is a sub-heading). */
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
/**
 * Stats where more is worse for the hero: time before it can act again (cooldown, cast time, wind-up,
 * recovery, charge and reload time, delay), what it pays (energy cost, ultimate energy required, health
 * cost), imprecision (spread, recoil, fall-off) and what it takes (self-damage, damage taken).
 */
const INVERTED_STAT =
  /\b(?:cool[\s-]?downs?|cds?|costs?|energy\s+(?:required|requirements?|needed)|(?:ultimate\s+)?charge\s+(?:required|needed)|cast(?:ing)?\s+(?:times?|delay)|wind[\s-]?ups?|start[\s-]?up|recovery|spread|recoil|fall[\s-]?off|falloff|reload\s+(?:times?|duration)|charge\s+times?|delays?|intervals?|self[\s-]?damage|damage\s+taken|incoming\s+damage|lockout|penalty)\b/i;
/** Stats that read inverted above but are not: regaining health, and reductions of an inverted stat. */
const POSITIVE_OVERRIDE =
  /\b(?:(?:health|hp|shield|energy|ammo)\s+(?:recovery|regen(?:eration)?)|(?:cool[\s-]?down|cost|spread|recoil|damage\s+taken|incoming\s+damage)\s+reduction)\b/i;
/** Any stat a change can name (for a clause to count as naming its own stat). */
const ANY_STAT = new RegExp(
  String.raw`${INVERTED_STAT.source}|\b(?:damage|health|hp|healing|heal|range|radius|duration|speed|ammo|magazine|shield|bonus|lifesteal|energy|charges?|distance|width|size|knockback|slow|stun|projectiles?|rate|multiplier|armor|armour|regen(?:eration)?)\b`,
  'i',
);

const toNumbers = (s: string) => s.split('/').map((n) => Number(n.replace(/[,\s]/g, '')));

/** Direction of the numbers in a clause ("from 5 to 6", "5 → 6", "6 (was 5)"): 1 up, -1 down, 0 same or mixed, null none. */
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

/** Splits a change into clauses ("cooldown reduced from 12 s to 10 s, and damage increased…"). Number groups ("3,400") are kept. */
function clauses(text: string): string[] {
  return text
    .split(/;|,\s+(?:and\s+|but\s+|while\s+)?|\s+(?:and|but|while|whereas|plus)\s+/i)
    .map((c) => c.trim())
    .filter(Boolean);
}

/** The verdict of one clause, or null when it has no direction at all. */
function clauseVerdict(text: string, inverted: boolean): Verdict | null {
  // "No longer" is not "longer".
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
 * The verdict of one change line, from its own words:
 * - `fixed` for a bug fix ("Fixed an issue where…"), or any line when `bugFix` (a "Bug Fixes" section);
 * - else per clause, a direction from its numbers ("from 12s to 10s", "5 → 6", "75 (was 70)", any units)
 *   or, without numbers, its verbs (increased, raised, extended vs reduced, decreased, lowered,
 *   shortened), turned around for stats where more is worse (cooldown, energy cost, cast time,
 *   wind-up, recovery, spread, fall-off…: "Cooldown increased" is a nerf); "improved" and "weakened"
 *   judge by themselves;
 * - clauses all `buff` → `buff`, all `nerf` → `nerf`; a mix, or no direction at all ("reworked",
 *   "adjusted", "now also…") → `adjusted`.
 * Never throws.
 */
export function classifyLine(text: string, options: { bugFix?: boolean; abilities?: Iterable<string> } = {}): Verdict {
  if (options.bugFix || FIX_LINE.test(text.trim())) return 'fixed';
  // Ability names say nothing of the stat ("Harmony Recovery", "Healing Flower"): read without them.
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

/**
 * The verdict of everything one post did to a hero, from its lines' verdicts: all `buff` → `buff`;
 * all `nerf` → `nerf`; buffs and nerfs together → `adjusted`; only bug fixes → `fixed`; anything else
 * (a line without direction among them) → `adjusted`. Bug fixes beside balance changes do not change
 * the balance verdict (a buff and a fix is a `buff`). No lines at all → `adjusted`.
 */
export function heroVerdict(lines: readonly Verdict[]): Verdict {
  const balance = lines.filter((v) => v !== 'fixed');
  if (balance.length === 0) return lines.length > 0 ? 'fixed' : 'adjusted';
  if (balance.every((v) => v === 'buff')) return 'buff';
  if (balance.every((v) => v === 'nerf')) return 'nerf';
  return 'adjusted';
}

/** A line's bullet ("-", "*", "•", "1.", "1)") and markdown emphasis or heading marks taken off. */
function unbullet(line: string): { text: string; bulleted: boolean } {
  let text = line.trim().replace(/^#{1,6}\s+/, '');
  const m = /^(?:[-*\u2022\u00B7\u25E6\u25AA\u25BA\u2013\u2014]|\d{1,2}[.)])\s+/u.exec(text);
  const bulleted = m !== null;
  if (m) text = text.slice(m[0].length);
  text = text.replace(/^(\*\*|__)(.*)\1$/su, '$2').trim();
  return { text, bulleted };
}

/** Whether a line says that something changed (numbers from and to, a direction, a fix, "reworked"…). */
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

/** `text` without a colon at its end, ASCII or full-width ("Hulk:", "ハルク："). */
function withoutTrailingColon(text: string): string {
  return text.replace(/[:\uFF1A]$/, '');
}

/** A line standing alone as a heading: short, no sentence punctuation, no inner colon, no change in it. */
function isHeading(text: string): boolean {
  if (text.length === 0 || text.length > 60) return false;
  if (/[.!?;,]$/.test(text) || /[:\uFF1A]\s*\S/.test(text)) return false;
  if (text.split(/\s+/).length > 7) return false;
  return !hasChangeSignal(withoutTrailingColon(text)) || ROLE_HEADING.test(text) || BUG_HEADING.test(text) || SECTION_TITLE.test(text);
}

/**
 * Every hero a post changed, with its verdict and the lines it was decided from ({@link HeroChange}),
 * in order of first appearance. Reads heading-style paragraphs, one-line changes and bug fixes as the
 * module's header describes; developer comments (a "Dev Comment:" paragraph, a paragraph opening with
 * "We…", a "Developer comments" section) are never change lines. Never throws.
 * @param content the post's full text (api-spec.md "Post" `fullContent`).
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
