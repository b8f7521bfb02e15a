// Every map of the paged map list (api-spec.md endpoint 11), once per id, labelled so maps sharing a name are told apart.
// The real list (api-samples/maps) repeats ids with different gaps and shares names across modes, competitive twins and sub-maps.
import type { Fetched, RivalsApi } from '../api/client.js';
import { ApiError } from '../core/api-errors.js';
import type { GameMap, Page } from '../api/schemas.js';
import type { Logger } from '../core/logger.js';
import { tr } from '../i18n/index.js';
import { modeTitle } from '../i18n/names.js';
import { mapLabel, type MapInfo } from '../render/map-names.js';

/** The catalogue with how fresh it is (for a "showing data as of" footer). */
export interface MapCatalogue {
  /** Every map once, sorted by location (none last), then name, mode, competitive last, id. */
  maps: MapInfo[];
  /** True when any page was served stale from the cache because the API failed. */
  stale: boolean;
  /** Age of the oldest page, in milliseconds. */
  ageMs: number;
}

export interface MapDirectoryOptions {
  /** `limit` asked of the API per page; default 100 (the API may answer fewer: the walk goes on by `total`). */
  pageSize?: number;
  /** Hard cap on pages read in one walk; default 20. */
  maxPages?: number;
  /** Where {@link MapDirectory.label} logs an API failure when the caller gives no logger. */
  logger?: Logger;
}

const DEFAULT_PAGE_SIZE = 100;
const DEFAULT_MAX_PAGES = 20;

const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '');

interface Index {
  /** The pages' fetch times, joined: the index is rebuilt only when one changes. */
  key: string;
  maps: MapInfo[];
  byId: Map<string, MapInfo>;
}

/** Map lookup over the whole map list, read through the client's cache on every call; the index is rebuilt when a page changes. */
export class MapDirectory {
  readonly #api: RivalsApi;
  readonly #pageSize: number;
  readonly #maxPages: number;
  readonly #logger?: Logger;
  #index?: Index;
  #walk?: Promise<{ index: Index; pages: Fetched<Page<GameMap>>[] }>;

  /** A directory over `api` (its `maps()` call, endpoint 11); reads nothing until first asked. */
  constructor(api: RivalsApi, options: MapDirectoryOptions = {}) {
    this.#api = api;
    this.#pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.#maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    this.#logger = options.logger;
  }

  /**
   * Every map once, in {@link MapCatalogue.maps}'s order; shared between calls, so copy before changing.
   * @throws {ApiError} when the first page cannot be had, or a later page fails other than with `not_found`.
   */
  async list(): Promise<MapInfo[]> {
    return (await this.#load()).index.maps;
  }

  /** {@link list} with the pages' freshness. @throws {ApiError} as {@link list}. */
  async catalogue(): Promise<MapCatalogue> {
    const { index, pages } = await this.#load();
    return { maps: index.maps, stale: pages.some((p) => p.stale), ageMs: Math.max(0, ...pages.map((p) => p.ageMs)) };
  }

  /** The map with id `id` (a number or its text), or undefined when the API does not list it. @throws {ApiError} as {@link list}. */
  async get(id: string | number): Promise<MapInfo | undefined> {
    return (await this.#load()).index.byId.get(String(id).trim());
  }

  /**
   * {@link mapLabel} of map `id`, or "Unknown map" (`player:mapId`) when the API does not list it. For reply paths: never throws;
   * when the list cannot be had, it warns (on `logger`, else the directory's) and names the map by its id.
   */
  async label(id: string | number, logger?: Logger): Promise<string> {
    const key = String(id).trim();
    try {
      const map = await this.get(key);
      return map ? mapLabel(map) : tr('player:mapId', { id: key });
    } catch (err) {
      (logger ?? this.#logger)?.warn({ err, mapId: key }, 'map list unavailable; naming the map by its id');
      return tr('player:mapById', { id: key });
    }
  }

  /** Reads every page (one walk at a time; callers during a walk share it) and rebuilds the index if a page changed. */
  #load() {
    this.#walk ??= this.#readPages().finally(() => {
      this.#walk = undefined;
    });
    return this.#walk;
  }

  async #readPages() {
    const pages: Fetched<Page<GameMap>>[] = [];
    const ids = new Set<string>();
    let received = 0;
    for (let page = 1; page <= this.#maxPages; page++) {
      let fetched: Fetched<Page<GameMap>>;
      try {
        fetched = await this.#api.maps({ page, limit: this.#pageSize });
      } catch (err) {
        // The API answers 404 for a page past the end (and for an empty list).
        if (err instanceof ApiError && err.kind === 'not_found') break;
        throw err;
      }
      pages.push(fetched);
      const { total, entries } = fetched.data;
      const before = ids.size;
      for (const m of entries) ids.add(m.id);
      received += entries.length;
      // Done when the page is empty, `total` is reached, or the page adds no new map (an API that ignores `page`).
      if (entries.length === 0 || received >= total || ids.size === before) break;
    }
    const key = pages.map((p) => p.fetchedAt).join(',');
    if (this.#index?.key !== key)
      this.#index = buildIndex(
        key,
        pages.flatMap((p) => p.data.entries),
      );
    return { index: this.#index, pages };
  }
}

