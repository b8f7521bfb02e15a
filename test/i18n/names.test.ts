import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import { runInLocale } from '../../src/i18n/index.js';
import { heroName, modeName, modeTitle, roleName, teamName } from '../../src/i18n/names.js';
import { gameModeName, isRankedMode } from '../../src/game/modes.js';

/** Every JSON body of the vendored real samples, with its folder. */
function samples(): { folder: string; body: unknown }[] {
  return readdirSync(SAMPLES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(SAMPLES_DIR, d.name))
        .filter((f) => f.endsWith('.json'))
        .map((f) => ({ folder: d.name, body: JSON.parse(readFileSync(join(SAMPLES_DIR, d.name, f), 'utf8')) as unknown })),
    );
}

/** Every value under `key` anywhere in `body`. */
function valuesOf(body: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(body)) for (const v of body) valuesOf(v, key, out);
  else if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) {
      if (k === key) out.push(v);
      valuesOf(v, key, out);
    }
  }
  return out;
}

const all = samples();
const distinct = (key: string, folders?: string[]) =>
  [...new Set(all.filter((s) => !folders || folders.includes(s.folder)).flatMap((s) => valuesOf(s.body, key)))]
    .filter((v): v is string => typeof v === 'string')
    .sort();
const heroList = all.find((s) => s.folder === 'heroes')!.body as { name: string; team: string[]; transformations: { name: string }[] }[];

/** Hero names as the samples spell them (the hero list, histories, profiles, matches) and as the game does. */
const HERO_NAMES: Record<string, string | null> = {
  'adam warlock': 'Adam Warlock',
  'black panther': 'Black Panther',
  'black widow': 'Black Widow',
  'captain america': 'Captain America',
  'cloak & dagger': 'Cloak & Dagger',
  'doctor strange': 'Doctor Strange',
  'emma frost': 'Emma Frost',
  groot: 'Groot',
  hawkeye: 'Hawkeye',
  hela: 'Hela',
  'human torch': 'Human Torch',
  hulk: 'Hulk',
  'invisible woman': 'Invisible Woman',
  'iron fist': 'Iron Fist',
  'iron man': 'Iron Man',
  'jeff the land shark': 'Jeff the Land Shark',
  loki: 'Loki',
  'luna snow': 'Luna Snow',
  magik: 'Magik',
  magneto: 'Magneto',
  mantis: 'Mantis',
  'mister fantastic': 'Mister Fantastic',
  'moon knight': 'Moon Knight',
  namor: 'Namor',
  'peni parker': 'Peni Parker',
  phoenix: 'Phoenix',
  psylocke: 'Psylocke',
  'rocket raccoon': 'Rocket Raccoon',
  'scarlet witch': 'Scarlet Witch',
  'spider-man': 'Spider-Man',
  'squirrel girl': 'Squirrel Girl',
  'star-lord': 'Star-Lord',
  storm: 'Storm',
  'the punisher': 'The Punisher',
  'the thing': 'The Thing',
  thor: 'Thor',
  ultron: 'Ultron',
  Unknown: 'Unknown',
  venom: 'Venom',
  'winter soldier': 'Winter Soldier',
  wolverine: 'Wolverine',
};

/** Transformation (form) names of the hero list that differ from the game's casing. */
const FORM_NAMES: Record<string, string> = {
  'Jeff The Land Shark': 'Jeff the Land Shark',
  'Spider-man': 'Spider-Man',
  'Star-lord': 'Star-Lord',
  'Cloak & Dagger': 'Cloak & Dagger',
  'Monster Hulk': 'Monster Hulk',
  'Bruce Banner': 'Bruce Banner',
};

const TEAMS: Record<string, string> = {
  Agentsofatlas: 'Agents of Atlas',
  Avengers: 'Avengers',
  Fantasticfour: 'Fantastic Four',
  Godsofasgard: 'Gods of Asgard',
  Guardiansofthegalaxy: 'Guardians of the Galaxy',
  Immortalweapon: 'Immortal Weapons',
  Marvelknights: 'Marvel Knights',
  Mutants: 'Mutants',
  Villains: 'Villains',
  Web_warriors: 'Web Warriors',
  X_men: 'X-Men',
};

const MODES: Record<string, string> = {
  'Clash of dancing lions': 'Clash of Dancing Lions',
  'Clone Rumble': 'Clone Rumble',
  Conquest: 'Conquest',
  Convergence: 'Convergence',
  Convoy: 'Convoy',
  Domination: 'Domination',
  'Doom match': 'Doom Match',
  "JEFF'S WINTER SPLASH FESTIVAL": "Jeff's Winter Splash Festival",
  "Jeff's winter splash festival": "Jeff's Winter Splash Festival",
  'Quick Play': 'Quick Play',
};

