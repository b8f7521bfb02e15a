/** Waiting for a condition the test cannot be told about directly, by asking again until it holds. */

/** How {@link pollUntil} waits. */
export interface PollOptions {
  /** The safety net, in ms (default 10 s): past it the wait fails. Never a claim about how fast the code is. */
  timeoutMs?: number;
  /** Appended to the timeout's message: the processes' last output, the state last seen. */
  context?: () => string;
  /** The pause between two probes, in ms (default 50). */
  everyMs?: number;
}

/**
 * Resolves with `probe()`'s first truthy value; `probe` may be sync or async, and what it throws is thrown.
 * @throws `timed out after <timeoutMs> ms waiting for <what>` past `timeoutMs`, followed by `context()` when given.
 */
export async function pollUntil<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  options: PollOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, context, everyMs = 50 } = options;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${context ? `\n${context()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
