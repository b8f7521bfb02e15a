/**
 * How the end-to-end tests start the bot as a process: exactly as production runs it, `node dist/index.js`
 * on the build that test/setup/build.ts makes once a run (scripts/build.mjs), with signals going
 * straight to node. `npm start` runs the same file after building when stale.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The node arguments that run the bot: the production build's entry point. */
export const BOT_ARGS: readonly string[] = [join(ROOT, 'dist', 'index.js')];
/** A `--import` preload that moves the process's clock by the offset in the file named by CLOCK_OFFSET_FILE (test/fixtures/clock-offset.mjs). */
export const CLOCK_PRELOAD = join(ROOT, 'test', 'fixtures', 'clock-offset.mjs');

/** A bot process started by {@link startRecordingBot}. */
export interface RecordedBot {
  child: ChildProcess;
  /** Its standard output and error so far. */
  output: () => string;
  /** The ES modules the process resolved (test/fixtures/record-imports.mjs), as file: URLs. */
  modules: () => string[];
}

/**
 * Starts the built bot on a bare environment (`PATH`, `HOME` and `DATA_DIR` under `scratch`, `LOG_LEVEL`
 * info, then `env`), recording the modules it imports, and resolves once its output matches `ready`.
 * The child is pushed on `running` for the caller to kill.
 * @throws when it exits first, or has not logged `ready` within 25 s (with its output).
 */
export async function startRecordingBot(options: {
  scratch: string;
  name: string;
  env: Record<string, string>;
  ready: RegExp;
  running: ChildProcess[];
}): Promise<RecordedBot> {
  const { scratch, name, ready } = options;
  const record = join(scratch, `${name}.imports`);
  const child = spawn(process.execPath, ['--import', join(ROOT, 'test', 'fixtures', 'record-imports.mjs'), ...BOT_ARGS], {
    cwd: scratch,
    env: { PATH: process.env.PATH!, HOME: scratch, DATA_DIR: join(scratch, `${name}-data`), LOG_LEVEL: 'info', RECORD_IMPORTS_TO: record, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.running.push(child);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bot never logged ${ready}:\n${output}`)), 25_000);
    const poll = setInterval(() => {
      if (!ready.test(output) && child.exitCode === null) return;
      clearInterval(poll);
      clearTimeout(timer);
      if (ready.test(output)) resolve();
      else reject(new Error(`the bot exited with ${child.exitCode}:\n${output}`));
    }, 50);
  });
  return { child, output: () => output, modules: () => (existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n') : []) };
}
