/**
 * Back buttons too long to ride in other custom IDs (STYLE.md principle 2): a view opened from another keeps the custom ID
 * of its Back button in the cache store under a short key, and its own IDs (sections, pages, filters) carry the key. With
 * Redis every process reads what any other kept. Not durable: a key the store lost or let expire reads as none.
 */
import { createHash } from 'node:crypto';
import type Keyv from 'keyv';
import * as z from 'zod';
import { settleWithin } from '../core/deadline.js';

/**
 * How long a kept Back lives, ms. A message's buttons work for as long as the message stands, and members come back to a
 * conversation over the following days; past a week a Back to a match is seldom wanted, and the view's own menu still
 * goes everywhere it did. An entry is a custom ID of at most 100 characters, so a week of them is small beside the
 * responses the same store caches.
 */
export const BACK_TTL_MS = 7 * 24 * 60 * 60_000;

/** Characters of a key: 60 bits of the target's SHA-256, as URL-safe base64 (`A-Z a-z 0-9 - _`), which custom IDs carry as is. */
export const BACK_KEY_LENGTH = 10;

/** The longest custom ID Discord takes (Discord: "Message Components"): nothing longer is a Back button. */
const MAX_TARGET_LENGTH = 100;

const keptV1 = z.object({ v: z.literal(1), id: z.string().min(1).max(MAX_TARGET_LENGTH) });

/**
 * The key of `target`: the same target always gets the same key, so keeping it again refreshes one entry instead of
 * adding another, and a read can check that what it found is what the key was made from.
 */
export function backKey(target: string): string {
  return createHash('sha256').update(target).digest('base64url').slice(0, BACK_KEY_LENGTH);
}

const entryKey = (key: string) => `back:${key}`;

export class BackTargets {
  constructor(
    private readonly cache: Keyv,
    /** Ms a read or a write may take before the view goes on without it. */
    private readonly deadlineMs = 300,
  ) {}

  /**
   * Keeps `target` (a custom ID, 1 to 100 characters) for {@link BACK_TTL_MS} and gives its {@link backKey}; null when it
   * is no custom ID, or the cache failed or took longer than the deadline. A Redis just gone may take a write without
   * saying so: the key then finds nothing, and the views it rides in show no Back. Never rejects.
   */
  async keep(target: string): Promise<string | null> {
    if (target.length === 0 || target.length > MAX_TARGET_LENGTH) return null;
    const key = backKey(target);
    try {
      const stored = await settleWithin(this.cache.set(entryKey(key), { v: 1, id: target }, BACK_TTL_MS), this.deadlineMs, () => false);
      return stored ? key : null;
    } catch {
      return null;
    }
  }

  /**
   * The target kept under `key`; null when there is none (never kept, expired, evicted), what is there is not what the
   * key was made from, or the cache failed or took longer than the deadline. Never rejects.
   */
  async find(key: string): Promise<string | null> {
    try {
      const raw: unknown = await settleWithin(this.cache.get(entryKey(key)), this.deadlineMs, () => undefined);
      const parsed = keptV1.safeParse(raw);
      return parsed.success && backKey(parsed.data.id) === key ? parsed.data.id : null;
    } catch {
      return null;
    }
  }
}
