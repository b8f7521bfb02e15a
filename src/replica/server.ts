/**
 * A local replica of the game API (api-spec.md, with its exact error bodies), for offline runs and every
 * test. Where the spec is silent: unknown players, heroes and matches are 404 in the common body;
 * `season` does not filter histories (the real captures show other seasons under a filter).
 * Real behaviour beyond the spec (api-samples/README.md):
 * - v2 history is 404 for a known player whose history was never refreshed; v1 still answers, derived
 *   from the profile's embedded matches;
 * - a v2 page holds at least {@link HISTORY_V2_MIN_PAGE_SIZE} entries, whatever `limit` asked;
 * - the player update (undocumented) answers a hand-written 200, then 429 with the real body within the
 *   cooldown (real length unknown) and no `Retry-After`. An accepted update marks the history refreshed,
 *   in this {@link startReplica} run only;
 * - what a player does in game ({@link ReplicaGame}): a new rank shows at once, another player icon only once an update
 *   was accepted, as the API refreshes a profile then.
 * The reads the spec names without shapes (docs/data.md "The API's other reads"), as public clients read them: the
 * season ladder (./season-ladder.ts), the season listing (numbers; `POST /__replica/seasons` adds one), and the player
 * search, which answers the closest name within a typo or two and a miss as 400 "Player not found".
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../core/logger.js';
import { formatUpdateTime } from '../game/update-times.js';
import { loadDataset, type Dataset, type PostKind } from './data/dataset.js';
import { drawLatency, faultsSchema, type Faults } from './faults.js';
import { iconOf, knownIcons, rankOf, withIcon, withRank, type PlayerIcon } from './in-game.js';
import Fuse from 'fuse.js';
import { LADDER_DEVICES, listedNumber, seasonLadder, type ListedSeason } from './season-ladder.js';

type Json = Record<string, unknown>;

/** The exact messages of api-spec.md, part "Errors". */
export const MESSAGES = {
  unauthorized: 'Invalid or missing API key.',
  serverError: 'An error occurred while fetching data.',
  badPagination: 'Invalid pagination parameters.',
  badQueryOrFilter: 'Invalid query parameters or filters.',
  badQuery: 'Invalid query parameters.',
  badSeason: 'Invalid season query parameter. The specified season is not available or invalid.',
  unknownHero: 'Invalid hero name or ID. The provided name or ID does not match any known hero.',
  badPlayerQuery: 'Invalid query parameter (e.g., missing player UID or username).',
  noBalances: 'No balances found',
  noPatchNotes: 'No Patch Note found',
  noDevDiaries: 'No Dev Diaries found',
  noDevDiary: 'No Dev Diary found',
  noGameVersions: 'No Game versions found',
  noMaps: 'No maps found.',
  noItems: 'No items found matching the filter criteria',
  noItem: 'No item found with the provided ID or name.',
  noAchievements: 'No achievements found matching the filter criteria',
  noAchievement: 'No achievements found',
  noBattlePass: 'Battlepass for the selected season not found',
  noHeroStats: 'Hero stats not found. No stats data could be retrieved for the given hero.',
  noHero: 'Hero not found. No hero data was found for the given name or ID',
  noPlayerData: 'Player not found or match data unavailable for the specified query',
  // The player endpoint's own bodies.
  playerBadQuery: 'Invalid query parameter or missing query',
  playerUnauthorized: 'Invalid or missing API key',
  playerServerError: 'An unexpected error occurred. Please try again later.',
  // Not in the spec.
  noPlayer: 'Player not found',
  /** What the player search answers for a name it does not find (as one public client matches it, with a 400). */
  searchMiss: 'Player not found',
  noMatch: 'Match not found',
  /** Hand-written: the real success body of the player update is unknown. */
  updateRequested: 'Player update requested.',
  tooManyRequests: 'Too many requests. Please slow down.',
  /** Hand-written: a private profile's 403 as public clients read it; its real text is unknown. */
  privateProfile: 'This player profile is private.',
  unavailable: 'Service temporarily unavailable.',
} as const;

/** The real 429 message of the player update during its cooldown (api-samples/errors/linkyy-player-update-429.json). */
export function updateCooldownMessage(minutes: number): string {
  return `You can request an update in ${minutes} minutes.`;
}

export const DEFAULT_UPDATE_COOLDOWN_MS = 30 * 60_000;

/** The real API answered 40 entries when 20 were asked. */
export const HISTORY_V2_MIN_PAGE_SIZE = 40;

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

class HttpError extends Error {
  constructor(readonly reply: Reply) {
    super(`replica ${reply.status}`);
  }
}

