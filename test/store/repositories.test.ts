/**
 * The store's repositories over real databases, each test on both engines (embedded SQLite and
 * PostgreSQL): guild settings and their cache, feed subscriptions, account links, the delivery
 * ledger, the poller's feed state, retention and deadlines.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type KyselyPlugin,
  type PluginTransformResultArgs,
  type QueryResult,
  type UnknownRow,
} from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CLAIM_LEASE_MS,
  DeliveryLedger,
  deliveryNonce,
  isMessageOf,
  MAX_ATTEMPTS,
  retryDelayMs,
  TAKEOVER_LOOK_BACK_MS,
  type DeliveryKey,
  type FeedTransport,
  type SentMessage,
} from '../../src/feeds/delivery.js';
import { classifyError } from '../../src/core/discord-errors.js';
import type { MessagePayload } from '../../src/render/view.js';
import { AccountLinksRepository, MAX_LINKED_ACCOUNTS, TooManyLinksError } from '../../src/store/account-links.js';
import { StoreUnavailableError, withDeadline, type Db } from '../../src/store/database.js';
import { SEEN_LIMIT } from '../../src/store/feed-state.js';
import { DEFAULT_SETTINGS, GuildSettingsRepository, type FeedSubscription } from '../../src/store/guild-settings.js';
import { pruneState } from '../../src/store/retention.js';
import type { Tables } from '../../src/store/schema.js';
import type { State } from '../../src/store/state.js';
import { ENGINES, openAt, openTestState, type Engine, type TestStateLocation } from '../helpers/state.js';

const logger = pino({ level: 'silent' });
/** Deadlines far past any machine's speed: these tests check outcomes, not timing. */
const PATIENT = { readDeadlineMs: 60_000, writeDeadlineMs: 60_000 };

function sub(channelId: string, extra: Partial<FeedSubscription> = {}): FeedSubscription {
  return { channelId, roleId: null, since: 5, publish: false, backfill: 0, broken: null, lastDelivered: null, lastEdit: null, ...extra };
}

/** A plugin that runs `hook` once, after the next query's result arrives (before its caller sees it). */
function afterNextQuery(): { plugin: KyselyPlugin; arm(hook: () => Promise<void>): void } {
  let pending: (() => Promise<void>) | undefined;
  return {
    plugin: {
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => {
        const hook = pending;
        pending = undefined;
        if (hook) await hook();
        return result;
      },
    },
    arm: (hook) => (pending = hook),
  };
}

