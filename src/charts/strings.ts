import { tr } from '../i18n/index.js';

/**
 * The words the charts draw, in one place and in the shape of src/render/strings.ts (each entry a function of
 * its values, so word order can change per language). Kept beside the charts because the chart worker
 * bundles only src/charts/ and what it imports.
 *
 * Each reads the `charts` messages (src/i18n/locales/<locale>/charts.json) in the current locale: in the
 * worker thread that is the spec's `locale`, which `drawChart` (src/charts/draw.ts) runs the drawing in,
 * since the main thread's locale does not cross into the worker. Outside any, English.
 */
export const chartText = {
  /** The message of a chart with nothing to draw. */
  noData: () => tr('charts:noData'),
  /**
   * The top band of rank charts: Eternity has a score band, One Above All is a leaderboard place within
   * it. Tier names are the game's English names in every language, like the tiers the answers show;
   * this one is read when the bands are defined, so it must not depend on a locale.
   */
  topBand: () => 'Eternity / One Above All',
  rankScoreAxis: () => tr('charts:axes.rankScore'),
  playTimeAxis: () => tr('charts:axes.playTime'),
  winRateAxis: () => tr('charts:axes.winRate'),
  pickShareAxis: () => tr('charts:axes.pickShare'),
  /** Legend entry of one of the three roles, with the words of /meta's role choices and the text answers ("Stratège"). */
  role: (role: 'Vanguard' | 'Duelist' | 'Strategist') => tr(`commands:meta.options.role.choices.${role}`),
  /** Legend entry of heroes whose role is not one of the three. */
  otherRole: () => tr('charts:otherRole'),
  /** Subtitle of the hero chart: how many heroes of how many are shown (short, so the role legend fits beside it). */
  topHeroes: (shown: number, total: number) =>
    shown === total ? tr('charts:subtitle.heroesAll', { count: shown }) : tr('charts:subtitle.heroesTop', { shown, total }),
  /** Subtitle of the rank history: how many seasons are drawn (short, so the season legend fits beside it). */
  rankSeasons: (seasons: number) => tr('charts:subtitle.rankSeasons', { count: seasons }),
  /** Subtitle of the meta scatter: how many heroes, and how many of them are named (the most picked that have room). */
  metaHeroes: (heroes: number, named: number) =>
    named < heroes ? tr('charts:subtitle.metaNamed', { count: heroes, named }) : tr('charts:subtitle.metaAll', { count: heroes }),
  /** Subtitle of the comparison. */
  compareRank: () => tr('charts:subtitle.compareRank'),
  /** The 50 % reference line's label. */
  evenLine: (percent: string) => tr('charts:evenLine', { percent }),
  /** The label of a hero's bar: win rate and KDA, each only when known ("54.2 % · KDA 3.1"); no words, "KDA" being kept in every language. */
  heroBar: (winRate: string | null, kda: string | null) => [winRate, kda === null ? null : `KDA ${kda}`].filter((s) => s !== null).join(' · '),
  /** The label of the current-rank marker ("Gold II · 3,752"). */
  currentRank: (tier: string, score: string) => (tier ? `${tier} · ${score}` : score),
};

/**
 * Shorter names of the heroes whose full names crowd a chart, by full name in lower case: what players
 * call them. A chart draws the full name where it has room (src/charts/header.ts `fitHeroName`).
 */
export const SHORT_HERO_NAMES: Readonly<Record<string, string>> = {
  'jeff the land shark': 'Jeff',
  'cloak & dagger': 'C&D',
  'invisible woman': 'Invis. Woman',
  'mister fantastic': 'Mr. Fantastic',
  'doctor strange': 'Dr. Strange',
  'captain america': 'Cap',
  'rocket raccoon': 'Rocket',
  'winter soldier': 'W. Soldier',
  'the punisher': 'Punisher',
  'black panther': 'B. Panther',
  'scarlet witch': 'S. Witch',
  'squirrel girl': 'Squirrel G.',
  'adam warlock': 'Adam',
};
