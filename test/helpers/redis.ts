/**
 * Throwaway redis-server processes on free loopback ports. The command comes from Debian's
 * `redis-server` package: the test run installs it when it is missing ({@link ensureRedisServer}, in
 * test/setup/redis.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './free-port.js';

export interface RedisServer {
  url: string;
  /** Kills the server with SIGKILL, as a crash would (its data is gone: it runs without persistence). Resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts the server again on the same port, empty (after `kill()`; stops it first if it runs). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const INSTALL_HINT = 'install it with `apt-get install redis-server` (as root with apt, the test run does this itself)';

function onPath(command: string): boolean {
  return !spawnSync(command, ['--version'], { stdio: 'ignore' }).error;
}

/** Runs a command to completion; its output is kept for the error when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output.slice(-4000)}`))));
  });
}

/**
 * Makes sure `redis-server` is on PATH, once a run, before any test. When it is missing and the run is
 * root on a machine with apt, installs Debian's `redis-server`; the package's own service is kept from
 * starting (policy-rc.d answers 101, "action forbidden", unless a policy is already in place), since
 * the tests start their own servers on free ports.
 * @throws {Error} naming `apt-get install redis-server` when it is missing and cannot be installed here.
 */
export async function ensureRedisServer(log: (line: string) => void = console.log): Promise<void> {
  if (onPath('redis-server')) return;
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    throw new Error(`redis-server is not installed: ${INSTALL_HINT}`);
  }
  log("redis-server is missing: installing Debian's redis-server with apt-get");
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    await run('apt-get', ['update', '-qq'], env);
    await run('apt-get', ['install', '-y', '-qq', 'redis-server'], env);
  } finally {
    if (ownPolicy) rmSync(policy, { force: true });
  }
  if (!onPath('redis-server')) throw new Error(`redis-server is still not on PATH after apt-get installed it: ${INSTALL_HINT}`);
}

/**
 * Starts redis-server on a free loopback port, without persistence.
 * @throws {Error} with the install command when redis-server is not on PATH.
 */
export async function startRedis(): Promise<RedisServer> {
  if (!onPath('redis-server')) throw new Error(`redis-server is not installed: ${INSTALL_HINT}`);
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port);
  /** Ends the running server with `signal` and waits for it to exit. */
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    kill: () => end('SIGKILL'),
    restart: async () => {
      await end('SIGTERM');
      child = await launch(port);
    },
    stop: () => end('SIGTERM'),
  };
}

/** Spawns redis-server on `port` and resolves once it accepts connections. */
async function launch(port: number): Promise<ChildProcess> {
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${output.slice(-2000)}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
  return child;
}
