/**
 * The process policy (src/core/process-policy.ts, docs/operations.md, "Process policy"): an uncaught exception is
 * logged and stops the process with exit 70 after the graceful stop; an unhandled rejection is logged
 * with a count and context and the process keeps running; every stop is bounded and runs once. The
 * last tests run the policy in a real Node process, where Node's own defaults would otherwise apply.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_UNCAUGHT_EXCEPTION, ProcessPolicy } from '../../src/core/process-policy.js';
import { capturingLogger } from '../helpers/replica.js';

const SECRET = 'discord-token-Zk81vQ3';

function harness(options: { shutdown?: (reason: string) => Promise<unknown>; timeoutMs?: number } = {}) {
  const { logger, lines } = capturingLogger([SECRET]);
  const exits: number[] = [];
  const shutdowns: string[] = [];
  let exited!: (code: number) => void;
  /** Resolves with the first exit code, when the policy calls `exit`. */
  const firstExit = new Promise<number>((resolve) => (exited = resolve));
  let stopStarted!: () => void;
  /** Resolves when the first shutdown starts. */
  const stopping = new Promise<void>((resolve) => (stopStarted = resolve));
  const policy = new ProcessPolicy({
    logger,
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
    shutdownTimeoutMs: options.timeoutMs ?? 1_000,
  });
  policy.setShutdown(async (reason) => {
    shutdowns.push(reason);
    stopStarted();
    await options.shutdown?.(reason);
  });
  const proc = new EventEmitter();
  const uninstall = policy.install(proc);
  const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { policy, proc, uninstall, exits, shutdowns, firstExit, stopping, lines: parsed, raw: lines };
}

/** A stop that lasts until the test ends it with `finish()`. */
function heldStop() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { shutdown: () => done, finish };
}

describe('uncaughtException', () => {
  it('logs the error with its origin and context at fatal, runs the graceful stop, then exits 70', async () => {
    const stop = heldStop();
    let stopFinished = false;
    const h = harness({ shutdown: async () => (await stop.shutdown(), (stopFinished = true)) });
    h.policy.addContext('lastDispatch', () => ({ t: 'INTERACTION_CREATE', s: 12 }));
    h.proc.emit('uncaughtException', new RangeError(`bad state near ${SECRET}`), 'uncaughtException');
    expect(h.policy.terminating).toBe(true);
    await h.stopping;
    expect(h.exits).toEqual([]); // the stop runs, and the exit waits for it
    stop.finish();
    expect(await h.firstExit).toBe(EXIT_UNCAUGHT_EXCEPTION);
    expect(stopFinished).toBe(true);
    expect(h.shutdowns).toEqual(['uncaught exception']);
    expect(h.exits).toEqual([EXIT_UNCAUGHT_EXCEPTION]);
    const [fatal, stopped] = h.lines();
    expect(fatal).toMatchObject({
      level: 60,
      origin: 'uncaughtException',
      exitCode: 70,
      uncaughtExceptions: 1,
      lastDispatch: { t: 'INTERACTION_CREATE', s: 12 },
      err: { type: 'RangeError', message: 'bad state near [Redacted]' },
      msg: 'uncaught exception: the process state is unknown, so it stops and exits 70 (a supervisor restarts it)',
    });
    expect(stopped).toMatchObject({ level: 30, msg: 'stopped', exitCode: 70, reason: 'uncaught exception' });
    expect(h.raw.join('')).not.toContain(SECRET);
  });

  it('a second exception during the stop is logged; the stop runs once and exits once', async () => {
    const stop = heldStop();
    const h = harness({ shutdown: stop.shutdown });
    h.proc.emit('uncaughtException', new Error('first'), 'uncaughtException');
    await h.stopping;
    h.proc.emit('uncaughtException', new Error('second'), 'uncaughtException');
    stop.finish();
    expect(await h.firstExit).toBe(70);
    // A second stop would have started its shutdown before the first one's could finish (it was held until now).
    expect(h.shutdowns).toHaveLength(1);
    expect(h.exits).toEqual([70]);
    expect(
      h
        .lines()
        .filter((l) => l.level === 60)
        .map((l) => [(l.err as { message: string }).message, l.msg]),
    ).toEqual([
      ['first', expect.stringContaining('exits 70')],
      ['second', 'uncaught exception while stopping'],
    ]);
  });

  it('context that throws does not stand in the way of the line', async () => {
    const h = harness();
    h.policy.addContext('broken', () => {
      throw new Error('no');
    });
    h.proc.emit('uncaughtException', new Error('boom'), 'uncaughtException');
    await h.firstExit;
    expect(h.lines()[0]).toMatchObject({ level: 60, err: { message: 'boom' } });
    expect(h.lines()[0]).not.toHaveProperty('broken');
  });
});

