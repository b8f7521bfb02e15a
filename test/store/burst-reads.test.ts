/**
 * The store under a burst of interactions: SQLite's one connection handed out in turn
 * (src/store/database.ts `handConnectionInTurn`), and members' languages read in batches
 * (src/store/account-links.ts `locale`). Timing is the benchmark's (`npm run bench:store`); these
 * tests check what makes it linear: one waiter at Kysely's own mutex, and a few queries for many
 * members.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseConnection, Driver, KyselyPlugin, QueryResult, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountLinksRepository, LOCALE_READ_BATCH } from '../../src/store/account-links.js';
import { handConnectionInTurn, openDatabase, type Database } from '../../src/store/database.js';

/** A driver whose `acquireConnection` counts the callers waiting inside it at once, as Kysely's mutex would see them. */
function countingDriver() {
  const connection = { executeQuery: async () => ({ rows: [] }), streamQuery: async function* () {} } as unknown as DatabaseConnection;
  let held = false;
  let waiting = 0;
  const seen = { maxWaiting: 0, acquired: 0, released: 0, failAcquire: 0, failRelease: 0 };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => {
      waiting++;
      seen.maxWaiting = Math.max(seen.maxWaiting, waiting);
      while (held) await new Promise((r) => setImmediate(r));
      waiting--;
      if (seen.failAcquire > 0) {
        seen.failAcquire--;
        throw new Error('acquire failed');
      }
      held = true;
      seen.acquired++;
      return connection;
    },
    beginTransaction: async () => undefined,
    commitTransaction: async () => undefined,
    rollbackTransaction: async () => undefined,
    releaseConnection: async () => {
      held = false;
      seen.released++;
      if (seen.failRelease > 0) {
        seen.failRelease--;
        throw new Error('release failed');
      }
    },
    destroy: async () => undefined,
  };
  return { driver, connection, seen };
}

describe('handConnectionInTurn', () => {
  it('admits one caller at a time to the driver, first come first served, each holding it until released', async () => {
    const { driver, seen } = countingDriver();
    handConnectionInTurn(driver);
    const order: number[] = [];
    const holders: number[] = [];
    let holding = 0;
    await Promise.all(
      Array.from({ length: 2_000 }, async (_, i) => {
        const connection = await driver.acquireConnection();
        holding++;
        holders.push(holding);
        order.push(i);
        // A transaction's few round trips while it holds the connection.
        await new Promise((r) => setImmediate(r));
        holding--;
        await driver.releaseConnection(connection);
      }),
    );
    expect(order).toEqual(Array.from({ length: 2_000 }, (_, i) => i));
    expect(Math.max(...holders)).toBe(1);
    expect(seen.maxWaiting).toBe(1);
    expect(seen).toMatchObject({ acquired: 2_000, released: 2_000 });
  });

  it('without it, every caller waits inside the driver at once (what made a burst quadratic)', async () => {
    const { driver, seen } = countingDriver();
    await Promise.all(
      Array.from({ length: 200 }, async () => {
        const connection = await driver.acquireConnection();
        await driver.releaseConnection(connection);
      }),
    );
    // All but the first, which found it free.
    expect(seen.maxWaiting).toBe(199);
  });

  it('a failed acquire fails only its caller, and a failed release still ends the turn', async () => {
    const { driver, seen } = countingDriver();
    handConnectionInTurn(driver);
    seen.failAcquire = 1;
    const first = driver.acquireConnection();
    const second = driver.acquireConnection();
    await expect(first).rejects.toThrow('acquire failed');
    const connection = await second;
    seen.failRelease = 1;
    await expect(driver.releaseConnection(connection)).rejects.toThrow('release failed');
    // The next caller is not stuck behind the failed release.
    const third = await driver.acquireConnection();
    await driver.releaseConnection(third);
    expect(seen).toMatchObject({ acquired: 2, released: 2 });
  });
});

describe('members’ languages under a burst (SQLite)', () => {
  let dir: string;
  let database: Database;
  /** Queries that read `member_settings`, counted by a plugin. */
  let reads = 0;
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node.from).includes('member_settings')) reads++;
      return args.node;
    },
    transformResult: async (args): Promise<QueryResult<UnknownRow>> => args.result,
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rivals-burst-reads-'));
    database = await openDatabase({ dataDir: dir });
    const setter = new AccountLinksRepository(database.db);
    for (let i = 0; i < 1_200; i += 3) await setter.setLocale(`m${i}`, i % 2 === 0 ? 'fr' : 'ja', 1);
    await database.db.insertInto('member_settings').values({ user_id: 'm-old', locale: 'xx-OLD', updated_at: 1 }).execute();
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`reads 1,200 members at once in batches of ${LOCALE_READ_BATCH}, each getting their own language`, async () => {
    const links = new AccountLinksRepository(database.db.withPlugin(counter));
    reads = 0;
    const ids = [...Array.from({ length: 1_200 }, (_, i) => `m${i}`), 'm-old', 'nobody'];
    const got = await Promise.all(ids.map((id) => links.locale(id)));
    expect(reads).toBe(Math.ceil(ids.length / LOCALE_READ_BATCH));
    ids.forEach((id, k) => {
      const i = Number(id.slice(1));
      const want = id === 'm-old' || id === 'nobody' || i % 3 !== 0 ? null : i % 2 === 0 ? 'fr' : 'ja';
      expect(got[k], id).toBe(want);
    });
    // All cached now: no more queries.
    reads = 0;
    expect(await links.locale('m3')).toBe('ja');
    expect(links.peekLocale('nobody')).toBeNull();
    expect(reads).toBe(0);
  });

  it('a member read twice at once is read once, and a saved choice replaces the cached one', async () => {
    const links = new AccountLinksRepository(database.db.withPlugin(counter));
    reads = 0;
    const [a, b] = await Promise.all([links.locale('m6'), links.locale('m6')]);
    expect([a, b]).toEqual(['fr', 'fr']);
    expect(reads).toBe(1);
    await links.setLocale('m6', 'de', 2);
    expect(links.peekLocale('m6')).toBe('de');
    expect(await links.locale('m6')).toBe('de');
    expect(reads).toBe(1);
  });

  it('a failed batch fails its members’ reads, caches nothing, and the next read tries again', async () => {
    const broken = await openDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'rivals-burst-broken-')) });
    const links = new AccountLinksRepository(broken.db);
    await broken.db.schema.dropTable('member_settings').execute();
    const reading = Promise.allSettled([links.locale('x1'), links.locale('x2')]);
    const settled = await reading;
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(links.peekLocale('x1')).toBeUndefined();
    await broken.db.schema
      .createTable('member_settings')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('locale', 'text')
      .addColumn('updated_at', 'integer')
      .execute();
    await broken.db.insertInto('member_settings').values({ user_id: 'x1', locale: 'pt-BR', updated_at: 1 }).execute();
    expect(await links.locale('x1')).toBe('pt-BR');
    await broken.close();
  });
});
