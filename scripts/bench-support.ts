/**
 * What the benchmarks (scripts/bench.ts, scripts/bench-burst.ts) share: the registry of what they
 * start and its removal on any exit (every contestant process and temporary directory is registered;
 * `cleanUpOnExit` kills and removes them all when the benchmark exits, or on SIGINT, SIGTERM or SIGHUP,
 * exit 130), temporary directories, the contestants' base environment, and how the bot under test is
 * built and run.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The contestants running now (SIGKILLed on exit). */
export const children = new Set<ChildProcess>();
/** Temporary directories to remove on exit. */
const tempDirs = new Set<string>();

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

/** A new directory `parent/prefix*`, removed on exit unless {@link removeDir} removed it before. */
export function tempDir(parent: string, prefix: string): string {
  const dir = mkdtempSync(join(parent, prefix));
  tempDirs.add(dir);
  return dir;
}

/** Removes a directory made by {@link tempDir} now. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/** What every contestant's environment starts from: PATH and HOME, nothing else of the bench's. */
export const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() });

/**
 * Builds the bot of `botDir` and copies the build to a temporary folder beside its dist/ (the copy
 * resolves node_modules and the source-relative paths of the build exactly as dist/ does, and a test
 * run that rebuilds dist/ meanwhile does not touch it). Returns node's arguments to run it, and how it
 * was made. A checkout without scripts/build.mjs runs through tsx.
 * @throws when the build fails.
 */
export function prepareBot(botDir: string): { args: string[]; how: string } {
  if (!existsSync(join(botDir, 'scripts/build.mjs')))
    return { args: ['--import', 'tsx', 'src/index.ts'], how: `node --import tsx src/index.ts (no scripts/build.mjs in ${botDir})` };
  const started = Date.now();
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: botDir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run build failed in ${botDir}:\n${built.stderr}${built.stdout}`);
  const copy = tempDir(botDir, '.bench-dist-');
  cpSync(join(botDir, 'dist'), copy, { recursive: true });
  const flags = productionNodeFlags(botDir);
  return {
    args: [...flags, join(copy, 'index.js')],
    how: `node ${[...flags, join(botDir, 'dist/index.js')].join(' ')} (built in ${Date.now() - started} ms; run from a copy)`,
  };
}

/**
 * The node flags the checkout at `botDir` runs with in production: those of its `npm start`
 * (`node <flags> scripts/start.mjs` in its package.json), which the supervisor command of docs/operations.md and
 * the Dockerfile repeat (test/deployment.test.ts); [] when it has none.
 */
export function productionNodeFlags(botDir: string): string[] {
  const start = (JSON.parse(readFileSync(join(botDir, 'package.json'), 'utf8')) as { scripts?: { start?: string } }).scripts?.start ?? '';
  const flags = /^node\s+(.*?)\s*scripts\/start\.mjs/.exec(start)?.[1] ?? '';
  return flags.split(/\s+/).filter(Boolean);
}

/** "min / median / max unit" of `xs`, each with `digits` decimals. */
export function spread(xs: readonly number[], unit = 'ms', digits = 1): string {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0]!.toFixed(digits)} / ${s[Math.floor(s.length / 2)]!.toFixed(digits)} / ${s.at(-1)!.toFixed(digits)} ${unit}`;
}

/**
 * `runs` runs of `run` on `engine`, one after the other: on PostgreSQL, against a throwaway embedded server started for them
 * and a fresh database (`<prefix><n>`) a run; on SQLite with no URL. `run` gets the run's index and the URL.
 */
export async function runsOn<T>(
  engine: 'sqlite' | 'postgres',
  runs: number,
  prefix: string,
  run: (i: number, databaseUrl: string | undefined) => Promise<T>,
): Promise<T[]> {
  let server: { createDatabase(name: string): Promise<string>; stop(): Promise<void> } | undefined;
  if (engine === 'postgres') {
    const { startPostgresFrom } = await import('../test/helpers/postgres.js');
    server = await startPostgresFrom(undefined);
  }
  try {
    const out: T[] = [];
    for (let i = 0; i < runs; i++) out.push(await run(i, server ? await server.createDatabase(`${prefix}${i}`) : undefined));
    return out;
  } finally {
    await server?.stop();
  }
}
