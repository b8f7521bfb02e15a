/**
 * The relational store: Kysely over SQLite (the default, in WAL mode so readers never wait for the writer)
 * or PostgreSQL (`DATABASE_URL`, for several processes). Later failures raise within a deadline so no
 * interaction waits on the store.
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
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
import Sqlite, { type SqliteConnection } from './sqlite-driver.js';

export type Db = Kysely<Tables>;

export const DATABASE_FILE = 'rivals.sqlite';

/** docs/operations.md, "Durable state". */
export const EXIT_STORE_UNAVAILABLE = 3;

export interface Database {
  db: Db;
  engine: 'sqlite' | 'postgres';
  /** For logs: the file path, or the URL without its password. */
  location: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://` URL; absent: SQLite under `dataDir` (created if missing). */
  databaseUrl?: string;
  dataDir: string;
  file?: string;
  /** Ms the SQLite open waits for another process's lock. */
  lockWaitMs?: number;
  poolSize?: number;
  /** Errors of idle PostgreSQL connections; not fatal. */
  onIdleError?: (err: Error) => void;
}

/** `message` is one line naming the place and what to do; `location` is the file, directory or redacted URL. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
  constructor(
    readonly location: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A store call failed or missed its deadline mid-run; `operation` is for logs ("read guild settings"). */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(
    readonly operation: string,
    options?: { cause?: unknown },
  ) {
    super(`state store unavailable: could not ${operation}`, options);
  }
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL (unparseable)';
  }
}

export function describeDatabase(options: DatabaseOptions): string {
  return options.databaseUrl ? redactUrl(options.databaseUrl) : resolve(options.dataDir, options.file ?? DATABASE_FILE);
}

/**
 * Runs pending migrations too.
 * @throws {StoreOpenError} when the directory, file or server is unusable, or a migration fails.
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

/** @throws {StoreOpenError} naming the migration that failed. */
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

export function sqliteDatabase(sqlite: SqliteConnection, location: string): Database {
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
  let sqlite: SqliteConnection | undefined;
  try {
    sqlite = new Sqlite(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    await useWriteAheadLog(sqlite, options.lockWaitMs ?? SQLITE_BUSY_TIMEOUT_MS);
    // In WAL mode NORMAL survives a process crash; only a power loss can drop the last commits.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // A deleted row's bytes are overwritten with zeros, not left in a free page for anyone who reads the file (a member's
    // deletion; sqlite.org/pragma.html#pragma_secure_delete). Deletes write a little more.
    sqlite.pragma('secure_delete = ON');
    const check = sqlite.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw Object.assign(new Error(`integrity check failed: ${String(check)}`), { code: 'SQLITE_CORRUPT' });
  } catch (err) {
    sqlite?.close();
    throw asOpenError(file, err, options, 'file');
  }
  return sqliteDatabase(sqlite, file);
}

/** Ms before SQLITE_BUSY. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * Switching to WAL answers SQLITE_BUSY at once, without the busy handler (sqlite.org/pragma.html#pragma_journal_mode),
 * so two processes opening a new file would fail one: read the mode first, else retry with backoff.
 * @throws the last SQLITE_BUSY (or any other SqliteError) when the file stays locked for `waitMs`.
 */
async function useWriteAheadLog(sqlite: SqliteConnection, waitMs: number): Promise<void> {
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
 * `BEGIN IMMEDIATE`, so a read that decides a write never fails to upgrade its lock. SQLite's DDL is
 * transactional (Kysely's adapter only says otherwise): concurrent first starts migrate one after the other.
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
 * Queues callers for the SQLite driver's one connection. Kysely's mutex wakes every waiter on each release
 * (O(N²) for N queries at once); with this queue it never has more than one. A transaction keeps its turn.
 */
export function handConnectionInTurn(driver: Driver): void {
  const turns = new PQueue({ concurrency: 1 });
  const acquire = driver.acquireConnection.bind(driver);
  const release = driver.releaseConnection.bind(driver);
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

/** Connections a PostgreSQL store opens at once and keeps: as many as one ladder page reads in parallel (src/store/ladder/pages.ts). */
const WARM_CONNECTIONS = 4;

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const location = redactUrl(url);
  const { default: pg } = await import('pg');
  // int8 (times in ms) as numbers: they stay far below 2^53.
  const types = {
    getTypeParser: (oid: number, format?: string) =>
      oid === 20 ? (v: string) => Number(v) : (pg.types.getTypeParser(oid, format as 'text') as (v: string) => unknown),
  };
  const max = options.poolSize ?? 10;
  const warm = Math.min(WARM_CONNECTIONS, max);
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // Kept open when idle: the first ladder page after a start or a quiet hour does not pay for connecting.
    min: warm,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
    query_timeout: 10_000,
    types: types,
  });
  // Without listeners a connection dropped by the server would crash the process. The pool listens only
  // to idle ones; a checked-out one's error already reaches its query, and the pool drops it on release.
  pool.on('error', (err) => options.onIdleError?.(err));
  pool.on('connect', (client) => client.on('error', () => undefined));
  try {
    // Opened now, in parallel, rather than by the first reads that need them.
    await Promise.all(Array.from({ length: warm }, () => pool.query('select 1')));
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

type OpenPlace = 'directory' | 'file' | 'server';

const ERRNO_TEXT: Record<string, string> = { EACCES: 'permission denied', EPERM: 'operation not permitted', EROFS: 'read-only file system' };

/** One line saying what is wrong and what to do; never includes an unredacted URL. */
function asOpenError(location: string, err: unknown, options: DatabaseOptions, place: OpenPlace = options.databaseUrl ? 'server' : 'file'): StoreOpenError {
  const code = String((err as { code?: unknown }).code ?? '');
  // Short: a failed integrity check can list a hundred pages.
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

/** Masks the password (typed and decoded) should a driver's message echo it. */
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
 * @throws {StoreUnavailableError} when `run` rejects or `deadlineMs` passes first (the call may still
 *   finish later: use it only for reads and atomic writes).
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

export function isUniqueViolation(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code ?? '');
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT');
}

/** Rejects when the database does not answer. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/** The latest of a table's times (ms since the epoch, a `bigint` column), null when it has none: one aggregate read. */
export async function latestTime<T extends keyof Tables>(db: Db, table: T, column: keyof Tables[T] & string): Promise<number | null> {
  const { rows } = await sql<{ at: number | string | null }>`SELECT max(${sql.ref(column)}) AS at FROM ${sql.table(table)}`.execute(db);
  const at = rows[0]?.at;
  return at === null || at === undefined ? null : Number(at);
}
