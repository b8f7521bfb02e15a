/**
 * The tracker: reads each tracked player's profile on its schedule (src/store/tracking.ts) with what
 * members leave of the API's budget, and records what changed. A read goes to the API, not to the
 * response cache, and refreshes it, so members then see what the tracker saw. With the same budget it
 * reads the details of the matches those reads recorded (src/store/match-fetches.ts) into the match store.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RivalsApi } from '../api/client.js';
import { ApiArgumentError, ApiError } from '../core/api-errors.js';
import type { Logger } from '../core/logger.js';
import { mainRole, standingOf } from '../game/ladder.js';
import { rankSummary } from '../game/profile.js';
import { nextInterval, readForTracking, sameSnapshot, trackedTimelinePoints, type IntervalBounds } from '../game/tracking.js';
import type { LadderRepository } from '../store/ladder/index.js';
import type { ClaimedMatchFetch, MatchFetchRepository } from '../store/match-fetches.js';
import type { MatchStoreRepository } from '../store/matches.js';
import type { ClaimedPlayer, TrackingRepository } from '../store/tracking.js';

/** How long a claim holds before another process may take the player (ms): far longer than one read waits. */
export const TRACKING_LEASE_MS = 10 * 60_000;
/** How often the whole tracked set is made to follow the account links (ms): links, unlinks and members' choices apply at once, this only catches what they missed. */
export const TRACKING_SYNC_MS = 60 * 60_000;
/** How often old snapshots are thinned (ms). */
const PRUNE_EVERY_MS = 60 * 60_000;
/** The first retry after a failed read (ms), doubled per failure up to the shortest interval. */
const RETRY_BASE_MS = 30_000;
/** A match read the API could not answer for now (down, slow, busy) is due again this much later (ms); no attempt counted. */
const MATCH_TRANSIENT_RETRY_MS = 5 * 60_000;
/** The default share of tracking reads that go to match details while profiles are due too (`TRACKING_MATCH_SHARE`). */
export const DEFAULT_MATCH_SHARE = 0.25;
/** Reads remembered to keep the share: long enough to hold it, short enough that a quiet spell of one kind is soon forgotten. */
const SHARE_WINDOW = 20;

export interface TrackerOptions extends IntervalBounds {
  api: Pick<RivalsApi, 'player'>;
  tracking: TrackingRepository;
  /** Where each read's standing goes, for servers' ladders; `roleOf` the hero list's role of a hero (null: unknown). */
  ladder?: { standings: Pick<LadderRepository, 'setStanding' | 'setPrivate'>; roleOf: () => Promise<(heroId: string | null) => string | null> };
  /**
   * Match details of the recorded matches: claimed from `fetches`, read at tracking priority, kept in `store`. `share` (0–1)
   * is the part of reads that go to them while profiles are due too; either kind takes the whole budget the other leaves.
   */
  matches?: {
    api: Pick<RivalsApi, 'match'>;
    fetches: Pick<MatchFetchRepository, 'claim' | 'done' | 'retry' | 'release'>;
    store: Pick<MatchStoreRepository, 'put'>;
    share: number;
  };
  /** When a tracking read may start by the rate limiter's view (src/api/rate-limiter.ts `trackingWait`). */
  spare: () => number;
  logger: Logger;
  now?: () => number;
  /** Reads in flight at once (default 2). */
  concurrency?: number;
  /** How long to sleep when nobody is due (ms; default a tenth of the shortest interval, at most 30 s). */
  idleMs?: number;
}

/** `start()` runs until `stop()`; `step()` claims and reads once (tests, the benchmark). */
export class Tracker {
  readonly #o: TrackerOptions;
  readonly #now: () => number;
  readonly #stopping = new AbortController();
  readonly #inflight = new Set<Promise<void>>();
  #loop: Promise<void> | undefined;
  #syncedAt = Number.NEGATIVE_INFINITY;
  #prunedAt = Number.NEGATIVE_INFINITY;
  /** The kinds of the last {@link SHARE_WINDOW} reads started, true a match read. */
  readonly #recent: boolean[] = [];
  #counts = { profiles: 0, matches: 0 };