const ok = (body: unknown, provenance?: string): Reply => ({ status: 200, body, headers: provenance ? { 'x-replica-provenance': provenance } : {} });
/** The common error body `{error: true, message, status}`. */
const fail = (status: number, message: string): never => {
  throw new HttpError({ status, body: { error: true, message, status } });
};

/** "Spider Man" and "spider-man" meet. */
const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '');

export interface ReplicaOptions {
  /** The only key accepted in `x-api-key`. Default `replica-key`. */
  apiKey?: string;
  /** Default: the vendored samples plus hand-written fixtures. */
  dataset?: Dataset;
  faults?: Faults;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  logger?: Logger;
  /** Epoch ms, for the update cooldown and the `updates.*` times it writes. */
  now?: () => number;
  /** Per player, ms; the `updateCooldownSeconds` fault overrides it while set. */
  updateCooldownMs?: number;
}

export interface Replica {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  apiKey: string;
  dataset: Dataset;
  faults(): Faults;
  setFaults(faults: Faults): void;
  /**
   * Serves `file` (a capture in the samples' `player/` folder, e.g. `player/doublec8-….json`) as its player's profile from
   * now on: a player's captures served in date order play the player's history. @throws Error for a file that is no capture.
   */
  serveCapture(file: string): void;
  /** API routes only, by path without query. */
  requests: { total: number; byPath: Map<string, number> };
  /** The game's side: what players do in game, which the API then shows. */
  game: ReplicaGame;
  close(): Promise<void>;
}

/** Where a player stands in game and at the API. */
export interface InGameStatus {
  uid: string;
  name: string;
  /** As the API's profile shows it now. */
  shown: PlayerIcon | null;
  /** Equipped in game: {@link InGameStatus.shown}, or one equipped since that the API shows after its next accepted update. */
  equipped: PlayerIcon | null;
  /** The latest ranked season's division (1 … 23) and tier; null when the profile lists none. */
  rank: { level: number; tier: string | null } | null;
  /** Ms until the API accepts an update of this player (0: now). */
  updateInMs: number;
}

/**
 * The game, as far as the API shows it. `query` a player's UID or name, as the API takes it; every method but
 * {@link ReplicaGame.icons} and {@link ReplicaGame.status} throws {@link RangeError} for a player or a value the
 * replica does not have (the message says which).
 */
export interface ReplicaGame {
  /** Every icon the captured profiles wear: the icons a player can equip. */
  icons(): PlayerIcon[];
  /** Undefined for a player the replica does not have. */
  status(query: string): InGameStatus | undefined;
  /** Equips `iconId` in game: the profile shows it once the API accepted an update of the player (`/player/{q}/update`). */
  equipIcon(query: string, iconId: string): InGameStatus;
  /** Ranks the player at division `level` (1 Bronze III … 23 One Above All) now, as ranked matches would: the profile shows it at once. */
  setRank(query: string, level: number): InGameStatus;
  /** Ends the player's update cooldown now, so that the API accepts the next update at once. */
  skipUpdateCooldown(query: string): InGameStatus;
}

function paging(url: URL, badMessage: string, defaultLimit = 10): { page: number; limit: number } {
  const read = (name: string, fallback: number) => {
    const v = url.searchParams.get(name);
    if (v === null) return fallback;
    if (!/^\d+$/.test(v.trim()) || Number(v) < 1) fail(400, badMessage);
    return Number(v);
  };
  return { page: read('page', 1), limit: read('limit', defaultLimit) };
}

function pageOf<T>(all: T[], page: number, limit: number): T[] {
  return all.slice((page - 1) * limit, page * limit);
}

