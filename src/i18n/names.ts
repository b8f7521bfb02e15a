/** Names as players read them in the game, from the API's raw spellings (lower-case heroes, squashed teams, modes in any case; see api-samples). */
import { tr } from './index.js';

/** Kept lower-case inside a name (never first), as English titles and the game do. */
const MINOR_WORDS = new Set(['a', 'an', 'and', 'at', 'in', 'of', 'on', 'or', 'the', 'to', 'for', 'vs']);

/** Title case, minor words lower after the first; letters after `-` are capitalised ("Spider-Man"). */
function titleWords(text: string): string {
  let first = true;
  return text
    .trim()
    .split(/\s+/)
    .map((word) => {
      const lower = word.toLowerCase();
      const keep = !first && MINOR_WORDS.has(lower);
      first = false;
      if (keep) return lower;
      // Keep "'s" lower ("Jeff's", "Hell's").
      return lower.replace(/(^|-)(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
    })
    .join(' ');
}

/** Never an inherited member such as `constructor` or `__proto__`. */
function own<V>(table: Record<string | number, V>, key: string | number): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Spellings title casing cannot reach; keys lower-cased. */
const HERO_SPELLINGS: Record<string, string> = {
  'star-lord': 'Star-Lord',
  'spider-man': 'Spider-Man',
};

/** "jeff the land shark" → "Jeff the Land Shark", "the punisher" → "The Punisher"; null or blank → null. */
export function heroName(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  return own(HERO_SPELLINGS, text.toLowerCase()) ?? titleWords(text);
}

/** Keyed by letters only, lower-cased. */
const TEAM_NAMES: Record<string, string> = {
  avengers: 'Avengers',
  mutants: 'Mutants',
  xmen: 'X-Men',
  guardiansofthegalaxy: 'Guardians of the Galaxy',
  fantasticfour: 'Fantastic Four',
  villains: 'Villains',
  marvelknights: 'Marvel Knights',
  godsofasgard: 'Gods of Asgard',
  webwarriors: 'Web Warriors',
  agentsofatlas: 'Agents of Atlas',
  immortalweapon: 'Immortal Weapons',
  immortalweapons: 'Immortal Weapons',
  thunderbolts: 'Thunderbolts',
  sinistersix: 'Sinister Six',
  darkavengers: 'Dark Avengers',
  hellfireclub: 'Hellfire Club',
  midnightsons: 'Midnight Sons',
  defenders: 'Defenders',
  illuminati: 'Illuminati',
  newmutants: 'New Mutants',
  xforce: 'X-Force',
  brotherhoodofmutants: 'Brotherhood of Mutants',
  shield: 'S.H.I.E.L.D.',
  hydra: 'Hydra',
};

/** "Web_warriors" → "Web Warriors", "X_men" → "X-Men"; an unknown team is split on `_` and case changes, then title-cased. */
export function teamName(raw: string): string {
  const key = raw.toLowerCase().replace(/[^a-z0-9]/g, '');
  const known = own(TEAM_NAMES, key);
  if (known) return known;
  const spaced = raw
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_]+/g, ' ')
    .trim();
  return titleWords(spaced);
}

/** By API spelling (lower-cased): the key of the name in `render:modes`. */
const KNOWN_MODES: Record<string, 'quickPlay' | 'competitive'> = {
  'quick play': 'quickPlay',
  quickplay: 'quickPlay',
  ranked: 'competitive',
  competitive: 'competitive',
};
/** English names, for text that must not depend on a locale. */
const KNOWN_MODE_TITLES = { quickPlay: 'Quick Play', competitive: 'Competitive' } as const;

/** A mode in title case, English whatever the locale ("ranked" → "Competitive"): for data kept across answers; show it with {@link modeName}. */
export function modeTitle(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const known = own(KNOWN_MODES, text.toLowerCase());
  return known ? KNOWN_MODE_TITLES[known] : titleWords(text);
}

/** Whether `raw` names a queue (Quick Play, Competitive) rather than a map's objective: a map list that says so is not trusted. */
export function isQueueMode(raw: string | null | undefined): boolean {
  const text = raw?.trim();
  return !!text && own(KNOWN_MODES, text.toLowerCase()) !== undefined;
}

/** A mode as shown: known modes in the current locale (`render:modes`), others title-cased as the API names them; null for none. */
export function modeName(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const known = own(KNOWN_MODES, text.toLowerCase());
  return known ? tr(`render:modes.${known}`) : titleWords(text);
}

const ROLES: Record<string, 'Vanguard' | 'Duelist' | 'Strategist'> = { vanguard: 'Vanguard', duelist: 'Duelist', strategist: 'Strategist' };

/** A role as shown: the game's three in the current locale, with /meta's role choice words; any other as given; null for none. */
export function roleName(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const known = own(ROLES, text.toLowerCase());
  return known ? tr(`commands:meta.options.role.choices.${known}`) : text;
}

/** The game's tiers by their English names (src/game/ranks.ts `TIER_NAMES`, which a test keeps equal): their keys in `common:tiers`. */
const TIER_KEYS: Record<string, 'bronze' | 'silver' | 'gold' | 'platinum' | 'diamond' | 'grandmaster' | 'celestial' | 'eternity' | 'oneAboveAll'> = {
  bronze: 'bronze',
  silver: 'silver',
  gold: 'gold',
  platinum: 'platinum',
  diamond: 'diamond',
  grandmaster: 'grandmaster',
  celestial: 'celestial',
  eternity: 'eternity',
  'one above all': 'oneAboveAll',
};
const TIER_NAME = /^(.+?)(?:\s+(III|II|I))?$/i;

/**
 * A tier as the game names it in the current locale (docs/languages.md says where each name comes from): "Gold II" → "Or II"
 * in French, "ゴールド II" in Japanese. The bot keeps tiers by their English names (records, rank-role keys, emojis); only what
 * a member reads goes through this. Any other text ("Unranked", already in the locale) is returned as given; null for none.
 */
export function tierName(tier: string | null | undefined): string | null {
  const text = tier?.trim();
  if (!text) return null;
  const [, base, division] = TIER_NAME.exec(text)!;
  const key = own(TIER_KEYS, base!.toLowerCase());
  if (!key) return text;
  const name = tr(`common:tiers.${key}`);
  return division ? tr('common:tiers.division', { tier: name, division: division.toUpperCase() }) : name;
}

/** A hero's name as players read it ("Jeff the Land Shark", "Cloak & Dagger"), from the API's lower-case `name`. */
export function heroDisplayName(hero: { name: string }): string {
  return heroName(hero.name) ?? hero.name;
}
