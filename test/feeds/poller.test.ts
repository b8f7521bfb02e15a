/**
 * The feed poller over the relational store, on both engines (in-memory SQLite and a fresh
 * PostgreSQL database per test), with the real API client on the replica and a transport that
 * behaves as Discord. A last part kills and restarts a PostgreSQL server of its own under the poller.
 */
import { rmSync } from 'node:fs';
import Database from '../../src/store/sqlite-driver.js';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RivalsApi } from '../../src/api/client.js';
import { HeroDirectory } from '../../src/catalog/hero-directory.js';
import { CorrectionEditor, EDIT_WINDOW_MS, MAX_EDIT_ATTEMPTS } from '../../src/feeds/corrections.js';
import { correctedFooter } from '../../src/feeds/render.js';
import { digestPeriod } from '../../src/feeds/digest.js';
import { CLAIM_LEASE_MS, DeliveryLedger, deliveryNonce, MAX_ATTEMPTS, retryDelayMs, type FeedTransport } from '../../src/feeds/delivery.js';
import { SOLE_LEADER, type Leadership } from '../../src/feeds/leadership.js';
import { FeedPoller } from '../../src/feeds/poller.js';
import { FAN_OUT_CONCURRENCY } from '../../src/feeds/fan-out.js';
import { trIn, type Locale } from '../../src/i18n/index.js';
import type { MessagePayload } from '../../src/render/view.js';
import type { Replica } from '../../src/replica/server.js';
import { migrateDatabase, sqliteDatabase } from '../../src/store/database.js';
import type { FeedType } from '../../src/store/guild-settings.js';
import { PRUNE_INTERVAL_MS } from '../../src/store/retention.js';
import { stateOf, type State } from '../../src/store/state.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { capturingLogger, clientFor, replica } from '../helpers/replica.js';
import { UpstreamRateLimiter } from '../../src/api/rate-limiter.js';
import { ENGINES, memoryState, openAt, openTestState, type Engine } from '../helpers/state.js';
import { pollUntil } from '../helpers/until.js';

