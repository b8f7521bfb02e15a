/**
 * A member's recent `/player` lookups, offered first by autocomplete. Not durable state: they live in
 * the cache store (bounded memory, or Redis), kept 30 days after the last lookup; at most ten,
 * newest first, under `recent:<userId>`. Recorded after the answer, never before it.
 */
import type Keyv from 'keyv';
import { settleWithin } from '../deadline.js';
import * as z from 'zod';

const MAX = 10;
const TTL_MS = 30 * 24 * 60 * 60_000;
const recentV1 = z.object({ v: z.literal(1), entries: z.array(z.object({ uid: z.string(), name: z.string() })).max(MAX) });

export class RecentLookups {
  constructor(
    private readonly cache: Keyv,
    /** Longest wait for the cache, ms: autocomplete answers without recent lookups past it. */
    private readonly deadlineMs = 300,
  ) {}

  /** Newest first; [] when the cache fails or is slow. */
  async list(userId: string): Promise<{ uid: string; name: string }[]> {
    try {
      const raw: unknown = await settleWithin(this.cache.get(`recent:${userId}`), this.deadlineMs, () => undefined);
      const parsed = recentV1.safeParse(raw);
      return parsed.success ? parsed.data.entries : [];
    } catch {
      return [];
    }
  }

  /** Records a lookup (moves it to the front). Rejects when the cache fails. */
  async add(userId: string, entry: { uid: string; name: string }): Promise<void> {
    const entries = [entry, ...(await this.list(userId)).filter((e) => e.uid !== entry.uid)].slice(0, MAX);
    await this.cache.set(`recent:${userId}`, { v: 1, entries }, TTL_MS);
  }
}
