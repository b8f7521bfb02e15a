/**
 * The entry point (`npm start`, no DISCORD_TOKEN: the playground) with a store it cannot open: the bot
 * opens the store before anything else (createApiServices), so it logs one fatal line naming the place
 * and what to do, and exits with code 3 (EXIT_STORE_UNAVAILABLE, docs/operations.md, "Durable state"), with no
 * stack trace. One test per kind of damage.
 *
 * Permissions: as root, permission bits are not checked, so the non-writable DATA_DIR case runs the
 * bot as `nobody` (uid/gid 65534), which must be able to read the checkout and the temp directories.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_STORE_UNAVAILABLE, openDatabase } from '../../src/store/database.js';
import { freePort } from '../helpers/free-port.js';
import { testDatabaseUrl } from '../helpers/postgres.js';
import { BOT_ARGS } from '../helpers/bot-process.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

const base = mkdtempSync(join(tmpdir(), 'rivals-store-start-'));
// Readable by `nobody` (mkdtemp makes it 0700).
chmodSync(base, 0o755);
afterAll(() => {
  // A 0555 directory inside would stop rm for a non-root run.
  spawnSync('chmod', ['-R', 'u+w', base]);
  rmSync(base, { recursive: true, force: true });
});

interface LogLine {
  level: number;
  msg: string;
  store?: string;
  [key: string]: unknown;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: LogLine[];
}

/** Runs what `npm start` runs, with a bare environment plus `env`, until it exits (20 s at most). */
async function startBot(env: Record<string, string>, as?: { uid: number; gid: number }): Promise<Run> {
  const child = spawn(process.execPath, [...BOT_ARGS], {
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: base, LOG_LEVEL: 'info', PORT: String(await freePort()), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...as,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((done) => child.once('close', (c) => done(c)));
  clearTimeout(timer);
  const lines = stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as LogLine;
      } catch {
        return { level: -1, msg: l };
      }
    });
  return { code, stdout, stderr, lines };
}

/** The bot stopped on the store alone: exit 3, one fatal JSON line with `message` about `location`, nothing after it, no stack trace. */
function expectStoreFailure(run: Run, location: string, message: string): void {
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.code, output).toBe(EXIT_STORE_UNAVAILABLE);
  const fatal = run.lines.filter((l) => l.level === 60);
  expect(fatal, output).toHaveLength(1);
  expect(fatal[0]!.msg).toBe(message);
  expect(fatal[0]!.msg).toContain(location);
  expect(fatal[0]!.msg).not.toContain('\n');
  expect(fatal[0]!.store).toBe(location);
  expect(
    run.lines.filter((l) => l.level === -1),
    'every stdout line is JSON',
  ).toEqual([]);
  // The store is opened before the replica and the playground start.
  expect(output).not.toMatch(/state store open|playground ready|in-process API replica/);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toMatch(/Error|StoreOpenError/);
}

const uid = process.getuid?.();

/**
 * The user to run the bot as for a permission case: as root, `nobody` (root ignores permission bits),
 * after checking that nobody can run this node, read the checkout and reach `dir`; else the current user. Skips
 * the test, saying why, when nobody cannot.
 */
function unprivileged(ctx: { skip(note?: string): never }, dir: string): { as?: { uid: number; gid: number }; uid: number | undefined } {
  if (!AS_ROOT) return { uid };
  const probe = spawnSync('test', ['-x', process.execPath, '-a', '-r', join(ROOT, 'src/index.ts'), '-a', '-r', join(ROOT, 'dist/index.js'), '-a', '-x', dir], {
    uid: NOBODY,
    gid: NOBODY,
  });
  if (probe.status !== 0) ctx.skip(`as root this test runs the bot as nobody, who cannot run ${process.execPath}, read ${ROOT} or reach ${dir}`);
  return { as: { uid: NOBODY, gid: NOBODY }, uid: NOBODY };
}