/** A transport that behaves as Discord: messages per channel, deduplicated by nonce; failures and hooks on demand. */
class FakeChannels implements FeedTransport {
  readonly messages = new Map<string, (MessagePayload & { nonce: string; id: string; at: number })[]>();
  readonly nonces = new Map<string, string>();
  /**
   * Per channel: an error answer; `hang`, a send lost on the wire (no message, no answer); or
   * `hang-after-post`, a send that reached Discord (the message exists) whose answer never arrives.
   */
  readonly fail = new Map<string, { status: number; code: number } | 'hang' | 'hang-after-post'>();
  /** When set, decides the failure of every channel (the process "dies" with its sends in flight). */
  failAll: ((channelId: string) => 'hang' | 'hang-after-post') | undefined;
  /** Run while a send to the channel is on the wire (before Discord answers): what an admin does meanwhile. */
  readonly during = new Map<string, () => Promise<void>>();
  readonly crossposted: string[] = [];
  /** Send attempts per channel, whatever their result. */
  readonly attempts = new Map<string, number>();
  sends = 0;
  /** Sends whose hook (what happens while they are on the wire) has not finished. */
  onWire = 0;
  #id = 1000;
  async send(channelId: string, body: MessagePayload & { nonce: string; enforce_nonce: true }) {
    this.sends++;
    this.attempts.set(channelId, (this.attempts.get(channelId) ?? 0) + 1);
    const hook = this.during.get(channelId);
    if (hook) {
      this.during.delete(channelId);
      this.onWire++;
      await hook().finally(() => this.onWire--);
    }
    const f = this.failAll?.(channelId) ?? this.fail.get(channelId);
    if (f === 'hang') return new Promise<{ id: string }>(() => undefined);
    if (f && f !== 'hang-after-post') throw Object.assign(new Error(`HTTP ${f.status}`), f);
    const existing = this.nonces.get(`${channelId}:${body.nonce}`);
    if (existing) return { id: existing };
    const id = String(++this.#id);
    this.nonces.set(`${channelId}:${body.nonce}`, id);
    this.messages.set(channelId, [...(this.messages.get(channelId) ?? []), { ...body, id, at: clock.now() }]);
    if (f === 'hang-after-post') return new Promise<{ id: string }>(() => undefined);
    return { id };
  }
  async crosspost(channelId: string, messageId: string) {
    this.crossposted.push(`${channelId}/${messageId}`);
  }
  /** Edits in order (Discord: "Edit Message"); `editFail` answers an edit to a channel with an error. */
  readonly edits: { channelId: string; messageId: string; body: Pick<MessagePayload, 'embeds' | 'components' | 'allowed_mentions'> }[] = [];
  readonly editFail = new Map<string, { status: number; code: number }>();
  async edit(channelId: string, messageId: string, body: Pick<MessagePayload, 'embeds' | 'components' | 'allowed_mentions'>) {
    this.edits.push({ channelId, messageId, body });
    const f = this.editFail.get(channelId);
    if (f) throw Object.assign(new Error(`HTTP ${f.status}`), f);
    const list = this.messages.get(channelId) ?? [];
    const i = list.findIndex((m) => m.id === messageId);
    if (i < 0) throw Object.assign(new Error('Unknown Message'), { status: 404, code: 10008 });
    list[i] = { ...list[i]!, ...body };
  }
  /** Users whose DM channel was opened; `dm-<user>` is the channel. `dmFail` answers every open with an error. */
  readonly dmsOpened: string[] = [];
  dmFail: { status: number; code: number } | undefined;
  async openDm(userId: string) {
    this.dmsOpened.push(userId);
    if (this.dmFail) throw Object.assign(new Error(`HTTP ${this.dmFail.status}`), this.dmFail);
    return { id: `dm-${userId}` };
  }
  /** Threads started (Discord: "Start Thread from Message"), by message id; a second start of the same one is 160004. */
  readonly threads = new Map<string, { channelId: string; name: string }>();
  threadFail: { status: number; code: number } | undefined;
  async startThread(channelId: string, messageId: string, name: string) {
    if (this.threadFail) throw Object.assign(new Error(`HTTP ${this.threadFail.status}`), this.threadFail);
    if (!(this.messages.get(channelId) ?? []).some((m) => m.id === messageId)) throw Object.assign(new Error('Unknown Message'), { status: 404, code: 10008 });
    if (this.threads.has(messageId)) return { id: messageId };
    this.threads.set(messageId, { channelId, name });
    return { id: messageId };
  }
  /** Reads of a channel's messages (Discord: "Get Channel Messages"); `readFail` answers every read with an error. */
  reads = 0;
  readFail: { status: number; code: number } | undefined;
  readonly #expired = new Set<string>();
  /** Discord's nonce window passes for every message so far: a send with one of their nonces posts again, and reads no longer return them. */
  expireNonces() {
    this.nonces.clear();
    for (const list of this.messages.values()) for (const m of list) this.#expired.add(m.id);
  }
  async ownMessagesAfter(channelId: string, afterMs: number) {
    this.reads++;
    if (this.readFail) throw Object.assign(new Error(`HTTP ${this.readFail.status}`), this.readFail);
    return (this.messages.get(channelId) ?? []).filter((m) => m.at > afterMs).map((m) => ({ ...m, nonce: this.#expired.has(m.id) ? null : m.nonce }));
  }
  count(channelId: string) {
    return this.messages.get(channelId)?.length ?? 0;
  }
  titles(channelId: string) {
    return (this.messages.get(channelId) ?? []).map((m) => m.embeds[0]!.title);
  }
}

let r: Replica;
let api: RivalsApi;
let heroes: HeroDirectory;
beforeAll(async () => {
  r = await replica();
  api = clientFor(r);
  heroes = new HeroDirectory(api);
});
afterAll(async () => {
  await api.close();
  await r.close();
});

/** The poller's and the ledger's clock: real time unless a test moves it. */
const clock = { offset: 0, now: () => Date.now() + clock.offset };

let postCounter = 0;
/** Adds a patch note on top of the replica's first page; returns its id. */
function addPost(title = 'A new patch'): string {
  const id = `2099${String(++postCounter).padStart(4, '0')}`;
  r.dataset.posts.patchNotes.unshift({ id, title, date: '2099/01/01', overview: 'What changed.', fullContent: 'All of it.', imagePath: '/p.jpg' });
  return id;
}

/** A poller over `state` (a new "process" each call: its own ledger and memory). */
function pollerOn(
  state: State,
  transport: FeedTransport,
  options: {
    leadership?: Leadership;
    retentionMs?: number;
    preferredLocale?: (guildId: string) => string | undefined;
    api?: RivalsApi;
    heroes?: HeroDirectory;
  } = {},
) {
  const { logger, lines } = capturingLogger();
  const poller = new FeedPoller({
    api: options.api ?? api,
    db: state.database.db,
    feedState: state.feedState,
    settings: state.settings,
    ledger: new DeliveryLedger(state.database.db, transport, logger, clock.now),
    feedPosts: state.feedPosts,
    digests: state.feedDigests,
    alerts: state.alerts,
    links: state.links,
    preferredLocale: options.preferredLocale,
    editor: new CorrectionEditor(state.database.db, transport, logger, clock.now),
    leadership: options.leadership ?? SOLE_LEADER,
    heroes: options.heroes ?? heroes,
    logger,
    intervalSeconds: 600,
    now: clock.now,
    retentionMs: options.retentionMs,
  });
  return Object.assign(poller, { lines });
}

async function subscribeOn(
  state: State,
  guildId: string,
  type: FeedType,
  channelId: string,
  extra: { roleId?: string; backfill?: number; publish?: boolean; since?: number } = {},
) {
  await state.settings.update(guildId, (s) => {
    s.feeds[type] = {
      channelId,
      roleId: extra.roleId ?? null,
      since: extra.since ?? clock.now(),
      publish: extra.publish ?? false,
      backfill: extra.backfill ?? 0,
      broken: null,
      lastDelivered: null,
      lastEdit: null,
    };
  });
}

/** A fresh state on `engine`: in-memory SQLite, or a new database on the run's PostgreSQL server. */
const freshState = (engine: Engine): Promise<State> => (engine === 'sqlite' ? Promise.resolve(memoryState()) : openTestState('postgres'));

describe.each(ENGINES)('the feed poller on %s', (engine) => {
  let state: State;
  let channels: FakeChannels;
  beforeEach(async () => {
    clock.offset = 0;
    state = await freshState(engine);
    channels = new FakeChannels();
  });
  afterEach(async () => {
    await state.close();
  });

  const poller = (transport: FeedTransport = channels, leadership: Leadership = SOLE_LEADER) => pollerOn(state, transport, { leadership });
  const subscribe = (guildId: string, type: FeedType, channelId: string, extra?: Parameters<typeof subscribeOn>[4]) =>
    subscribeOn(state, guildId, type, channelId, extra);

  it('records what exists on its first run and posts nothing', async () => {
    await subscribe('g1', 'patchNotes', 'c1');
    await poller().tick();
    expect(channels.sends).toBe(0);
    expect(await state.feedState.seen('patchNotes')).toEqual(r.dataset.posts.patchNotes.slice(0, 10).map((p) => p.id));
    expect(await state.feedState.pending('patchNotes')).toEqual([]);
  });

  it('delivers a new post to every subscribed channel exactly once, with the role ping and only that role allowed', async () => {
    const p = poller();
    await p.tick();
    for (let i = 1; i <= 12; i++) await subscribe(`g${i}`, 'patchNotes', `c${i}`, { roleId: i === 1 ? 'r1' : undefined });
    const id = addPost('Season 9');
    await p.tick();
    await p.tick();
    for (let i = 1; i <= 12; i++) expect(channels.count(`c${i}`)).toBe(1);
    const first = channels.messages.get('c1')![0]!;
    expect(first.content).toBe('<@&r1>');
    expect(first.allowed_mentions).toEqual({ parse: [], roles: ['r1'] });
    expect(first.embeds[0]!.title).toBe('Season 9');
    expect(first.components[0]!.components[0]).toMatchObject({ custom_id: `feed.read:patch-notes:${id}` });
    expect(channels.messages.get('c2')![0]!.allowed_mentions).toEqual({ parse: [] });
    expect((await state.settings.get('g3')).feeds.patchNotes!.lastDelivered?.postId).toBe(id);
    // The fan-out is finished, and each delivery is done with its message.
    expect(await state.feedState.pending('patchNotes')).toEqual([]);
    const ledger = new DeliveryLedger(state.database.db, channels, capturingLogger().logger);
    expect(await ledger.get({ feed: 'patchNotes', postId: id, channelId: 'c1' })).toMatchObject({ state: 'done', attempts: 1, messageId: first.id });
  });

  it('does not deliver posts found before a channel was set', async () => {
    const p = poller();
    await p.tick();
    addPost();
    await p.tick();
    await subscribe('late', 'patchNotes', 'c-late');
    await p.tick();
    expect(channels.count('c-late')).toBe(0);
  });

  it('marks a channel that answers Missing Permissions broken, once, and still delivers to the others', async () => {
    const p = poller();
    await p.tick();
    await subscribe('ok', 'patchNotes', 'c-ok');
    await subscribe('locked', 'patchNotes', 'c-locked');
    channels.fail.set('c-locked', { status: 403, code: 50013 });
    addPost();
    await p.tick();
    const sendsAfterFirst = channels.sends;
    await p.tick();
    expect(channels.count('c-ok')).toBe(1);
    expect((await state.settings.get('locked')).feeds.patchNotes!.broken).toMatchObject({ code: 50013, reason: expect.stringMatching(/^Missing Permissions/) });
    expect(channels.sends).toBe(sendsAfterFirst); // not retried forever
    // A broken channel is out of the poller's indexed query, and the fan-out is settled.
    expect((await state.settings.subscriptions('patchNotes')).map((s) => s.guildId)).toEqual(['ok']);
    expect(await state.feedState.pending('patchNotes')).toEqual([]);
  });

  it('retries a temporary failure on the next poll, and gives up after the last attempt', async () => {
    const p = poller();
    await p.tick();
    await subscribe('flaky', 'patchNotes', 'c-flaky');
    channels.fail.set('c-flaky', { status: 503, code: 0 });
    addPost();
    await p.tick();
    expect(channels.count('c-flaky')).toBe(0);
    expect(await state.feedState.pending('patchNotes')).toHaveLength(1); // the fan-out waits for the retry
    channels.fail.delete('c-flaky');
    await p.tick();
    expect(channels.count('c-flaky')).toBe(1);
    expect(await state.feedState.pending('patchNotes')).toEqual([]);
    await subscribe('down', 'patchNotes', 'c-down');
    channels.fail.set('c-down', { status: 500, code: 0 });
    addPost();
    await p.tick();
    await p.tick(); // the first retry is at once
    expect(channels.attempts.get('c-down')).toBe(2);
    await p.tick(); // then it backs off
    expect(channels.attempts.get('c-down')).toBe(2);
    for (let i = 0; i < MAX_ATTEMPTS + 3; i++) {
      clock.offset += 31 * 60_000; // past the longest back-off
      await p.tick();
    }
    expect(channels.attempts.get('c-down')).toBe(MAX_ATTEMPTS);
    expect(await state.feedState.pending('patchNotes')).toEqual([]); // given up: settled
  });

  it('a crash in the middle of a fan-out: the restarted poller delivers the rest at once, the sends in flight after their claim lease, and repeats none', async () => {
    const first = poller();
    await first.tick();
    const ids = Array.from({ length: 20 }, (_, i) => `k${i + 1}`);
    for (const [i, c] of ids.entries()) await subscribe(`crash${i + 1}`, 'patchNotes', c);
    const postId = addPost('Crash test');
    // The process "dies" with a full window of sends on the wire: half were lost, half reached Discord
    // without their answer arriving; the rest of the fan-out never started.
    channels.failAll = (c) => (Number(c.slice(1)) % 2 === 0 ? 'hang-after-post' : 'hang');
    void first.tick();
    await pollUntil(() => channels.sends === FAN_OUT_CONCURRENCY, 'a full window of sends', { context: () => `${channels.sends} sends` });
    // Nothing more starts: a send claims its delivery first, and a claim beyond the window would have been
    // queued to the store before this read (with the window's own claims, or as one of them returned), so the
    // read sees it. Every claim is one of the window's sends, on the wire.
    const claimed = await state.database.db
      .selectFrom('deliveries')
      .select('channel_id')
      .where('feed', '=', 'patchNotes')
      .where('post_id', '=', postId)
      .execute();
    expect(claimed.map((d) => d.channel_id).sort()).toEqual(ids.filter((c) => channels.attempts.has(c)).sort());
    expect(claimed).toHaveLength(FAN_OUT_CONCURRENCY);
    expect(channels.sends).toBe(FAN_OUT_CONCURRENCY);
    channels.failAll = undefined;
    const inFlight = ids.filter((c) => channels.attempts.get(c) === 1);
    const reached = inFlight.filter((c) => channels.count(c) === 1);
    expect(reached.length).toBeGreaterThan(0);

    // The restarted process, on the same store: the channels never started get the post now; the
    // sends in flight are held by their claims (another process could still be sending them).
    const restarted = poller();
    await restarted.tick();
    expect(channels.sends).toBe(20);
    for (const c of ids) expect(channels.count(c), c).toBe(inFlight.includes(c) && !reached.includes(c) ? 0 : 1);
    expect(await state.feedState.pending('patchNotes')).toHaveLength(1);

    // Once the claims' lease has passed, they are taken over, after Discord's nonce window: the ones that reached
    // Discord are found in their channel and recorded, not posted twice; the lost sends go out.
    clock.offset += CLAIM_LEASE_MS;
    channels.expireNonces();
    await restarted.tick();
    expect(channels.reads).toBe(FAN_OUT_CONCURRENCY);
    expect(channels.sends).toBe(20 + FAN_OUT_CONCURRENCY - reached.length);
    for (const c of ids) expect(channels.count(c), c).toBe(1);
    expect(await state.feedState.pending('patchNotes')).toEqual([]);
    const states = await state.database.db.selectFrom('deliveries').select(['state', 'attempts']).where('feed', '=', 'patchNotes').execute();
    expect(states.filter((d) => d.state === 'done')).toHaveLength(20);
    expect(states.filter((d) => d.attempts === 2)).toHaveLength(FAN_OUT_CONCURRENCY);
  });

  it('a send that reached Discord before the crash, in a channel the bot cannot read back, is not posted twice within the nonce window', async () => {
    const p = poller();
    await p.tick();
    await subscribe('n', 'patchNotes', 'c-n');
    const id = addPost();
    // Sent, then the process died before marking it done: the claim, older than its lease, is all the store has.
    await state.database.db
      .insertInto('deliveries')
      .values({ feed: 'patchNotes', post_id: id, channel_id: 'c-n', state: 'claimed', attempts: 1, at: clock.now() - CLAIM_LEASE_MS, message_id: null })
      .execute();
    channels.nonces.set(`c-n:${deliveryNonce({ feed: 'patchNotes', postId: id, channelId: 'c-n' })}`, '555');
    // No Read Message History: the read fails, and the send goes out with its nonce, which Discord answers with its message.
    channels.readFail = { status: 403, code: 50001 };
    await p.tick();
    expect(channels.reads).toBe(1);
    expect(channels.count('c-n')).toBe(0);
    const ledger = new DeliveryLedger(state.database.db, channels, capturingLogger().logger);
    expect(await ledger.get({ feed: 'patchNotes', postId: id, channelId: 'c-n' })).toMatchObject({ state: 'done', attempts: 2, messageId: '555' });
  });

  it('backfills the latest N posts once when the admin asked', async () => {
    const p = poller();
    await p.tick();
    await subscribe('bf', 'devDiaries', 'c-bf', { backfill: 3 });
    await p.tick();
    await p.tick();
    expect(channels.titles('c-bf')).toEqual(['Dev Diary #4: Making of a map', 'Dev Diary #5: Competitive integrity', 'Dev Diary #6: Designing Season 5']);
    expect((await state.settings.get('bf')).feeds.devDiaries!.backfill).toBe(0);
  });

  it('publishes in announcement channels when asked', async () => {
    const p = poller();
    await p.tick();
    await subscribe('pub', 'patchNotes', 'c-pub', { publish: true });
    addPost();
    await p.tick();
    expect(channels.crossposted).toEqual([`c-pub/${channels.messages.get('c-pub')![0]!.id}`]);
  });

  it('stop() gives up the feed reads waiting for the API behind members’ requests: it returns at once, logging no failure', async () => {
    // A window already full: the poll's first read waits a minute for the rate limit.
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 60_000 });
    await limiter.schedule(async () => undefined);
    const waitingApi = clientFor(r, { limiter });
    const p = pollerOn(state, channels, { api: waitingApi });
    p.start();
    await pollUntil(() => limiter.waiting > 0, "the poll's first read to wait for the rate limit");
    // What stop() must not wait for: the window letting a request through again, a minute on.
    const probe = windowOpens(limiter);
    expect(await Promise.race([p.stop().then(() => 'stopped' as const), probe.opened])).toBe('stopped');
    expect(limiter.waiting).toBe(1); // the probe alone: the poll's read left the queue
    probe.giveUp();
    expect(p.lines.filter((l) => l.includes('could not poll') || l.includes('feed poll failed'))).toEqual([]);
    expect(channels.sends).toBe(0);
    limiter.stop();
    await waitingApi.close();
  }, 90_000);

  it('stop() also gives up the hero list the poll reads for hero filters while it waits for the rate limit', async () => {
    // The hero list is not cached and the window is full: the first feed's catalog waits for the hero list.
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 60_000 });
    await limiter.schedule(async () => undefined);
    const waitingApi = clientFor(r, { limiter });
    const p = pollerOn(state, channels, { api: waitingApi, heroes: new HeroDirectory(waitingApi) });
    const heroListsAsked = r.requests.byPath.get('/api/v1/heroes') ?? 0;
    p.start();
    await pollUntil(() => limiter.waiting > 0, 'the hero list to wait for the rate limit');
    const probe = windowOpens(limiter);
    expect(await Promise.race([p.stop().then(() => 'stopped' as const), probe.opened])).toBe('stopped');
    // The probe alone waits (the hero list left the queue), and the window stayed shut: the list was never asked for.
    expect([limiter.waiting, r.requests.byPath.get('/api/v1/heroes') ?? 0]).toEqual([1, heroListsAsked]);
    probe.giveUp();
    expect(p.lines.filter((l) => l.includes('could not') || l.includes('failed'))).toEqual([]);
    limiter.stop();
    await waitingApi.close();
  }, 90_000);

  it('does nothing in a process that does not lead', async () => {
    const follower = poller(channels, { isLeader: async () => false, release: async () => undefined });
    await follower.tick();
    await subscribe('f', 'patchNotes', 'c-f');
    addPost();
    await follower.tick();
    expect(channels.sends).toBe(0);
    expect(await state.feedState.seen('patchNotes')).toBeUndefined();
  });

  describe('never overwrites an admin’s change made while a fan-out is on the wire', () => {
    it('other settings of the guild, and another feed, changed during a delivery: both the change and the delivery mark stay', async () => {
      const p = poller();
      await p.tick();
      await subscribe('g-other', 'patchNotes', 'c-other');
      channels.during.set('c-other', () =>
        state.settings
          .update('g-other', (s) => {
            s.leaderboardPlatform = 'ps';
            s.ephemeralByDefault = true;
            s.feeds.balances = {
              channelId: 'c-bal',
              roleId: 'r-bal',
              since: clock.now(),
              publish: false,
              backfill: 0,
              broken: null,
              lastDelivered: null,
              lastEdit: null,
            };
          })
          .then(() => undefined),
      );
      const id = addPost();
      await p.tick();
      const s = await state.settings.get('g-other');
      expect(s).toMatchObject({ leaderboardPlatform: 'ps', ephemeralByDefault: true });
      expect(s.feeds.balances).toMatchObject({ channelId: 'c-bal', roleId: 'r-bal' });
      expect(s.feeds.patchNotes).toMatchObject({ channelId: 'c-other', broken: null, lastDelivered: { postId: id } });
    });

    it('other settings changed while a send fails for good: the change and the broken mark stay', async () => {
      const p = poller();
      await p.tick();
      await subscribe('g-lock', 'patchNotes', 'c-lock');
      channels.fail.set('c-lock', { status: 403, code: 50001 });
      channels.during.set('c-lock', () => state.settings.update('g-lock', (s) => void (s.leaderboardPlatform = 'xbox')).then(() => undefined));
      addPost();
      await p.tick();
      const s = await state.settings.get('g-lock');
      expect(s.leaderboardPlatform).toBe('xbox');
      expect(s.feeds.patchNotes!.broken).toMatchObject({ code: 50001 });
    });

    it('the same feed moved to another channel during a delivery or a failing send: the new channel stays, unmarked, and gets the next post', async () => {
      const p = poller();
      await p.tick();
      await subscribe('g-move', 'patchNotes', 'c-old');
      await subscribe('g-fix', 'patchNotes', 'c-locked');
      channels.fail.set('c-locked', { status: 403, code: 50013 });
      const moveTo = (guildId: string, channelId: string) => () =>
        state.settings
          .update(guildId, (s) => {
            s.feeds.patchNotes = {
              channelId,
              roleId: null,
              since: clock.now(),
              publish: false,
              backfill: 0,
              broken: null,
              lastDelivered: null,
              lastEdit: null,
            };
          })
          .then(() => undefined);
      channels.during.set('c-old', moveTo('g-move', 'c-new'));
      channels.during.set('c-locked', moveTo('g-fix', 'c-fixed'));
      addPost('Before the move');
      await p.tick();
      expect(channels.count('c-old')).toBe(1); // it was on the wire
      expect((await state.settings.get('g-move')).feeds.patchNotes).toMatchObject({ channelId: 'c-new', broken: null, lastDelivered: null, lastEdit: null });
      expect((await state.settings.get('g-fix')).feeds.patchNotes).toMatchObject({ channelId: 'c-fixed', broken: null, lastDelivered: null, lastEdit: null });
      const next = addPost('After the move');
      await p.tick();
      expect(channels.titles('c-new')).toEqual(['After the move']);
      expect(channels.titles('c-fixed')).toEqual(['After the move']);
      expect((await state.settings.get('g-fix')).feeds.patchNotes!.lastDelivered?.postId).toBe(next);
    });

    it('the same channel set again with a larger backfill during a backfill send: the new request is not cleared', async () => {
      const p = poller();
      await p.tick();
      await subscribe('g-bf', 'devDiaries', 'c-bf', { backfill: 1 });
      channels.during.set('c-bf', () => subscribe('g-bf', 'devDiaries', 'c-bf', { backfill: 3 }));
      await p.tick();
      await p.tick();
      // The one already sent is not sent again (the ledger); the two older ones follow.
      expect(channels.titles('c-bf')).toEqual(['Dev Diary #6: Designing Season 5', 'Dev Diary #4: Making of a map', 'Dev Diary #5: Competitive integrity']);
      expect((await state.settings.get('g-bf')).feeds.devDiaries!.backfill).toBe(0);
    });

    it('the same channel set again (permissions fixed) while a send fails for good: it is not marked broken, and gets the next post', async () => {
      const p = poller();
      await p.tick();
      await subscribe('g-reset', 'patchNotes', 'c-reset');
      channels.fail.set('c-reset', { status: 403, code: 50013 });
      channels.during.set('c-reset', () => subscribe('g-reset', 'patchNotes', 'c-reset'));
      addPost('Lost to the old permissions');
      await p.tick();
      channels.fail.delete('c-reset'); // the permission the admin fixed, too late for the send that was on the wire
      expect((await state.settings.get('g-reset')).feeds.patchNotes).toMatchObject({ channelId: 'c-reset', broken: null });
      addPost('After the fix');
      await p.tick();
      expect(channels.titles('c-reset')).toEqual(['After the fix']);
    });
  });

  it('prunes from tick, hourly: old settled deliveries and finished fan-outs go; deliveries still being tried, pending fan-outs and recent rows stay', async () => {
    const DAY = 24 * 60 * 60_000;
    const p = pollerOn(state, channels, { retentionMs: 7 * DAY });
    await p.tick();
    const now = clock.now();
    const old = now - 8 * DAY;
    const db = state.database.db;
    const post = (id: string) => JSON.stringify({ id, title: id, date: null, overview: null, image: null });
    await db
      .insertInto('deliveries')
      .values([
        { feed: 'patchNotes', post_id: 'old-done', channel_id: 'x', state: 'done', attempts: 1, at: old, message_id: '1' },
        { feed: 'patchNotes', post_id: 'old-failed', channel_id: 'x', state: 'failed', attempts: 5, at: old, message_id: null },
        { feed: 'patchNotes', post_id: 'old-claimed', channel_id: 'x', state: 'claimed', attempts: 2, at: old, message_id: null },
        { feed: 'patchNotes', post_id: 'old-retry', channel_id: 'x', state: 'retry', attempts: 3, at: old, message_id: null },
        { feed: 'patchNotes', post_id: 'new-done', channel_id: 'x', state: 'done', attempts: 1, at: now - DAY, message_id: '2' },
      ])
      .execute();
    await db
      .insertInto('fan_outs')
      .values([
        { feed: 'balances', post_id: 'old-finished', post: post('old-finished'), found_at: old - DAY, finished_at: old },
        { feed: 'balances', post_id: 'new-finished', post: post('new-finished'), found_at: old, finished_at: now - DAY },
      ])
      .execute();
    // A fan-out pending for longer than the retention (its only channel keeps failing) is never pruned.
    await subscribe('pending', 'gameVersions', 'c-pending', { since: old - 2 * DAY });
    channels.fail.set('c-pending', { status: 503, code: 0 });
    await db
      .insertInto('fan_outs')
      .values({ feed: 'gameVersions', post_id: 'old-pending', post: post('old-pending'), found_at: old - DAY, finished_at: null })
      .execute();

    const remaining = async () => ({
      deliveries: (await db.selectFrom('deliveries').select('post_id').where('channel_id', '=', 'x').orderBy('post_id').execute()).map((d) => d.post_id),
      fanOuts: (await db.selectFrom('fan_outs').select('post_id').where('feed', '!=', 'patchNotes').orderBy('post_id').execute()).map((f) => f.post_id),
    });
    await p.tick(); // pruned at most hourly: the first tick pruned before the rows existed
    expect(await remaining()).toEqual({
      deliveries: ['new-done', 'old-claimed', 'old-done', 'old-failed', 'old-retry'],
      fanOuts: ['new-finished', 'old-finished', 'old-pending'],
    });
    clock.offset += PRUNE_INTERVAL_MS;
    await p.tick();
    expect(await remaining()).toEqual({ deliveries: ['new-done', 'old-claimed', 'old-retry'], fanOuts: ['new-finished', 'old-pending'] });
    expect(p.lines.some((l) => l.includes('pruned old feed records') && l.includes('"deliveries":2') && l.includes('"fanOuts":1'))).toBe(true);
    expect(channels.attempts.get('c-pending')).toBeGreaterThanOrEqual(1); // the pending fan-out is still being tried
  });

  it('a balance-post feed with a hero filter gets only the posts that change its heroes; the others get every post', async () => {
    const all = await heroes.list();
    const id = (name: string) => all.find((h) => h.name.toLowerCase() === name)!.id;
    const p = poller();
    await p.tick();
    await subscribe('h1', 'balances', 'c-hulk');
    await subscribe('h2', 'balances', 'c-storm');
    await subscribe('h3', 'balances', 'c-all');
    await state.settings.update('h1', (s) => void (s.feeds.balances!.heroes = [id('hulk'), id('groot')]));
    await state.settings.update('h2', (s) => void (s.feeds.balances!.heroes = [id('storm')]));
    r.dataset.posts.balances.unshift({
      id: 'balance-20990801',
      title: 'Balance Post: Hulk',
      date: '2099/08/01',
      overview: 'Hulk changes.',
      fullContent: 'Vanguard\n\nHulk\n- Gamma Burst: Damage increased from 70 to 75',
      imagePath: '/b.jpg',
    });
    await p.tick();
    r.dataset.posts.balances.unshift({
      id: 'balance-20990802',
      title: 'Balance Post: Storm',
      date: '2099/08/02',
      overview: 'Storm changes.',
      fullContent: 'Duelist\n\nStorm\n- Wind Blade: Cooldown reduced from 8s to 6s',
      imagePath: '/b.jpg',
    });
    await p.tick();
    await p.tick();
    expect(channels.titles('c-hulk')).toEqual(['Balance Post: Hulk']);
    expect(channels.titles('c-storm')).toEqual(['Balance Post: Storm']);
    expect(channels.titles('c-all')).toEqual(['Balance Post: Hulk', 'Balance Post: Storm']);
    // The fan-outs are finished: a filtered-out channel is not a delivery waiting to be retried.
    expect(await state.feedState.pending('balances')).toEqual([]);
    r.dataset.posts.balances.splice(0, 2);
  });

  describe('quiet hours', () => {
    /** Moves the poller's clock to `hh:mm` UTC of a fixed day, or of the day after (`nextDay`). */
    const at = (hhmm: string, nextDay = false) => {
      clock.offset = Date.parse(`2099-03-${nextDay ? 11 : 10}T${hhmm}:00Z`) - Date.now();
    };

    it("a post found during quiet hours is held, then delivered once at the window's end, in order; other channels get it at once", async () => {
      at('21:00');
      const p = poller();
      await p.tick();
      await subscribe('q1', 'patchNotes', 'c-quiet');
      await subscribe('q2', 'patchNotes', 'c-open');
      await state.settings.update('q1', (s) => void (s.feeds.patchNotes!.quiet = { start: 22 * 60, end: 8 * 60 }));
      at('23:00');
      const first = addPost('Night patch one');
      await p.tick();
      at('02:30', true);
      const second = addPost('Night patch two');
      await p.tick();
      expect(channels.titles('c-open')).toEqual(['Night patch one', 'Night patch two']);
      expect(channels.count('c-quiet')).toBe(0);
      // Held in the database: both fan-outs are still pending.
      expect((await state.feedState.pending('patchNotes')).map((x) => x.post.id)).toEqual([first, second]);
      at('07:59', true);
      await p.tick();
      expect(channels.count('c-quiet')).toBe(0);
      at('08:00', true);
      await p.tick();
      await p.tick();
      expect(channels.titles('c-quiet')).toEqual(['Night patch one', 'Night patch two']);
      expect(channels.titles('c-open')).toEqual(['Night patch one', 'Night patch two']);
      expect(await state.feedState.pending('patchNotes')).toEqual([]);
    });

    it("quiet hours are read in the channel's time zone", async () => {
      at('12:00');
      const p = poller();
      await p.tick();
      await subscribe('tz', 'patchNotes', 'c-tokyo');
      // 22:00–08:00 in Tokyo (UTC+9) is 13:00–23:00 UTC.
      await state.settings.update('tz', (s) => {
        s.feeds.patchNotes!.quiet = { start: 22 * 60, end: 8 * 60 };
        s.feeds.patchNotes!.timeZone = 'Asia/Tokyo';
      });
      at('14:00');
      addPost('Tokyo night');
      await p.tick();
      expect(channels.count('c-tokyo')).toBe(0);
      at('23:00');
      await p.tick();
      expect(channels.titles('c-tokyo')).toEqual(['Tokyo night']);
    });

    it('a poller holding a post polls again when the window ends, before its next regular poll', async () => {
      // Quiet hours ending in about 2 s of real time.
      const now = new Date(clock.now());
      const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
      clock.offset += (60 - now.getUTCSeconds()) * 1000 - 2_000 - now.getUTCMilliseconds();
      const p = poller();
      await p.tick();
      await subscribe('w', 'patchNotes', 'c-wake');
      await state.settings.update('w', (s) => void (s.feeds.patchNotes!.quiet = { start: (minute + 1439) % 1440, end: (minute + 1) % 1440 }));
      addPost('At the end of the night');
      await p.tick(); // intervalSeconds is 600: only the wake-up can deliver it in time
      expect(channels.count('c-wake')).toBe(0);
      await pollUntil(() => channels.count('c-wake') === 1, 'the delivery at the end of the quiet hours');
      await p.stop();
    });
  });

  it('a new balance post alerts exactly the opted-in members whose mains or watched heroes it changes: one message in the alerts channel, DMs for those who asked, never twice', async () => {
    const all = await heroes.list();
    const id = (name: string) => all.find((h) => h.name.toLowerCase() === name)!.id;
    const p = poller();
    await p.tick();
    await state.settings.update('ga', (s) => void (s.alertsChannelId = 'c-alerts'));
    await state.alerts.update('100000000000000001', 'ga', (m) => void (m.mains = true));
    await state.alerts.saveMains('100000000000000001', { uid: '1', heroes: [id('hulk'), id('loki'), id('groot')], refreshedAt: clock.now() });
    await state.alerts.update('100000000000000002', 'ga', (m) => void (m.heroes = [id('hulk')]));
    await state.alerts.update('100000000000000003', 'ga', (m) => void (m.heroes = [id('storm')]));
    await state.alerts.update('100000000000000004', 'ga', (m) => {
      m.heroes = [id('hulk')];
      m.dm = true;
    });
    r.dataset.posts.balances.unshift({
      id: 'balance-20991001',
      title: 'Balance Post: Hulk',
      date: '2099/10/01',
      overview: 'Hulk changes.',
      fullContent: 'Vanguard\n\nHulk\n- Gamma Burst: Damage increased from 70 to 75',
      imagePath: '/b.jpg',
    });
    await p.tick();
    await p.tick();
    const [alert] = channels.messages.get('c-alerts')!;
    expect(channels.count('c-alerts')).toBe(1);
    expect(alert!.allowed_mentions).toEqual({ parse: [], users: ['100000000000000001', '100000000000000002'] });
    expect(alert!.content).toMatch(/🟢 \*\*Hulk\*\* \(buff\): <@100000000000000001> <@100000000000000002>$/);
    expect(channels.dmsOpened).toEqual(['100000000000000004']);
    expect(channels.messages.get('dm-100000000000000004')!.map((m) => m.content)).toEqual([
      expect.stringContaining('changes heroes you follow: 🟢 **Hulk** (buff).'),
    ]);
    // Planned once, sent once: later polls change nothing.
    await p.tick();
    expect(channels.count('c-alerts')).toBe(1);
    expect(channels.count('dm-100000000000000004')).toBe(1);
    // Retention: a month later the sent alerts and their plan are pruned.
    const rows = async () =>
      (await state.database.db.selectFrom('alert_messages').select('target').execute()).length +
      (await state.database.db.selectFrom('alert_plans').select('post_id').execute()).length;
    expect(await rows()).toBe(3);
    clock.offset += 31 * 24 * 60 * 60_000;
    await p.prune(true);
    expect(await rows()).toBe(0);
    r.dataset.posts.balances.shift();
  });

  it('hero alerts in the right language: a French guild’s channel in French, a member who chose German by direct message in German, one who chose nothing in their server’s', async () => {
    const all = await heroes.list();
    const hulk = all.find((h) => h.name.toLowerCase() === 'hulk')!.id;
    const p = pollerOn(state, channels, { preferredLocale: (g) => (g === 'gj' ? 'ja' : undefined) });
    await p.tick();
    await state.settings.update('gf', (s) => {
      s.alertsChannelId = 'c-fr';
      s.locale = 'fr';
    });
    await state.settings.update('gj', (s) => void (s.alertsChannelId = 'c-ja'));
    await state.alerts.update('100000000000000011', 'gf', (m) => void (m.heroes = [hulk]));
    await state.alerts.update('100000000000000012', 'gj', (m) => void (m.heroes = [hulk]));
    for (const u of ['100000000000000013', '100000000000000014']) {
      await state.alerts.update(u, 'gf', (m) => {
        m.heroes = [hulk];
        m.dm = true;
      });
    }
    await state.links.setLocale('100000000000000013', 'de');
    r.dataset.posts.balances.unshift({
      id: 'balance-20991002',
      title: 'Balance Post: Hulk',
      date: '2099/10/02',
      overview: 'Hulk changes.',
      fullContent: 'Vanguard\n\nHulk\n- Gamma Burst: Damage increased from 70 to 75',
      imagePath: '/b.jpg',
    });
    try {
      await p.tick();
      const hero = (locale: Locale) => trIn(locale, 'feeds:alert.hero', { mark: '🟢', hero: 'Hulk', verdict: trIn(locale, 'feeds:alert.verdict.buff') });
      const [fr] = channels.messages.get('c-fr')!;
      expect(fr!.content).toBe(
        `${trIn('fr', 'feeds:alert.channelHeader', { title: 'Balance Post\\: Hulk' })}\n${trIn('fr', 'feeds:alert.mentions', { hero: hero('fr') })} <@100000000000000011>`,
      );
      expect(fr!.embeds[0]!.author?.name).toBe(trIn('fr', 'feeds:alert.kind.balances'));
      // A guild that chose no language: its Discord language.
      expect(channels.messages.get('c-ja')![0]!.content).toBe(
        `${trIn('ja', 'feeds:alert.channelHeader', { title: 'Balance Post\\: Hulk' })}\n${trIn('ja', 'feeds:alert.mentions', { hero: hero('ja') })} <@100000000000000012>`,
      );
      expect(channels.messages.get('dm-100000000000000013')![0]!.content).toBe(
        trIn('de', 'feeds:alert.dm', { title: 'Balance Post\\: Hulk', heroes: hero('de') }),
      );
      expect(channels.messages.get('dm-100000000000000014')![0]!.content).toBe(
        trIn('fr', 'feeds:alert.dm', { title: 'Balance Post\\: Hulk', heroes: hero('fr') }),
      );
    } finally {
      r.dataset.posts.balances.shift();
    }
  });

  describe('threads', () => {
    const threadPosts = (messageId: string) => channels.messages.get(messageId) ?? [];
    const longText = Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1}: ${'Hulk damage increased from 70 to 75. '.repeat(6)}`).join('\n\n');

    it('posts the overview in the channel and the full text in a thread under it, in parts, once', async () => {
      const p = poller();
      await p.tick();
      await subscribe('t1', 'patchNotes', 'c-thread');
      await subscribe('t2', 'patchNotes', 'c-plain');
      await state.settings.update('t1', (s) => void (s.feeds.patchNotes!.threads = true));
      addPost('A long patch');
      r.dataset.posts.patchNotes[0]!.fullContent = longText;
      await p.tick();
      await p.tick();
      const [message] = channels.messages.get('c-thread')!;
      expect(channels.threads.get(message!.id)).toEqual({ channelId: 'c-thread', name: 'A long patch' });
      const parts = threadPosts(message!.id);
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.every((m) => (m.embeds[0]!.description ?? '').length <= 4096)).toBe(true);
      expect(parts.map((m) => m.embeds[0]!.footer?.text)).toEqual(parts.map((_, i) => `Part ${i + 1} of ${parts.length}`));
      expect(parts.map((m) => m.embeds[0]!.description).join('\n\n')).toContain('Paragraph 30\\:'); // as plain text: the colon escaped
      // Only the thread channel's feed gets a thread; nothing is repeated by later polls.
      expect(channels.threads.size).toBe(1);
      const sends = channels.sends;
      await p.tick();
      expect(channels.sends).toBe(sends);
      expect(await state.feedState.pending('patchNotes')).toEqual([]);
    });

    it('a thread that failed for a while is completed by a later poll; one refused for good is given up and the post stays', async () => {
      const p = poller();
      await p.tick();
      await subscribe('t3', 'patchNotes', 'c-later');
      await state.settings.update('t3', (s) => void (s.feeds.patchNotes!.threads = true));
      channels.threadFail = { status: 503, code: 0 };
      addPost('Patch with a late thread');
      r.dataset.posts.patchNotes[0]!.fullContent = 'The full text.';
      await p.tick();
      expect(channels.count('c-later')).toBe(1);
      expect(channels.threads.size).toBe(0);
      expect(await state.feedState.pending('patchNotes')).toHaveLength(1);
      channels.threadFail = undefined;
      await p.tick();
      const [message] = channels.messages.get('c-later')!;
      expect(channels.count('c-later')).toBe(1);
      expect(threadPosts(message!.id).map((m) => m.embeds[0]!.description)).toEqual(['The full text.']);
      expect(await state.feedState.pending('patchNotes')).toEqual([]);

      await subscribe('t4', 'patchNotes', 'c-refused');
      await state.settings.update('t4', (s) => void (s.feeds.patchNotes!.threads = true));
      channels.threadFail = { status: 403, code: 50013 };
      addPost('Patch without a thread');
      await p.tick();
      expect(channels.titles('c-refused')).toEqual(['Patch without a thread']);
      expect(await state.feedState.pending('patchNotes')).toEqual([]);
      expect(p.lines.some((l) => l.includes('could not post the full text in a thread'))).toBe(true);
      channels.threadFail = undefined;
    });
  });

  describe('digests', () => {
    const at = (iso: string) => {
      clock.offset = Date.parse(iso) - Date.now();
    };
    const digestSub = async (guildId: string, channelId: string, every: 'daily' | 'weekly', atMinutes: number) => {
      await subscribe(guildId, 'patchNotes', channelId, { roleId: 'r-digest' });
      await state.settings.update(guildId, (s) => {
        s.feeds.patchNotes!.digest = { every, at: atMinutes };
        s.feeds.patchNotes!.digestPeriod = digestPeriod({ every, at: atMinutes }, 'UTC', clock.now());
      });
    };

    it('a daily digest of three posts is one message at its time, listing all three; the next days send nothing empty', async () => {
      at('2099-04-01T08:00:00Z');
      const p = poller();
      await p.tick();
      await digestSub('d1', 'c-digest', 'daily', 18 * 60);
      await subscribe('d2', 'patchNotes', 'c-each');
      const ids: string[] = [];
      for (const [hour, title] of [
        ['09', 'Morning patch'],
        ['12', 'Noon patch'],
        ['16', 'Afternoon patch'],
      ] as const) {
        at(`2099-04-01T${hour}:00:00Z`);
        ids.push(addPost(title));
        await p.tick();
      }
      expect(channels.titles('c-each')).toEqual(['Morning patch', 'Noon patch', 'Afternoon patch']);
      expect(channels.count('c-digest')).toBe(0);
      expect((await state.feedDigests.items('d1', 'patchNotes')).map((i) => i.post.id)).toEqual(ids);
      at('2099-04-01T17:59:00Z');
      await p.tick();
      expect(channels.count('c-digest')).toBe(0);
      at('2099-04-01T18:00:30Z');
      await p.tick();
      await p.tick();
      const [digest] = channels.messages.get('c-digest')!;
      expect(channels.count('c-digest')).toBe(1);
      expect(digest!.embeds[0]!.author?.name).toBe('Patch notes of the day');
      expect(digest!.embeds[0]!.fields!.map((f) => f.name)).toEqual(['Morning patch', 'Noon patch', 'Afternoon patch']);
      expect(digest!.content).toBe('<@&r-digest>');
      expect(await state.feedDigests.items('d1', 'patchNotes')).toEqual([]);
      expect((await state.settings.get('d1')).feeds.patchNotes!.digestPeriod).toBe('2099-04-01');
      // A day with no post sends nothing; a post the next day comes in the next digest alone.
      at('2099-04-02T18:01:00Z');
      await p.tick();
      expect(channels.count('c-digest')).toBe(1);
      at('2099-04-03T10:00:00Z');
      addPost('Next patch');
      await p.tick();
      at('2099-04-03T18:00:10Z');
      await p.tick();
      expect(channels.messages.get('c-digest')!.map((m) => m.embeds[0]!.fields!.map((f) => f.name))).toEqual([
        ['Morning patch', 'Noon patch', 'Afternoon patch'],
        ['Next patch'],
      ]);
    });

    it('a digest sent before a crash is not sent again, and the posts it listed are not listed again', async () => {
      at('2099-05-01T08:00:00Z');
      const p = poller();
      await p.tick();
      await digestSub('d3', 'c-crash', 'daily', 12 * 60);
      at('2099-05-01T09:00:00Z');
      addPost('Before the crash');
      await p.tick();
      // The digest reaches Discord, then the process dies before recording it.
      at('2099-05-01T12:00:30Z');
      channels.fail.set('c-crash', 'hang-after-post');
      void poller().tick();
      await pollUntil(() => channels.count('c-crash') === 1, 'the digest at Discord');
      channels.fail.delete('c-crash');
      // The restarted poller, once the claim's lease is past: Discord answers the nonce with the message it has.
      at('2099-05-01T12:06:00Z');
      await poller().tick();
      expect(channels.count('c-crash')).toBe(1);
      expect(await state.feedDigests.items('d3', 'patchNotes')).toEqual([]);
      expect((await state.settings.get('d3')).feeds.patchNotes!.digestPeriod).toBe('2099-05-01');
    });
  });

  describe('posts corrected in place', () => {
    /** The replica's copy of a patch note, to change it "at the API". */
    const atApi = (id: string) => r.dataset.posts.patchNotes.find((p) => p.id === id)! as Record<string, unknown>;
    const deliveryOf = (id: string, channelId: string) =>
      state.database.db
        .selectFrom('deliveries')
        .selectAll()
        .where('feed', '=', 'patchNotes')
        .where('post_id', '=', id)
        .where('channel_id', '=', channelId)
        .executeTakeFirstOrThrow();
    const pendingEdits = async () => (await state.feedPosts.pendingEdits('patchNotes')).map((e) => e.post.id);

    /** Three channels (one pinging a role) that received a new post; returns its id and the poller. */
    async function delivered() {
      const p = poller();
      await p.tick();
      await subscribe('e1', 'patchNotes', 'ce1', { roleId: 're1' });
      await subscribe('e2', 'patchNotes', 'ce2');
      await subscribe('e3', 'patchNotes', 'ce3');
      const id = addPost('Season 10 patch');
      await p.tick();
      for (const c of ['ce1', 'ce2', 'ce3']) expect(channels.count(c)).toBe(1);
      return { p, id };
    }

    it('a post changed at the API edits every message delivered for it, pings nobody, and posts nothing again', async () => {
      const { p, id } = await delivered();
      const sendsBefore = channels.sends;
      atApi(id).overview = 'What changed, corrected. The Hulk nerf is reverted.';
      await p.tick();
      expect(channels.sends).toBe(sendsBefore);
      expect(channels.edits.map((e) => e.channelId).sort()).toEqual(['ce1', 'ce2', 'ce3']);
      for (const c of ['ce1', 'ce2', 'ce3']) {
        const [message] = channels.messages.get(c)!;
        expect(message!.embeds[0]!.description).toBe('What changed, corrected. The Hulk nerf is reverted.');
        expect(message!.embeds[0]!.footer?.text).toBe(correctedFooter());
        expect((await deliveryOf(id, c)).revision).toBe(2);
      }
      // The ping stays as delivered (an edit's body has no content) and nobody is pinged again.
      const edit = channels.edits.find((e) => e.channelId === 'ce1')!;
      expect(edit.body).not.toHaveProperty('content');
      expect(edit.body.allowed_mentions).toEqual({ parse: [] });
      expect(channels.messages.get('ce1')![0]!.content).toBe('<@&re1>');
      expect((await state.settings.get('e1')).feeds.patchNotes!.lastEdit).toMatchObject({ postId: id, error: null });
      expect(await pendingEdits()).toEqual([]);
      // Nothing more to do: the next polls neither edit nor post.
      await p.tick();
      await p.tick();
      expect(channels.edits).toHaveLength(3);
      expect(channels.sends).toBe(sendsBefore);
      // A second correction is a third revision, edited again.
      atApi(id).title = 'Season 10 patch (v2)';
      await p.tick();
      expect(channels.edits).toHaveLength(6);
      expect(channels.titles('ce2')).toEqual(['Season 10 patch (v2)']);
      expect((await deliveryOf(id, 'ce2')).revision).toBe(3);
    });

    it('a change in the full text alone is a correction; formatting drift and a read missing the text are not', async () => {
      const { p, id } = await delivered();
      const post = atApi(id);
      post.fullContent = 'All of it.\r\n ';
      post.overview = '  What changed. ';
      await p.tick();
      expect(channels.edits).toHaveLength(0);
      post.overview = null;
      post.fullContent = null;
      await p.tick();
      expect(channels.edits).toHaveLength(0);
      post.overview = 'What changed.';
      post.fullContent = 'All of it, and a fix to Storm.';
      await p.tick();
      expect(channels.edits).toHaveLength(3);
    });

    it('a deleted message is recorded and never retried; the others are edited', async () => {
      const { p, id } = await delivered();
      channels.editFail.set('ce2', { status: 404, code: 10008 });
      atApi(id).overview = 'Corrected.';
      await p.tick();
      expect(channels.edits.map((e) => e.channelId).sort()).toEqual(['ce1', 'ce2', 'ce3']);
      expect(await deliveryOf(id, 'ce2')).toMatchObject({ revision: 2, edit_error: 'Unknown Message: the message was deleted' });
      expect((await state.settings.get('e2')).feeds.patchNotes!.lastEdit).toMatchObject({ postId: id, error: 'Unknown Message: the message was deleted' });
      // The subscription still works: a failed edit does not mark it broken.
      expect((await state.settings.get('e2')).feeds.patchNotes!.broken).toBeNull();
      await p.tick();
      expect(channels.edits).toHaveLength(3);
      expect(await pendingEdits()).toEqual([]);
    });

    it('a temporary failure is retried on the next polls, and given up after the last attempt', async () => {
      const { p, id } = await delivered();
      channels.editFail.set('ce3', { status: 503, code: 0 });
      atApi(id).overview = 'Corrected.';
      await p.tick();
      expect(await pendingEdits()).toEqual([id]);
      expect((await deliveryOf(id, 'ce3')).revision).toBe(1);
      for (let i = 1; i < MAX_EDIT_ATTEMPTS; i++) await p.tick();
      expect(channels.edits.filter((e) => e.channelId === 'ce3')).toHaveLength(MAX_EDIT_ATTEMPTS);
      expect((await deliveryOf(id, 'ce3')).edit_error).toMatch(/^gave up after 5 attempts/);
      expect(await pendingEdits()).toEqual([]);
      await p.tick();
      expect(channels.edits.filter((e) => e.channelId === 'ce3')).toHaveLength(MAX_EDIT_ATTEMPTS);
    });

    it('recovers when the temporary failure passes', async () => {
      const { p, id } = await delivered();
      channels.editFail.set('ce3', { status: 503, code: 0 });
      atApi(id).overview = 'Corrected.';
      await p.tick();
      channels.editFail.delete('ce3');
      await p.tick();
      expect(await deliveryOf(id, 'ce3')).toMatchObject({ revision: 2, edit_error: null });
      expect(channels.messages.get('ce3')![0]!.embeds[0]!.description).toBe('Corrected.');
    });

    it(`messages delivered more than 14 days ago are left as they are`, async () => {
      const { p, id } = await delivered();
      clock.offset += EDIT_WINDOW_MS + 60_000;
      atApi(id).overview = 'Corrected much later.';
      await p.tick();
      expect(channels.edits).toHaveLength(0);
      expect(await pendingEdits()).toEqual([]);
    });

    it('a channel the fan-out had not reached yet gets the corrected text, sent once', async () => {
      const p = poller();
      await p.tick();
      await subscribe('f1', 'patchNotes', 'cf1');
      await subscribe('f2', 'patchNotes', 'cf2');
      channels.fail.set('cf2', { status: 503, code: 0 });
      const id = addPost('Season 11 patch');
      await p.tick();
      expect(channels.count('cf1')).toBe(1);
      expect(channels.count('cf2')).toBe(0);
      channels.fail.delete('cf2');
      atApi(id).overview = 'Corrected before everyone had it.';
      clock.offset += 60_000; // past the retry's back-off
      await p.tick();
      expect(channels.messages.get('cf2')!.map((m) => m.embeds[0]!.description)).toEqual(['Corrected before everyone had it.']);
      // cf1 is edited; cf2's send was a retry, whose message may be an earlier attempt's (the nonce), so it is brought up to date too.
      expect(channels.edits.map((e) => e.channelId).sort()).toEqual(['cf1', 'cf2']);
      expect(channels.messages.get('cf1')![0]!.embeds[0]!.description).toBe('Corrected before everyone had it.');
      expect(await pendingEdits()).toEqual([]);
    });

    it('a crash in the middle of the edits: the restarted poller edits the rest and posts nothing again', async () => {
      const { id } = await delivered();
      // The "process" that dies: its edits never come back.
      const dying = pollerOn(state, Object.assign(Object.create(channels) as FakeChannels, { edit: () => new Promise<void>(() => undefined) }));
      atApi(id).overview = 'Corrected during a crash.';
      void dying.tick();
      await pollUntil(async () => (await pendingEdits()).includes(id), 'the edit pending in the store');
      const sendsBefore = channels.sends;
      await poller().tick();
      expect(channels.sends).toBe(sendsBefore);
      for (const c of ['ce1', 'ce2', 'ce3']) expect(channels.messages.get(c)!.map((m) => m.embeds[0]!.description)).toEqual(['Corrected during a crash.']);
      expect(await pendingEdits()).toEqual([]);
    });
  });
});

it('backs off: at once, then 30 s doubling up to 30 min', () => {
  expect([1, 2, 3, 4, 10].map(retryDelayMs)).toEqual([0, 30_000, 60_000, 120_000, 30 * 60_000]);
});

/**
 * A member's request queued at `limiter` now, ahead of the feeds: `opened` resolves when the rate limit's
 * window lets it through (the event a stop must not wait for); `giveUp()` takes it out of the queue.
 */
function windowOpens(limiter: UpstreamRateLimiter): { opened: Promise<'window opened'>; giveUp: () => void } {
  const controller = new AbortController();
  const opened = limiter.schedule(async () => 'window opened' as const, 'interactive', undefined, controller.signal);
  opened.catch(() => undefined);
  return { opened, giveUp: () => controller.abort() };
}

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
      // The slow send answers 300 ms after the store failed the fast one's mark (a slow Discord: the
      // scenario, not a wait), long after a poll that did not wait for it would have returned.
      channels.during.set('c-slow', async () => {
        await pollUntil(() => store.refused > 0, "the store to refuse the fast send's mark");
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      addPost();
      await p.tick();
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
