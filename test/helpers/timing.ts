/** Ordering what the code under test does against timers, on the real clock or vitest's fake one, rather than measuring it. */

/** When (on the fake clock) `promise` settled: `at` stays undefined until it has. */
export function settledAt(promise: Promise<unknown>): { at?: number } {
  const settled: { at?: number } = {};
  const mark = () => void (settled.at = Date.now());
  promise.then(mark, mark);
  return settled;
}

/**
 * A timer of `ms` set now, to order what the code under test does against it rather than measure it:
 * Node runs due timers in the order they fall due, each followed by the promise jobs it queued, so work
 * that one of the code's own timers ends (a store timeout set at the same time) is done before this one
 * fires, however late the machine runs both.
 */
export function timer(ms: number): { readonly fired: boolean; clear(): void } {
  let fired = false;
  const id = setTimeout(() => (fired = true), ms);
  return {
    get fired() {
      return fired;
    },
    clear: () => clearTimeout(id),
  };
}

/** `work`'s value, once it has settled; rejects when a timer of `ms`, set now, fired first (see {@link timer}). */
export async function beforeTimer<T>(ms: number, work: Promise<T>): Promise<T> {
  const late = timer(ms);
  try {
    const value = await work;
    if (late.fired) throw new Error(`answered only after a timer of ${ms} ms set with the call had fired`);
    return value;
  } finally {
    late.clear();
  }
}
