/**
 * Durable state as a relational database (STYLE.md, src/store): one typed query layer (Kysely) over
 * two engines.
 * - SQLite (better-sqlite3), embedded, the default: `DATA_DIR/rivals.sqlite` in WAL mode, so readers
 *   never wait for the writer and a committed write survives `kill -9`.
 * - PostgreSQL (`pg`), with `DATABASE_URL`, for several bot processes or machines.
 * Migrations (src/store/schema.ts) run at open. A store that cannot be opened is a
 * {@link StoreOpenError} naming the place and what to do; a store that fails later is a
 * {@link StoreUnavailableError}, raised within a deadline so no interaction waits on it.
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
} from 'kysely';
import PQueue from 'p-queue';
import pTimeout from 'p-timeout';
import { migrationProvider, type Tables } from './schema.js';

/** The query layer over every table. */
export type Db = Kysely<Tables>;

/** The default SQLite file under `DATA_DIR`. */
export const DATABASE_FILE = 'rivals.sqlite';

/** Exit code of a bot that stopped because its store could not be opened (README, "Durable state"). */
export const EXIT_STORE_UNAVAILABLE = 3;

/** An open database. */
export interface Database {
  db: Db;
  engine: 'sqlite' | 'postgres';
  /** The SQLite file path, or the PostgreSQL URL without its password: for logs. */
  location: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://` URL; absent: SQLite under `dataDir`. */
  databaseUrl?: string;
  /** Directory of the SQLite file (created if missing). */
  dataDir: string;
  /** SQLite file name (default {@link DATABASE_FILE}). */
  file?: string;
  /** How long the SQLite open waits for another process that has the file locked (ms, default 5,000). */
  lockWaitMs?: number;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /** Called with errors of idle PostgreSQL connections (the server went away); they are not fatal. */
  onIdleError?: (err: Error) => void;
}

/** The store could not be opened at start: `message` is one line naming the place and what to do. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
  constructor(
    /** The file, directory or redacted URL. */
    readonly location: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A store call failed or missed its deadline mid-run: nothing was saved by it. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(
    /** What was being done, for logs (`read guild settings`). */
    readonly operation: string,
    options?: { cause?: unknown },
  ) {
    super(`state store unavailable: could not ${operation}`, options);
  }
}

/** `postgres://user:secret@host/db` without the password. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL (unparseable)';
  }
}

/** Where the state lives, for logs. */
export function describeDatabase(options: DatabaseOptions): string {
  return options.databaseUrl ? redactUrl(options.databaseUrl) : resolve(options.dataDir, options.file ?? DATABASE_FILE);
}

/**
 * Opens the database and runs pending migrations.
 * @throws {StoreOpenError} when the directory or file is unusable (a file where a directory should be,
 *   no permission, a corrupt or truncated database, an unreachable server, a failed migration).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.databaseUrl ? await openPostgres(options.databaseUrl, options) : await openSqlite(options);
  try {
    await migrateDatabase(database, options.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR');
    // A write at start: a store that cannot be written fails now, not on a member's first /config.
    await database.db
      .insertInto('meta')
      .values({ key: 'opened_at', value: String(Date.now()) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(Date.now()) }))
      .execute();
  } catch (err) {
    await database.close().catch(() => undefined);
    if (err instanceof StoreOpenError) throw err;
    throw asOpenError(database.location, err, options);
  }
  return database;
}

/**
 * Runs the pending migrations (src/store/schema.ts).
 * @throws {StoreOpenError} naming the migration that failed.
 */
