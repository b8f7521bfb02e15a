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
  /** Subtitle of the hero chart: how many heroes of how many are shown. */
  topHeroes: (shown: number, total: number) => (shown === total ? `${shown} ${shown === 1 ? 'hero' : 'heroes'} by play time` : `Top ${shown} of ${total} heroes by play time`),
  /** Subtitle of the rank history: which seasons are drawn. */
  rankSeasons: (seasons: number) => `Rank score over ${seasons} ${seasons === 1 ? 'season' : 'seasons'}`,
  /** Subtitle of the meta scatter. */
  metaHeroes: (heroes: number, named: number) =>
    named < heroes ? `${heroes} heroes · the ${named} most picked named` : `${heroes} ${heroes === 1 ? 'hero' : 'heroes'} · win rate against pick share`,
  /** Subtitle of the comparison. */
  compareRank: () => 'Rank score over time',
  /** The 50 % reference line's label. */
  evenLine: (percent: string) => `${percent} win rate`,
  /** The label of a hero's bar: win rate and KDA, each only when known ("54.2 % · KDA 3.1"). */
  heroBar: (winRate: string | null, kda: string | null) => [winRate, kda === null ? null : `KDA ${kda}`].filter((s) => s !== null).join(' · '),
  /** The label of the current-rank marker ("Gold II · 3,752"). */
  currentRank: (tier: string, score: string) => (tier ? `${tier} · ${score}` : score),
};
