/**
 * The tracker: reads each tracked player's profile on its schedule (src/store/tracking.ts) with what
 * members leave of the API's budget, and records what changed. A read goes to the API, not to the
 * response cache, and refreshes it, so members then see what the tracker saw.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RivalsApi } from '../api/client.js';
import { ApiError } from '../core/api-errors.js';
import type { Logger } from '../core/logger.js';
import { mainRole, standingOf } from '../game/ladder.js';
import { rankSummary } from '../game/profile.js';
import { nextInterval, readForTracking, sameSnapshot, trackedTimelinePoints, type IntervalBounds } from '../game/tracking.js';
import type { LadderRepository } from '../store/ladder/index.js';
import type { ClaimedPlayer, TrackingRepository } from '../store/tracking.js';

/** How long a claim holds before another process may take the player (ms): far longer than one read waits. */
export const TRACKING_LEASE_MS = 10 * 60_000;
/** How often the whole tracked set is made to follow the account links (ms): links, unlinks and members' choices apply at once, this only catches what they missed. */
export const TRACKING_SYNC_MS = 60 * 60_000;
/** How often old snapshots are thinned (ms). */
const PRUNE_EVERY_MS = 60 * 60_000;
/** The first retry after a failed read (ms), doubled per failure up to the shortest interval. */
const RETRY_BASE_MS = 30_000;

export interface TrackerOptions extends IntervalBounds {
  api: Pick<RivalsApi, 'player'>;
  tracking: TrackingRepository;
  /** Where each read's standing goes, for servers' ladders; `roleOf` the hero list's role of a hero (null: unknown). */
  ladder?: { standings: Pick<LadderRepository, 'setStanding' | 'setPrivate'>; roleOf: () => Promise<(heroId: string | null) => string | null> };
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
   * Follows the account links when due, prunes when due, then claims one due player and starts its read.
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
    const [claim] = await this.#o.tracking.claim(now, 1, TRACKING_LEASE_MS);
    if (!claim) return 0;
    const read = this.read(claim).catch((err: unknown) => this.#o.logger.warn({ err, uid: claim.uid }, 'a tracking read was not recorded'));
    this.#inflight.add(read);
    void read.finally(() => this.#inflight.delete(read));
    return 1;
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