export async function migrateDatabase(database: Database, variable = 'DATA_DIR'): Promise<void> {
  const { error, results } = await new Migrator({ db: database.db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new StoreOpenError(
      database.location,
      `the database at ${database.location} could not be migrated (migration ${failed}): ${reasonOf(error)}. Check that the database user may create tables there, or restore a backup, or point ${variable} at a new database.`,
      { cause: error },
    );
  }
}

/** A {@link Database} over an open better-sqlite3 connection (`location` for logs). */
export function sqliteDatabase(sqlite: BetterSqlite3.Database, location: string): Database {
  const db = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  return { db, engine: 'sqlite', location, close: () => db.destroy() };
}

async function openSqlite(options: DatabaseOptions): Promise<Database> {
  const dir = resolve(options.dataDir);
  const file = resolve(dir, options.file ?? DATABASE_FILE);
  let stat: ReturnType<typeof statSync> | undefined;
  try {
    stat = statSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw asOpenError(dir, err, options, 'directory');
  }
  if (stat && !stat.isDirectory())
    throw new StoreOpenError(dir, `DATA_DIR ${dir} is a file, not a directory: point DATA_DIR at a directory (it is created if missing).`);
  try {
    if (!stat) mkdirSync(dir, { recursive: true });
    // SQLite needs to create its -wal and -shm files beside the database.
    accessSync(dir, constants.W_OK | constants.R_OK | constants.X_OK);
  } catch (err) {
    throw asOpenError(dir, err, options, 'directory');
  }
  let sqlite: BetterSqlite3.Database | undefined;
  try {
    sqlite = new BetterSqlite3(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    await useWriteAheadLog(sqlite, options.lockWaitMs ?? SQLITE_BUSY_TIMEOUT_MS);
    // In WAL mode NORMAL keeps every commit across a process crash; only a power loss can drop the last ones.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    const check = sqlite.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw Object.assign(new Error(`integrity check failed: ${String(check)}`), { code: 'SQLITE_CORRUPT' });
  } catch (err) {
    sqlite?.close();
    throw asOpenError(file, err, options, 'file');
  }
  return sqliteDatabase(sqlite, file);
}

/** How long an SQLite statement waits for another process's lock before SQLITE_BUSY (ms). */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * Puts the file in WAL mode (a property of the file, kept across opens). The conversion needs the
 * file to itself, and SQLite answers SQLITE_BUSY at once instead of running the busy handler
 * (sqlite.org/pragma.html#pragma_journal_mode), so two processes opening a new file together would
 * fail one of them: this reads the mode first (no lock once the file is WAL) and otherwise retries
 * with backoff for up to `waitMs`.
 * @throws the last SQLITE_BUSY (or any other SqliteError) when the file stays locked for `waitMs`.
 */
async function useWriteAheadLog(sqlite: BetterSqlite3.Database, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    try {
      if (String(sqlite.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal') return;
      if (String(sqlite.pragma('journal_mode = WAL', { simple: true })).toLowerCase() === 'wal') return;
      // SQLite kept the old mode without an error: another connection is using the file.
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    } catch (err) {
      const code = String((err as { code?: unknown }).code ?? '');
      if (!code.startsWith('SQLITE_BUSY') && !code.startsWith('SQLITE_LOCKED')) throw err;
      if (Date.now() + delay > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, delay * (0.5 + Math.random())));
  }
}

/**
 * SQLite transactions that take the write lock when they begin (`BEGIN IMMEDIATE`), waiting up to the
 * busy timeout for another process: a transaction that reads then writes can then never fail to
 * upgrade its lock, so a read that decides a write is serialised across processes too.
 * Migrations run in one such transaction (SQLite's DDL is transactional; Kysely's adapter says
 * otherwise only to stay out of the way): two processes starting at once on a new file migrate it
 * one after the other instead of both creating its tables, and a crash mid-migration leaves nothing
 * half-created.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    const driver = new SqliteDriver(this.#config);
    driver.beginTransaction = async (connection: DatabaseConnection) => void (await connection.executeQuery(CompiledQuery.raw('begin immediate')));
    handConnectionInTurn(driver);
    return driver;
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/**
 * Hands the SQLite driver's one connection to its callers in turn, first come first served.
 *
 * Kysely 0.28's SqliteDriver guards the connection with a mutex that wakes every waiter on each
 * release, each then finding it taken again: N queries at once cost O(N²) wake-ups. A burst of 8,000
 * distinct members' reads took 7.5 s of CPU that way. Here a one-at-a-time queue (p-queue)
 * admits one caller at a time to the driver's own mutex, which then never has more than one waiter:
 * O(1) per query. A transaction holds its turn from `acquireConnection` to `releaseConnection`, as before.
 */
export function handConnectionInTurn(driver: Driver): void {
  const turns = new PQueue({ concurrency: 1 });
  const acquire = driver.acquireConnection.bind(driver);
  const release = driver.releaseConnection.bind(driver);
  // The end of the turn in progress (concurrency 1: at most one at a time).
  let endTurn: (() => void) | undefined;
  driver.acquireConnection = () =>
    new Promise<DatabaseConnection>((granted, failed) => {
      turns
        .add(async () => {
          const connection = await acquire();
          await new Promise<void>((ended) => {
            endTurn = ended;
            granted(connection);
          });
        })
        .catch(failed);
    });
  driver.releaseConnection = async (connection: DatabaseConnection) => {
    try {
      await release(connection);
    } finally {
      const ended = endTurn;
      endTurn = undefined;
      ended?.();
    }
  };
}

class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const location = redactUrl(url);
  // Loaded only with DATABASE_URL: SQLite deployments never load the PostgreSQL driver.
  const { default: pg } = await import('pg');
  // 64-bit integers (times in ms) as numbers: they stay far below 2^53.
  const types = {
    getTypeParser: (oid: number, format?: string) =>
      oid === 20 ? (v: string) => Number(v) : (pg.types.getTypeParser(oid, format as 'text') as (v: string) => unknown),
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
    // A query never waits forever on a server that stopped answering.
    query_timeout: 10_000,
    types: types,
  });
  // Without a listener an idle connection dropped by the server would crash the process.
  pool.on('error', (err) => options.onIdleError?.(err));
  // The pool listens only to idle connections: one checked out (Kysely holds it for a query or a whole
  // transaction) emits 'error' with no listener when the server goes away, which would crash the process
  // too. The error already reaches the query it failed, and the pool drops the connection on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  try {
    await pool.query('select 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw asOpenError(location, err, options, 'server');
  }
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', location, close: () => db.destroy() };
}

function reasonOf(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.message ?? String(err);
}

/** What `location` names in an open error: DATA_DIR, the SQLite file, or the PostgreSQL server (redacted URL). */
type OpenPlace = 'directory' | 'file' | 'server';

/** Short names of the system errors met opening DATA_DIR. */
const ERRNO_TEXT: Record<string, string> = { EACCES: 'permission denied', EPERM: 'operation not permitted', EROFS: 'read-only file system' };

/**
 * One line saying what is wrong with `location` and what to do (README, "Durable state"). Never
 * includes a URL other than `location`, which is redacted.
 */
function asOpenError(location: string, err: unknown, options: DatabaseOptions, place: OpenPlace = options.databaseUrl ? 'server' : 'file'): StoreOpenError {
  const code = String((err as { code?: unknown }).code ?? '');
  // One line, and short: a failed integrity check can list a hundred pages.
  const full = withoutPassword(reasonOf(err), options.databaseUrl).replace(/\s+/g, ' ').trim();
  const reason = full.length > 240 ? `${full.slice(0, 239)}…` : full;
  const variable = options.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR';
  const user = typeof process.getuid === 'function' ? `the user running the bot (uid ${process.getuid()})` : 'the user running the bot';
  let message: string;
  if (place === 'server') {
    const unreachable =
      ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET'].includes(code) ||
      /timeout exceeded when trying to connect|Connection terminated/i.test(reason);
    if (unreachable)
      message = `cannot reach the database server at ${location} (${code || reason}): start PostgreSQL there, or fix the host and port in DATABASE_URL.`;
    else if (code === '28P01' || code === '28000')
      message = `the database server at ${location} refused the login (${code}: ${reason}): fix the user or password in DATABASE_URL.`;
    else if (code === '3D000') message = `the database named in ${location} does not exist (${code}): create it, or fix the database name in DATABASE_URL.`;
    else message = `cannot open the database at ${location}: ${reason}${code ? ` (${code})` : ''}. Check DATABASE_URL and the server's log.`;
  } else if (place === 'directory') {
    if (code in ERRNO_TEXT)
      message = `DATA_DIR ${location} cannot be created or written (${code}: ${ERRNO_TEXT[code]}) by ${user}: make it writable by that user, or point DATA_DIR at a writable directory.`;
    else if (code === 'ENOTDIR' || code === 'EEXIST')
      message = `DATA_DIR ${location} cannot be created: a file stands where one of its directories should be. Point DATA_DIR at a directory.`;
    else message = `DATA_DIR ${location} cannot be used: ${reason}${code ? ` (${code})` : ''}. Point DATA_DIR at a writable directory.`;
  } else if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    message = `the database file ${location} is damaged (${code}: ${reason}): restore it from a backup, or move it away with its -wal and -shm files to start empty (no settings, account links or delivery records).`;
  } else if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    message = `the database file ${location} stayed locked by another process (${code}: ${reason}): stop the other program holding it (an SQLite browser, a backup, another bot with an open transaction), then start again.`;
  } else if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code in ERRNO_TEXT) {
    message = `the database file ${location} cannot be opened for writing (${code}: ${reason}) by ${user}: make it, its -wal and -shm files and ${variable} writable by that user, or point ${variable} elsewhere.`;
  } else {
    message = `cannot open the database file ${location}: ${reason}${code ? ` (${code})` : ''}. Check ${variable}.`;
  }
  return new StoreOpenError(location, message, { cause: err });
}