/** How much a record tells: its non-empty fields. */
function information(m: GameMap): number {
  const present = [m.name, m.full_name, m.location, m.description, m.game_mode, m.video, m.sub_map?.name, m.sub_map?.thumbnail].filter(
    (v) => v !== null && v !== undefined,
  ).length;
  return present + (m.sub_map?.id && m.sub_map.id !== '0' ? 1 : 0) + (m.images.length > 0 ? 1 : 0);
}

/** One record per id: the one with more information (the first on a tie), its gaps filled from the others. */
function merge(records: GameMap[]): GameMap {
  const [best, ...rest] = [...records].sort((a, b) => information(b) - information(a));
  let out = best!;
  for (const other of rest) {
    out = {
      ...out,
      name: out.name ?? other.name,
      full_name: out.full_name ?? other.full_name,
      location: out.location ?? other.location,
      description: out.description ?? other.description,
      game_mode: out.game_mode ?? other.game_mode,
      video: out.video ?? other.video,
      images: out.images.length > 0 ? out.images : other.images,
      sub_map:
        out.sub_map || other.sub_map
          ? {
              id: out.sub_map?.id ?? other.sub_map?.id ?? null,
              name: out.sub_map?.name ?? other.sub_map?.name ?? null,
              thumbnail: out.sub_map?.thumbnail ?? other.sub_map?.thumbnail ?? null,
            }
          : null,
    };
  }
  return out;
}

function buildIndex(key: string, entries: GameMap[]): Index {
  const byIdRecords = new Map<string, GameMap[]>();
  for (const m of entries) byIdRecords.set(m.id, [...(byIdRecords.get(m.id) ?? []), m]);
  const maps = [...byIdRecords.values()].map((records) => describe(merge(records)));
  label(maps);
  maps.sort(
    (a, b) =>
      (a.location === null ? 1 : 0) - (b.location === null ? 1 : 0) ||
      (a.location ?? '').localeCompare(b.location ?? '') ||
      (a.name === null ? 1 : 0) - (b.name === null ? 1 : 0) ||
      (a.name ?? '').localeCompare(b.name ?? '') ||
      (a.mode ?? '').localeCompare(b.mode ?? '') ||
      Number(a.competitive) - Number(b.competitive) ||
      a.id.localeCompare(b.id, undefined, { numeric: true }),
  );
  return { key, maps, byId: new Map(maps.map((m) => [m.id, m])) };
}

/** A record as a MapInfo, told apart by nothing yet (see {@link label}). */
function describe(m: GameMap): MapInfo {
  const named = m.name?.trim() || null;
  const location = m.location?.trim() || null;
  // `full_name` is "<name> - <parent map or location>": a parent map that is not the location makes
  // this map a part of it ("Bifrost Garden - Royal Palace" is Royal Palace's Bifrost Garden).
  const [first, parentOrPlace] = (m.full_name ?? '').split(' - ').map((x) => x.trim());
  const parent = named && parentOrPlace && norm(first ?? '') === norm(named) && norm(parentOrPlace) !== norm(location ?? '') ? parentOrPlace : null;
  const name = parent ?? named;
  const sub = parent ? named : m.sub_map?.name?.trim() || null;
  const subMap = name && sub && norm(sub) !== norm(name) ? sub : null;
  const video = m.video && /^https?:\/\//i.test(m.video.trim()) ? m.video.trim() : null;
  return {
    id: m.id,
    name,
    subMap,
    tellApart: { mode: false, id: false },
    location,
    mode: modeTitle(m.game_mode),
    competitive: m.is_competitive,
    image: m.images[0] ?? m.sub_map?.thumbnail ?? null,
    video,
  };
}

/**
 * Sets {@link MapInfo.tellApart} so no two labels match: the objective for a name in several, the id for the rest (twins of
 * one name and objective, whose competitive flag cannot be trusted). Decided on the API's words, so it holds in every locale.
 */
function label(maps: MapInfo[]): void {
  const groupBy = (list: MapInfo[], key: (m: MapInfo) => unknown) => {
    const groups = new Map<unknown, MapInfo[]>();
    for (const m of list) groups.set(key(m), [...(groups.get(key(m)) ?? []), m]);
    return [...groups.values()];
  };
  const base = (m: MapInfo) => (m.name === null ? `#${m.id}` : norm(m.subMap ? `${m.name} ${m.subMap}` : m.name));
  // Maps of one name and part (Royal Palace, or Royal Palace: Odin's Archive): the part already tells parts apart.
  for (const sameName of groupBy(maps, base)) {
    const byMode = groupBy(sameName, (m) => norm(m.mode ?? ''));
    if (byMode.length > 1) for (const m of sameName) if (m.mode) m.tellApart.mode = true;
  }
  const text = (m: MapInfo) => `${base(m)}|${m.tellApart.mode ? norm(m.mode ?? '') : ''}`;
  for (const clash of groupBy(maps, text)) {
    if (clash.length > 1) for (const m of clash) m.tellApart.id = true;
  }
}
