/**
 * Opening the SQLite file while another connection has it locked. SQLite converts a file to WAL
 * only with the file to itself and answers SQLITE_BUSY at once instead of waiting the busy timeout
 * (sqlite.org/pragma.html#pragma_journal_mode): CI once saw one of two bot processes started
 * together on a new file exit 3 this way. The open waits for the lock (up to `lockWaitMs`) instead,
 * and names the lock when it outlasts that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openDatabase, StoreOpenError } from '../../src/store/database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A new DATA_DIR whose file (still in rollback-journal mode) another connection is writing in an
 * open transaction, as a second process converting or migrating the file at start would. The
 * conversion needs to upgrade its read lock past that writer's, which SQLite never waits for.
 */
function lockedNewFile(): { dataDir: string; holder: BetterSqlite3.Database } {
  const dataDir = mkdtempSync(join(tmpdir(), 'rivals-sqlite-open-'));
  dirs.push(dataDir);
  const holder = new BetterSqlite3(join(dataDir, DATABASE_FILE));
  holder.exec('create table other_program (x integer)');
  holder.exec('begin immediate');
  holder.exec('insert into other_program values (1)');
  return { dataDir, holder };
}

describe('opening the SQLite file while another connection holds it', () => {
  it('waits for the lock to go, then opens in WAL mode and migrates', async () => {
    const { dataDir, holder } = lockedNewFile();
    // Under this lock the conversion fails at once, busy timeout or not: the open must wait by itself.
    const probe = new BetterSqlite3(join(dataDir, DATABASE_FILE), { timeout: 5_000 });
    const tried = Date.now();
    expect(() => probe.pragma('journal_mode = WAL')).toThrow(/locked/);
    expect(Date.now() - tried).toBeLessThan(4_000);
    probe.close();

    setTimeout(() => holder.exec('commit'), 300);
    const started = Date.now();
    const database = await openDatabase({ dataDir, lockWaitMs: 10_000 });
    try {
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      const row = await database.db.selectFrom('meta').select('key').where('key', '=', 'opened_at').executeTakeFirst();
      expect(row?.key).toBe('opened_at');
    } finally {
      await database.close();
      holder.close();
    }
    const reopened = new BetterSqlite3(join(dataDir, DATABASE_FILE));
    expect(reopened.pragma('journal_mode', { simple: true })).toBe('wal');
    // The other program's committed row is still there.
    expect(reopened.prepare('select count(*) as n from other_program').get()).toEqual({ n: 1 });
    reopened.close();
  });

  it('gives up after lockWaitMs with one line naming the lock and what to do', async () => {
    const { dataDir, holder } = lockedNewFile();
    try {
      const error = await openDatabase({ dataDir, lockWaitMs: 400 }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(StoreOpenError);
      const message = (error as StoreOpenError).message;
      expect(message).toContain(join(dataDir, DATABASE_FILE));
      expect(message).toMatch(/locked by another process \(SQLITE_BUSY/);
      expect(message).toMatch(/stop the other program/);
      expect(message).not.toContain('\n');
    } finally {
      holder.close();
    }
  });
});
