/**
 * The game modes of matches (`game_mode_id` and `play_mode_id` of history rows and match details):
 * one table, and what each mode means for a player's record. Pure functions.
 *
 * The API's documentation lists no values. Each id below is named from evidence in the data and in
 * public API clients; the README ("Game modes") gives the evidence for each. Ids without evidence (6 is
 * disputed between community tables) stay unknown. `play_mode_id` 1 is a custom room; 0 is the
 * matchmade default; other values have no evidence.
 */
import { tr } from '../i18n/index.js';

/** What a mode is, as the bot treats it. */
export type ModeKey = 'quickPlay' | 'competitive' | 'custom' | 'arcade' | 'tutorial' | 'vsAi' | 'tournament' | 'other';

/** `game_mode_id` → mode. Ids not listed are {@link ModeKey} `other`. */
const GAME_MODES: Readonly<Record<number, ModeKey>> = {
  1: 'quickPlay',
  2: 'competitive',
  3: 'custom',
  4: 'arcade',
  5: 'tutorial',
  7: 'vsAi',
  9: 'tournament',
  10: 'tournament',
};

/** `play_mode_id` of a custom room. */
const CUSTOM_ROOM_PLAY_MODE = 1;

/** The modes whose matches are against bots or for practice: never a player's real result. */
const PRACTICE: ReadonlySet<ModeKey> = new Set(['vsAi', 'tutorial', 'custom']);

/** The mode of a match, with what it means for the player's record. */
export interface MatchMode {
  key: ModeKey;
  /** The API's `game_mode_id`, kept to name an unknown mode ("Other mode 6"); null when absent. */
  id: number | null;
  /** Ranked: the match moves the rank score. */
  ranked: boolean;
  /** Against bots, a tutorial or a custom room. */
  practice: boolean;
  /**
   * A real result, counted in win rates and recent form: a matchmade match against players of a known
   * mode. False for practice, and for an unknown mode (it could be either).
   */
  counts: boolean;
}

/** The mode of a history row or match detail from its `game_mode_id` and `play_mode_id` (either may be null). */
export function matchMode(gameModeId: number | null | undefined, playModeId?: number | null): MatchMode {
  const id = typeof gameModeId === 'number' && Number.isFinite(gameModeId) ? gameModeId : null;
  let key: ModeKey = id !== null && Object.hasOwn(GAME_MODES, id) ? GAME_MODES[id]! : 'other';
  if (key === 'other' && playModeId === CUSTOM_ROOM_PLAY_MODE) key = 'custom';
  const practice = PRACTICE.has(key);
  return { key, id, ranked: key === 'competitive', practice, counts: !practice && key !== 'other' };
}

/** Every mode key, in the order a filter offers them. */
export const MODE_KEYS: readonly ModeKey[] = ['competitive', 'quickPlay', 'arcade', 'tournament', 'custom', 'vsAi', 'tutorial', 'other'];

/**
 * The name of a match's mode in the current locale, from its `game_mode_id` (and `play_mode_id`) through
 * the one mode table (above): "Quick Play", "Competitive", "Practice vs AI", "Arcade", else
 * "Other mode"; null for no id.
 */
export function gameModeName(id: number | null | undefined, playModeId?: number | null): string | null {
  if (id === null || id === undefined || !Number.isFinite(id)) return null;
  return tr(`render:modes.${matchMode(id, playModeId).key}`);
}

/** True when `game_mode_id` is a ranked (Competitive) match, whose rank-score change is worth showing. */
export function isRankedMode(id: number | null | undefined): boolean {
  return matchMode(id).ranked;
}
