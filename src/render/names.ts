/**
 * Names as players read them in the game, from the API's raw spellings. Pure functions, one table each.
 * - Hero names arrive lower-case ("jeff the land shark", "cloak & dagger"): {@link heroName} gives the
 *   game's casing ("Jeff the Land Shark", "Cloak & Dagger", "Spider-Man").
 * - Team names arrive squashed ("Web_warriors", "Marvelknights", "Guardiansofthegalaxy"):
 *   {@link teamName} gives "Web Warriors", "Marvel Knights", "Guardians of the Galaxy".
 * - Game modes arrive in any case ("Doom match", "JEFF'S WINTER SPLASH FESTIVAL"): {@link modeName}
 *   gives "Doom Match", "Jeff's Winter Splash Festival".
 * Source: the real captures in api-samples (heroes, maps, match histories).
 */

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

/** Game modes with a spelling title casing cannot reach. Keys: lower-cased. */
const MODE_SPELLINGS: Record<string, string> = {
  'quick play': 'Quick Play',
  quickplay: 'Quick Play',
  ranked: 'Competitive',
};

/** A game mode in title case: "Doom match" → "Doom Match", "JEFF'S WINTER SPLASH FESTIVAL" → "Jeff's Winter Splash Festival". */
export function modeName(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  return own(MODE_SPELLINGS, text.toLowerCase()) ?? titleWords(text);
}

/**
 * Game modes of match histories by `game_mode_id` (v1, v2 and the profile's embedded history).
 * Only ids whose meaning the real data shows are listed; others read "Other mode".
 */
const GAME_MODES: Record<number, string> = { 1: 'Quick Play', 2: 'Competitive' };

/** The name of a history entry's `game_mode_id`: "Quick Play", "Competitive", else "Other mode"; null for no id. */
export function gameModeName(id: number | null | undefined): string | null {
  if (id === null || id === undefined || !Number.isFinite(id)) return null;
  return own(GAME_MODES, id) ?? 'Other mode';
}

/** True when `game_mode_id` is a ranked (Competitive) match, whose rank-score change is worth showing. */
export function isRankedMode(id: number | null | undefined): boolean {
  return id === 2;
}
