/**
 * A member's recent `/player` lookups, offered first by autocomplete. Kept 30 days after the last
 * lookup; at most ten, newest first. Stored under `recent:<userId>`.
 */
import type Keyv from 'keyv';
import { z } from 'zod';

const MAX = 10;
const TTL_MS = 30 * 24 * 60 * 60_000;
const recentV1 = z.object({ v: z.literal(1), entries: z.array(z.object({ uid: z.string(), name: z.string() })).max(MAX) });

export class RecentLookups {
  constructor(private readonly store: Keyv) {}

  /** Newest first. */
  async list(userId: string): Promise<{ uid: string; name: string }[]> {
    const parsed = recentV1.safeParse(await this.store.get(`recent:${userId}`));
    return parsed.success ? parsed.data.entries : [];
  }

  /** Records a lookup (moves it to the front). */
  async add(userId: string, entry: { uid: string; name: string }): Promise<void> {
    const entries = [entry, ...(await this.list(userId)).filter((e) => e.uid !== entry.uid)].slice(0, MAX);
    await this.store.set(`recent:${userId}`, { v: 1, entries }, TTL_MS);
  }
}