describe('unhandledRejection', () => {
  it('logs each rejection at error with a running count and context, and keeps running', async () => {
    const h = harness();
    h.policy.addContext('lastDispatch', () => ({ t: 'INTERACTION_CREATE', id: '1234' }));
    h.proc.emit('unhandledRejection', new TypeError("Cannot read properties of undefined (reading 'user')"), Promise.resolve());
    h.proc.emit('unhandledRejection', { code: 'E_WEIRD', note: `carries ${SECRET}` }, Promise.resolve());
    // The handler has run (it counted both), and a stop, had it begun one, would say so at once: terminate() marks it before anything else.
    expect(h.policy.unhandledRejections).toBe(2);
    expect(h.policy.terminating).toBe(false);
    expect(h.shutdowns).toEqual([]);
    expect(h.exits).toEqual([]);
    expect(h.lines()).toMatchObject([
      {
        level: 50,
        unhandledRejections: 1,
        err: { type: 'TypeError' },
        lastDispatch: { t: 'INTERACTION_CREATE', id: '1234' },
        msg: 'unhandled promise rejection: logged, and the bot keeps running',
      },
      { level: 50, unhandledRejections: 2, reason: { code: 'E_WEIRD', note: 'carries [Redacted]' } },
    ]);
  });

  it('uninstall removes both listeners', () => {
    const h = harness();
    h.uninstall();
    expect(h.proc.listenerCount('uncaughtException')).toBe(0);
    expect(h.proc.listenerCount('unhandledRejection')).toBe(0);
  });
});

describe('terminate', () => {
  afterEach(() => void vi.useRealTimers());

  it('is bounded: a stop that hangs is abandoned after the bound, with a line, and the exit code is kept', async () => {
    // On vi's fake clock the bound is an exact instant.
    vi.useFakeTimers();
    const h = harness({ shutdown: () => new Promise(() => undefined), timeoutMs: 100 });
    let done = false;
    const terminated = h.policy.terminate(78, 'gateway closed with 4004').then(() => (done = true));
    await h.stopping;
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false); // still waiting for the stop, within the bound
    expect(h.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await terminated;
    expect(h.exits).toEqual([78]);
    expect(h.lines().map((l) => l.msg)).toEqual(['the shutdown did not finish within 0.1 s: exiting anyway', 'stopped']);
  });

  it('a stop that fails is logged and the process still exits with the code it was given', async () => {
    const h = harness({
      shutdown: async () => {
        throw new Error('store close failed');
      },
    });
    await h.policy.terminate(0, 'SIGTERM');
    expect(h.exits).toEqual([0]);
    expect(h.lines()[0]).toMatchObject({ level: 50, msg: 'the shutdown failed: exiting anyway', err: { message: 'store close failed' } });
  });

  it('runs once: a signal during a fatal stop does not change the exit code', async () => {
    const stop = heldStop();
    const h = harness({ shutdown: stop.shutdown });
    const first = h.policy.terminate(78, 'gateway closed with 4014');
    await h.stopping;
    const second = h.policy.terminate(0, 'SIGTERM');
    expect(second).toBe(first);
    stop.finish();
    await first;
    expect(h.shutdowns).toEqual(['gateway closed with 4014']);
    expect(h.exits).toEqual([78]);
  });
});