/** `text` with the password of `url` (as typed and decoded) masked, should a driver's message ever echo it. */
function withoutPassword(text: string, url: string | undefined): string {
  let password: string;
  try {
    password = url ? new URL(url).password : '';
  } catch {
    return text;
  }
  if (password.length === 0) return text;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // a malformed escape: only the typed form can appear
  }
  for (const form of new Set([password, decoded])) text = text.split(form).join('***');
  return text;
}

/**
 * Runs one store call with a deadline.
 * @throws {StoreUnavailableError} when `run` rejects or `deadlineMs` passes first (the call may still
 *   finish later: callers use it only for reads and for writes that are atomic).
 */
export async function withDeadline<T>(operation: string, deadlineMs: number, run: () => Promise<T>): Promise<T> {
  try {
    return await pTimeout(run(), {
      milliseconds: deadlineMs,
      fallback: () => {
        throw new StoreUnavailableError(operation, { cause: new Error(`no answer within ${deadlineMs} ms`) });
      },
    });
  } catch (err) {
    throw err instanceof StoreUnavailableError ? err : new StoreUnavailableError(operation, { cause: err });
  }
}

/** Whether a unique constraint refused an insert (both engines). */
export function isUniqueViolation(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code ?? '');
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT');
}

/** Reads `select 1`: whether the database answers now. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
