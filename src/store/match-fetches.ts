/**
 * The queue of match details to read for the match store (src/store/matches.ts): one row a match a tracked member played
 * that the store lacks, however many members, servers or processes saw it. Each due match is claimed by one process for a
 * lease (PostgreSQL: `FOR UPDATE SKIP LOCKED`; SQLite has one writer), as the tracker's players are.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from './database.js';

/** Reads of one match before the bot gives up on its detail. */
export const MATCH_FETCH_ATTEMPTS = 5;
/** The wait before the second attempt (ms), multiplied by {@link RETRY_GROWTH} per attempt: 10 min, 1 h, 6 h, 1.5 days. */
const RETRY_BASE_MS = 10 * 60_000;
const RETRY_GROWTH = 6;

/** A claimed match fetch: `attempts` those made before this one. */
export interface ClaimedMatchFetch {
  matchUid: string;
  token: string;
  attempts: number;
}

/** How far behind the queue is, for `/config status` and the benchmark. */
export interface MatchFetchBacklog {
  /** Waiting, due or not, not given up. */
  waiting: number;
  /** Due now and not being read. */
  due: number;
  /** Given up after {@link MATCH_FETCH_ATTEMPTS} reads without a detail. */
  gaveUp: number;
}

/**
 * Queues the matches of `matchUids` the store lacks, due at once. A match queued already (or given up) keeps its row.
 * Takes a transaction, so that the tracker records a read's matches and queues them together.
 */
export async function queueMatchFetches(db: Db, matchUids: readonly string[], now: number): Promise<void> {
  const unique = [...new Set(matchUids)];
  for (let i = 0; i < unique.length; i += 500) {
    const batch = unique.slice(i, i + 500);
    const stored = new Set((await db.selectFrom('matches').select('match_uid').where('match_uid', 'in', batch).execute()).map((r) => r.match_uid));
    const missing = batch.filter((uid) => !stored.has(uid));
    if (missing.length === 0) continue;
    await db
      .insertInto('match_fetches')
      .values(missing.map((match_uid) => ({ match_uid, added_at: now, due_at: now })))
      .onConflict((oc) => oc.column('match_uid').doNothing())
      .execute();
  }
}

/**
 * Drops the queued fetches of `matchUids` that no tracked player's recorded match names any more: the matches of a player
 * nobody tracks are not read for them.
 */
export async function dropOrphanFetches(db: Db, matchUids: readonly string[]): Promise<void> {
  for (let i = 0; i < matchUids.length; i += 500) {
    const batch = matchUids.slice(i, i + 500);
    await db
      .deleteFrom('match_fetches')
      .where('match_uid', 'in', batch)
      .where('match_uid', 'not in', (eb) => eb.selectFrom('tracked_matches').select('match_uid').where('match_uid', 'in', batch))
      .execute();
  }
}

/** Errors propagate to the caller. Times in epoch ms. */
export class MatchFetchRepository {
  constructor(
    private readonly db: Db,
    private readonly engine: 'sqlite' | 'postgres',
  ) {}

  /** {@link queueMatchFetches} outside a transaction. */
  queue(matchUids: readonly string[], now: number): Promise<void> {
    return queueMatchFetches(this.db, matchUids, now);
  }

  /** Claims up to `limit` due fetches for `leaseMs`, the oldest due first. */
  async claim(now: number, limit: number, leaseMs: number): Promise<ClaimedMatchFetch[]> {
    const token = randomUUID();
    const claimed = await this.db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('match_fetches')
        .select('match_uid')
        .where('due_at', '<=', now)
        .where('gave_up_at', 'is', null)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .orderBy('due_at')
        .limit(limit);
      if (this.engine === 'postgres') due = due.forUpdate().skipLocked();
      const uids = (await due.execute()).map((r) => r.match_uid);
      if (uids.length === 0) return [];
      return trx
        .updateTable('match_fetches')
        .set({ claimed_until: now + leaseMs, claim_token: token })
        .where('match_uid', 'in', uids)
        .returning(['match_uid', 'attempts'])
        .execute();
    });
    return claimed.map((c) => ({ matchUid: c.match_uid, token, attempts: Number(c.attempts) }));
  }

  /** Ends a fetch whose match is stored (or that is no longer wanted): its row goes. */
  async done(claim: Pick<ClaimedMatchFetch, 'matchUid' | 'token'>): Promise<void> {
    await this.db.deleteFrom('match_fetches').where('match_uid', '=', claim.matchUid).where('claim_token', '=', claim.token).execute();
  }

  /**
   * Gives a claim back after a read that brought no detail: due again after a wait that grows with each attempt, or given
   * up (kept, not queued again) after {@link MATCH_FETCH_ATTEMPTS}, or at once when `final` (a uid that can never have one).
   * @returns whether it was given up.
   */
  async retry(claim: ClaimedMatchFetch, now: number, final = false): Promise<boolean> {
    const attempts = claim.attempts + 1;
    const gaveUp = final || attempts >= MATCH_FETCH_ATTEMPTS;
    await this.db
      .updateTable('match_fetches')
      .set({
        attempts,
        due_at: now + retryDelayMs(attempts),
        claimed_until: null,
        claim_token: null,
        gave_up_at: gaveUp ? now : null,
      })
      .where('match_uid', '=', claim.matchUid)
      .where('claim_token', '=', claim.token)
      .execute();
    return gaveUp;
  }

  /** Gives a claim back untouched, due at `dueAt`: a read the bot stopped, or one the rate limit refused. */
  async release(claim: Pick<ClaimedMatchFetch, 'matchUid' | 'token'>, dueAt: number): Promise<void> {
    await this.db
      .updateTable('match_fetches')
      .set({ due_at: dueAt, claimed_until: null, claim_token: null })
      .where('match_uid', '=', claim.matchUid)
      .where('claim_token', '=', claim.token)
      .execute();
  }

  async backlog(now: number): Promise<MatchFetchBacklog> {
    const row = await this.db
      .selectFrom('match_fetches')
      .select((eb) => [
        eb.fn.sum<number | string | null>(eb.case().when('gave_up_at', 'is', null).then(1).else(0).end()).as('waiting'),
        eb.fn
          .sum<number | string | null>(
            eb
              .case()
              .when(eb.and([eb('gave_up_at', 'is', null), eb('due_at', '<=', now), eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)])]))
              .then(1)
              .else(0)
              .end(),
          )
          .as('due'),
        eb.fn.sum<number | string | null>(eb.case().when('gave_up_at', 'is not', null).then(1).else(0).end()).as('gave_up'),
      ])
      .executeTakeFirstOrThrow();
    return { waiting: Number(row.waiting ?? 0), due: Number(row.due ?? 0), gaveUp: Number(row.gave_up ?? 0) };
  }
}

/** The wait after `attempts` reads without a detail (ms). */
export function retryDelayMs(attempts: number): number {
  return RETRY_BASE_MS * RETRY_GROWTH ** Math.max(0, attempts - 1);
}