describe('in a real Node process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rivals-policy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const policyModule = resolve('src/core/process-policy.ts');
  const loggerModule = resolve('src/core/logger.ts');

  /** Runs `body` after installing the policy on the real `process`; resolves with the exit code and the output. */
  function run(name: string, body: string): Promise<{ code: number | null; lines: Record<string, unknown>[]; output: string }> {
    const file = join(dir, `${name}.mts`);
    writeFileSync(
      file,
      `import { ProcessPolicy } from ${JSON.stringify(policyModule)};
import { createLogger } from ${JSON.stringify(loggerModule)};
const logger = createLogger({ level: 'info', pretty: false, secrets: [${JSON.stringify(SECRET)}] });
const policy = new ProcessPolicy({ logger, shutdownTimeoutMs: 2000 });
policy.install();
policy.setShutdown(async (reason) => logger.info({ reason }, 'closing the store'));
${body}
`,
    );
    return new Promise((done) => {
      let output = '';
      const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      child.once('exit', (code) => {
        const lines = output.split('\n').flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        });
        done({ code, lines, output });
      });
    });
  }

  it('an exception thrown from a timer is logged, the stop runs, and the process exits 70', async () => {
    const { code, lines, output } = await run(
      'throws',
      `setTimeout(() => { throw new Error('timer failed near ${SECRET}'); }, 10);\nsetInterval(() => undefined, 1000);`,
    );
    expect(code, output).toBe(70);
    // The fatal line and the stop's lines go out through different writes: on a loaded machine the
    // fatal one may land last. Each must be there once, and the stop's in their order.
    const fatal = lines.filter((l) => /^uncaught exception: the process state is unknown/.test(String(l.msg)));
    expect(fatal).toHaveLength(1);
    expect(lines.map((l) => l.msg).filter((m) => m !== fatal[0]!.msg)).toEqual(['closing the store', 'stopped']);
    expect(fatal[0]).toMatchObject({ level: 60, origin: 'uncaughtException', err: { message: 'timer failed near [Redacted]' } });
    expect(output).not.toContain(SECRET);
  }, 30_000);

  it('an unhandled rejection is logged and the process keeps running (Node alone would exit 1)', async () => {
    const { code, lines, output } = await run(
      'rejects',
      // Once the policy has counted the rejection, the process shows it is still running, then stops.
      `void Promise.reject(new Error('dispatch failed'));\nconst check = setInterval(() => { if (policy.unhandledRejections === 0) return; clearInterval(check); logger.info('still running'); void policy.terminate(0, 'done'); }, 10);`,
    );
    expect(code, output).toBe(0);
    // Separate writes: on a loaded machine their order may vary; each line once.
    expect(lines.map((l) => String(l.msg)).sort()).toEqual([
      'closing the store',
      'still running',
      'stopped',
      'unhandled promise rejection: logged, and the bot keeps running',
    ]);
    expect(lines.find((l) => String(l.msg).startsWith('unhandled promise rejection'))).toMatchObject({
      level: 50,
      unhandledRejections: 1,
      err: { message: 'dispatch failed' },
    });
  }, 30_000);
});

describe('process warnings', () => {
  it("become log lines instead of Node's stderr text: an expected one at debug, any other at warn", () => {
    const { logger, lines } = capturingLogger([SECRET]);
    const policy = new ProcessPolicy({ logger, exit: () => undefined, expectedWarnings: ['UnsupportedCacheOverwriteWarning'] });
    const proc = new EventEmitter();
    const printed: string[] = [];
    const nodePrinter = (w: Error) => printed.push(w.message);
    proc.on('warning', nodePrinter);
    const uninstall = policy.install(proc);
    const expected = Object.assign(new Error('Overriding the cache handling for ChannelManager is unsupported'), { name: 'UnsupportedCacheOverwriteWarning' });
    const other = Object.assign(new Error('Possible EventEmitter memory leak detected'), { name: 'MaxListenersExceededWarning' });
    proc.emit('warning', expected);
    proc.emit('warning', other);
    expect(printed).toEqual([]);
    const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string; warning: { name: string } });
    expect(logged.filter((l) => l.level === 40).map((l) => l.warning.name)).toEqual(['MaxListenersExceededWarning']);
    expect(logged.filter((l) => l.level >= 40).some((l) => l.warning.name === 'UnsupportedCacheOverwriteWarning')).toBe(false);
    uninstall();
    proc.emit('warning', other);
    expect(printed).toEqual(['Possible EventEmitter memory leak detected']);
  });
});
