/**
 * The feed poller's clock. Real time, or with `FEED_CLOCK_FILE` real time plus the whole milliseconds
 * written in that file: end-to-end tests move it forward to reach quiet hours and their end without
 * waiting. The file is read again at most every {@link CLOCK_FILE_REREAD_MS}; a missing or unreadable
 * file, or one that holds no number, counts as 0.
 */
import { readFileSync } from 'node:fs';

/** How often the clock file is read again, ms. */
export const CLOCK_FILE_REREAD_MS = 200;

/** A clock (ms since the epoch) for the feed poller, its delivery ledger and its editor. */
export function feedClock(file: string | undefined): () => number {
  if (!file) return Date.now;
  let offset = 0;
  let readAt = Number.NEGATIVE_INFINITY;
  return () => {
    const now = Date.now();
    if (now - readAt >= CLOCK_FILE_REREAD_MS) {
      readAt = now;
      try {
        const n = Number(readFileSync(file, 'utf8').trim());
        offset = Number.isFinite(n) ? Math.trunc(n) : 0;
      } catch {
        offset = 0;
      }
    }
    return now + offset;
  };
}
