/**
 * The one-off import of the state kept by earlier versions in keyv (src/store/import-keyv.ts), on both
 * engines: from the former SQLite file `DATA_DIR/state.sqlite` (built here by hand in the exact format
 * @keyv/sqlite wrote: table `state`, keys `rivals:state:<key>`, values `{"value":…,"expires":…}`), and
 * from the former Redis namespace, written through keyv itself.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import KeyvRedis from '@keyv/redis';
import BetterSqlite3 from 'better-sqlite3';
import Keyv from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryLedger, type FeedTransport } from '../../src/feeds/delivery.js';
import type { Db } from '../../src/store/database.js';
import { importKeyvState, LEGACY_FILE, readLegacyRedis } from '../../src/store/import-keyv.js';
import { openState, type State } from '../../src/store/state.js';
import { capturingLogger } from '../helpers/replica.js';
import { startRedis } from '../helpers/redis.js';
import { ENGINES, newStateLocation, type Engine, type TestStateLocation } from '../helpers/state.js';

const DAY = 24 * 60 * 60_000;
const post = (id: string) => ({ id, title: `Post ${id}`, date: null, overview: null, image: null });
const patchNotes = { channelId: 'c1', roleId: null, since: 5, publish: false, backfill: 0, broken: null, lastDelivered: null, lastEdit: null };

/** The former state, as `[key without namespace, value, expires (ms) or undefined]`. */
function legacyRecords(now: number): [string, unknown, number | undefined][] {
  return [
    ['guild:1', { v: 1, feeds: { patchNotes }, leaderboardPlatform: 'ps', ephemeralByDefault: true }, undefined],
    [
      'guild:2',
      {
        v: 1,
        feeds: {
          balances: {
            channelId: 'c2',
            roleId: 'r2',
            since: 6,
            publish: true,
            backfill: 3,
            broken: { code: 50013, reason: 'Missing Permissions', at: 7 },
            lastDelivered: { postId: 'p1', at: 8 },
          },
          devDiaries: { channelId: 'c3', roleId: null, since: 9 }, // written before publish/backfill/broken existed: defaults
        },
      },
      undefined,
    ],
    ['guild:3', { v: 99, nonsense: true }, undefined], // a record no version understood: skipped
    [
      'links:u1',
      {
        v: 1,
        accounts: [
          { uid: '1', name: 'A', linkedAt: 1 },
          { uid: '2', name: 'B', linkedAt: 2 },
        ],
        defaultUid: '2',
      },
      undefined,
    ],
    ['links:u2', { v: 1, accounts: [{ uid: '1', name: 'A', linkedAt: 1 }], defaultUid: '1' }, undefined],
    ['delivery:patchNotes:a:c1', { v: 1, state: 'done', attempts: 1, at: 5, messageId: 'm' }, now + DAY],
    ['delivery:patchNotes:b:c1', { v: 1, state: 'claimed', attempts: 2, at: 6, messageId: null }, now + DAY],
    ['delivery:balances:old:c2', { v: 1, state: 'done', attempts: 1, at: 1, messageId: 'm0' }, now - DAY], // expired: skipped
    ['feed:patchNotes', { v: 1, seen: ['a', 'b'], pending: [{ post: post('a'), foundAt: 3 }] }, undefined],
    ['recent:u1', { v: 1, entries: [{ uid: '1', name: 'A' }] }, now + DAY], // recent lookups now live in the cache: not imported
  ];
}

