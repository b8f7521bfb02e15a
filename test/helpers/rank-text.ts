/**
 * The rank a profile holds now, read straight from its data (the oracle the tier invariants are checked against), and a
 * profile whose rank block the API wrote for another tier, as a real profile headed by an earlier season's level.
 */
import type { PlayerProfile } from '../../src/api/schemas.js';
import { badgeSlug, TIER_COLOURS, tierGroup, tierOf, tierOfLevel } from '../../src/game/ranks.js';
import { seasonFromRankGame, seasonOfHistoryEntry } from '../../src/game/seasons.js';

/**
 * The latest ranked season's `level` and `rank_score`, or the `new_level` and `new_score` of a competitive match of that
 * season played after its `update_time`; `tier` their tier by the one rule (src/game/ranks.ts). Null: no ranked season.
 */
export function seasonNow(p: PlayerProfile): { level: number | null; score: number | null; tier: string | null } | null {
  const entries = p.rank_seasons
    .flatMap((r) => {
      const season = seasonFromRankGame(r.rank_game_id, r.game_id);
      return season ? [{ r, season }] : [];
    })
    .sort((a, b) => a.season.index - b.season.index);
  const latest = entries.at(-1);
  if (!latest) return null;
  const after = p.recent_matches
    .filter(
      (m) =>
        m.game_mode_id === 2 &&
        m.time !== null &&
        m.player.new_score !== null &&
        seasonOfHistoryEntry(m.season, 'profile')?.index === latest.season.index &&
        (latest.r.update_time === null || m.time > latest.r.update_time),
    )
    .sort((a, b) => b.time! - a.time!)[0];
  const level = after ? after.player.new_level : latest.r.level;
  const score = after ? after.player.new_score : latest.r.rank_score;
  return { level, score, tier: tierOf(level, score) };
}

/** A division two tiers away from `level` (1 … 21), as far as the game has them: the API's text names another tier. */
export const otherLevel = (level: number): number => (level > 9 ? level - 6 : level + 6);

type Json = Record<string, unknown>;

/**
 * `body` (a raw profile) with the API's rank block written for `level`: its text, its badge in the same folder and
 * its colour, the way the API writes them together. Scores and peaks stay as they are.
 */
export function withRankText(body: Json, level: number): Json {
  const copy = structuredClone(body);
  const player = copy.player as Json;
  const rank = { ...(player.rank as Json) };
  const tier = tierOfLevel(level)!;
  const group = tierGroup(tier)!;
  rank.rank = tier;
  rank.color = TIER_COLOURS[group];
  for (const key of ['image', 'icon'] as const) {
    if (typeof rank[key] === 'string') rank[key] = rank[key].replace(/[^/]+(\.png)$/i, `${badgeSlug(group)}$1`);
  }
  player.rank = rank;
  return copy;
}
