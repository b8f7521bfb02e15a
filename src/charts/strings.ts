/**
 * The words the charts draw, in one place and in the shape of src/strings.ts (each entry a function of
 * its values, so word order can change per language). Kept beside the charts because the chart worker
 * bundles only src/charts/ and what it imports.
 */
export const chartText = {
  /** The message of a chart with nothing to draw. */
  noData: () => 'No data to chart yet',
  /** The top band of rank charts: Eternity has a score band, One Above All is a leaderboard place within it. */
  topBand: () => 'Eternity / One Above All',
  rankScoreAxis: () => 'Rank score',
  playTimeAxis: () => 'Play time',
  winRateAxis: () => 'Win rate',
  pickShareAxis: () => 'Pick share',
  /** Legend entry of heroes whose role is not one of the three. */
  otherRole: () => 'Other',
  /** Subtitle of the hero chart: how many heroes of how many are shown (short, so the role legend fits beside it). */
  topHeroes: (shown: number, total: number) => (shown === total ? `${shown} ${shown === 1 ? 'hero' : 'heroes'} by play time` : `Top ${shown} of ${total} by play time`),
  /** Subtitle of the rank history: how many seasons are drawn (short, so the season legend fits beside it). */
  rankSeasons: (seasons: number) => `Rank score · ${seasons} ${seasons === 1 ? 'season' : 'seasons'}`,
  /** Subtitle of the meta scatter: how many heroes, and how many of them are named (the most picked that have room). */
  metaHeroes: (heroes: number, named: number) => (named < heroes ? `${heroes} heroes · ${named} named` : `${heroes} ${heroes === 1 ? 'hero' : 'heroes'}`),
  /** Subtitle of the comparison. */
  compareRank: () => 'Rank score over time',
  /** The 50 % reference line's label. */
  evenLine: (percent: string) => `${percent} win rate`,
  /** The label of a hero's bar: win rate and KDA, each only when known ("54.2 % · KDA 3.1"). */
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