describe('heroName', () => {
  it('the table covers every hero name of the samples', () => {
    expect(
      distinct('hero_name')
        .concat(heroList.map((h) => h.name))
        .filter((n) => !(n in HERO_NAMES)),
    ).toEqual([]);
  });
  it.each(Object.entries(HERO_NAMES))('%s → %s', (raw, expected) => {
    expect(heroName(raw)).toBe(expected);
  });
  it('gives the game casing of form names', () => {
    for (const [raw, expected] of Object.entries(FORM_NAMES)) expect(heroName(raw)).toBe(expected);
    for (const form of heroList.flatMap((h) => h.transformations.map((t) => t.name))) expect(heroName(form)).toMatch(/^[A-Z]/);
  });
  it('null for blank, and never an inherited member of its table', () => {
    expect(heroName(null)).toBeNull();
    expect(heroName('   ')).toBeNull();
    expect(heroName('constructor')).toBe('Constructor');
    expect(heroName('__proto__')).toBe('__proto__');
  });
});

describe('teamName', () => {
  it('the table covers every team of the samples', () => {
    const teams = [...new Set(heroList.flatMap((h) => h.team))].sort();
    expect(teams).toEqual(Object.keys(TEAMS).sort());
  });
  it.each(Object.entries(TEAMS))('%s → %s', (raw, expected) => {
    expect(teamName(raw)).toBe(expected);
  });
  it('splits teams it does not know, and never returns an inherited member of its table', () => {
    expect(teamName('Sinister_six')).toBe('Sinister Six');
    expect(teamName('DarkAvengers')).toBe('Dark Avengers');
    expect(teamName('New_team_of_heroes')).toBe('New Team of Heroes');
    expect(teamName('constructor')).toBe('Constructor');
    expect(typeof teamName('hasOwnProperty')).toBe('string');
  });
});

describe('modeName', () => {
  it('the table covers every game mode of the samples', () => {
    expect([...distinct('game_mode', ['maps']), ...distinct('game_mode_name')].filter((m) => !(m in MODES))).toEqual([]);
  });
  it.each(Object.entries(MODES))('%s → %s', (raw, expected) => {
    expect(modeName(raw)).toBe(expected);
  });
  it('null for blank; ranked reads Competitive', () => {
    expect(modeName(undefined)).toBeNull();
    expect(modeName('')).toBeNull();
    expect(modeName('ranked')).toBe('Competitive');
    expect(modeName('constructor')).toBe('Constructor');
  });
});

describe('gameModeName', () => {
  it('names every game_mode_id of the samples', () => {
    const ids = [...new Set(all.flatMap((s) => valuesOf(s.body, 'game_mode_id')))].filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
    expect(ids).toEqual([1, 2, 4, 7]);
    expect(ids.map((id) => gameModeName(id))).toEqual(['Quick Play', 'Competitive', 'Arcade', 'Practice vs AI']);
    expect([3, 4, 6, 9].map((id) => gameModeName(id))).toEqual(['Custom game', 'Arcade', 'Other mode', 'Tournament']);
    // A custom room's play mode names an otherwise unknown mode.
    expect(gameModeName(6, 1)).toBe('Custom game');
  });
  it('null for no id; only Competitive is ranked', () => {
    expect(gameModeName(null)).toBeNull();
    expect(gameModeName(undefined)).toBeNull();
    expect(gameModeName(Number.NaN)).toBeNull();
    expect(isRankedMode(2)).toBe(true);
    expect(isRankedMode(1)).toBe(false);
    expect(isRankedMode(null)).toBe(false);
  });
  it('names the modes the bot knows in the current locale, with the words the profile uses for ranked', () => {
    expect(runInLocale('fr', () => [1, 2, 7, 6].map((id) => gameModeName(id)))).toEqual(['Partie rapide', 'Classée', 'Entraînement contre l’IA', 'Autre mode']);
    expect(runInLocale('de', () => [1, 2, 7, 6].map((id) => gameModeName(id)))).toEqual(['Schnelles Spiel', 'Wettkampf', 'Training gegen KI', 'Anderer Modus']);
    expect(runInLocale('ja', () => [1, 2, 7, 6].map((id) => gameModeName(id)))).toEqual(['クイックマッチ', 'ランクマッチ', 'AI戦（練習）', 'その他のモード']);
    // Known API spellings, and modeTitle's English, are translated; other modes stay the API's.
    expect(runInLocale('fr', () => ['ranked', 'Quick Play', modeTitle('quickplay'), 'Doom match'].map(modeName))).toEqual([
      'Classée',
      'Partie rapide',
      'Partie rapide',
      'Doom Match',
    ]);
    expect(runInLocale('fr', () => modeTitle('ranked'))).toBe('Competitive');
  });
});

describe('roleName', () => {
  it('names the three roles with the words of /meta’s role choices; any other role as the API gives it', () => {
    expect(runInLocale('fr', () => ['Vanguard', 'duelist', 'STRATEGIST'].map(roleName))).toEqual(['Avant-garde', 'Duelliste', 'Stratège']);
    expect(runInLocale('es-ES', () => ['Vanguard', 'Duelist', 'Strategist'].map(roleName))).toEqual(['Vanguardia', 'Duelista', 'Estratega']);
    expect(['Vanguard', 'Duelist', 'Strategist'].map(roleName)).toEqual(['Vanguard', 'Duelist', 'Strategist']);
    expect(runInLocale('de', () => roleName('Tank'))).toBe('Tank');
    expect(roleName(null)).toBeNull();
    expect(roleName(' ')).toBeNull();
    expect(roleName('constructor')).toBe('constructor');
  });
});
