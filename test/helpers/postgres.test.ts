/** The PostgreSQL test helpers: a real server, what it acknowledged survives a kill, and the shared server's fresh databases. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, testDatabaseUrl, type PostgresServer } from './postgres.js';

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

describe('startPostgres', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps committed rows across a kill and a restart on the same port', async () => {
    const url = await server.createDatabase('durable');
    expect(url).toBe(server.url.replace(/\/postgres$/, '/durable'));
    await withClient(url, async (c) => {
      await c.query('CREATE TABLE heroes (id int PRIMARY KEY, name text NOT NULL)');
      await c.query(`INSERT INTO heroes VALUES (1, 'Jeff the Land Shark'), (2, 'Cloak & Dagger')`);
    });

    // A connection open through the kill breaks, as it would in a crash.
    const survivor = new pg.Client({ connectionString: url });
    await survivor.connect();
    survivor.on('error', () => undefined); // "Connection terminated unexpectedly", once or twice depending on timing
    await server.kill();
    await expect(survivor.query('SELECT 1')).rejects.toThrow();
    await expect(withClient(url, (c) => c.query('SELECT 1'))).rejects.toThrow(/ECONNREFUSED/);

    await server.restart();
    const rows = await withClient(url, async (c) => (await c.query('SELECT id, name FROM heroes ORDER BY id')).rows);
    expect(rows).toEqual([
      { id: 1, name: 'Jeff the Land Shark' },
      { id: 2, name: 'Cloak & Dagger' },
    ]);
  });

  it('restarts cleanly while running, and stores UTF-8 with Unicode case mapping', async () => {
    await server.restart();
    const row = await withClient(
      server.url,
      async (c) => (await c.query(`SELECT upper('loki ünd hela') AS up, current_setting('server_encoding') AS enc`)).rows[0],
    );
    expect(row).toEqual({ up: 'LOKI ÜND HELA', enc: 'UTF8' });
  });
});

describe('testDatabaseUrl', () => {
  it('gives each caller its own empty database on the shared server', async () => {
    const [a, b] = await Promise.all([testDatabaseUrl(), testDatabaseUrl()]);
    expect(a).not.toBe(b);
    expect(new URL(a).host).toBe(new URL(b).host);
    await withClient(a, (c) => c.query('CREATE TABLE only_in_a (x int)'));
    const tables = (url: string) =>
      withClient(url, async (c) => (await c.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).rows.map((r) => r.tablename));
    expect(await tables(a)).toEqual(['only_in_a']);
    expect(await tables(b)).toEqual([]);
  });
});
