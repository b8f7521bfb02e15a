/**
 * A command's reads while one API read is held back: the replica delays every request under a path
 * prefix, and the test sees which other reads the command asked for meanwhile (the hero and map lists
 * that /player, /compare and /match read beside the profile or match).
 */
import { expect, vi } from 'vitest';
import type { Replica } from '../../src/replica/server.js';
import { bot } from './bot.js';

/** How long the replica holds the read back, ms; the reads looked for must arrive well within it. */
const HELD_MS = 2_000;

/** Requests the replica received so far under `prefix`. */
export const requestsUnder = (r: Replica, prefix: string): number =>
  [...r.requests.byPath].filter(([path]) => path.startsWith(prefix)).reduce((sum, [, n]) => sum + n, 0);

/**
 * Runs `command` on a fresh bot (empty cache) while the replica holds back `heldPrefix` for
 * {@link HELD_MS}; asserts that a request under each of `meanwhile` arrived before the command
 * finished, and resolves with the command's result. Resets the replica's faults after.
 */
export async function readsWhileHeldBack<T>(
  r: Replica,
  heldPrefix: string,
  meanwhile: string[],
  command: (b: ReturnType<typeof bot>) => Promise<T>,
): Promise<T> {
  const fresh = bot(r, { apiTimeoutMs: 10_000 });
  const before = new Map(meanwhile.map((prefix) => [prefix, requestsUnder(r, prefix)]));
  r.setFaults({ latencyMs: HELD_MS, pathPrefix: heldPrefix });
  try {
    let finished = false;
    const running = command(fresh).finally(() => (finished = true));
    await vi.waitFor(
      () => {
        for (const prefix of meanwhile) expect(requestsUnder(r, prefix), prefix).toBeGreaterThan(before.get(prefix)!);
      },
      { timeout: HELD_MS - 200, interval: 10 },
    );
    // Every one was asked for while the held read was still on its way.
    expect(finished).toBe(false);
    return await running;
  } finally {
    r.setFaults({});
    await fresh.close();
  }
}
