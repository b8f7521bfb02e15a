/**
 * Names as players read them in the game, from the API's raw spellings. Pure functions, one table each.
 * - Hero names arrive lower-case ("jeff the land shark", "cloak & dagger"): {@link heroName} gives the
 *   game's casing ("Jeff the Land Shark", "Cloak & Dagger", "Spider-Man").
 * - Team names arrive squashed ("Web_warriors", "Marvelknights", "Guardiansofthegalaxy"):
 *   {@link teamName} gives "Web Warriors", "Marvel Knights", "Guardians of the Galaxy".
 * - Game modes arrive in any case ("Doom match", "JEFF'S WINTER SPLASH FESTIVAL"): {@link modeName}
 *   gives "Doom Match", "Jeff's Winter Splash Festival".
 * - Game modes and roles the bot knows are named in the current locale (src/i18n): {@link modeName}
 *   and {@link roleName} (a match's mode by its id: src/game/modes.ts `gameModeName`); the rest are pure.
 * Source: the real captures in api-samples (heroes, maps, match histories).
 */
import { tr } from './index.js';

/** Words kept lower-case inside a name (never at its start), as English titles and the game do. */
const MINOR_WORDS = new Set(['a', 'an', 'and', 'at', 'in', 'of', 'on', 'or', 'the', 'to', 'for', 'vs']);

/** Title case with minor words lower-case after the first word; letters after `-` and `'` at a word start are capitalised ("Spider-Man", "Star-Lord"). */
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
      // Capitalise the first letter of each hyphen part; keep "'s" lower ("Jeff's", "Hell's").
      return lower.replace(/(^|-)(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
    })
    .join(' ');
}

/** `table[key]` when the table itself holds the key: never an inherited member such as `constructor` or `__proto__`. */
function own<V>(table: Record<string | number, V>, key: string | number): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Hero names whose game spelling title casing cannot reach. Keys: the name lower-cased. */
const HERO_SPELLINGS: Record<string, string> = {
  'star-lord': 'Star-Lord',
  'spider-man': 'Spider-Man',
};

/**
 * A hero's name in the game's casing: "jeff the land shark" → "Jeff the Land Shark", "the punisher" →
 * "The Punisher", "cloak & dagger" → "Cloak & Dagger". Null or blank → null.
 */
export function heroName(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  return own(HERO_SPELLINGS, text.toLowerCase()) ?? titleWords(text);
}

/** The API's squashed team names, keyed by their letters only, lower-cased. */
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

/**
 * A team's name as people write it: "Web_warriors" → "Web Warriors", "X_men" → "X-Men",
 * "Guardiansofthegalaxy" → "Guardians of the Galaxy". A team the table does not know is split on
 * `_`, `-` and case changes, then title-cased ("Sinister_six" → "Sinister Six").
 */
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

/** Game modes the bot names itself, by their API spellings (lower-cased): the key of their name in `render:modes`. */
const KNOWN_MODES: Record<string, 'quickPlay' | 'competitive'> = {
  'quick play': 'quickPlay',
  quickplay: 'quickPlay',
  ranked: 'competitive',
  competitive: 'competitive',
};
/** The English names of {@link KNOWN_MODES}, for text that must not depend on a locale. */
const KNOWN_MODE_TITLES = { quickPlay: 'Quick Play', competitive: 'Competitive' } as const;

/**
 * A game mode in title case, in English whatever the locale: "Doom match" → "Doom Match", "ranked" →
 * "Competitive". For data kept across answers (src/catalog/map-directory.ts); show it with {@link modeName}.
 */
export function modeTitle(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const known = own(KNOWN_MODES, text.toLowerCase());
  return known ? KNOWN_MODE_TITLES[known] : titleWords(text);
}

/**
 * A game mode as shown: the modes the bot knows (Quick Play, Competitive, in any API spelling or as
 * {@link modeTitle} gives them) in the current locale (`render:modes`: "Partie rapide", "Classée"),
 * any other as the API names it, in title case ("Doom match" → "Doom Match"). Null for no mode.
 */
export function modeName(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const known = own(KNOWN_MODES, text.toLowerCase());
  return known ? tr(`render:modes.${known}`) : titleWords(text);
}

/** The three roles the game groups heroes in, by their API spelling lower-cased. */
const ROLES: Record<string, 'Vanguard' | 'Duelist' | 'Strategist'> = { vanguard: 'Vanguard', duelist: 'Duelist', strategist: 'Strategist' };

/**
 * A hero's role as shown: the three the game has (Vanguard, Duelist, Strategist, in any case) in the
 * current locale, with the words of /meta's role choices (`commands:meta.options.role.choices`:
 * "Avant-garde", "Duellant"); any other as the API gives it. Null for no role.
 */
export function roleName(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const known = own(ROLES, text.toLowerCase());
  return known ? tr(`commands:meta.options.role.choices.${known}`) : text;
}
