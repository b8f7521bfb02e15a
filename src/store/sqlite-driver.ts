/**
 * The SQLite driver for this Node.js: better-sqlite3 13 on Node 22 and later, better-sqlite3 12 on Node 20.
 *
 * Why two: from Node 24.19, a better-sqlite3 12 statement collected by a garbage collection outside
 * JavaScript (an idle one, or at exit) aborts the process (`Assertion failed: (env) != nullptr` in
 * `RemoveEnvironmentCleanupHook`, from `Statement::~Statement`). Kysely prepares a statement per query,
 * so the bot would crash minutes after start. Version 13 (Node-API) fixes it, but needs Node 22: it
 * crashes on Node 20. Both are installed (13 under the alias `better-sqlite3-13`); only one is loaded.
 * Same API, same error codes (`SQLITE_BUSY`, …). docs/node-versions.md says what changes without Node 20.
 */
import type BetterSqlite3 from 'better-sqlite3';

/** Node.js's major version, e.g. 24. */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** The package loaded: `better-sqlite3-13` (Node ≥ 22) or `better-sqlite3` (12, Node 20). */
export const SQLITE_DRIVER = NODE_MAJOR >= 22 ? 'better-sqlite3-13' : 'better-sqlite3';

// The same constructor type for both: 13 kept 12's JavaScript API.
const Sqlite = ((await import(SQLITE_DRIVER)) as { default: typeof BetterSqlite3 }).default;

/** better-sqlite3's `Database` constructor, of the driver above. */
export default Sqlite;
/** An open better-sqlite3 connection. */
export type SqliteConnection = BetterSqlite3.Database;
