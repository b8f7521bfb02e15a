/**
 * How long each resource stays fresh in the cache, in milliseconds, with the reason for each value.
 * A resource is an endpoint of the client (src/api/endpoints.ts). Override any value with
 * `CACHE_TTL` (see src/app/config.ts). After its TTL an entry is still kept for {@link STALE_RETENTION_MS}
 * so that it can be served, marked stale, while the API is down. The player update
 * (`playerUpdate`) is not a resource: it is an action, never cached, so it has no TTL here
 * (see `CachedEndpointName` in src/api/endpoints.ts).
 */
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
  'notFound',
] as const;

/** An endpoint name, or `notFound` for the negative cache. */
export type Resource = (typeof RESOURCES)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The default TTL table. `Infinity` means the entry never expires. */
export const DEFAULT_TTLS: Readonly<Record<Resource, number>> = {
  // Reference data changes only with a game patch (every few weeks); hours keep it current on patch day.
  heroes: 6 * HOUR,
  hero: 6 * HOUR,
  heroCostumes: 6 * HOUR,
  items: 6 * HOUR,
  item: 6 * HOUR,
  maps: 6 * HOUR,
  achievements: 6 * HOUR,
  achievement: 6 * HOUR,
  battlePass: 6 * HOUR,
  // Game versions announce a patch: shorter than the rest of the reference data so /patch-notes sees a new one the same hour.
  gameVersions: 1 * HOUR,
  // Aggregated over every player: moves slowly, but members compare it after a patch.
  heroStats: 1 * HOUR,
  // Posts appear a few times a month and members look for them right away; the feed poller asks fresh anyway.
  balances: 10 * MINUTE,
  patchNotes: 10 * MINUTE,
  devDiaries: 10 * MINUTE,
  devDiary: 30 * MINUTE,
  // Ranks move with every ranked match of the top players; minutes keep it lively without spending the quota.
  heroLeaderboard: 10 * MINUTE,
  // A player who just finished a match wants to see it; the API itself refreshes profiles only every few minutes.
  player: 3 * MINUTE,
  matchHistoryV1: 3 * MINUTE,
  matchHistoryV2: 3 * MINUTE,
  // api-spec.md, Match detail and Limits 4: "A match, once located, never changes"; clients should cache it.
  match: Number.POSITIVE_INFINITY,
  // A miss (unknown player, mistyped hero) is remembered briefly so retyping it does not spend the key's quota.
  notFound: 2 * MINUTE,
};

/**
 * How long an expired entry is kept to serve stale-if-error (24 h): long enough to ride out an outage,
 * short enough that nobody is shown day-old data without knowing (the View shows its age).
 */
export const STALE_RETENTION_MS = 24 * HOUR;

/** The TTL table with overrides applied (values in ms; `Infinity` for never). */
export function ttlTable(overrides: Partial<Record<Resource, number>> = {}): Record<Resource, number> {
  return { ...DEFAULT_TTLS, ...overrides };
}
