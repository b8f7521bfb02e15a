/** Nothing acknowledged is lost: a saved setting survives SIGKILL of the process that saved it, on both stores. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../helpers/redis.js';

const CHILD = join(import.meta.dirname, '../helpers/state-child.ts');

function child(args: string[], env: Record<string, string>, untilLine: boolean) {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise<{ line: string; proc: typeof proc }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child gave no line: ${err}`)), 20_000);
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (untilLine && out.includes('\n')) {
        clearTimeout(timer);
        resolve({ line: out.trim(), proc });
      }
    });
    proc.on('exit', () => {
      clearTimeout(timer);
      resolve({ line: out.trim(), proc });
    });
  });
}

async function writeKillRead(env: Record<string, string>) {
  const writer = await child(['write', '310000000000000001', '320000000000000007'], env, true);
  expect(writer.line).toBe('ACK');
  const exited = new Promise((r) => writer.proc.once('exit', r));
  writer.proc.kill('SIGKILL');
  await exited;
  expect(writer.proc.signalCode).toBe('SIGKILL');
  const reader = await child(['read', '310000000000000001'], env, false);
  expect(reader.line).toBe('320000000000000007');
}

describe('a confirmed setting survives SIGKILL and restart', () => {
  let dataDir: string;
  let redis: RedisServer;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rivals-state-'));
    redis = await startRedis();
  });
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await redis?.stop();
  });

  it('on the embedded SQLite store under DATA_DIR', async () => {
    await writeKillRead({ DATA_DIR: dataDir });
  }, 40_000);

  it('on Redis', async () => {
    await writeKillRead({ REDIS_URL: redis.url });
  }, 40_000);
});
