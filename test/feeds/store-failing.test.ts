/** The feed poller with its store failing: SQLite closed or erroring mid-poll, PostgreSQL killed and restarted under it. */
import { rmSync } from 'node:fs';
import Database from '../../src/store/sqlite-driver.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS } from '../../src/feeds/delivery.js';
import { migrateDatabase, sqliteDatabase } from '../../src/store/database.js';
import { stateOf, type State } from '../../src/store/state.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { openAt, openTestState } from '../helpers/state.js';
import { pollUntil } from '../helpers/until.js';
import { addPost, clock, FakeChannels, pollerOn, subscribeOn, withReplica } from './poller-world.js';

withReplica();

/**
 * A state on in-memory SQLite whose every statement fails while `store.down` is set (an I/O error, a full
 * disk); `store.refused` counts the statements it failed.
 */
async function failingState(): Promise<{ state: State; store: { down: boolean; refused: number } }> {
  const store = { down: false, refused: 0 };
  const database = sqliteDatabase(new Database(':memory:'), ':memory:');
  await migrateDatabase(database);
  const db = database.db.withPlugin({
    transformQuery: (args) => {
      if (store.down) {
        store.refused++;
        throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return { state: stateOf({ ...database, db }), store };
}

describe('with the store failing', () => {
  let channels: FakeChannels;
  beforeEach(() => {
    clock.offset = 0;
    channels = new FakeChannels();
  });

  it('SQLite: a poll with the database closed logs and does not throw; reopened, the next poll catches up and delivers', async () => {
    const first = await openTestState('sqlite');
    const { where } = first;
    try {
      await pollerOn(first, channels).tick();
      await subscribeOn(first, 'g', 'patchNotes', 'c-sqlite');
      const p = pollerOn(first, channels);
      await first.database.close(); // the store goes away under the poller
      const id = addPost('Found after the outage');
      await expect(p.tick()).resolves.toBeUndefined();
      expect(p.lines.filter((l) => l.includes('could not poll a feed'))).toHaveLength(4);
      expect(p.lines.some((l) => l.includes('could not prune old feed records'))).toBe(true);
      expect(channels.sends).toBe(0);
      // The store is back (the process opens it again).
      const again = await openAt(where);
      try {
        await pollerOn(again, channels).tick();
        expect(channels.titles('c-sqlite')).toEqual(['Found after the outage']);
        expect((await again.settings.get('g')).feeds.patchNotes!.lastDelivered?.postId).toBe(id);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(where.dataDir, { recursive: true, force: true });
    }
  });

  it('SQLite: a store that fails mid-poll and then answers again, under the same poller: the next poll delivers each post once', async () => {
    const { state, store } = await failingState();
    try {
      const p = pollerOn(state, channels);
      await p.tick();
      await subscribeOn(state, 'g', 'patchNotes', 'c-flaky-store');
      await subscribeOn(state, 'h', 'patchNotes', 'c-flaky-store-2');
      // Down while the fan-out is on the wire: the first send succeeds, its mark and everything after fail.
      channels.during.set('c-flaky-store', async () => {
        store.down = true;
      });
      const id = addPost('Store fails mid-fan-out');
      await expect(p.tick()).resolves.toBeUndefined();
      expect(p.lines.some((l) => l.includes('could not poll a feed'))).toBe(true);
      store.down = false;
      await p.tick();
      // The deliveries cut short by the outage are claimed: they go out again once their lease has passed.
      clock.offset += CLAIM_LEASE_MS;
      await p.tick();
      expect(channels.titles('c-flaky-store')).toEqual(['Store fails mid-fan-out']); // the retry hit the nonce
      expect(channels.titles('c-flaky-store-2')).toEqual(['Store fails mid-fan-out']);
      expect(await state.feedState.pending('patchNotes')).toEqual([]);
      expect((await state.settings.get('g')).feeds.patchNotes!.lastDelivered?.postId).toBe(id);
      expect(
        await sql<{ n: number }>`select count(*) as n from deliveries where state = 'done'`.execute(state.database.db).then((q) => Number(q.rows[0]!.n)),
      ).toBe(2);
    } finally {
      await state.close();
    }
  });

  it('a store failing in the middle of a fan-out: the poll returns only once every send of it has finished', async () => {
    const { state, store } = await failingState();
    try {
      const p = pollerOn(state, channels);
      await p.tick();
      await subscribeOn(state, 'fast', 'patchNotes', 'c-fast');
      await subscribeOn(state, 'slow', 'patchNotes', 'c-slow');
      // Both are claimed before either answers: the fast send answers once the slow one is on the wire, and
      // the store goes away then; the fast send's mark fails while the slow one is still on the wire.
      channels.during.set('c-fast', async () => {
        await pollUntil(() => channels.attempts.has('c-slow'), 'the slow send on the wire');
        store.down = true;
      });
      // The slow send answers only when the test lets it (a slow Discord), after the store failed the fast
      // one's mark and that failure has run its course: a poll that did not wait for the slow send would be over.
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      channels.during.set('c-slow', () => answered);
      addPost();
      let over = false;
      const tick = p.tick().finally(() => (over = true));
      await pollUntil(() => store.refused > 0, "the store to refuse the fast send's mark");
      // One turn of the event loop: every promise the refused mark settles has settled (the failing store throws at once).
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(over).toBe(false);
      expect(channels.onWire).toBe(1);
      answer();
      await tick;
      expect(p.lines.some((l) => l.includes('could not poll a feed'))).toBe(true);
      expect(channels.onWire).toBe(0);
    } finally {
      await state.close();
    }
  });

  describe('PostgreSQL killed and restarted under the poller', () => {
    let server: PostgresServer;
    beforeAll(async () => {
      server = await startPostgres();
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('a poll with the server killed logs and does not throw; after the restart the next poll of the same poller catches up and delivers', async () => {
      const url = await server.createDatabase();
      const state = await openAt({ engine: 'postgres', dataDir: '', databaseUrl: url });
      try {
        const p = pollerOn(state, channels);
        await p.tick();
        await subscribeOn(state, 'g', 'patchNotes', 'c-pg');
        await server.kill();
        const id = addPost('Found while the database is down');
        const before = p.lines.length;
        await expect(p.tick()).resolves.toBeUndefined();
        expect(p.lines.filter((l) => l.includes('could not poll a feed'))).toHaveLength(4);
        // Connections refused at once, no wait for a timeout: every failure of the poll is the refusal itself,
        // none the pool's connection timeout or a query timeout.
        const failures = p.lines.slice(before).filter((l) => /"level":[45]0/.test(l));
        expect(failures).toHaveLength(5); // the four feeds and the hero alerts
        for (const line of failures) expect(line).toContain('"code":"ECONNREFUSED"');
        expect(channels.sends).toBe(0);
        await server.restart();
        await p.tick();
        expect(channels.titles('c-pg')).toEqual(['Found while the database is down']);
        expect((await state.settings.get('g')).feeds.patchNotes!.lastDelivered?.postId).toBe(id);
        await p.tick();
        expect(channels.count('c-pg')).toBe(1);
      } finally {
        await state.close();
      }
    }, 60_000);
  });
});
