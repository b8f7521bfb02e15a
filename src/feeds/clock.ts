/** The feed clock: real time, plus the whole ms written in `FEED_CLOCK_FILE`, read on every use so end-to-end tests can jump to quiet hours. */
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
