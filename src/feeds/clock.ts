/**
 * The feed poller's clock. Real time, or with `FEED_CLOCK_FILE` real time plus the whole milliseconds
 * written in that file: end-to-end tests move it forward to reach quiet hours and their end without
 * waiting. The file is read on every use, so a test that moves it knows the next poll sees it; a
 * missing or unreadable file, or one that holds no number, counts as 0.
 */
import { readFileSync } from 'node:fs';

/** A clock (ms since the epoch) for the feed poller, its delivery ledger and its editor. */
export function feedClock(file: string | undefined): () => number {
  if (!file) return Date.now;
  return () => {
    let offset = 0;
    try {
      const n = Number(readFileSync(file, 'utf8').trim());
      offset = Number.isFinite(n) ? Math.trunc(n) : 0;
    } catch {
      // Unreadable counts as no offset.
    }
    return Date.now() + offset;
  };
}
