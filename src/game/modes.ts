/**
 * Match modes (`game_mode_id`, `play_mode_id`) and what each means for a player's record. The API
 * documents no values: each id is named from evidence in real data (docs/data.md, "Game modes"); the rest stay unknown.
 */
import type { MatchSummary } from '../api/schemas.js';
import { tr } from '../i18n/index.js';

export type ModeKey = 'quickPlay' | 'competitive' | 'custom' | 'arcade' | 'tutorial' | 'vsAi' | 'tournament' | 'other';

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

const CUSTOM_ROOM_PLAY_MODE = 1;

const PRACTICE: ReadonlySet<ModeKey> = new Set(['vsAi', 'tutorial', 'custom']);

export interface MatchMode {
  key: ModeKey;
  /** The API's `game_mode_id`, kept to name an unknown mode ("Other mode 6"); null when absent. */
  id: number | null;
  ranked: boolean;
  practice: boolean;
  /** Counted in win rates and form: false for practice and for an unknown mode (it could be either). */
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

/** In the order a filter offers them. */
export const MODE_KEYS: readonly ModeKey[] = ['competitive', 'quickPlay', 'arcade', 'tournament', 'custom', 'vsAi', 'tutorial', 'other'];

/** The mode's name in the current locale ("Quick Play", else "Other mode"); null for no id. */
export function gameModeName(id: number | null | undefined, playModeId?: number | null): string | null {
  if (id === null || id === undefined || !Number.isFinite(id)) return null;
  return modeKeyName(matchMode(id, playModeId).key);
}

/** A mode key's name in the current locale (`render:modes`). */
export function modeKeyName(key: ModeKey): string {
  return tr(`render:modes.${key}`);
}

/** What a match row says of its map's mode: a history row of any source, or a match the tracker recorded (src/game/tracking.ts). */
export type MapModeRow = Pick<MatchSummary, 'match_uid' | 'map_id' | 'game_mode_id' | 'play_mode_id'>;

/**
 * The modes of a player's own match rows on each map, by map id (text), each map's in {@link MODE_KEYS} order; a map no
 * row names is absent. `rows` are history rows of any shape (the profile's embedded ones included): the three sources
 * name a match's mode alike (docs/data.md, "Game modes"). This is the one source of a map's mode for a player: the map
 * list's competitive flag is swapped on some same-named maps (docs/data.md).
 */
export function modesByMap(rows: readonly Omit<MapModeRow, 'match_uid'>[]): Map<string, ModeKey[]> {
  const seen = new Map<string, Set<ModeKey>>();
  for (const row of rows) {
    const id = row.map_id?.trim();
    // A row without a mode says nothing of its map's.
    if (!id || row.game_mode_id === null || row.game_mode_id === undefined) continue;
    const modes = seen.get(id) ?? new Set<ModeKey>();
    modes.add(matchMode(row.game_mode_id, row.play_mode_id).key);
    seen.set(id, modes);
  }
  return new Map([...seen].map(([id, modes]) => [id, MODE_KEYS.filter((k) => modes.has(k))]));
}

export function isRankedMode(id: number | null | undefined): boolean {
  return matchMode(id).ranked;
}
