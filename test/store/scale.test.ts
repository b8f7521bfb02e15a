/**
 * The store at a realistic scale (STYLE.md principle 9), on both engines: 100,000 records (40,000
 * account links, 30,000 configured guilds with their feed subscriptions, 30,000 delivery records).
 * A poll's read of one feed's subscriptions returns exactly that feed's working channels and goes
 * through the `feed_subscriptions_by_feed` index, never a scan of the table. No assertion on elapsed
 * time (it depends on the machine); the times are logged.
 */
import { CompiledQuery, createQueryId, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import type { AccountLinksTable, DeliveriesTable, FeedSubscriptionsTable, GuildSettingsTable } from '../../src/store/schema.js';
import { FEED_TYPES, GuildSettingsRepository, type FeedType } from '../../src/store/guild-settings.js';
import type { Db } from '../../src/store/database.js';
import { ENGINES, openTestState } from '../helpers/state.js';

const LINKS = 40_000;
const GUILDS = 30_000;
const DELIVERIES = 30_000;
const BATCH = 1_000;

/** Which feeds guild `i` subscribes to: every 2nd guild patch notes, every 3rd balances, every 5th dev diaries, every 7th game versions. */
const EVERY: Record<FeedType, number> = { patchNotes: 2, balances: 3, devDiaries: 5, gameVersions: 7 };
/** Every 11th subscription of each feed is marked broken. */
const isBroken = (i: number) => i % 11 === 0;
const guildId = (i: number) => String(100_000_000_000_000_000n + BigInt(i));
const channelOf = (i: number, feed: FeedType) => `${feed}-${i}`;

async function insertBatched<T extends 'account_links' | 'guild_settings' | 'feed_subscriptions' | 'deliveries'>(
  db: Db,
  table: T,
  rows: (T extends 'account_links'
    ? AccountLinksTable
    : T extends 'guild_settings'
      ? GuildSettingsTable
      : T extends 'feed_subscriptions'
        ? Insertable<FeedSubscriptionsTable>
        : Insertable<DeliveriesTable>)[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += BATCH)
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + BATCH) as never)
        .execute();
  });
}