describe('npm start with a store it cannot open', { timeout: 30_000 }, () => {
  it('(a) a corrupt database file: names the file, says to restore or move it away, exits 3', async () => {
    const dir = join(base, 'corrupt');
    mkdirSync(dir);
    const file = join(dir, 'rivals.sqlite');
    writeFileSync(file, randomBytes(64 * 1024));
    const run = await startBot({ DATA_DIR: dir });
    expectStoreFailure(
      run,
      file,
      `the database file ${file} is damaged (SQLITE_NOTADB: file is not a database): restore it from a backup, or move it away with its -wal and -shm files to start empty (no settings, account links or delivery records).`,
    );
  });

  it.each([
    ['half its size', (size: number) => Math.floor(size / 2)],
    ['100 bytes', () => 100],
  ])('(b) a database truncated to %s: the integrity check at open catches it, exits 3', async (label, length) => {
    const dir = join(base, `truncated-${label.replace(/\W+/g, '-')}`);
    const database = await openDatabase({ dataDir: dir });
    for (let i = 0; i < 2_000; i++)
      await database.db
        .insertInto('meta')
        .values({ key: `row-${i}`, value: 'x'.repeat(100) })
        .execute();
    await database.close();
    const file = join(dir, 'rivals.sqlite');
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(100_000);
    truncateSync(file, length(size));
    const run = await startBot({ DATA_DIR: dir });
    expectStoreFailure(
      run,
      file,
      `the database file ${file} is damaged (SQLITE_CORRUPT: database disk image is malformed): restore it from a backup, or move it away with its -wal and -shm files to start empty (no settings, account links or delivery records).`,
    );
  });

  it('(c) a DATA_DIR the bot may not write (0555): names the directory and the uid, exits 3', async (ctx) => {
    const parent = join(base, 'readonly');
    mkdirSync(parent, { mode: 0o755 });
    chmodSync(parent, 0o755);
    const dir = join(parent, 'data');
    mkdirSync(dir);
    chmodSync(dir, 0o555);
    const user = unprivileged(ctx, dir);
    const run = await startBot({ DATA_DIR: dir }, user.as);
    expectStoreFailure(
      run,
      dir,
      `DATA_DIR ${dir} cannot be created or written (EACCES: permission denied) by the user running the bot (uid ${user.uid}): make it writable by that user, or point DATA_DIR at a writable directory.`,
    );
  });

  it('(c) a database file the bot may not write (0444, in a writable DATA_DIR): names the file and the uid, exits 3', async (ctx) => {
    const dir = join(base, 'readonly-file');
    await (await openDatabase({ dataDir: dir })).close();
    chmodSync(dir, 0o777);
    const file = join(dir, 'rivals.sqlite');
    chmodSync(file, 0o444);
    const user = unprivileged(ctx, dir);
    const run = await startBot({ DATA_DIR: dir }, user.as);
    expectStoreFailure(
      run,
      file,
      `the database file ${file} cannot be opened for writing (SQLITE_READONLY: attempt to write a readonly database) by the user running the bot (uid ${user.uid}): make it, its -wal and -shm files and DATA_DIR writable by that user, or point DATA_DIR elsewhere.`,
    );
  });

  it('(d) DATA_DIR is a regular file: says to point it at a directory, exits 3', async () => {
    const file = join(base, 'not-a-directory');
    writeFileSync(file, 'hello');
    const run = await startBot({ DATA_DIR: file });
    expectStoreFailure(run, file, `DATA_DIR ${file} is a file, not a directory: point DATA_DIR at a directory (it is created if missing).`);
  });

  it('(e) DATABASE_URL at a port where nothing listens: names the redacted URL, never the password, exits 3', async () => {
    const port = await freePort();
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const location = `postgres://rivals:***@127.0.0.1:${port}/rivals`;
    const run = await startBot({ DATA_DIR: join(base, 'unused-pg'), DATABASE_URL: `postgres://rivals:${password}@127.0.0.1:${port}/rivals` });
    expectStoreFailure(
      run,
      location,
      `cannot reach the database server at ${location} (ECONNREFUSED): start PostgreSQL there, or fix the host and port in DATABASE_URL.`,
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain(password);
  });

  it('(e) DATABASE_URL with a wrong password on a real server: says to fix the login, never shows the password, exits 3', async () => {
    const url = new URL(await testDatabaseUrl());
    const password = `wrong-${randomBytes(8).toString('hex')}`;
    url.password = password;
    const location = `postgres://${url.username}:***@${url.host}${url.pathname}`;
    const run = await startBot({ DATA_DIR: join(base, 'unused-pg2'), DATABASE_URL: url.toString() });
    expectStoreFailure(
      run,
      location,
      `the database server at ${location} refused the login (28P01: password authentication failed for user "${url.username}"): fix the user or password in DATABASE_URL.`,
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain(password);
  });

  it('(e) DATABASE_URL naming a database the server does not have: says to create it, exits 3', async () => {
    const url = new URL(await testDatabaseUrl());
    url.pathname = `/missing_${randomBytes(4).toString('hex')}`;
    const location = `postgres://${url.username}:***@${url.host}${url.pathname}`;
    const run = await startBot({ DATA_DIR: join(base, 'unused-pg3'), DATABASE_URL: url.toString() });
    expectStoreFailure(run, location, `the database named in ${location} does not exist (3D000): create it, or fix the database name in DATABASE_URL.`);
    expect(`${run.stdout}${run.stderr}`).not.toContain(`:${decodeURIComponent(url.password)}@`);
  });
});
