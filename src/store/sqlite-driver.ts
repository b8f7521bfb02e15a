/**
 * The SQLite driver: better-sqlite3 13, built on Node-API. Version 12 and older abort the process on Node 24.19 and later
 * when a garbage collection frees a statement outside JavaScript, and Kysely prepares a statement per query
 * (docs/node-versions.md). The one place the driver is imported, so that the store and its tests name it once.
 */
import BetterSqlite3 from 'better-sqlite3';

/** better-sqlite3's `Database` constructor. */
export default BetterSqlite3;
/** An open better-sqlite3 connection. */
export type SqliteConnection = BetterSqlite3.Database;