/** @returns the running replica; `close()` drops open and hung connections. */
export async function startReplica(options: ReplicaOptions = {}): Promise<Replica> {
  const apiKey = options.apiKey ?? 'replica-key';
  const data = options.dataset ?? loadDataset();
  let faults: Faults = options.faults ?? {};
  const requests = { total: 0, byPath: new Map<string, number>() };
  const hung = new Set<ServerResponse>();
  const now = options.now ?? Date.now;
  const updateRequests = new Map<string, number>();
  /** Icons equipped in game that the API shows after the player's next accepted update. */
  const equipped = new Map<string, PlayerIcon>();
  /** Players whose update cooldown was ended early. */
  const cooldownSkipped = new Set<string>();
  const icons = knownIcons(data.profileCaptures);
  const updateCooldownMs = () =>
    faults.updateCooldownSeconds !== undefined ? faults.updateCooldownSeconds * 1000 : (options.updateCooldownMs ?? DEFAULT_UPDATE_COOLDOWN_MS);

  /** Season ladders by `<season>:<device>`, drawn on first ask. */
  const ladders = new Map<string, Json[]>();

  const heroByQuery = (q: string): Json | undefined => {
    const n = norm(q);
    return data.heroes.find((h) => String(h.id) === q.trim() || norm(String(h.name ?? '')) === n);
  };

  const routes: [RegExp, (m: RegExpMatchArray, url: URL) => Reply][] = [
    [/^\/api\/v1\/heroes$/, () => ok(data.heroes, 'real')],
    [/^\/api\/v1\/heroes\/hero\/([^/]+)$/, (m) => ok(heroByQuery(m[1]!) ?? fail(404, MESSAGES.noHero), 'real')],
    [
      /^\/api\/v1\/heroes\/hero\/([^/]+)\/stats$/,
      (m, url) => {
        const hero = heroByQuery(m[1]!) ?? fail(400, MESSAGES.unknownHero);
        // An undocumented season: a past season the dataset holds is served as that season's; any other gets the current one.
        const past = data.seasonHeroStats.get(`${String(hero.id)}:${Number(url.searchParams.get('season'))}`);
        return ok(past ?? data.heroStats.get(String(hero.id)) ?? fail(404, MESSAGES.noHeroStats), 'handwritten');
      },
    ],
    [
      /^\/api\/v1\/heroes\/hero\/([^/]+)\/costumes$/,
      (m) => {
        const hero = heroByQuery(m[1]!) ?? fail(400, MESSAGES.unknownHero);
        const costumes = Array.isArray(hero.costumes) ? (hero.costumes as Json[]) : [];
        if (costumes.length === 0) fail(404, MESSAGES.noHero);
        const quality = (c: Json) => (c.quality && typeof c.quality === 'object' ? (c.quality as Json).name : c.quality);
        return ok(
          costumes.map((c) => ({
            id: c.id,
            name: c.name,
            icon: c.icon ?? c.imageUrl,
            rarity: quality(c) ?? 'Default',
            description: c.description,
            appearance: c.appearance,
          })),
          'derived',
        );
      },
    ],
    [
      /^\/api\/v1\/heroes\/leaderboard\/([^/]+)$/,
      (m, url) => {
        const hero = heroByQuery(m[1]!) ?? fail(404, MESSAGES.noHero);
        const platform = (url.searchParams.get('platform') ?? 'pc').toLowerCase();
        if (!['pc', 'ps', 'xbox'].includes(platform)) fail(400, MESSAGES.badQuery);
        const past = data.seasonLeaderboards.get(`${String(hero.id)}:${platform}:${Number(url.searchParams.get('season'))}`);
        return ok(past ?? data.leaderboards.get(`${String(hero.id)}:${platform}`) ?? { players: [] }, 'handwritten');
      },
    ],
    [
      /^\/api\/v1\/achievements$/,
      (_m, url) => {
        const { page, limit } = paging(url, MESSAGES.badQueryOrFilter);
        const q = url.searchParams.get('query');
        let all = data.achievements;
        if (q !== null) {
          if (q.trim() === '') fail(400, MESSAGES.badQueryOrFilter);
          // The filter takes a hero name or id and matches the achievement category.
          const hero = heroByQuery(q);
          const wanted = norm(hero ? String(hero.name) : q);
          all = all.filter((a) => norm(String(a.category ?? '')) === wanted);
        }
        const entries = pageOf(all, page, limit);
        if (entries.length === 0) fail(404, MESSAGES.noAchievements);
        return ok({ total_achievements: all.length, achievements: entries }, 'handwritten');
      },
    ],
    [
      /^\/api\/v1\/achievement\/([^/]+)$/,
      (m) => {
        const q = m[1]!;
        if (q.trim() === '') fail(400, MESSAGES.badQuery);
        const byId = data.achievementDetails.get(q.trim());
        const byName = [...data.achievementDetails.values()].find((a) => norm(String(a.name)) === norm(q));
        return ok(byId ?? byName ?? fail(404, MESSAGES.noAchievement), 'handwritten');
      },
    ],
    [
      /^\/api\/v1\/battlepass$/,
      (_m, url) => {
        const raw = url.searchParams.get('season') ?? '1.5';
        if (!/^\s*\d+(\.\d+)?\s*$/.test(raw)) fail(400, MESSAGES.badSeason);
        return ok(data.battlePasses.get(String(Number(raw))) ?? fail(404, MESSAGES.noBattlePass), 'handwritten');
      },
    ],
    [
      /^\/api\/v1\/items$/,
      (_m, url) => {
        const { page, limit } = paging(url, MESSAGES.badQueryOrFilter);
        const type = url.searchParams.get('type');
        let all = data.items;
        if (type !== null) {
          if (!['emote', 'mvp', 'nameplate', 'spray'].includes(type.toLowerCase())) fail(400, MESSAGES.badQueryOrFilter);
          all = all.filter((i) => String(i.type).toLowerCase() === type.toLowerCase());
        }
        const entries = pageOf(all, page, limit);
        if (entries.length === 0) fail(404, MESSAGES.noItems);
        return ok({ total_items: all.length, items: entries }, 'handwritten');
      },
    ],
    [
      /^\/api\/v1\/item\/([^/]+)$/,
      (m) => {
        const q = m[1]!;
        if (q.trim() === '') fail(400, MESSAGES.badQuery);
        const found = data.items.find((i) => String(i.id) === q.trim() || norm(String(i.name)) === norm(q) || i.slug === q);
        return ok(found ?? fail(404, MESSAGES.noItem), 'handwritten');
      },
    ],
    [
      /^\/api\/v1\/maps$/,
      (_m, url) => {
        const { page, limit } = paging(url, MESSAGES.badQueryOrFilter);
        const entries = pageOf(data.maps, page, limit);
        if (entries.length === 0) fail(404, MESSAGES.noMaps);
        return ok({ total_maps: data.maps.length, maps: entries }, 'real');
      },
    ],
    [/^\/api\/v1\/balances$/, (_m, url) => postList(url, 'balances', 'total_balances', 'balances', MESSAGES.noBalances)],
    [/^\/api\/v1\/patch-notes$/, (_m, url) => postList(url, 'patchNotes', 'total_patches', 'formatted_patches', MESSAGES.noPatchNotes)],
    [/^\/api\/v1\/dev-diaries$/, (_m, url) => postList(url, 'devDiaries', 'total_entries', 'dev_diaries', MESSAGES.noDevDiaries)],
    [
      /^\/api\/v1\/dev-diary\/([^/]+)$/,
      (m) => {
        if (m[1]!.trim() === '') fail(400, MESSAGES.badPagination);
        return ok(data.posts.devDiaries.find((p) => String(p.id) === m[1]!.trim()) ?? fail(404, MESSAGES.noDevDiary), 'handwritten');
      },
    ],
    [
      /^\/api\/v1\/patch-note\/([^/]+)$/,
      (m) => ok(data.posts.patchNotes.find((p) => String(p.id) === m[1]!.trim()) ?? fail(404, MESSAGES.noPatchNotes), 'handwritten'),
    ],
    [
      /^\/api\/v1\/game-versions$/,
      (_m, url) => {
        const { page, limit } = paging(url, MESSAGES.badPagination);
        const entries = pageOf(data.gameVersions, page, limit);
        if (entries.length === 0) fail(404, MESSAGES.noGameVersions);
        return ok({ total_versions: data.gameVersions.length, versions: entries }, 'handwritten');
      },
    ],
    [
      /^\/api\/v1\/player\/([^/]+)$/,
      (m, url) => {
        const q = m[1]!.trim();
        const season = url.searchParams.get('season');
        if (q === '' || (season !== null && !/^\d+(\.\d+)?$/.test(season.trim()))) {
          throw new HttpError({ status: 400, body: { error: MESSAGES.playerBadQuery } });
        }
        const uid = playerUid(q) ?? fail(404, MESSAGES.noPlayer);
        // A season the dataset holds a profile of is served as that season's; any other season gets the
        // current profile, as an API that keeps no past season would answer.
        const profile = (season === null ? undefined : data.seasonProfiles.get(`${uid}:${Number(season)}`)) ?? data.players.get(uid)!;
        const updatedAt = updateRequests.get(uid);
        if (updatedAt === undefined) return ok(profile, data.provenance.get(`player:${uid}`));
        const stamp = formatUpdateTime(updatedAt);
        const updates = { ...(profile.updates as Json | null | undefined), last_update_request: stamp, last_history_update: stamp };
        return ok({ ...profile, updates }, 'derived');
      },
    ],
    [
      /^\/api\/v1\/player\/([^/]+)\/update$/,
      (m) => {
        const uid = playerUid(m[1]!) ?? fail(404, MESSAGES.noPlayer);
        const t = now();
        const left = cooldownLeft(uid, t);
        if (left > 0) fail(429, updateCooldownMessage(Math.ceil(left / 60_000)));
        updateRequests.set(uid, t);
        cooldownSkipped.delete(uid);
        // The refresh brings in what changed in game meanwhile.
        const icon = equipped.get(uid);
        if (icon) {
          data.players.set(uid, withIcon(data.players.get(uid)!, icon));
          equipped.delete(uid);
        }
        return ok({ success: true, message: MESSAGES.updateRequested, status: 200 }, 'handwritten');
      },
    ],
    [
      /^\/api\/v1\/player\/([^/]+)\/match-history$/,
      (m, url) => {
        const uid = playerUid(m[1]!) ?? fail(404, MESSAGES.noPlayerData);
        const entries = filterHistory(data.historyV1.get(uid) ?? [], url);
        const skip = url.searchParams.get('skip');
        if (skip !== null && !/^\d+$/.test(skip.trim())) fail(400, MESSAGES.badPlayerQuery);
        return ok({ match_history: skip === null ? entries : entries.slice(Number(skip)) }, data.provenance.get(`historyV1:${uid}`));
      },
    ],
    [
      /^\/api\/v2\/player\/([^/]+)\/match-history$/,
      (m, url) => {
        if (m[1]!.trim() === '') fail(400, MESSAGES.badPlayerQuery);
        const asked = paging(url, MESSAGES.badPlayerQuery, HISTORY_V2_MIN_PAGE_SIZE);
        const uid = playerUid(m[1]!) ?? fail(404, MESSAGES.noPlayerData);
        if (!historyRefreshed(uid)) fail(404, MESSAGES.noPlayerData);
        const page = asked.page;
        const limit = Math.max(asked.limit, HISTORY_V2_MIN_PAGE_SIZE);
        const all = filterHistory(data.historyV2.get(uid) ?? [], url);
        const totalPages = Math.ceil(all.length / limit);
        return ok(
          {
            match_history: pageOf(all, page, limit),
            pagination: { page, limit, total_matches: all.length, total_pages: totalPages, has_more: page < totalPages },
          },
          data.provenance.get(`historyV2:${uid}`),
        );
      },
    ],
    [/^\/api\/v1\/seasons$/, () => ok({ seasons: data.seasons }, 'handwritten')],
    [
      /^\/api\/v2\/players\/leaderboard$/,
      (_m, url) => {
        const device = (url.searchParams.get('device') ?? 'pc').trim().toLowerCase();
        if (!(LADDER_DEVICES as readonly string[]).includes(device)) fail(400, MESSAGES.badQuery);
        const raw = url.searchParams.get('season');
        const listed = data.seasons.map(listedNumber);
        const newest = Math.max(...listed);
        if (raw !== null && (!/^\s*\d+(\.\d+)?\s*$/.test(raw) || !listed.includes(Number(raw)))) fail(400, MESSAGES.badSeason);
        const season = raw === null ? newest : Number(raw);
        const { page, limit } = paging(url, MESSAGES.badPagination, 25);
        if (limit > 500) fail(400, MESSAGES.badPagination);
        const key = `${season}:${device}`;
        let ladder = ladders.get(key);
        if (!ladder) ladders.set(key, (ladder = seasonLadder(season, device as (typeof LADDER_DEVICES)[number], season === newest, data.players.values())));
        return ok(
          { page, limit, total_players: ladder.length, total_pages: Math.ceil(ladder.length / limit), players: pageOf(ladder, page, limit) },
          'handwritten',
        );
      },
    ],
    [
      /^\/api\/v[12]\/find-player\/([^/]+)$/,
      (m) => {
        const q = m[1]!.trim();
        if (q === '') fail(400, MESSAGES.badPlayerQuery);
        const uid = playerUid(q) ?? nearestName(q) ?? fail(400, MESSAGES.searchMiss);
        const profile = data.players.get(uid)!;
        return ok({ name: String(profile.name ?? (profile.player as Json | undefined)?.name ?? uid), uid }, 'handwritten');
      },
    ],
    [/^\/api\/v1\/match\/([^/]+)$/, (m) => ok(data.matches.get(m[1]!.trim()) ?? fail(404, MESSAGES.noMatch), 'real')],
  ];

  /** The player whose name is closest to `query` within a typo or two (fuse.js); the real search's reach is unknown. */
  function nearestName(query: string): string | undefined {
    const names = [...data.players].map(([uid, p]) => ({ uid, name: String(p.name ?? (p.player as Json | undefined)?.name ?? '') }));
    return new Fuse(names, { keys: ['name'], threshold: 0.3, ignoreLocation: true }).search(query, { limit: 1 })[0]?.item.uid;
  }

  function postList(url: URL, kind: PostKind, countField: string, arrayField: string, notFound: string): Reply {
    const { page, limit } = paging(url, MESSAGES.badPagination);
    const all = data.posts[kind];
    const entries = pageOf(all, page, limit);
    if (entries.length === 0) fail(404, notFound);
    return ok({ [countField]: all.length, [arrayField]: entries }, 'handwritten');
  }

  function playerUid(query: string): string | undefined {
    const q = query.trim();
    if (data.players.has(q)) return q;
    const n = norm(q);
    for (const [uid, profile] of data.players) {
      const name = String(profile.name ?? (profile.player as Json | undefined)?.name ?? '');
      if (name.toLowerCase() === q.toLowerCase() || (n !== '' && norm(name) === n)) return uid;
    }
    return undefined;
  }

  /** Ms until the API accepts `uid`'s next update, at `t`. */
  function cooldownLeft(uid: string, t: number): number {
    const last = updateRequests.get(uid);
    return last === undefined || cooldownSkipped.has(uid) ? 0 : Math.max(0, last + updateCooldownMs() - t);
  }

  function statusOf(uid: string): InGameStatus {
    const profile = data.players.get(uid)!;
    const shown = iconOf(profile);
    const name = String(profile.name ?? (profile.player as Json | undefined)?.name ?? uid);
    return { uid, name, shown, equipped: equipped.get(uid) ?? shown, rank: rankOf(profile), updateInMs: cooldownLeft(uid, now()) };
  }

  function known(query: string): string {
    const uid = playerUid(query);
    if (uid === undefined) throw new RangeError(`the replica has no player ${query}`);
    return uid;
  }

  const game: ReplicaGame = {
    icons: () => [...icons],
    status: (query) => {
      const uid = playerUid(query);
      return uid === undefined ? undefined : statusOf(uid);
    },
    equipIcon: (query, iconId) => {
      const uid = known(query);
      const icon = icons.find((i) => i.id === iconId);
      if (!icon) throw new RangeError(`no player icon ${iconId}: pick one of ${icons.map((i) => i.id).join(', ')}`);
      if (icon.id === iconOf(data.players.get(uid)!)?.id) equipped.delete(uid);
      else equipped.set(uid, icon);
      return statusOf(uid);
    },
    setRank: (query, level) => {
      const uid = known(query);
      data.players.set(uid, withRank(data.players.get(uid)!, level, now()));
      return statusOf(uid);
    },
    skipUpdateCooldown: (query) => {
      const uid = known(query);
      if (updateRequests.has(uid)) cooldownSkipped.add(uid);
      return statusOf(uid);
    },
  };

  function historyRefreshed(uid: string): boolean {
    if (updateRequests.has(uid) || data.provenance.get(`historyV2:${uid}`) === 'real') return true;
    const updates = data.players.get(uid)?.updates;
    return updates !== null && typeof updates === 'object' && (updates as Json).last_history_update != null;
  }

  function filterHistory(entries: Json[], url: URL): Json[] {
    const gameMode = Number(url.searchParams.get('game_mode') ?? 0);
    const after = Number(url.searchParams.get('timestamp') ?? 0);
    return entries.filter((e) => (gameMode === 0 || Number(e.game_mode_id) === gameMode) && (after === 0 || Number(e.match_time_stamp) > after));
  }

  /** The player endpoint has its own error shapes. */
  function errorBody(path: string, status: number): unknown {
    const isPlayer = /^\/api\/v1\/player\/[^/]+$/.test(path);
    if (status === 401) return isPlayer ? { status: 'error', message: MESSAGES.playerUnauthorized } : { error: true, message: MESSAGES.unauthorized, status };
    if (status >= 500 && isPlayer) return { status: 'error', message: MESSAGES.playerServerError };
    if (status === 500) return { error: true, message: MESSAGES.serverError, status };
    if (status === 429) return { error: true, message: MESSAGES.tooManyRequests, status };
    if (status === 403) return { error: true, message: MESSAGES.privateProfile, status };
    if (status >= 500) return { error: true, message: MESSAGES.unavailable, status };
    return { error: true, message: MESSAGES.badQuery, status };
  }

  function send(res: ServerResponse, reply: Reply): void {
    const body = JSON.stringify(reply.body);
    res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...reply.headers });
    res.end(body);
  }

  /** @returns false when `file` is no capture. */
  function serveCapture(file: string): boolean {
    const capture = data.profileCaptures.find((c) => c.file === file);
    if (!capture) return false;
    data.players.set(capture.uid, capture.body);
    return true;
  }

  async function handleAdmin(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const remote = req.socket.remoteAddress ?? '';
    if (!/^(127\.|::1$|::ffff:127\.)/.test(remote)) return send(res, { status: 403, body: { error: 'admin routes are loopback-only' } });
    const body = req.method === 'GET' || req.method === 'DELETE' ? undefined : await readJsonBody(req);
    if (path === '/__replica/faults') {
      if (req.method === 'GET') return send(res, ok(faults));
      if (req.method === 'DELETE') {
        faults = {};
        return send(res, ok(faults));
      }
      const parsed = faultsSchema.safeParse(body);
      if (!parsed.success) return send(res, { status: 400, body: { error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') } });
      faults = parsed.data;
      return send(res, ok(faults));
    }
    const postRoute = path.match(/^\/__replica\/posts\/(patchNotes|balances|devDiaries)$/);
    if (postRoute && req.method === 'POST') {
      const post = body as Json;
      if (!post || typeof post !== 'object' || typeof post.id !== 'string' || typeof post.title !== 'string') {
        return send(res, { status: 400, body: { error: 'a post needs at least a string id and title' } });
      }
      const list = data.posts[postRoute[1] as PostKind];
      if (list.some((p) => p.id === post.id)) return send(res, { status: 409, body: { error: `post ${post.id} exists` } });
      list.unshift(post);
      return send(res, { status: 201, body: post });
    }
    // A post changed at the API (a correction): the fields given replace the post's.
    const editRoute = path.match(/^\/__replica\/posts\/(patchNotes|balances|devDiaries)\/([^/]+)$/);
    if (editRoute && req.method === 'PATCH') {
      const patch = body as Json;
      const fields = ['title', 'overview', 'fullContent', 'date', 'imagePath'] as const;
      if (
        !patch ||
        typeof patch !== 'object' ||
        Object.keys(patch).some((k) => !(fields as readonly string[]).includes(k)) ||
        Object.values(patch).some((v) => v !== null && typeof v !== 'string')
      ) {
        return send(res, { status: 400, body: { error: `a post change may set only ${fields.join(', ')}, each a string or null` } });
      }
      const id = decodeURIComponent(editRoute[2]!);
      const post = data.posts[editRoute[1] as PostKind].find((p) => String(p.id) === id);
      if (!post) return send(res, { status: 404, body: { error: `no post ${id}` } });
      Object.assign(post, patch);
      return send(res, ok(post));
    }
    // A season the API lists from now on (a new season's start): a number, or `{season, name?, starts_at?, ends_at?}`.
    if (path === '/__replica/seasons' && req.method === 'POST') {
      const added = seasonOfBody(body);
      if (added === null) return send(res, { status: 400, body: { error: 'a season is a number such as 4.5, or {season, name?, starts_at?, ends_at?}' } });
      if (data.seasons.some((s) => listedNumber(s) === listedNumber(added)))
        return send(res, { status: 409, body: { error: `season ${listedNumber(added)} is listed` } });
      data.seasons.push(added);
      return send(res, { status: 201, body: { seasons: data.seasons } });
    }
    if (path === '/__replica/players/capture' && req.method === 'PUT') {
      const file = (body as Json | undefined)?.file;
      if (typeof file !== 'string' || !serveCapture(file))
        return send(res, { status: 400, body: { error: 'file must name a capture in player/ of the samples' } });
      return send(res, ok({ served: file }));
    }
    if (path === '/__replica/game/icons' && req.method === 'GET') return send(res, ok(game.icons()));
    const player = path.match(/^\/__replica\/game\/players\/([^/]+)(\/icon|\/rank|\/update-cooldown)?$/);
    if (player) {
      let query: string;
      try {
        query = decodeURIComponent(player[1]!);
      } catch {
        return send(res, { status: 400, body: { error: `bad path segment ${player[1]}` } });
      }
      const b = (body ?? {}) as Json;
      try {
        if (player[2] === undefined && req.method === 'GET') {
          const status = game.status(query);
          return send(res, status ? ok(status) : { status: 404, body: { error: `the replica has no player ${query}` } });
        }
        if (player[2] === '/icon' && req.method === 'PUT') return send(res, ok(game.equipIcon(query, String(b.iconId ?? ''))));
        if (player[2] === '/rank' && req.method === 'PUT') return send(res, ok(game.setRank(query, Number(b.level))));
        if (player[2] === '/update-cooldown' && req.method === 'DELETE') return send(res, ok(game.skipUpdateCooldown(query)));
      } catch (err) {
        if (err instanceof RangeError) return send(res, { status: playerUid(query) === undefined ? 404 : 400, body: { error: err.message } });
        throw err;
      }
    }
    if (path === '/__replica/stats' && req.method === 'GET') return send(res, ok({ total: requests.total, byPath: Object.fromEntries(requests.byPath) }));
    return send(res, { status: 404, body: { error: 'unknown admin route' } });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://replica.local');
    // Match on the raw, still-encoded path so an encoded "/" never splits a segment; decode the captures.
    const rawPath = (req.url ?? '/').split('?')[0]!;
    if (rawPath.startsWith('/__replica/')) return handleAdmin(req, res, rawPath);

    requests.total++;
    requests.byPath.set(rawPath, (requests.byPath.get(rawPath) ?? 0) + 1);

    const f = faults;
    // A prefix with a "?" is matched against the path and its query ("/api/v1/player/1?season").
    const faulted = f.pathPrefix === undefined || (f.pathPrefix.includes('?') ? url.pathname + url.search : url.pathname).startsWith(f.pathPrefix);
    if (faulted) {
      const delay = drawLatency(f);
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      if (f.hang) {
        hung.add(res);
        res.on('close', () => hung.delete(res));
        return;
      }
    }
    if (req.method !== 'GET') return send(res, { status: 405, body: { error: true, message: 'Method not allowed', status: 405 }, headers: { allow: 'GET' } });
    const isPlayer = /^\/api\/v1\/player\/[^/]+$/.test(rawPath);
    if (req.headers['x-api-key'] !== apiKey) return send(res, { status: 401, body: errorBody(rawPath, 401) });

    if (faulted) {
      const forced = f.forceStatus ?? (f.errorRate && Math.random() < f.errorRate ? (f.errorStatus ?? 500) : undefined);
      if (forced !== undefined) {
        const headers: Record<string, string> = {};
        if ((forced === 429 || forced === 503) && f.retryAfterSeconds !== undefined) headers['retry-after'] = String(f.retryAfterSeconds);
        return send(res, { status: forced, body: errorBody(rawPath, forced), headers });
      }
      if (f.malformed) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"match_details": {"match_uid": "6713355_17406');
      }
      if (f.wrongShape) return send(res, ok({ result: { unexpected: true } }));
      if (f.hangBody) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"players": [');
        hung.add(res);
        res.on('close', () => hung.delete(res));
        return;
      }
    }

    for (const [pattern, handler] of routes) {
      const m = rawPath.match(pattern);
      if (!m) continue;
      let decoded: RegExpMatchArray;
      try {
        decoded = m.map((part) => decodeURIComponent(part)) as unknown as RegExpMatchArray;
      } catch {
        return send(
          res,
          isPlayer
            ? { status: 400, body: { error: MESSAGES.playerBadQuery } }
            : { status: 400, body: { error: true, message: MESSAGES.badQuery, status: 400 } },
        );
      }
      try {
        return send(res, handler(decoded, url));
      } catch (err) {
        if (err instanceof HttpError) return send(res, err.reply);
        options.logger?.error({ err, path: rawPath }, 'replica handler failed');
        return send(res, { status: 500, body: errorBody(rawPath, 500) });
      }
    }
    return send(res, { status: 404, body: { error: true, message: 'Not found', status: 404 } });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      options.logger?.error({ err }, 'replica request failed');
      if (!res.headersSent) send(res, { status: 500, body: { error: true, message: MESSAGES.serverError, status: 500 } });
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    apiKey,
    dataset: data,
    faults: () => faults,
    setFaults: (next) => {
      faults = next;
    },
    serveCapture: (file) => {
      if (!serveCapture(file)) throw new Error(`${file} is not a player capture of the samples`);
    },
    requests,
    game,
    close: async () => {
      for (const res of hung) res.destroy();
      hung.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A season to list from an admin body; null when it is none. */
function seasonOfBody(body: unknown): ListedSeason | null {
  const isSeason = (n: unknown): n is number => typeof n === 'number' && n >= 0 && n <= 1000 && Math.round(n * 10) === n * 10;
  if (isSeason(body)) return body;
  if (!body || typeof body !== 'object') return null;
  const b = body as Json;
  if (!isSeason(b.season)) return null;
  const textOf = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  if ([b.name, b.starts_at, b.ends_at].some((v) => v !== undefined && textOf(v) === undefined)) return null;
  return { season: b.season, name: textOf(b.name), starts_at: textOf(b.starts_at), ends_at: textOf(b.ends_at) };
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
