/**
 * A member's recent `/player` lookups and the players of matches they opened, for autocomplete and "Did you
 * mean …?" at no API request. Not durable: they live in the cache store. Recorded after the answer, never before.
 * Every member's also feed this process's {@link RecentLookups.known} players, which a fresh member is offered.
 */
import type Keyv from 'keyv';
import { LRUCache } from 'lru-cache';
import { settleWithin } from '../core/deadline.js';
import * as z from 'zod';

const MAX = 10;
const MAX_SEEN = 50;
const TTL_MS = 30 * 24 * 60 * 60_000;
/** Players {@link RecentLookups.known} keeps, the least recently seen dropped first. */
export const MAX_KNOWN = 5_000;
/**
 * How long {@link RecentLookups.known} keeps a player after they were last seen, ms: a member's deletion reaches the
 * process that answers it at once, and every other process's list within this.
 */
export const KNOWN_TTL_MS = 60 * 60_000;
const recentV1 = z.object({ v: z.literal(1), entries: z.array(z.object({ uid: z.string(), name: z.string() })).max(MAX) });
const seenV1 = z.object({ v: z.literal(1), entries: z.array(z.object({ uid: z.string(), name: z.string() })).max(MAX_SEEN) });

export class RecentLookups {
  /** Uid → name: the players any member looked up or saw in a match here, and those {@link remember}ed. */
  readonly #known: LRUCache<string, string>;

  constructor(
    private readonly cache: Keyv,
    /** Ms: autocomplete answers without recent lookups past it. */
    private readonly deadlineMs = 300,
    /** The clock of {@link known}'s times, ms (tests); default `performance`. */
    clock?: { now(): number },
  ) {
    this.#known = new LRUCache<string, string>({ max: MAX_KNOWN, ttl: KNOWN_TTL_MS, ...(clock ? { perf: clock, ttlResolution: 0 } : {}) });
  }

  /**
   * The players this process has seen (any member's lookups and matches opened, and those {@link remember}ed), the most
   * recently seen first, at most {@link MAX_KNOWN}. Public game names, tied to no member; lost on restart.
   */
  known(): { uid: string; name: string }[] {
    // The cache's listing includes players past their hour until purged.
    this.#known.purgeStale();
    return [...this.#known.entries()].map(([uid, name]) => ({ uid, name }));
  }

  /**
   * Adds `players` to {@link known} for {@link KNOWN_TTL_MS}, or for as long as the process runs with `forever` (the
   * playground's replica players, which no member can delete).
   */
  remember(players: readonly { uid: string; name: string }[], options: { forever?: boolean } = {}): void {
    // In reverse: the first of `players` ends up the most recently seen. A ttl of 0 is none, and a player kept forever stays so.
    for (const p of [...players].reverse()) {
      if (!p.uid || !p.name) continue;
      const forever = options.forever === true || this.#known.getRemainingTTL(p.uid) === Number.POSITIVE_INFINITY;
      this.#known.set(p.uid, p.name, forever ? { ttl: 0 } : {});
    }
  }

  /** Drops `uids` from {@link known} (a member deleted their data: their accounts with it). */
  forgetKnown(uids: readonly string[]): void {
    for (const uid of uids) this.#known.delete(uid);
  }

  /** Newest first; [] when the cache fails or is slow. */
  list(userId: string): Promise<{ uid: string; name: string }[]> {
    return this.#read(`recent:${userId}`, recentV1);
  }

  async #read(key: string, schema: typeof recentV1 | typeof seenV1): Promise<{ uid: string; name: string }[]> {
    try {
      const raw: unknown = await settleWithin(this.cache.get(key), this.deadlineMs, () => undefined);
      const parsed = schema.safeParse(raw);
      return parsed.success ? parsed.data.entries : [];
    } catch {
      return [];
    }
  }

  /** Rejects when the cache fails. */
  async add(userId: string, entry: { uid: string; name: string }): Promise<void> {
    this.remember([entry]);
    const entries = [entry, ...(await this.list(userId)).filter((e) => e.uid !== entry.uid)].slice(0, MAX);
    await this.cache.set(`recent:${userId}`, { v: 1, entries }, TTL_MS);
  }

  /** Newest first; [] when the cache fails or is slow. */
  seen(userId: string): Promise<{ uid: string; name: string }[]> {
    return this.#read(`seen:${userId}`, seenV1);
  }

  /** Rejects when the cache fails. */
  async addSeen(userId: string, players: { uid: string; name: string }[]): Promise<void> {
    this.remember(players);
    const uids = new Set(players.map((p) => p.uid));
    const entries = [...players, ...(await this.seen(userId)).filter((e) => !uids.has(e.uid))].slice(0, MAX_SEEN);
    await this.cache.set(`seen:${userId}`, { v: 1, entries }, TTL_MS);
  }

  /** Removes the member's recent lookups and seen players. Rejects when the cache fails. */
  async forget(userId: string): Promise<void> {
    await Promise.all([this.cache.delete(`recent:${userId}`), this.cache.delete(`seen:${userId}`)]);
  }
}
