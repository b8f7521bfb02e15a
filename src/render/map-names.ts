/** How answers name a map: its plain name, a label no other map of the catalogue has, and the maps a player played with the modes of their own rows. */
import { tr } from '../i18n/index.js';
import { listOf } from './common.js';
import { isQueueMode, modeName } from '../i18n/names.js';
import { modeKeyName, type ModeKey } from '../game/modes.js';

/** A map in no language: entries are shared by every answer, so the bot's own words are added when shown. */
export interface MapInfo {
  /** The API's map id, as text ("1170"). */
  id: string;
  /** The short name, also for parts such as Bifrost Garden; null for a map without one. */
  name: string | null;
  /** The part of the map when it differs from `name` ("Odin's Archive"), else null. */
  subMap: string | null;
  /** What {@link mapLabel} adds so that no two maps share a label. */
  tellApart: { mode: boolean; id: boolean };
  location: string | null;
  /** The map's objective in English title case (src/i18n/names.ts `modeTitle`): show it with `modeName`. */
  mode: string | null;
  /** The list's `is_competitve` flag as given, for the map list itself: it is swapped on some same-named maps, so it never names a player's mode. */
  competitive: boolean;
  /** Absolute URL: the first of `images`, else `sub_map.thumbnail`. */
  image: string | null;
  video: string | null;
}

/** A map's short name, or a stand-in in the current locale naming its id and location. */
export function mapName(m: Pick<MapInfo, 'id' | 'name' | 'location'>): string {
  if (m.name !== null) return m.name;
  return m.location ? tr('maps:unnamedAt', { id: m.id, location: m.location }) : tr('maps:unnamed', { id: m.id });
}

/** A map's name and part without the list's mode or competitive flag, for a match: the list's flag is swapped on some same-named maps. */
export function mapPlainName(m: Pick<MapInfo, 'id' | 'name' | 'location' | 'subMap'>): string {
  return m.subMap ? `${mapName(m)}: ${m.subMap}` : mapName(m);
}

/**
 * A label no other map of the catalogue has, in the current locale: {@link mapName}, `: subMap`, then what {@link MapInfo.tellApart}
 * asks for in parentheses ("Royal Palace (Domination, map 1236)"); the API's names and modes as it gives them. Never empty. It
 * names no queue: the list's competitive flag is swapped on some twins, so twins are told apart by id.
 */
export function mapLabel(m: MapInfo): string {
  const qualifiers = [m.tellApart.mode && m.mode ? modeName(m.mode) : null, m.tellApart.id ? tr('maps:mapId', { id: m.id }) : null];
  return qualified(mapPlainName(m), qualifiers);
}

/** "<label> (<qualifiers>)" in the current locale, leaving out nulls; the label alone without any. */
function qualified(label: string, qualifiers: readonly (string | null)[]): string {
  const shown = qualifiers.filter((q): q is string => q !== null);
  return shown.length > 0 ? tr('maps:qualified', { label, qualifiers: listOf(shown) }) : label;
}

/** One map of a player's own list: its id (null when the row names none), the map list's entry, and the profile's own name for it. */
export interface PlayedMap {
  id: string | null;
  info: MapInfo | undefined;
  /** The profile's name for the map (`maps[].map_name`), for a map the map list does not have. */
  name?: string | null;
}

/**
 * Labels for a player's list of maps, in order and in the current locale: the map's name and part, the objective where the
 * catalogue needs it to tell the name's maps apart, then the modes of the player's own rows on the map (`modes`, from
 * src/game/modes.ts `modesByMap`), never the map list's competitive flag, which is swapped on some same-named maps. A map no
 * row names gets no mode. Lines still alike are told apart by location, then by id. A map the list does not have is named
 * by the profile's name, else by its id.
 */
export function playedMapLabels(maps: readonly PlayedMap[], modes: ReadonlyMap<string, readonly ModeKey[]>): string[] {
  const idText = (id: string) => tr('maps:mapId', { id });
  const lines = maps.map((m) => {
    const info = m.info;
    const name = info ? mapPlainName(info) : m.name?.trim() || null;
    // The list's objective, unless it names a queue: the list is not trusted on those.
    const objective = info?.tellApart.mode && info.mode && !isQueueMode(info.mode) ? modeName(info.mode) : null;
    const rowModes = (m.id ? modes.get(m.id) : undefined)?.map(modeKeyName) ?? [];
    const qualifiers: (string | null)[] = [objective, ...rowModes, name === null && m.id ? idText(m.id) : null];
    return { m, name, qualifiers, bare: name === null && rowModes.length === 0 };
  });
  const text = (l: (typeof lines)[number]) => [l.name ?? '', ...l.qualifiers].join('|');
  const tellApart = (add: (l: (typeof lines)[number], group: typeof lines) => string | null) => {
    const groups = new Map<string, typeof lines>();
    for (const l of lines) groups.set(text(l), [...(groups.get(text(l)) ?? []), l]);
    for (const group of groups.values()) if (group.length > 1) for (const l of group) l.qualifiers.push(add(l, group));
  };
  tellApart((l, group) => (new Set(group.map((g) => g.m.info?.location ?? null)).size > 1 ? (l.m.info?.location ?? null) : null));
  tellApart((l) => (l.m.id && !l.qualifiers.includes(idText(l.m.id)) ? idText(l.m.id) : null));
  return lines.map((l) => {
    // A map known by its id alone keeps the rows' wording: "Unknown map (1311)".
    if (l.bare) return l.m.id ? tr('player:mapId', { id: l.m.id }) : tr('player:unknownMap');
    return qualified(l.name ?? tr('player:unknownMap'), l.qualifiers);
  });
}