describe.each(ENGINES)('on %s, with 100,000 stored records', (engine) => {
  let state: Awaited<ReturnType<typeof openTestState>>;
  beforeAll(async () => {
    state = await openTestState(engine);
    const db = state.database.db;
    const started = performance.now();
    const links: AccountLinksTable[] = [];
    for (let i = 0; i < LINKS; i++)
      links.push({ user_id: `u${Math.floor(i / 5)}`, uid: String(1_000_000_000 + i), name: `player${i}`, linked_at: i, is_default: i % 5 === 0 ? 1 : 0 });
    await insertBatched(db, 'account_links', links);
    const guilds: GuildSettingsTable[] = [];
    const subs: Insertable<FeedSubscriptionsTable>[] = [];
    for (let i = 0; i < GUILDS; i++) {
      guilds.push({
        guild_id: guildId(i),
        leaderboard_platform: (['pc', 'ps', 'xbox'] as const)[i % 3]!,
        ephemeral_by_default: i % 2,
        version: 1,
        updated_at: i,
      });
      for (const feed of FEED_TYPES) {
        if (i % EVERY[feed] !== 0) continue;
        subs.push({
          guild_id: guildId(i),
          feed,
          channel_id: channelOf(i, feed),
          role_id: i % 4 === 0 ? `role-${i}` : null,
          since: i,
          publish: 0,
          backfill: 0,
          broken_code: isBroken(i) ? 50013 : null,
          broken_reason: isBroken(i) ? 'Missing Permissions' : null,
          broken_at: isBroken(i) ? i : null,
          last_post_id: null,
          last_delivered_at: null,
          last_edit_post_id: null,
          last_edit_at: null,
          last_edit_error: null,
          heroes: null,
        });
      }
    }
    await insertBatched(db, 'guild_settings', guilds);
    await insertBatched(db, 'feed_subscriptions', subs);
    const deliveries: Insertable<DeliveriesTable>[] = [];
    for (let i = 0; i < DELIVERIES; i++) {
      deliveries.push({
        feed: FEED_TYPES[i % 4]!,
        post_id: `post${i % 300}`,
        channel_id: `ch${i}`,
        state: i % 10 === 0 ? 'failed' : 'done',
        attempts: 1,
        at: i,
        message_id: i % 10 === 0 ? null : `m${i}`,
      });
    }
    await insertBatched(db, 'deliveries', deliveries);
    // Statistics for the planner, as autovacuum (PostgreSQL) or `PRAGMA optimize` (SQLite) would gather them.
    await sql`analyze`.execute(db);
    console.log(`${engine}: stored ${LINKS + GUILDS + DELIVERIES} records (+${subs.length} subscriptions) in ${Math.round(performance.now() - started)} ms`);
  }, 300_000);
  afterAll(async () => {
    await state?.close();
  });

  it('holds what was stored', async () => {
    const db = state.database.db;
    const count = async (table: 'account_links' | 'guild_settings' | 'deliveries') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect([await count('account_links'), await count('guild_settings'), await count('deliveries')]).toEqual([LINKS, GUILDS, DELIVERIES]);
  });

  it.each(FEED_TYPES)("a poll's read of %s returns exactly that feed's working channels", async (feed) => {
    const started = performance.now();
    const subs = await state.settings.subscriptions(feed);
    console.log(`${engine}: subscriptions(${feed}) read ${subs.length} rows in ${Math.round(performance.now() - started)} ms`);
    const expected: string[] = [];
    for (let i = 0; i < GUILDS; i += EVERY[feed]) if (!isBroken(i)) expected.push(`${guildId(i)} ${channelOf(i, feed)}`);
    expect(subs.map((s) => `${s.guildId} ${s.sub.channelId}`).sort()).toEqual(expected.sort());
    expect(subs.every((s) => s.sub.broken === null)).toBe(true);
  });

  it.each(FEED_TYPES)('the read of %s uses the feed_subscriptions_by_feed index, not a scan of the table', async (feed) => {
    // The query exactly as the repository sends it.
    let captured: RootOperationNode | undefined;
    const capture: KyselyPlugin = {
      transformQuery: ({ node }) => {
        captured ??= node;
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    await new GuildSettingsRepository(state.database.db.withPlugin(capture)).subscriptions(feed);
    const db = state.database.db;
    const query = db.getExecutor().compileQuery(captured!, createQueryId());
    const explain = engine === 'sqlite' ? 'explain query plan ' : 'explain ';
    const { rows } = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(explain + query.sql, [...query.parameters]));
    const plan = rows.map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n');
    console.log(`${engine} plan of ${query.sql} (${feed}):\n${plan}`);
    if (engine === 'sqlite') {
      expect(plan).toMatch(/SEARCH feed_subscriptions USING (COVERING )?INDEX feed_subscriptions_by_feed \(feed=\? AND broken_at=\?\)/);
      expect(plan).not.toMatch(/SCAN feed_subscriptions/);
    } else {
      expect(plan).toMatch(/(Index Scan|Index Only Scan|Bitmap Index Scan) (using|on) feed_subscriptions_by_feed/);
      expect(plan).not.toMatch(/Seq Scan/);
    }
  });

  it("the read of the guilds' chosen languages uses the partial guild_settings_locale index, not a scan of every guild", async () => {
    // The second query of a poll's read (the first is the subscriptions', above).
    const captured: RootOperationNode[] = [];
    const capture: KyselyPlugin = {
      transformQuery: ({ node }) => {
        captured.push(node);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    await new GuildSettingsRepository(state.database.db.withPlugin(capture)).subscriptions('patchNotes');
    const db = state.database.db;
    const query = db.getExecutor().compileQuery(captured[1]!, createQueryId());
    expect(query.sql).toMatch(/from "guild_settings"/);
    const explain = engine === 'sqlite' ? 'explain query plan ' : 'explain ';
    const { rows } = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(explain + query.sql, [...query.parameters]));
    const plan = rows.map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n');
    console.log(`${engine} plan of ${query.sql}:\n${plan}`);
    if (engine === 'sqlite') expect(plan).toMatch(/(SCAN|SEARCH) guild_settings USING (COVERING )?INDEX guild_settings_locale/);
    else expect(plan).toMatch(/(Index Scan|Index Only Scan|Bitmap Index Scan) (using|on) guild_settings_locale/);
  });
});
