/**
 * Durable state for tests. `memoryState()`: a migrated in-memory SQLite database, synchronously (a
 * copy of a template migrated once per file). `openTestState(engine)`: a real database of either
 * engine, SQLite in a fresh temp dir or a fresh PostgreSQL database on the run's shared server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3, { type SqliteConnection } from '../../src/store/sqlite-driver.js';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Insertable } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { DATABASE_FILE, migrateDatabase, sqliteDatabase } from '../../src/store/database.js';
import { migrationProvider, type Tables, type TrackedMatchesTable } from '../../src/store/schema.js';
import { openState, stateOf, type State } from '../../src/store/state.js';
import type { GuildSettingsOptions } from '../../src/store/guild-settings.js';
import { testDatabaseUrl } from './postgres.js';

const template: Buffer = await (async () => {
  const sqlite = new BetterSqlite3(':memory:');
  const database = sqliteDatabase(sqlite, ':memory:');
  await migrateDatabase(database);
  const image = sqlite.serialize();
  await database.close();
  return image;
})();

/**
 * A fresh, migrated, in-memory state; `connect` may stand between the store and the connection (a test that watches
 * what reaches SQLite).
 */
export function memoryState(settings: GuildSettingsOptions = {}, connect: (sqlite: SqliteConnection) => SqliteConnection = (s) => s): State {
  return stateOf(sqliteDatabase(connect(new BetterSqlite3(template)), ':memory:'), settings);
}

/** The two engines every store test runs on. */
export const ENGINES = ['sqlite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

/** Where a test state lives, to open it again (another process, a restart). */
export interface TestStateLocation {
  engine: Engine;
  dataDir: string;
  databaseUrl?: string;
}

/** A new empty place for state on `engine`. */
export async function newStateLocation(engine: Engine): Promise<TestStateLocation & { cleanup: () => void }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rivals-state-'));
  const databaseUrl = engine === 'postgres' ? await testDatabaseUrl() : undefined;
  return { engine, dataDir, databaseUrl, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** Opens the state at `where` (migrating it). */
export function openAt(where: TestStateLocation, settings: GuildSettingsOptions = {}): Promise<State> {
  return openState({ dataDir: where.dataDir, databaseUrl: where.databaseUrl, logger: pino({ level: 'silent' }), settings });
}

/** A fresh state on `engine`; `close()` also removes its temp dir. */
export async function openTestState(engine: Engine, settings: GuildSettingsOptions = {}): Promise<State & { where: TestStateLocation }> {
  const where = await newStateLocation(engine);
  const state = await openAt(where, settings);
  return {
    ...state,
    where,
    close: async () => {
      await state.close();
      where.cleanup();
    },
  };
}

/**
 * Leaves the database at `where` as a release that stopped at `migration` would: migrated that far only,
 * holding one guild's settings (`g-old`, leaderboard on PlayStation), and what `seed` writes in that release's
 * tables (raw SQL: today's row types may have columns it lacks), for the upgrade tests.
 * @throws the migrator's error when it cannot get there.
 */
export async function databaseAt(where: TestStateLocation, migration: string, seed?: (db: Kysely<Tables>) => Promise<void>): Promise<void> {
  const db = new Kysely<Tables>({
    dialect:
      where.engine === 'postgres'
        ? new PostgresDialect({ pool: new pg.Pool({ connectionString: where.databaseUrl }) })
        : new SqliteDialect({ database: new BetterSqlite3(join(where.dataDir, DATABASE_FILE)) }),
  });
  try {
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(migration);
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows whatever the migration threw
    if (error) throw error;
    await db
      .insertInto('guild_settings')
      .values({ guild_id: 'g-old', leaderboard_platform: 'ps', ephemeral_by_default: 0, version: 1, updated_at: 1 })
      .execute();
    await seed?.(db);
  } finally {
    await db.destroy();
  }
}

/** A recorded match row (`tracked_matches`) with only what a test cares about: a ranked win of Season 1.5 (index 9) otherwise. */
export type TrackedMatchRow = Pick<Insertable<TrackedMatchesTable>, 'uid' | 'match_uid' | 'played_at' | 'recorded_at'> &
  Partial<Insertable<TrackedMatchesTable>>;

/** Writes `row` as the tracker would record it, the fields not given at their defaults (no hero, no score, 1/1/1). */
export async function insertTrackedMatch(db: Kysely<Tables>, row: TrackedMatchRow): Promise<void> {
  await db
    .insertInto('tracked_matches')
    .values({
      season: 9,
      mode_id: 2,
      ranked: 1,
      hero_id: null,
      won: 1,
      new_score: null,
      score_change: null,
      new_level: null,
      kills: 1,
      deaths: 1,
      assists: 1,
      mvp: 0,
      ...row,
    })
    .execute();
}