/** A store that never answers (a server that stopped responding), in the engine's SQL dialect. */
function hangingDb(engine: Engine): Db {
  class HangingDriver extends DummyDriver {
    override acquireConnection(): Promise<DatabaseConnection> {
      return new Promise(() => undefined);
    }
  }
  const pg = engine === 'postgres';
  return new Kysely<Tables>({
    dialect: {
      createAdapter: () => (pg ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new HangingDriver(),
      createIntrospector: (db) => (pg ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (pg ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
  });
}

async function versionOf(db: Db, guildId: string): Promise<number | undefined> {
  const row = await db.selectFrom('guild_settings').select('version').where('guild_id', '=', guildId).executeTakeFirst();
  return row && Number(row.version);
}

const PAYLOAD: MessagePayload = { content: 'A new patch', embeds: [], components: [], flags: 0, allowed_mentions: { parse: [] } };

/** Discord's message endpoints as far as the ledger sees them: counts sends, fails or waits on demand. */
class FakeTransport implements FeedTransport {
  sends: { channelId: string; nonce: string }[] = [];
  crossposts: string[] = [];
  /** The error every send throws while set. */
  failWith: unknown;
  /** While set, every send waits for it. */
  gate: Promise<void> | undefined;
  /** Called as each send starts. */
  onSend: (() => void) | undefined;
  #id = 0;
  async edit() {
    throw new Error('the ledger never edits');
  }
  async startThread(): Promise<{ id: string }> {
    throw new Error('the ledger never starts threads');
  }
  async openDm(): Promise<{ id: string }> {
    throw new Error('the ledger never opens direct messages');
  }
  async send(channelId: string, body: MessagePayload & { nonce: string; enforce_nonce: true }) {
    this.sends.push({ channelId, nonce: body.nonce });
    this.onSend?.();
    if (this.gate) await this.gate;
    // Let other work interleave, as a real HTTP round trip would.
    await new Promise((resolve) => setImmediate(resolve));
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- throws whatever the test set, as a transport would
    if (this.failWith) throw this.failWith;
    return { id: `m${++this.#id}` };
  }
  async crosspost(channelId: string, messageId: string) {
    this.crossposts.push(`${channelId}/${messageId}`);
  }
  /** The bot's messages a read of a channel returns (whatever `afterMs`); `readFailWith` makes every read throw it. */
  inChannel: SentMessage[] = [];
  readFailWith: unknown;
  reads: { channelId: string; afterMs: number }[] = [];
  async ownMessagesAfter(channelId: string, afterMs: number) {
    this.reads.push({ channelId, afterMs });
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- throws whatever the test set, as a transport would
    if (this.readFailWith) throw this.readFailWith;
    return this.inChannel;
  }
}

describe.each(ENGINES)('on %s', (engine) => {
  let state: State & { where: TestStateLocation };
  /** A second connection (pool, or SQLite connection) to the same database: another process's view. */
  let other: State;
  /**
   * The state a concurrent writer in this process uses. One process has one SQLite connection: two
   * in one thread would wait for each other's write lock synchronously (better-sqlite3 blocks), so on
   * SQLite concurrency across connections is tested across processes (durability.test.ts).
   */
  let peer: State;
  beforeAll(async () => {
    state = await openTestState(engine, PATIENT);
    other = await openAt(state.where, PATIENT);
    peer = engine === 'sqlite' ? state : other;
  });
  afterAll(async () => {
    await other?.close();
    await state?.close();
  });

  describe('guild settings', () => {
    it('defaults for a guild that never ran /config', async () => {
      expect(await state.settings.get('g-default')).toEqual(DEFAULT_SETTINGS);
      expect(await versionOf(state.database.db, 'g-default')).toBeUndefined(); // a read writes nothing
    });

    it('round-trips every field, feeds included, and bumps the version on each change', async () => {
      const saved = await state.settings.update('g-round', (s) => {
        s.leaderboardPlatform = 'xbox';
        s.ephemeralByDefault = true;
        s.feeds.balances = sub('c1', { roleId: 'r1', publish: true, backfill: 3, since: 1_700_000_000_000 });
        s.feeds.devDiaries = sub('c2', { broken: { code: 50013, reason: 'Missing Permissions', at: 7 }, lastDelivered: { postId: 'p9', at: 8 } });
      });
      const expected = {
        v: 1,
        leaderboardPlatform: 'xbox',
        ephemeralByDefault: true,
        feeds: {
          balances: sub('c1', { roleId: 'r1', publish: true, backfill: 3, since: 1_700_000_000_000 }),
          devDiaries: sub('c2', { broken: { code: 50013, reason: 'Missing Permissions', at: 7 }, lastDelivered: { postId: 'p9', at: 8 } }),
        },
      };
      expect(saved).toEqual(expected);
      // Read back from the database, not from the writer's cache.
      const fresh = new GuildSettingsRepository(other.database.db);
      expect(await fresh.get('g-round')).toEqual(expected);
      expect(await versionOf(state.database.db, 'g-round')).toBe(1);

      await state.settings.update('g-round', (s) => {
        delete s.feeds.devDiaries;
        s.feeds.balances!.roleId = null;
      });
      fresh.invalidate('g-round');
      expect(await fresh.get('g-round')).toEqual({ ...expected, feeds: { balances: sub('c1', { publish: true, backfill: 3, since: 1_700_000_000_000 }) } });
      expect(await versionOf(state.database.db, 'g-round')).toBe(2);
    });

    it('refuses an invalid change and stores nothing', async () => {
      await expect(state.settings.update('g-invalid', (s) => ({ ...s, leaderboardPlatform: 'switch' as never }))).rejects.toThrow();
      await expect(state.settings.update('g-invalid', (s) => void (s.feeds.patchNotes = sub('c', { backfill: 11 })))).rejects.toThrow();
      expect(await state.settings.get('g-invalid')).toEqual(DEFAULT_SETTINGS);
      expect(await versionOf(state.database.db, 'g-invalid')).toBeUndefined();
    });

    it('resets a guild to defaults, subscriptions included', async () => {
      await state.settings.update('g-reset', (s) => {
        s.leaderboardPlatform = 'ps';
        s.feeds.patchNotes = sub('c-reset');
      });
      await state.settings.reset('g-reset');
      expect(await state.settings.get('g-reset')).toEqual(DEFAULT_SETTINGS);
      expect(await new GuildSettingsRepository(other.database.db).get('g-reset')).toEqual(DEFAULT_SETTINGS);
      expect((await state.settings.subscriptions('patchNotes')).map((s) => s.guildId)).not.toContain('g-reset');
      // Configured again after a reset, it starts over.
      await state.settings.update('g-reset', (s) => void (s.ephemeralByDefault = true));
      expect(await new GuildSettingsRepository(other.database.db).get('g-reset')).toEqual({ ...DEFAULT_SETTINGS, ephemeralByDefault: true });
    });

    it('caches reads: a change by another process is seen after invalidate(), or once the cache TTL has passed', async () => {
      const reader = new GuildSettingsRepository(state.database.db, { ...PATIENT, cacheTtlMs: 60 * 60_000 });
      const shortLived = new GuildSettingsRepository(state.database.db, { ...PATIENT, cacheTtlMs: 50 });
      const writer = new GuildSettingsRepository(other.database.db, PATIENT);
      await writer.update('g-cache', (s) => void (s.leaderboardPlatform = 'ps'));
      expect((await reader.get('g-cache')).leaderboardPlatform).toBe('ps');
      expect((await shortLived.get('g-cache')).leaderboardPlatform).toBe('ps');
      expect(reader.peek('g-cache')?.leaderboardPlatform).toBe('ps');

      await writer.update('g-cache', (s) => void (s.leaderboardPlatform = 'xbox'));
      // Within the TTL the reader answers from its cache, without the store.
      expect((await reader.get('g-cache')).leaderboardPlatform).toBe('ps');
      reader.invalidate('g-cache');
      expect(reader.peek('g-cache')).toBeUndefined();
      expect((await reader.get('g-cache')).leaderboardPlatform).toBe('xbox');
      // Past the TTL the change is seen without being told.
      await vi.waitFor(async () => expect((await shortLived.get('g-cache')).leaderboardPlatform).toBe('xbox'), { timeout: 10_000, interval: 20 });

      // A change made through the reader itself is seen at once, and told to onChange (for other processes).
      const told: string[] = [];
      const own = new GuildSettingsRepository(state.database.db, { ...PATIENT, cacheTtlMs: 60 * 60_000 });
      own.onChange = (g) => told.push(g);
      expect((await own.get('g-cache')).ephemeralByDefault).toBe(false);
      await own.update('g-cache', (s) => void (s.ephemeralByDefault = true));
      expect(await own.get('g-cache')).toMatchObject({ leaderboardPlatform: 'xbox', ephemeralByDefault: true });
      await own.reset('g-cache');
      expect(await own.get('g-cache')).toEqual(DEFAULT_SETTINGS);
      expect(told).toEqual(['g-cache', 'g-cache']);
    });

    it('a cached copy handed out cannot be changed by its caller', async () => {
      await state.settings.update('g-clone', (s) => void (s.feeds.gameVersions = sub('c-clone')));
      const first = await state.settings.get('g-clone');
      first.feeds.gameVersions!.channelId = 'tampered';
      first.leaderboardPlatform = 'ps';
      expect(await state.settings.get('g-clone')).toMatchObject({ leaderboardPlatform: 'pc', feeds: { gameVersions: { channelId: 'c-clone' } } });
    });

    it("subscriptions(feed) returns that feed's working channels only", async () => {
      await state.settings.update('s1', (s) => {
        s.feeds.gameVersions = sub('s1-gv', { roleId: 'role1', publish: true });
        s.feeds.patchNotes = sub('s1-pn');
      });
      await state.settings.update('s2', (s) => void (s.feeds.gameVersions = sub('s2-gv', { backfill: 2 })));
      await state.settings.update('s3', (s) => void (s.feeds.gameVersions = sub('s3-gv', { broken: { code: 10003, reason: 'Unknown Channel', at: 1 } })));
      await state.settings.update('s4', (s) => void (s.feeds.devDiaries = sub('s4-dd')));
      const subs = await new GuildSettingsRepository(other.database.db).subscriptions('gameVersions');
      const byGuild = Object.fromEntries(subs.filter((s) => /^s\d$/.test(s.guildId)).map((s) => [s.guildId, s.sub]));
      expect(byGuild).toEqual({ s1: sub('s1-gv', { roleId: 'role1', publish: true }), s2: sub('s2-gv', { backfill: 2 }) });
      expect(subs.every((s) => s.sub.broken === null)).toBe(true);
    });

    it('markDelivered, markBroken and clearBackfill touch only the subscription the poller read, and bump the version', async () => {
      await state.settings.update('g-mark', (s) => {
        s.feeds.patchNotes = sub('c-now', { backfill: 4, since: 50 });
        s.feeds.balances = sub('c-bal', { since: 60 });
      });
      const repo = state.settings;
      const v1 = await versionOf(state.database.db, 'g-mark');
      const now = { channelId: 'c-now', since: 50 };

      // The poller read an old subscription: another channel, or the same channel set again since.
      for (const stale of [
        { channelId: 'c-old', since: 50 },
        { channelId: 'c-now', since: 49 },
      ]) {
        await repo.markDelivered('g-mark', 'patchNotes', stale, 'p1', 100);
        await repo.markBroken('g-mark', 'patchNotes', stale, { code: 50001, reason: 'Missing Access', at: 100 });
        await repo.clearBackfill('g-mark', 'patchNotes', stale);
      }
      // The right channel, the wrong feed.
      await repo.markDelivered('g-mark', 'devDiaries', now, 'p1', 100);
      expect(await versionOf(state.database.db, 'g-mark')).toBe(v1);
      expect((await new GuildSettingsRepository(other.database.db).get('g-mark')).feeds).toEqual({
        patchNotes: sub('c-now', { backfill: 4, since: 50 }),
        balances: sub('c-bal', { since: 60 }),
      });
      // A guild with no subscription: nothing happens, nothing is created.
      await repo.markDelivered('g-none', 'patchNotes', now, 'p1', 100);
      expect(await versionOf(state.database.db, 'g-none')).toBeUndefined();

      await repo.markDelivered('g-mark', 'patchNotes', now, 'p2', 200);
      expect(await versionOf(state.database.db, 'g-mark')).toBe(v1! + 1);
      await repo.clearBackfill('g-mark', 'patchNotes', now);
      expect(await versionOf(state.database.db, 'g-mark')).toBe(v1! + 2);
      await repo.markBroken('g-mark', 'balances', { channelId: 'c-bal', since: 60 }, { code: 50013, reason: 'Missing Permissions', at: 300 });
      expect(await versionOf(state.database.db, 'g-mark')).toBe(v1! + 3);

      // The marks invalidate the cache of the repository that made them.
      expect((await repo.get('g-mark')).feeds).toEqual({
        patchNotes: sub('c-now', { since: 50, backfill: 0, lastDelivered: { postId: 'p2', at: 200 } }),
        balances: sub('c-bal', { since: 60, broken: { code: 50013, reason: 'Missing Permissions', at: 300 } }),
      });
      expect((await repo.subscriptions('balances')).map((s) => s.guildId)).not.toContain('g-mark');

      // An admin setting the channel again clears the broken mark.
      await repo.update('g-mark', (s) => void (s.feeds.balances = sub('c-bal', { since: 400 })));
      expect((await repo.subscriptions('balances')).find((s) => s.guildId === 'g-mark')?.sub).toEqual(sub('c-bal', { since: 400 }));
    });

    it('an admin change that raced a mark is read again and applied over it, losing neither', async () => {
      await state.settings.update('g-race', (s) => void (s.feeds.patchNotes = sub('c-race')));
      const hook = afterNextQuery();
      const admin = new GuildSettingsRepository(state.database.db.withPlugin(hook.plugin), PATIENT);
      const poller = new GuildSettingsRepository(other.database.db, PATIENT);
      // The poller marks a delivery after the admin's change read the settings, before it writes.
      hook.arm(() => poller.markDelivered('g-race', 'patchNotes', { channelId: 'c-race', since: 5 }, 'p-race', 42));
      const seen: (string | undefined)[] = [];
      const saved = await admin.update('g-race', (s) => {
        seen.push(s.feeds.patchNotes?.lastDelivered?.postId);
        s.feeds.patchNotes!.roleId = 'ping';
      });
      expect(seen).toEqual([undefined, 'p-race']); // applied twice: the second time over the mark
      expect(saved.feeds.patchNotes).toEqual(sub('c-race', { roleId: 'ping', lastDelivered: { postId: 'p-race', at: 42 } }));
      expect((await new GuildSettingsRepository(other.database.db).get('g-race')).feeds.patchNotes).toEqual(saved.feeds.patchNotes);
    });

    it('two admins changing different settings at once lose neither change', async () => {
      const hook = afterNextQuery();
      const first = new GuildSettingsRepository(state.database.db.withPlugin(hook.plugin), PATIENT);
      const second = new GuildSettingsRepository(other.database.db, PATIENT);
      // Both read a guild that does not exist yet; the second creates it first.
      hook.arm(async () => void (await second.update('g-admins', (s) => void (s.feeds.devDiaries = sub('c-dd')))));
      await first.update('g-admins', (s) => void (s.leaderboardPlatform = 'ps'));
      expect(await new GuildSettingsRepository(other.database.db).get('g-admins')).toEqual({
        ...DEFAULT_SETTINGS,
        leaderboardPlatform: 'ps',
        feeds: { devDiaries: sub('c-dd') },
      });
    });

    it('marks and admin changes on the same subscription at once: every call succeeds and none is lost', async () => {
      await state.settings.update('g-busy', (s) => void (s.feeds.patchNotes = sub('c-busy')));
      const admin = new GuildSettingsRepository(state.database.db, PATIENT);
      const poller = new GuildSettingsRepository(peer.database.db, PATIENT);
      const target = { channelId: 'c-busy', since: 5 };
      const ROUNDS = 30;
      for (let i = 0; i < ROUNDS; i++) {
        // What a poll does to one subscription while its admin changes it.
        const results = await Promise.allSettled([
          admin.update('g-busy', (s) => void (s.feeds.patchNotes!.roleId = `r${i}`)),
          poller.markDelivered('g-busy', 'patchNotes', target, `p${i}`, i),
          poller.clearBackfill('g-busy', 'patchNotes', target),
          admin.update('g-busy', (s) => void (s.ephemeralByDefault = i % 2 === 0)),
        ]);
        expect(
          results.filter((r) => r.status === 'rejected'),
          `round ${i}`,
        ).toEqual([]);
        admin.invalidate('g-busy');
        const now = await admin.get('g-busy');
        expect(now.feeds.patchNotes).toMatchObject({ channelId: 'c-busy', roleId: `r${i}`, lastDelivered: { postId: `p${i}`, at: i } });
        expect(now.ephemeralByDefault).toBe(i % 2 === 0);
      }
      // Every call bumped the version once, so each saw the one before it.
      expect(await versionOf(state.database.db, 'g-busy')).toBe(1 + ROUNDS * 4);
    });

    it('several admins changing one guild at once lose no change', async () => {
      const repos = [state, peer, state, peer, state].map((s) => new GuildSettingsRepository(s.database.db, PATIENT));
      await Promise.all([
        repos[0]!.update('g-five', (s) => void (s.leaderboardPlatform = 'ps')),
        repos[1]!.update('g-five', (s) => void (s.ephemeralByDefault = true)),
        repos[2]!.update('g-five', (s) => void (s.feeds.patchNotes = sub('c-pn'))),
        repos[3]!.update('g-five', (s) => void (s.feeds.balances = sub('c-bal'))),
        repos[4]!.update('g-five', (s) => void (s.feeds.devDiaries = sub('c-dd'))),
      ]);
      expect(await new GuildSettingsRepository(other.database.db).get('g-five')).toEqual({
        v: 1,
        leaderboardPlatform: 'ps',
        ephemeralByDefault: true,
        feeds: { patchNotes: sub('c-pn'), balances: sub('c-bal'), devDiaries: sub('c-dd') },
      });
    });
  });

  describe('account links', () => {
    it('links accounts: the first is the default, makeDefault moves it, relinking renames', async () => {
      const links = state.links;
      expect(await links.defaultUid('u1')).toBeNull();
      expect(await links.get('u1')).toEqual({ v: 1, accounts: [], defaultUid: null });
      await links.link('u1', { uid: '1403392756', name: 'Card1gan' }, false, 1);
      await links.link('u1', { uid: '1117455441', name: 'Sir Final' }, false, 2);
      expect(await links.defaultUid('u1')).toBe('1403392756');
      const after = await links.link('u1', { uid: '1117455441', name: 'Sir Final' }, true, 3);
      expect(after.defaultUid).toBe('1117455441');
      expect(await links.defaultUid('u1')).toBe('1117455441');
      await links.link('u1', { uid: '1403392756', name: 'Cardigan' }, false, 4);
      expect(await other.links.get('u1')).toEqual({
        v: 1,
        accounts: [
          { uid: '1403392756', name: 'Cardigan', linkedAt: 1, verifiedAt: null }, // renamed, still the oldest
          { uid: '1117455441', name: 'Sir Final', linkedAt: 2, verifiedAt: null },
        ],
        defaultUid: '1117455441',
      });
    });

    it(`refuses more than ${MAX_LINKED_ACCOUNTS} accounts with TooManyLinksError itself, and keeps nothing of the refused one`, async () => {
      const links = state.links;
      for (let i = 0; i < MAX_LINKED_ACCOUNTS; i++) await links.link('u2', { uid: String(i), name: `p${i}` }, false, i);
      const err = await links.link('u2', { uid: 'extra', name: 'x' }, true, 99).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TooManyLinksError);
      expect(err).not.toBeInstanceOf(StoreUnavailableError);
      const stored = await other.links.get('u2');
      expect(stored.accounts.map((a) => a.uid)).toEqual(['0', '1', '2', '3', '4']);
      expect(stored.defaultUid).toBe('0');
      // Relinking one already linked is not a sixth.
      await expect(links.link('u2', { uid: '3', name: 'renamed' }, false, 100)).resolves.toMatchObject({
        accounts: expect.arrayContaining([{ uid: '3', name: 'renamed', linkedAt: 3, verifiedAt: null }]),
      });
    });

    it('unlinks by uid, by name (any case) or all; the oldest left becomes the default', async () => {
      const links = state.links;
      await links.link('u3', { uid: '1', name: 'Alpha' }, false, 10);
      await links.link('u3', { uid: '2', name: 'Beta' }, false, 20);
      await links.link('u3', { uid: '3', name: 'Gamma' }, true, 30);
      expect(await links.unlink('u3', 'nope')).toEqual([]);
      expect((await links.unlink('u3', '1')).map((a) => a.uid)).toEqual(['1']);
      expect(await links.defaultUid('u3')).toBe('3');
      expect((await links.unlink('u3', ' GAMMA ')).map((a) => a.uid)).toEqual(['3']);
      expect(await other.links.get('u3')).toEqual({ v: 1, accounts: [{ uid: '2', name: 'Beta', linkedAt: 20, verifiedAt: null }], defaultUid: '2' });
      await links.link('u3', { uid: '4', name: 'Delta' }, false, 40);
      expect((await links.unlink('u3')).map((a) => a.uid)).toEqual(['2', '4']);
      expect(await links.get('u3')).toEqual({ v: 1, accounts: [], defaultUid: null });
      expect(await state.database.db.selectFrom('account_links').select('uid').where('user_id', '=', 'u3').execute()).toEqual([]);
    });

    it('knownAccounts lists every member’s linked accounts once, read once for every caller, and forgets those it is told to', async () => {
      const links = new AccountLinksRepository(state.database.db);
      await state.links.link('u6', { uid: '61', name: 'Known One' }, false, 1);
      await state.links.link('u7', { uid: '61', name: 'Known One' }, false, 1);
      await state.links.link('u7', { uid: '62', name: 'Known Two' }, false, 2);
      const [first, second] = await Promise.all([links.knownAccounts(1_000), links.knownAccounts(1_000)]);
      expect(second).toBe(first);
      expect(first.filter((a) => a.uid.startsWith('6'))).toEqual(
        expect.arrayContaining([
          { uid: '61', name: 'Known One' },
          { uid: '62', name: 'Known Two' },
        ]),
      );
      expect(first.filter((a) => a.uid === '61')).toHaveLength(1);
      // Kept a while: a link made meanwhile shows at the next read.
      await state.links.link('u6', { uid: '63', name: 'Known Three' }, false, 3);
      expect((await links.knownAccounts(2_000)).map((a) => a.uid)).not.toContain('63');
      links.forgetKnownAccounts(['61']);
      expect((await links.knownAccounts(2_000)).map((a) => a.uid)).not.toContain('61');
      expect((await links.knownAccounts(1_000 + 5 * 60_000)).map((a) => a.uid)).toEqual(expect.arrayContaining(['61', '62', '63']));
    });

    it("one user's links leave another's alone", async () => {
      await state.links.link('u4', { uid: '1', name: 'Same' }, false, 1);
      await state.links.link('u5', { uid: '1', name: 'Same' }, false, 1);
      await state.links.unlink('u4');
      expect(await state.links.defaultUid('u5')).toBe('1');
    });
  });

  describe('hero alerts', () => {
    it('stale mains: one row a member, never-read mains first on both engines, then the oldest', async () => {
      const now = 10 * 86_400_000;
      const alerts = state.alerts;
      for (const [user, guilds] of [
        ['never', ['g1', 'g2']],
        ['old', ['g1']],
        ['fresh', ['g1']],
        ['off', ['g1']],
      ] as const) {
        for (const g of guilds) await alerts.update(`sm-${user}`, g, (m) => void (m.mains = user !== 'off'), now);
      }
      await alerts.saveMains('sm-old', { uid: '1', heroes: ['1011'], refreshedAt: now - 5 * 86_400_000 });
      await alerts.saveMains('sm-fresh', { uid: '2', heroes: ['1011'], refreshedAt: now - 60_000 });
      expect(await alerts.staleMains(now, 10)).toEqual(['sm-never', 'sm-old']);
      expect(await alerts.staleMains(now, 1)).toEqual(['sm-never']);
    });
  });

  describe('delivery ledger', () => {
    const clock = { t: 1_800_000_000_000, now: () => clock.t };
    const key = (postId: string, channelId = 'ch'): DeliveryKey => ({ feed: 'patchNotes', postId, channelId });

    it('the first claim inserts; a delivery done is never sent again', async () => {
      const transport = new FakeTransport();
      const ledger = new DeliveryLedger(state.database.db, transport, logger, clock.now);
      expect(await ledger.get(key('first'))).toBeUndefined();
      expect(await ledger.deliver(key('first'), PAYLOAD, true)).toEqual({ status: 'sent', messageId: 'm1' });
      expect(transport.sends).toEqual([{ channelId: 'ch', nonce: deliveryNonce(key('first')) }]);
      expect(transport.crossposts).toEqual(['ch/m1']);
      expect(await new DeliveryLedger(other.database.db, transport, logger).get(key('first'))).toEqual({
        state: 'done',
        attempts: 1,
        at: clock.t,
        messageId: 'm1',
      });
      expect(await ledger.deliver(key('first'), PAYLOAD, true)).toEqual({ status: 'skipped', reason: 'done' });
      expect(transport.sends).toHaveLength(1);
      expect(deliveryNonce(key('first'))).toHaveLength(25);
      expect(deliveryNonce(key('first'))).not.toBe(deliveryNonce(key('first', 'other')));
    });

    it('two ledgers over the same database delivering the same post at once send it exactly once', async () => {
      const transport = new FakeTransport();
      let open!: () => void;
      transport.gate = new Promise((resolve) => (open = resolve));
      const a = new DeliveryLedger(state.database.db, transport, logger);
      const b = new DeliveryLedger(other.database.db, transport, logger);
      const bothSending = new Promise<void>((resolve) => (transport.onSend = () => transport.sends.length === 2 && resolve()));
      const outcomes = [a.deliver(key('race'), PAYLOAD, false), b.deliver(key('race'), PAYLOAD, false)];
      // One of them is sending (held at the gate); wait until the other has given up, or is sending too.
      await Promise.race([...outcomes, bothSending]);
      open();
      const settled = await Promise.all(outcomes);
      expect(transport.sends).toHaveLength(1);
      expect(settled.map((o) => o.status).sort()).toEqual(['retry', 'sent']);
      expect(await a.get(key('race'))).toMatchObject({ state: 'done', attempts: 1 });
    });

    it('many posts to many channels from two ledgers at once: each sent exactly once', async () => {
      const transport = new FakeTransport();
      const a = new DeliveryLedger(state.database.db, transport, logger);
      const b = new DeliveryLedger(other.database.db, transport, logger);
      const keys = [...Array(60).keys()].map((i) => key(`many${i % 6}`, `ch${i}`));
      const outcomes = await Promise.all(keys.flatMap((k) => [a.deliver(k, PAYLOAD, false), b.deliver(k, PAYLOAD, false)]));
      expect(outcomes.filter((o) => o.status === 'sent')).toHaveLength(keys.length);
      expect(transport.sends).toHaveLength(keys.length);
      expect(new Set(transport.sends.map((s) => s.nonce)).size).toBe(keys.length);
    });

    it('retries a temporary failure at once, then backs off, and gives up after the last attempt', async () => {
      const transport = new FakeTransport();
      transport.failWith = Object.assign(new Error('HTTP 503'), { status: 503 });
      const ledger = new DeliveryLedger(state.database.db, transport, logger, clock.now);
      const k = key('flaky');
      expect(await ledger.deliver(k, PAYLOAD, false)).toEqual({ status: 'retry', reason: 'HTTP 503' });
      expect(await ledger.get(k)).toEqual({ state: 'retry', attempts: 1, at: clock.t, messageId: null });
      expect(await ledger.deliver(k, PAYLOAD, false)).toEqual({ status: 'retry', reason: 'HTTP 503' }); // the first retry is at once
      expect(transport.sends).toHaveLength(2);
      expect(await ledger.deliver(k, PAYLOAD, false)).toEqual({ status: 'retry', reason: 'backing off' });
      expect(transport.sends).toHaveLength(2);
      clock.t += retryDelayMs(2) - 1;
      expect(await ledger.deliver(k, PAYLOAD, false)).toEqual({ status: 'retry', reason: 'backing off' });
      clock.t += 1;
      await ledger.deliver(k, PAYLOAD, false);
      expect(transport.sends).toHaveLength(3);
      for (let i = 0; i < MAX_ATTEMPTS + 3; i++) {
        clock.t += 31 * 60_000; // past the longest back-off
        await ledger.deliver(k, PAYLOAD, false);
      }
      expect(transport.sends).toHaveLength(MAX_ATTEMPTS);
      expect(await ledger.get(k)).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, messageId: null });
      expect(await ledger.deliver(k, PAYLOAD, false)).toEqual({ status: 'skipped', reason: 'failed' });
    });

    it('a claim left by a crash is taken over once its lease has passed, with the same nonce', async () => {
      const transport = new FakeTransport();
      const ledger = new DeliveryLedger(state.database.db, transport, logger, clock.now);
      const k = key('crashed');
      // The process that claimed it died while sending: the claim is all the store has.
      await state.database.db
        .insertInto('deliveries')
        .values({ feed: k.feed, post_id: k.postId, channel_id: k.channelId, state: 'claimed', attempts: 1, at: clock.t, message_id: null })
        .execute();
      expect(await ledger.deliver(k, PAYLOAD, false)).toEqual({ status: 'retry', reason: 'claimed elsewhere' });
      clock.t += CLAIM_LEASE_MS - 1;
      expect(await ledger.deliver(k, PAYLOAD, false)).toEqual({ status: 'retry', reason: 'claimed elsewhere' });
      expect(transport.sends).toEqual([]);
      clock.t += 1;
      expect(await ledger.deliver(k, PAYLOAD, false)).toMatchObject({ status: 'sent' });
      // Not in the channel (read first): sent.
      expect(transport.reads).toHaveLength(1);
      expect(transport.sends).toEqual([{ channelId: 'ch', nonce: deliveryNonce(k) }]);
      expect(await ledger.get(k)).toMatchObject({ state: 'done', attempts: 2 });
    });

    describe('a claim taken over after Discord’s nonce window: the channel is read first', () => {
      /** A claim left by a process that died while sending, its lease just past. */
      async function crashed(k: DeliveryKey): Promise<number> {
        const claimedAt = clock.t;
        await state.database.db
          .insertInto('deliveries')
          .values({ feed: k.feed, post_id: k.postId, channel_id: k.channelId, state: 'claimed', attempts: 1, at: claimedAt, message_id: null })
          .execute();
        // Past the lease, and well past the few minutes Discord checks a nonce for: a send now would post twice.
        clock.t += CLAIM_LEASE_MS + 60_000;
        return claimedAt;
      }
      const SENT: SentMessage = { id: 'sent-before', nonce: null, content: PAYLOAD.content, embeds: [] };

      it('the message sent before the crash, its nonce no longer returned, is found by its text: done, not sent again', async () => {
        const transport = new FakeTransport();
        const ledger = new DeliveryLedger(state.database.db, transport, logger, clock.now);
        const k = key('takeover-text');
        const claimedAt = await crashed(k);
        transport.inChannel = [{ id: 'other', nonce: null, content: 'Something else', embeds: [] }, SENT];
        expect(await ledger.deliver(k, PAYLOAD, true)).toEqual({ status: 'sent', messageId: 'sent-before' });
        // Only what was created since the claim (less a minute for Discord's clock) is read.
        expect(transport.reads).toEqual([{ channelId: 'ch', afterMs: claimedAt - TAKEOVER_LOOK_BACK_MS }]);
        expect(transport.sends).toEqual([]);
        expect(transport.crossposts).toEqual(['ch/sent-before']);
        expect(await ledger.get(k)).toMatchObject({ state: 'done', attempts: 2, messageId: 'sent-before' });
        expect(await ledger.deliver(k, PAYLOAD, true)).toEqual({ status: 'skipped', reason: 'done' });
      });

      it('found by its nonce while Discord returns it, even with another text (an older revision): done, revision 0 to be brought up to date', async () => {
        const transport = new FakeTransport();
        const ledger = new DeliveryLedger(state.database.db, transport, logger, clock.now);
        const k = key('takeover-nonce');
        await crashed(k);
        transport.inChannel = [{ id: 'older-text', nonce: deliveryNonce(k), content: 'An older text', embeds: [] }];
        expect(await ledger.deliver(k, PAYLOAD, false, 3)).toEqual({ status: 'sent', messageId: 'older-text' });
        expect(transport.sends).toEqual([]);
        const row = await state.database.db.selectFrom('deliveries').select('revision').where('post_id', '=', k.postId).executeTakeFirstOrThrow();
        expect(Number(row.revision)).toBe(0);
      });

      it('not in the channel (the send was lost with the process): sent, with its nonce', async () => {
        const transport = new FakeTransport();
        const ledger = new DeliveryLedger(state.database.db, transport, logger, clock.now);
        const k = key('takeover-lost');
        await crashed(k);
        // The bot's other messages: another post's nonce, and a message whose nonce Discord no longer returns with another text.
        transport.inChannel = [
          { id: 'x', nonce: deliveryNonce(key('another')), content: PAYLOAD.content, embeds: [] },
          { id: 'y', content: 'Other', embeds: [] },
        ];
        expect(await ledger.deliver(k, PAYLOAD, false)).toEqual({ status: 'sent', messageId: 'm1' });
        expect(transport.reads).toHaveLength(1);
        expect(transport.sends).toEqual([{ channelId: 'ch', nonce: deliveryNonce(k) }]);
      });

      it('a channel the bot cannot read back (no Read Message History): sent with its nonce, the delivery not broken', async () => {
        const transport = new FakeTransport();
        transport.readFailWith = Object.assign(new Error('Missing Access'), { status: 403, code: 50001 });
        const ledger = new DeliveryLedger(state.database.db, transport, logger, clock.now);
        const k = key('takeover-unreadable');
        await crashed(k);
        expect(await ledger.deliver(k, PAYLOAD, false)).toEqual({ status: 'sent', messageId: 'm1' });
        expect(transport.reads).toHaveLength(1);
        expect(transport.sends).toHaveLength(1);
        expect(await ledger.get(k)).toMatchObject({ state: 'done', attempts: 2 });
      });

      it('a first send and a retry after a failure answered by Discord read nothing', async () => {
        const transport = new FakeTransport();
        const ledger = new DeliveryLedger(state.database.db, transport, logger, clock.now);
        transport.failWith = Object.assign(new Error('Service Unavailable'), { status: 503 });
        expect((await ledger.deliver(key('no-takeover'), PAYLOAD, false)).status).toBe('retry');
        transport.failWith = undefined;
        expect((await ledger.deliver(key('no-takeover'), PAYLOAD, false)).status).toBe('sent');
        expect(transport.sends).toHaveLength(2);
        expect(transport.reads).toEqual([]);
      });
    });

    it('a message is the delivery’s by its nonce while Discord returns it, else by the same text; a payload without text by its nonce only', () => {
      const nonce = 'n'.repeat(25);
      const payload: MessagePayload = { ...PAYLOAD, content: '<@1> ranked up', embeds: [{ title: 'Gold I', description: 'Score 3,100 ' }] };
      const text = { content: '<@1> ranked up', embeds: [{ title: 'Gold I', description: 'Score 3,100' }] };
      expect(isMessageOf({ id: '1', nonce, content: 'other' }, nonce, payload)).toBe(true);
      expect(isMessageOf({ id: '1', nonce: 'another', ...text }, nonce, payload)).toBe(false);
      expect(isMessageOf({ id: '1', ...text }, nonce, payload)).toBe(true);
      expect(isMessageOf({ id: '1', nonce: null, ...text, embeds: [{ title: 'Gold I', description: 'Score 3,000' }] }, nonce, payload)).toBe(false);
      expect(isMessageOf({ id: '1', ...text, embeds: [...text.embeds, { title: 'More' }] }, nonce, payload)).toBe(false);
      const bare: MessagePayload = { ...PAYLOAD, content: '', embeds: [{ image: { url: 'attachment://card.png' } }] };
      expect(isMessageOf({ id: '1', content: '', embeds: [{}] }, nonce, bare)).toBe(false);
      expect(isMessageOf({ id: '1', nonce, content: '', embeds: [{}] }, nonce, bare)).toBe(true);
    });

    it('a temporary failure that then succeeds is sent once and done', async () => {
      const transport = new FakeTransport();
      transport.failWith = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      const ledger = new DeliveryLedger(state.database.db, transport, logger, clock.now);
      expect((await ledger.deliver(key('recovers'), PAYLOAD, false)).status).toBe('retry');
      transport.failWith = undefined;
      expect(await ledger.deliver(key('recovers'), PAYLOAD, false)).toMatchObject({ status: 'sent' });
      expect(await ledger.get(key('recovers'))).toMatchObject({ state: 'done', attempts: 2 });
      expect(new Set(transport.sends.map((s) => s.nonce))).toEqual(new Set([deliveryNonce(key('recovers'))])); // the same nonce on the retry
    });

    it('a permanent failure is broken at once and never retried', async () => {
      const transport = new FakeTransport();
      transport.failWith = Object.assign(new Error('Missing Permissions'), { status: 403, code: 50013 });
      const ledger = new DeliveryLedger(state.database.db, transport, logger, clock.now);
      expect(await ledger.deliver(key('locked'), PAYLOAD, false)).toEqual({
        status: 'broken',
        code: 50013,
        reason: expect.stringMatching(/^Missing Permissions/),
      });
      expect(await ledger.get(key('locked'))).toMatchObject({ state: 'failed', attempts: 1 });
      clock.t += 60 * 60_000;
      expect(await ledger.deliver(key('locked'), PAYLOAD, false)).toEqual({ status: 'skipped', reason: 'failed' });
      expect(transport.sends).toHaveLength(1);
    });

    it('classifies send errors', () => {
      expect(classifyError(Object.assign(new Error('x'), { code: 10003, status: 404 }))).toMatchObject({ kind: 'broken', code: 10003 });
      expect(classifyError(Object.assign(new Error('x'), { code: 50001, status: 403 }))).toMatchObject({ kind: 'broken', code: 50001 });
      expect(classifyError(Object.assign(new Error('x'), { status: 404 }))).toMatchObject({ kind: 'broken', code: 10003 });
      expect(classifyError(Object.assign(new Error('x'), { status: 403 }))).toMatchObject({ kind: 'broken', code: 50013 });
      expect(classifyError(Object.assign(new Error('rate limited'), { status: 429, code: 0 }))).toEqual({ kind: 'retry', reason: 'rate limited' });
      expect(classifyError(Object.assign(new Error('bad gateway'), { status: 502 }))).toEqual({ kind: 'retry', reason: 'bad gateway' });
      expect(classifyError('boom')).toEqual({ kind: 'retry', reason: 'boom' });
    });
  });

  describe('feed state', () => {
    const post = (id: string) => ({ id, title: `Post ${id}`, date: '2025-01-01', overview: null, image: null });

    it('gives the stored posts of a feed by id, for the titles /config status names', async () => {
      const feed = `fp-${engine}`;
      await state.feedPosts.reconcile(feed, [{ post: post('t1'), hash: 'h', credible: true }], 10);
      expect(await other.feedPosts.posts(feed, ['t1', 'never-read'])).toEqual(new Map([['t1', post('t1')]]));
      expect(await other.feedPosts.posts(`${feed}-other`, ['t1'])).toEqual(new Map());
      expect(await other.feedPosts.posts(feed, [])).toEqual(new Map());
    });

    it('records what was seen and the fan-outs pending, until finished', async () => {
      const feed = `fs-${engine}`;
      expect(await state.feedState.seen(feed)).toBeUndefined();
      expect(await state.feedState.pending(feed)).toEqual([]);
      await state.feedState.record(feed, ['b', 'a'], [], 10); // the first poll: nothing to send
      expect(await other.feedState.seen(feed)).toEqual(['b', 'a']);
      await state.feedState.record(feed, ['d', 'c', 'b', 'a'], [post('c'), post('d')], 20);
      // Recording a post again (a poll that crashed before finishing) does not duplicate it or move its time.
      await state.feedState.record(feed, ['d', 'c', 'b', 'a'], [post('d')], 30);
      expect(await other.feedState.pending(feed)).toEqual([
        { post: post('c'), foundAt: 20 },
        { post: post('d'), foundAt: 20 },
      ]);
      await state.feedState.finish(feed, 'c', 40);
      await state.feedState.finish(feed, 'c', 50); // finishing twice keeps the first time
      expect(await other.feedState.pending(feed)).toEqual([{ post: post('d'), foundAt: 20 }]);
      const row = await state.database.db
        .selectFrom('fan_outs')
        .select('finished_at')
        .where('feed', '=', feed)
        .where('post_id', '=', 'c')
        .executeTakeFirstOrThrow();
      expect(Number(row.finished_at)).toBe(40);
    });

    it('says when the poller last read a feed, and the tracker a player, for /status', async () => {
      // Later than any time the other tests write: the latest of every row is this one.
      const later = Date.UTC(2100, 0, 1);
      const feed = `fs-touch-${engine}`;
      await state.feedState.touch(feed, later); // a feed not initialised yet is left alone
      expect(await other.feedState.lastReadAt()).not.toBe(later);
      await state.feedState.record(feed, ['a'], [], 10);
      await state.feedState.touch(feed, later);
      expect(await other.feedState.lastReadAt()).toBe(later);
      await state.tracking.follow(`touch-${engine}`, 1);
      await state.database.db
        .updateTable('tracked_players')
        .set({ last_read_at: later + 1 })
        .where('uid', '=', `touch-${engine}`)
        .execute();
      expect(await other.tracking.lastReadAt()).toBe(later + 1);
    });

    it(`keeps at most ${SEEN_LIMIT} ids seen`, async () => {
      const ids = [...Array(SEEN_LIMIT + 50).keys()].map((i) => `id${i}`);
      await state.feedState.record(`fs-limit-${engine}`, ids, [], 1);
      expect(await state.feedState.seen(`fs-limit-${engine}`)).toEqual(ids.slice(0, SEEN_LIMIT));
    });
  });

  describe('retention', () => {
    it('prunes only settled deliveries and finished fan-outs older than the cutoff', async () => {
      const db = state.database.db;
      await db.deleteFrom('deliveries').execute();
      await db.deleteFrom('fan_outs').execute();
      const now = 10_000_000;
      const retention = 1_000;
      const old = now - retention - 1;
      const young = now - retention + 1;
      const delivery = (post_id: string, st: 'claimed' | 'retry' | 'done' | 'failed', at: number) => ({
        feed: 'patchNotes',
        post_id,
        channel_id: 'c',
        state: st,
        attempts: 1,
        at,
        message_id: null,
      });
      await db
        .insertInto('deliveries')
        .values([
          delivery('old-done', 'done', old),
          delivery('old-failed', 'failed', old),
          delivery('old-claimed', 'claimed', old),
          delivery('old-retry', 'retry', old),
          delivery('young-done', 'done', young),
          delivery('young-failed', 'failed', young),
        ])
        .execute();
      const fanOut = (post_id: string, found_at: number, finished_at: number | null) => ({ feed: 'patchNotes', post_id, post: '{}', found_at, finished_at });
      await db
        .insertInto('fan_outs')
        .values([fanOut('old-finished', 0, old), fanOut('old-pending', 0, null), fanOut('young-finished', 0, young)])
        .execute();

      expect(await pruneState(db, now, retention)).toEqual({ deliveries: 2, fanOuts: 1 });
      const left = await db.selectFrom('deliveries').select('post_id').orderBy('post_id').execute();
      expect(left.map((r) => r.post_id)).toEqual(['old-claimed', 'old-retry', 'young-done', 'young-failed']);
      const fanOuts = await db.selectFrom('fan_outs').select('post_id').orderBy('post_id').execute();
      expect(fanOuts.map((r) => r.post_id)).toEqual(['old-pending', 'young-finished']);
      expect(await pruneState(db, now, retention)).toEqual({ deliveries: 0, fanOuts: 0 });
    });
  });

  describe('deadlines', () => {
    it('withDeadline turns a slow or failed call into StoreUnavailableError', async () => {
      const slow = await withDeadline('read guild settings', 20, () => new Promise(() => undefined)).catch((e: unknown) => e);
      expect(slow).toBeInstanceOf(StoreUnavailableError);
      expect(slow).toMatchObject({ operation: 'read guild settings', message: 'state store unavailable: could not read guild settings' });
      const cause = new Error('disk I/O error');
      const failed = await withDeadline('save account link', 60_000, () => Promise.reject(cause)).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(StoreUnavailableError);
      expect((failed as Error).cause).toBe(cause);
      expect(await withDeadline('ok', 60_000, async () => 7)).toBe(7);
    });

    it('repositories answer StoreUnavailableError when the store does not answer in time', async () => {
      const hanging = hangingDb(engine);
      await expect(new GuildSettingsRepository(hanging, { readDeadlineMs: 50 }).get('g-hang')).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(new AccountLinksRepository(hanging, { readMs: 50, writeMs: 50 }).get('u-hang')).rejects.toBeInstanceOf(StoreUnavailableError);
    });

    it('a failing store is StoreUnavailableError too', async () => {
      const closed = await openAt(state.where, PATIENT);
      await closed.close();
      await expect(closed.settings.get('g-closed')).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(closed.links.link('u-closed', { uid: '1', name: 'x' }, false)).rejects.toBeInstanceOf(StoreUnavailableError);
    });
  });
});