/** What {@link legacyRecords} becomes. */
async function expectImported(state: State): Promise<void> {
  expect(await state.settings.get('1')).toEqual({ v: 1, feeds: { patchNotes }, leaderboardPlatform: 'ps', ephemeralByDefault: true });
  expect(await state.settings.get('2')).toEqual({
    v: 1,
    leaderboardPlatform: 'pc',
    ephemeralByDefault: false,
    feeds: {
      balances: {
        channelId: 'c2',
        roleId: 'r2',
        since: 6,
        publish: true,
        backfill: 3,
        broken: { code: 50013, reason: 'Missing Permissions', at: 7 },
        lastDelivered: { postId: 'p1', at: 8 },
        lastEdit: null,
      },
      devDiaries: { channelId: 'c3', roleId: null, since: 9, publish: false, backfill: 0, broken: null, lastDelivered: null, lastEdit: null },
    },
  });
  expect(await state.database.db.selectFrom('guild_settings').select('guild_id').where('guild_id', '=', '3').execute()).toEqual([]);
  expect((await state.settings.subscriptions('patchNotes')).map((s) => s.guildId)).toEqual(['1']);
  expect(await state.settings.subscriptions('balances')).toEqual([]); // broken
  expect(await state.links.get('u1')).toEqual({
    v: 1,
    accounts: [
      { uid: '1', name: 'A', linkedAt: 1 },
      { uid: '2', name: 'B', linkedAt: 2 },
    ],
    defaultUid: '2',
  });
  expect(await state.links.defaultUid('u2')).toBe('1');
  const ledger = new DeliveryLedger(state.database.db, {} as FeedTransport, capturingLogger().logger);
  expect(await ledger.get({ feed: 'patchNotes', postId: 'a', channelId: 'c1' })).toEqual({ state: 'done', attempts: 1, at: 5, messageId: 'm' });
  expect(await ledger.get({ feed: 'patchNotes', postId: 'b', channelId: 'c1' })).toEqual({ state: 'claimed', attempts: 2, at: 6, messageId: null });
  expect(await ledger.get({ feed: 'balances', postId: 'old', channelId: 'c2' })).toBeUndefined();
  expect(await state.feedState.seen('patchNotes')).toEqual(['a', 'b']);
  expect(await state.feedState.seen('balances')).toBeUndefined();
  expect(await state.feedState.pending('patchNotes')).toEqual([{ post: post('a'), foundAt: 3 }]);
  expect(await importedCounts(state.database.db)).toMatchObject({ guilds: 2, links: 2, deliveries: 2, feeds: 1 });
}

async function importedCounts(db: Db): Promise<unknown> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', 'keyv_import').executeTakeFirst();
  return row && JSON.parse(row.value);
}

/** Writes the former SQLite file as @keyv/sqlite did. */
function writeLegacySqlite(file: string, records: [string, unknown, number | undefined][], extraRows: [string, string][] = []): void {
  const sqlite = new BetterSqlite3(file);
  try {
    sqlite.exec('CREATE TABLE IF NOT EXISTS state(key VARCHAR(255) PRIMARY KEY, value TEXT)');
    const insert = sqlite.prepare('INSERT OR REPLACE INTO state(key, value) VALUES (?, ?)');
    for (const [key, value, expires] of records) insert.run(`rivals:state:${key}`, JSON.stringify(expires === undefined ? { value } : { value, expires }));
    for (const [key, value] of extraRows) insert.run(key, value);
  } finally {
    sqlite.close();
  }
}

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function location(engine: Engine): Promise<TestStateLocation> {
  const where = await newStateLocation(engine);
  cleanups.push(where.cleanup);
  return where;
}

/** Opens the state as the bot does at start (the import on), with a logger whose lines the test reads. */
async function start(where: TestStateLocation, legacyRedisUrl?: string): Promise<{ state: State; lines: string[] }> {
  const { logger, lines } = capturingLogger();
  const state = await openState({ dataDir: where.dataDir, databaseUrl: where.databaseUrl, logger, legacyRedisUrl });
  cleanups.push(() => state.close());
  return { state, lines };
}

const importLines = (lines: string[]) => lines.map((l) => JSON.parse(l) as { msg: string }).filter((l) => /imported the state/.test(l.msg));

const hasRedis = !spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error;

