/** Counting events in sliding windows, for the rate-limit tests. */

/** The most of `times` (ms, any order) within any sliding `windowMs`: what a server counting in sliding windows sees at its busiest. */
export function mostInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
