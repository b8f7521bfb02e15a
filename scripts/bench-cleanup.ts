/**
 * What the benchmarks (scripts/bench.ts, scripts/bench-burst.ts) start, and its removal on any exit:
 * every contestant process and temporary directory is registered here; `cleanUpOnExit` kills and
 * removes them all when the benchmark exits, or on SIGINT, SIGTERM or SIGHUP (exit 130).
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/** The contestants running now (SIGKILLed on exit). */
export const children = new Set<ChildProcess>();
/** Temporary directories to remove on exit. */
export const tempDirs = new Set<string>();

function cleanup(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Installs the cleanup on exit and on the stop signals; `say` prints the line announcing a signal's stop. */
export function cleanUpOnExit(say: (line: string) => void): void {
  process.on('exit', cleanup);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      say(`\n${signal}: stopping the contestants`);
      cleanup();
      process.exit(130);
    });
  }
}