describe.each(ENGINES)('on %s', (engine) => {
  it('imports the former SQLite file under DATA_DIR at the first start, once', async () => {
    const where = await location(engine);
    const file = join(where.dataDir, LEGACY_FILE);
    writeLegacySqlite(file, legacyRecords(Date.now()), [
      ['rivals:state:guild:4', '{not json'], // unreadable: skipped, as the former store did
      ['rivals:cache:guild:5', JSON.stringify({ value: { v: 1, feeds: {}, leaderboardPlatform: 'xbox', ephemeralByDefault: false } })], // another namespace
    ]);

    const first = await start(where);
    await expectImported(first.state);
    expect(importLines(first.lines)).toEqual([expect.objectContaining({ guilds: 2, links: 2, deliveries: 2, feeds: 1 })]);
    for (const id of ['4', '5'])
      expect(await first.state.database.db.selectFrom('guild_settings').select('guild_id').where('guild_id', '=', id).execute()).toEqual([]);
    // The member changes a setting after the import; the old file is left in place.
    await first.state.settings.update('1', (s) => void (s.leaderboardPlatform = 'xbox'));
    await first.state.close();

    // The old file gains a record (an old version ran once more): a later start does not import again.
    writeLegacySqlite(file, [['guild:6', { v: 1, feeds: {}, leaderboardPlatform: 'ps', ephemeralByDefault: true }, undefined]]);
    const second = await start(where);
    expect(importLines(second.lines)).toEqual([]);
    expect((await second.state.settings.get('1')).leaderboardPlatform).toBe('xbox');
    expect(await second.state.database.db.selectFrom('guild_settings').select('guild_id').where('guild_id', '=', '6').execute()).toEqual([]);
  });

  it('starts empty when there is no former state, and does not look for it again', async () => {
    const where = await location(engine);
    const first = await start(where);
    expect(importLines(first.lines)).toEqual([]);
    expect(await importedCounts(first.state.database.db)).toMatchObject({ guilds: 0, links: 0, deliveries: 0, feeds: 0 });
    await first.state.close();
    writeLegacySqlite(join(where.dataDir, LEGACY_FILE), legacyRecords(Date.now()));
    const second = await start(where);
    expect(importLines(second.lines)).toEqual([]);
    expect(await second.state.settings.subscriptions('patchNotes')).toEqual([]);
  });

  it('a former file that cannot be read does not stop the start; the import is tried again at the next', async () => {
    const where = await location(engine);
    const file = join(where.dataDir, LEGACY_FILE);
    const sqlite = new BetterSqlite3(file);
    sqlite.exec('CREATE TABLE other(x)'); // no `state` table
    sqlite.close();
    const first = await start(where);
    expect(first.lines.some((l) => /could not import the former key-value state/.test(l))).toBe(true);
    expect(await importedCounts(first.state.database.db)).toBeUndefined();
    await first.state.close();
    writeLegacySqlite(file, legacyRecords(Date.now()));
    const second = await start(where);
    await expectImported(second.state);
  });

  describe.runIf(hasRedis)('from Redis', () => {
    it('imports the former Redis namespace once', async () => {
      const redis = await startRedis();
      cleanups.push(() => redis.stop());
      // Written as the former state store wrote it.
      const former = new Keyv({ store: new KeyvRedis(redis.url), namespace: 'rivals:state', useKeyPrefix: false });
      const now = Date.now();
      for (const [key, value, expires] of legacyRecords(now)) {
        if (expires !== undefined && expires < now) continue; // Redis had already dropped it
        await former.set(key, value, expires === undefined ? undefined : expires - now);
      }
      await former.disconnect();

      const read = await readLegacyRedis(redis.url);
      expect(read.map(([key]) => key).sort()).toEqual(
        legacyRecords(now)
          .filter(([, , expires]) => expires === undefined || expires > now)
          .map(([key]) => key)
          .sort(),
      );
      expect(Object.fromEntries(read)['guild:1']).toEqual({ v: 1, feeds: { patchNotes }, leaderboardPlatform: 'ps', ephemeralByDefault: true });

      const where = await location(engine);
      const first = await start(where, redis.url);
      await expectImported(first.state);
      expect(importLines(first.lines)).toHaveLength(1);
      await first.state.close();
      const second = await start(where, redis.url);
      expect(importLines(second.lines)).toEqual([]);
      // Nothing imported twice: importing again by hand reports it done.
      expect(await importKeyvState(second.state.database.db, { redisUrl: redis.url }, capturingLogger().logger)).toBeNull();
    });
  });
});
