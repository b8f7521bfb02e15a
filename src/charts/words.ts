import { tr } from '../i18n/index.js';
import { tierName } from '../i18n/names.js';

/**
 * The words the charts draw, kept here because the worker bundles only src/charts/. In the worker the
 * current locale is the spec's (`drawChart` sets it): the main thread's does not cross over.
 */
export const chartText = {
  noData: () => tr('charts:noData'),
  /** A tier by its English name ("Gold II"), as the game names it in the locale; any other text as given. */
  tier: (name: string) => tierName(name) ?? name,
  /** The top band's label: Eternity and One Above All share it. */
  topBand: () => `${tierName('Eternity')} / ${tierName('One Above All')}`,
  rankScoreAxis: () => tr('charts:axes.rankScore'),
  playTimeAxis: () => tr('charts:axes.playTime'),
  winRateAxis: () => tr('charts:axes.winRate'),
  pickShareAxis: () => tr('charts:axes.pickShare'),
  role: (role: 'Vanguard' | 'Duelist' | 'Strategist') => tr(`commands:meta.options.role.choices.${role}`),
  otherRole: () => tr('charts:otherRole'),
  /** Subtitles are short so the legend fits beside them. */
  topHeroes: (shown: number, total: number) =>
    shown === total ? tr('charts:subtitle.heroesAll', { count: shown }) : tr('charts:subtitle.heroesTop', { shown, total }),
  rankSeasons: (seasons: number) => tr('charts:subtitle.rankSeasons', { count: seasons }),
  metaHeroes: (heroes: number, named: number) =>
    named < heroes ? tr('charts:subtitle.metaNamed', { count: heroes, named }) : tr('charts:subtitle.metaAll', { count: heroes }),
  compareRank: () => tr('charts:subtitle.compareRank'),
  ladderRank: () => tr('charts:subtitle.ladderRank'),
  evenLine: (percent: string) => tr('charts:evenLine', { percent }),
  /** "54.2 % · KDA 3.1": no words to translate. */
  heroBar: (winRate: string | null, kda: string | null) => [winRate, kda === null ? null : `KDA ${kda}`].filter((s) => s !== null).join(' · '),
  /** `tier` by its English name, drawn in the locale. */
  currentRank: (tier: string, score: string) => (tier ? `${tierName(tier)} · ${score}` : score),
};

/** What players call heroes whose full names crowd a chart; used only where the full name has no room. */
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
