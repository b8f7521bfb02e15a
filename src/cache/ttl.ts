/** Freshness per resource (an endpoint), ms, overridable with `CACHE_TTL`; expired entries stay {@link STALE_RETENTION_MS} for stale-if-error. */
export const RESOURCES = [
  'heroes',
  'hero',
  'heroStats',
  'heroCostumes',
  'heroLeaderboard',
  'achievements',
  'achievement',
  'battlePass',
  'items',
  'item',
  'maps',
  'balances',
  'patchNotes',
  'devDiaries',
  'devDiary',
  'gameVersions',
  'player',
  'matchHistoryV1',
  'matchHistoryV2',
  'match',
  'topPlayers',
  'seasons',
  'findPlayer',
  'notFound',
] as const;

/** An endpoint name, or `notFound` for the negative cache. */
export type Resource = (typeof RESOURCES)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** `Infinity`: never expires. */
export const DEFAULT_TTLS: Readonly<Record<Resource, number>> = {
  // Reference data changes only with a game patch; hours keep it current on patch day.
  heroes: 6 * HOUR,
  hero: 6 * HOUR,
  heroCostumes: 6 * HOUR,
  items: 6 * HOUR,
  item: 6 * HOUR,
  maps: 6 * HOUR,
  achievements: 6 * HOUR,
  achievement: 6 * HOUR,
  battlePass: 6 * HOUR,
  // Game versions announce a patch: /patch-notes should see a new one the same hour.
  gameVersions: 1 * HOUR,
  // Aggregated over every player: moves slowly, but members compare it after a patch.
  heroStats: 1 * HOUR,
  // Members look for new posts right away; the feed poller asks fresh anyway.
  balances: 10 * MINUTE,
  patchNotes: 10 * MINUTE,
  devDiaries: 10 * MINUTE,
  devDiary: 30 * MINUTE,
  heroLeaderboard: 10 * MINUTE,
  // A player who just finished a match wants to see it; the API refreshes profiles only every few minutes anyway.
  player: 3 * MINUTE,
  matchHistoryV1: 3 * MINUTE,
  matchHistoryV2: 3 * MINUTE,
  // api-spec.md, Match detail and Limits 4: "A match, once located, never changes".
  match: Number.POSITIVE_INFINITY,
  // The season's ladder moves with every ranked match, but members read its top, not their own line of it.
  topPlayers: 5 * MINUTE,
  // A new season starts every few months, announced weeks ahead.
  seasons: 24 * HOUR,
  // A name's owner changes only when a player renames.
  findPlayer: 1 * HOUR,
  // So that retyping a miss does not spend the key's quota.
  notFound: 2 * MINUTE,
};

/** Expired entries are kept this long for stale-if-error: rides out an outage, yet nobody sees day-old data unknowingly. */
export const STALE_RETENTION_MS = 24 * HOUR;

/** ms; `Infinity` for never. */
export function ttlTable(overrides: Partial<Record<Resource, number>> = {}): Record<Resource, number> {
  return { ...DEFAULT_TTLS, ...overrides };
}
