/** Waiting for the feed poller's polls in end-to-end tests, by the reads it makes at the replica. */
import { pollUntil } from './until.js';

/** The fresh reads of the patch notes among a replica's requests by path: every feed poll makes one, first. */
export function patchNoteReads(byPath: ReadonlyMap<string, number> | Record<string, number>): number {
  const entries: [string, number][] = byPath instanceof Map ? [...byPath.entries()] : Object.entries(byPath);
  return entries.filter(([path]) => path.startsWith('/api/v1/patch-notes')).reduce((sum, [, n]) => sum + n, 0);
}

/**
 * Waits until `n` more feed polls have ended, counted by `reads` ({@link patchNoteReads} now). A
 * process polls one poll after another, so a poll has ended once the next one's first read arrives.
 * @throws `timed out waiting for …` past `timeoutMs`, followed by `context()`.
 */
export async function afterPolls(reads: () => number | Promise<number>, n: number, context: () => string = () => '', timeoutMs = 20_000): Promise<void> {
  const start = await reads();
  await pollUntil(async () => (await reads()) >= start + n + 1, `${n} more feed polls`, { timeoutMs, context });
}
