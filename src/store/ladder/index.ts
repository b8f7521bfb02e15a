/**
 * Servers' ladders: which servers run one, who is on each, and the standings of the accounts they are
 * listed by. A member is listed by one verified linked account: the one they chose for that server, else
 * their default, else their first verified one, resolved at each read so that links and proofs apply at once.
 */
import { LRUCache } from 'lru-cache';
import type { Standing } from '../../game/ladder.js';
import type { Db } from '../database.js';
import { forgetLadderMember, ladderVersion } from './listing.js';
import { joinLadder, listedMembersByUid, membership, memberships, shownMembersByUid, type LadderMembership } from './members.js';
import { pendingMoments, recapData, recapTargets, settleMoment, settleRecap, type PendingMoment, type RecapData, type RecapTarget } from './outbox.js';
import { readPage, type LadderPage, type LadderQuery } from './pages.js';
import {
  configureLadder,
  readEnabled,
  readSettings,
  setMomentsProblem,
  withQuietHours,
  type LadderChange,
  type LadderSettings,
  type MomentsProblem,
} from './settings.js';
import { setPrivate, setStanding } from './standings.js';

export { forgetLadderMember, relistMember, unlistStandings } from './listing.js';
export type { LadderMembership } from './members.js';
export type { PendingMoment, RecapData, RecapTarget } from './outbox.js';
export type { LadderPage, LadderQuery, LadderRow } from './pages.js';
export type { LadderChange, LadderSettings, MomentsProblem } from './settings.js';

/** How long a page, a server's switch and a member's place are answered from this process's memory (ms): other processes' changes show within it. */
export const LADDER_CACHE_MS = 30_000;

/**
 * The ladder's store, one repository over its jobs (settings, members, standings, the moments' outbox and recaps, pages:
 * a file each in src/store/ladder/). Errors propagate to the caller. Times in epoch ms.
 */
export class LadderRepository {
  readonly #pages = new LRUCache<string, LadderPage>({ max: 2_000, ttl: LADDER_CACHE_MS });
  readonly #enabled = new LRUCache<string, { on: boolean }>({ max: 10_000, ttl: LADDER_CACHE_MS });
  constructor(private readonly db: Db) {}

  async enabled(guildId: string): Promise<boolean> {
    const cached = this.#enabled.get(guildId);
    if (cached) return cached.on;
    const on = await readEnabled(this.db, guildId);
    this.#enabled.set(guildId, { on });
    return on;
  }

  async setEnabled(guildId: string, on: boolean, now: number): Promise<void> {
    await this.configure(guildId, { enabled: on }, now);
  }

  settings(guildId: string): Promise<LadderSettings> {
    return readSettings(this.db, guildId);
  }

  /** What {@link configureLadder} does; the cached on-or-off of the server goes. */
  configure(guildId: string, change: LadderChange, now: number): Promise<LadderSettings> {
    this.#enabled.delete(guildId);
    return configureLadder(this.db, guildId, change, now);
  }

  setMomentsProblem(guildId: string, problem: MomentsProblem | null, turnOff = false): Promise<void> {
    return setMomentsProblem(this.db, guildId, problem, turnOff);
  }

  recapTargets(): Promise<RecapTarget[]> {
    return recapTargets(this.db);
  }

  recapData(guildId: string, fromSec: number, toSec: number): Promise<RecapData> {
    return recapData(this.db, guildId, fromSec, toSec);
  }

  settleRecap(guildId: string, sentFor: string, top?: readonly string[]): Promise<void> {
    return settleRecap(this.db, guildId, sentFor, top);
  }

  withQuietHours(): Promise<{ guildId: string; settings: LadderSettings }[]> {
    return withQuietHours(this.db);
  }

  pendingMoments(limit: number, exceptGuilds: readonly string[] = []): Promise<PendingMoment[]> {
    return pendingMoments(this.db, limit, exceptGuilds);
  }

  settleMoment(m: Pick<PendingMoment, 'guildId' | 'momentId'>, now: number): Promise<void> {
    return settleMoment(this.db, m, now);
  }

  join(
    guildId: string,
    userId: string,
    now: number,
    choices: { chosenUid?: string | null; platform?: string | null; optedOut?: boolean; mentionsOff?: boolean } = {},
  ): Promise<void> {
    return joinLadder(this.db, guildId, userId, now, choices);
  }

  membership(guildId: string, userId: string): Promise<LadderMembership | null> {
    return membership(this.db, guildId, userId);
  }

  memberships(userId: string): Promise<LadderMembership[]> {
    return memberships(this.db, userId);
  }

  /** {@link shownMembersByUid}: which of `uids` may be named beyond the server (not opted out, not private). */
  shownMembersByUid(guildId: string, uids: readonly string[]): Promise<Map<string, string>> {
    return shownMembersByUid(this.db, guildId, uids);
  }

  /** Which of `uids` stand for members listed on `guildId`'s ladder, by uid: their user IDs. */
  listedMembersByUid(guildId: string, uids: readonly string[]): Promise<Map<string, string>> {
    return listedMembersByUid(this.db, guildId, uids);
  }

  /** Takes `userId` off every ladder. @returns how many rows went. */
  forgetMember(userId: string): Promise<number> {
    return forgetLadderMember(this.db, userId);
  }

  setStanding(uid: string, standing: Standing, now: number): Promise<void> {
    return setStanding(this.db, uid, standing, now);
  }

  setPrivate(uid: string, now: number): Promise<void> {
    return setPrivate(this.db, uid, now);
  }

  /** One page of `guildId`'s ladder, the asking member's row, and who is left out and why; a page read in the last {@link LADDER_CACHE_MS} is served again. */
  async page(q: LadderQuery): Promise<LadderPage> {
    const key = JSON.stringify([q.guildId, ladderVersion(q.guildId), q.period, q.role ?? null, q.platform ?? null, q.page, q.pageSize, q.userId ?? null]);
    const cached = this.#pages.get(key);
    if (cached) return cached;
    const page = await readPage(this.db, q);
    this.#pages.set(key, page);
    return page;
  }
}
