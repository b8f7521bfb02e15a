/**
 * Offline, the players a member can look up are the replica's: the playground gives their names to the players the bot has
 * seen (src/store/recent-lookups.ts), so a member who has looked nobody up is offered them and a misspelt name is answered.
 */
import { createImageResolver } from '../api/images.js';
import { createSchemas } from '../api/schemas.js';
import type { RecentLookups } from '../store/recent-lookups.js';

/** Adds every profile of `players` (the replica's, by uid) that reads as a profile to `recent`'s known players. */
export function seedKnownPlayers(recent: Pick<RecentLookups, 'remember'>, players: ReadonlyMap<string, unknown>, imageBaseUrl: string): void {
  const schemas = createSchemas(createImageResolver(imageBaseUrl));
  recent.remember(
    [...players.values()].flatMap((body) => {
      const profile = schemas.player.safeParse(body);
      return profile.success ? [{ uid: String(profile.data.uid), name: profile.data.name }] : [];
    }),
    // No member can delete the replica's players: they stay for as long as the playground runs.
    { forever: true },
  );
}
