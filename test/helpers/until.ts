/** Polling for a condition in end-to-end tests. */

/**
 * Resolves with `probe()`'s first truthy value, asked every 50 ms.
 * @throws `timed out waiting for <what>` past `timeoutMs`, followed by `context()` (the processes' last output).
 */
export async function pollUntil<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  options: { timeoutMs: number; context: () => string },
): Promise<T> {
  const end = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${options.context()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
