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
import { Worker } from 'node:worker_threads';
import BetterSqlite3, { type SqliteConnection } from '../../src/store/sqlite-driver.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATABASE_FILE, openDatabase, StoreOpenError } from '../../src/store/database.js';
import { pollUntil } from '../helpers/until.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A new DATA_DIR whose file (still in rollback-journal mode) another connection is writing in an
 * open transaction, as a second process converting or migrating the file at start would. The
 * conversion needs to upgrade its read lock past that writer's, which SQLite never waits for.
 */
function lockedNewFile(): { dataDir: string; holder: SqliteConnection } {
  const dataDir = mkdtempSync(join(tmpdir(), 'rivals-sqlite-open-'));
  dirs.push(dataDir);
  const holder = new BetterSqlite3(join(dataDir, DATABASE_FILE));
  holder.exec('create table other_program (x integer)');
  holder.exec('begin immediate');
  holder.exec('insert into other_program values (1)');
  return { dataDir, holder };
}

/**
 * The same lock held by another thread, as another process would hold it: `committed()` asks it to
 * commit and resolves with who ended the transaction, the request or its own timer after `safetyMs`.
 */
async function lockedByAnotherThread(safetyMs: number): Promise<{ file: string; committed(): Promise<string> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rivals-sqlite-open-'));
  dirs.push(dataDir);
  const file = join(dataDir, DATABASE_FILE);
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
const db = new (require('better-sqlite3'))(workerData.file);
db.exec('create table other_program (x integer)');
db.exec('begin immediate');
db.exec('insert into other_program values (1)');
let by;
const commit = (who) => { if (by === undefined) { by = who; db.exec('commit'); db.close(); } return by; };
const safety = setTimeout(() => commit('its own timer'), workerData.safetyMs);
parentPort.once('message', () => { clearTimeout(safety); parentPort.postMessage(commit('the request')); parentPort.close(); });
parentPort.postMessage('locked');`,
    { eval: true, workerData: { file, safetyMs } },
  );
  const next = () =>
    new Promise<string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  expect(await next()).toBe('locked');
  return {
    file,
    committed: async () => {
      const answer = next();
      worker.postMessage('commit');
      const by = await answer;
      await worker.terminate();
      return by;
    },
  };
}

describe('opening the SQLite file while another connection holds it', () => {
  it("SQLite's conversion to WAL answers SQLITE_BUSY at once under the lock, busy timeout or not", async () => {
    // The other thread commits when asked, or by itself after 10 s; the probe would wait a minute for a lock.
    const other = await lockedByAnotherThread(10_000);
    const probe = new BetterSqlite3(other.file, { timeout: 60_000 });
    try {
      // Had SQLite waited for the lock, the conversion would have outlasted the other thread's own commit and succeeded.
      expect(() => probe.pragma('journal_mode = WAL')).toThrow(/locked/);
    } finally {
      probe.close();
    }
    // It failed while the lock was still held: the transaction ended at the test's request, after the failure.
    expect(await other.committed()).toBe('the request');
  });

  it('waits for the lock to go, then opens in WAL mode and migrates', async () => {
    const { dataDir, holder } = lockedNewFile();
    // The open's own statements, seen through better-sqlite3's prototype.
    const pragma = vi.spyOn(BetterSqlite3.prototype, 'pragma');
    const refusedConversions = () =>
      pragma.mock.calls.filter(([source], n) => {
        const result = pragma.mock.results[n]!;
        return source === 'journal_mode = WAL' && (result.type === 'throw' || String(result.value).toLowerCase() !== 'wal');
      }).length;
    let settled = false;
    const opening = openDatabase({ dataDir, lockWaitMs: 10_000 }).finally(() => (settled = true));
    // Refused, and tried again: the open is waiting for the lock, not failing or going on without WAL.
    await pollUntil(() => refusedConversions() >= 2, 'the open to try the conversion twice');
    expect(settled).toBe(false);
    holder.exec('commit');
    const database = await opening;
    try {
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