  constructor(options: TrackerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Stops claiming, gives up reads waiting for the rate limit, and waits for the rest; a read given up keeps its claim until the lease ends. */
  async stop(): Promise<void> {
    this.#stopping.abort(new Error('the tracker was stopped'));
    await this.#loop;
    await Promise.allSettled([...this.#inflight]);
  }

  async #run(): Promise<void> {
    const signal = this.#stopping.signal;
    const idleMs = this.#o.idleMs ?? Math.min(30_000, this.#o.minMs / 10);
    while (!signal.aborted) {
      try {
        if (this.#inflight.size >= (this.#o.concurrency ?? 2)) {
          await Promise.race(this.#inflight);
          continue;
        }
        const wait = this.#o.spare();
        if (wait > 0) await sleep(Math.min(wait, idleMs), undefined, { signal });
        else if ((await this.step()) === 0) await sleep(idleMs, undefined, { signal });
      } catch (err) {
        if (signal.aborted) break;
        // A store outage pauses tracking; claims not recorded expire and are taken again.
        this.#o.logger.warn({ err }, 'tracking paused: could not read the schedule');
        await sleep(idleMs, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  /**
   * Follows the account links when due, prunes when due, then claims one due player or match and starts its read: a match
   * first while match reads are below their share of the recent reads, the other kind when the first has none due, and
   * with neither due, a player ahead of time ({@link TrackingRepository.claimEarly}).
   * @returns how many reads it started (0 or 1).
   * @throws the store's error when the schedule cannot be read.
   */
  async step(): Promise<number> {
    const now = this.#now();
    if (now - this.#syncedAt >= TRACKING_SYNC_MS) {
      const { added, removed } = await this.#o.tracking.sync(now);
      this.#syncedAt = now;
      if (added + removed > 0) this.#o.logger.info({ added, removed }, 'tracked players follow the account links');
    }
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now;
      await this.#o.tracking.optimize();
      const pruned = await this.#o.tracking.prune(now);
      if (pruned > 0) this.#o.logger.info({ snapshots: pruned }, 'thinned old tracking snapshots to one a day');
    }
    const matchFirst = this.#o.matches !== undefined && this.#recent.filter(Boolean).length < this.#o.matches.share * this.#recent.length;
    const started = matchFirst
      ? (await this.#startMatch(now)) || (await this.#startProfile(now))
      : (await this.#startProfile(now)) || (await this.#startMatch(now));
    return started || (await this.#startEarly(now)) ? 1 : 0;
  }

  /** Reads started since the tracker was made, by kind. */
  get counts(): Readonly<{ profiles: number; matches: number }> {
    return { ...this.#counts };
  }

  async #startProfile(now: number): Promise<boolean> {
    const [claim] = await this.#o.tracking.claim(now, 1, TRACKING_LEASE_MS);
    if (!claim) return false;
    this.#started(false, this.read(claim), claim.uid);
    return true;
  }

  /**
   * With nothing due, a profile read ahead of its time, of a player not read for the shortest interval: the key's room to
   * spare shows new matches sooner (docs/benchmarks.md, "Tracking"). At scale somebody is always due, and this never runs.
   */
  async #startEarly(now: number): Promise<boolean> {
    const [claim] = await this.#o.tracking.claimEarly(now, 1, TRACKING_LEASE_MS, now - this.#o.minMs);
    if (!claim) return false;
    this.#started(false, this.read(claim), claim.uid);
    return true;
  }

  async #startMatch(now: number): Promise<boolean> {
    if (!this.#o.matches) return false;
    const [claim] = await this.#o.matches.fetches.claim(now, 1, TRACKING_LEASE_MS);
    if (!claim) return false;
    this.#started(true, this.readMatch(claim), claim.matchUid);
    return true;
  }

  #started(match: boolean, work: Promise<void>, id: string): void {
    this.#recent.push(match);
    if (this.#recent.length > SHARE_WINDOW) this.#recent.shift();
    this.#counts[match ? 'matches' : 'profiles']++;
    const read = work.catch((err: unknown) =>
      this.#o.logger.warn({ err, ...(match ? { matchUid: id } : { uid: id }) }, match ? 'a match read was not stored' : 'a tracking read was not recorded'),
    );
    this.#inflight.add(read);
    void read.finally(() => this.#inflight.delete(read));
  }

  /**
   * Reads one claimed match's detail (api-spec.md endpoint 20) at tracking priority and stores it, which ends its fetch. No
   * detail yet (an empty scoreboard, a 404) counts an attempt; an API that cannot answer now (down, slow, busy) does not.
   */
  async readMatch(claim: ClaimedMatchFetch): Promise<void> {
    const { api, fetches, store } = this.#o.matches!;
    const { logger } = this.#o;
    let fetched;
    try {
      fetched = await api.match(claim.matchUid, { priority: 'tracking', signal: this.#stopping.signal });
    } catch (err) {
      const now = this.#now();
      if (this.#stopping.signal.aborted) return fetches.release(claim, now);
      if (err instanceof ApiError && err.isTransient) {
        logger.info({ matchUid: claim.matchUid, kind: err.kind }, 'a match read failed; tried again later');
        return fetches.release(claim, now + MATCH_TRANSIENT_RETRY_MS);
      }
      // A uid the API cannot take (malformed) will never have a detail: spend the attempts at once.
      const gaveUp = await fetches.retry(claim, now, err instanceof ApiArgumentError);
      logger.info({ matchUid: claim.matchUid, kind: err instanceof ApiError ? err.kind : 'argument', gaveUp }, 'a match has no detail yet');
      return;
    }
    const now = this.#now();
    if (fetched.data.players.length === 0) {
      const gaveUp = await fetches.retry(claim, now);
      logger.info({ matchUid: claim.matchUid, gaveUp }, 'a match has no scoreboard yet');
      return;
    }
    await store.put(fetched.data, now);
    // put ends the fetch of a match it stores; this ends one another process stored first.
    await fetches.done(claim);
  }

  /** Resolves once the reads started so far are recorded (or failed). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inflight]);
  }

  /** Reads one claimed player and records the outcome; every failure gives the claim back with a later due time. */
  async read(claim: ClaimedPlayer): Promise<void> {
    const { api, tracking, logger } = this.#o;
    let fetched;
    try {
      fetched = await api.player(claim.uid, {}, { fresh: true, priority: 'tracking', signal: this.#stopping.signal });
    } catch (err) {
      if (this.#stopping.signal.aborted) return;
      const notFound = err instanceof ApiError && err.kind === 'not_found';
      const retryMs = notFound ? this.#o.maxMs : Math.min(this.#o.minMs, RETRY_BASE_MS * 2 ** Math.min(claim.failures, 10));
      logger.info({ uid: claim.uid, kind: err instanceof ApiError ? err.kind : 'error', retryMs }, 'tracking read failed; tried again later');
      await tracking.release(claim, retryMs, this.#now());
      return;
    }
    const now = this.#now();
    if (fetched.stale) {
      // The cache's copy, served because the API failed: not a read.
      await tracking.release(claim, Math.min(this.#o.minMs, RETRY_BASE_MS * 2 ** Math.min(claim.failures, 10)), now);
      return;
    }
    const outcome = readForTracking(fetched.data);
    if (outcome.kind === 'private') {
      const own = await tracking.recordRead(claim, { snapshot: null, matches: [], lastMatchAt: null, changed: false }, { intervalMs: this.#o.maxMs }, now);
      if (own) await this.#o.ladder?.standings.setPrivate(claim.uid, now);
      return;
    }
    if (outcome.kind === 'malformed') {
      logger.warn({ uid: claim.uid, reason: outcome.reason }, 'tracking read skipped: the profile breaks its own invariants');
      await tracking.release(claim, Math.max(this.#o.minMs, claim.intervalMs), now);
      return;
    }
    const changed =
      claim.snapshot === null ||
      !sameSnapshot(claim.snapshot, outcome.snapshot) ||
      (outcome.lastMatchAt !== null && (claim.lastMatchAt === null || outcome.lastMatchAt > claim.lastMatchAt));
    const intervalMs = nextInterval(
      { changed, previousMs: claim.intervalMs > 0 ? claim.intervalMs : null, lastMatchAt: outcome.lastMatchAt ?? claim.lastMatchAt, now },
      this.#o,
    );
    const own = await tracking.recordRead(claim, { ...outcome, changed }, { intervalMs }, now);
    if (!own) {
      logger.info({ uid: claim.uid }, 'a tracking read finished after its claim expired; another process records it');
      return;
    }
    const ladder = this.#o.ladder;
    if (!ladder) return;
    // Derived from what is recorded: a standing that failed to be written is written again at the next read.
    const [records, roleOf] = await Promise.all([tracking.timeline(claim.uid), ladder.roleOf().catch(() => () => null)]);
    const standing = standingOf(
      outcome.snapshot,
      { timeline: trackedTimelinePoints(records.snapshots, records.matches), matches: records.matches },
      { apiPeak: rankSummary(fetched.data).seasonPeak?.score ?? null, role: mainRole(fetched.data, roleOf) },
      now,
    );
    await ladder.standings.setStanding(claim.uid, standing, now);
  }
}
