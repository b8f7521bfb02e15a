/**
 * The feed poller over the relational store, on both engines (in-memory SQLite and a fresh
 * PostgreSQL database per test), with the real API client on the replica and a transport that
 * behaves as Discord. A last part kills and restarts a PostgreSQL server of its own under the poller.
 */
import { describe, expect, it } from 'vitest';
import { HeroDirectory } from '../../src/catalog/hero-directory.js';
import { CLAIM_LEASE_MS, DeliveryLedger, deliveryNonce, MAX_ATTEMPTS, retryDelayMs } from '../../src/feeds/delivery.js';
import { FAN_OUT_CONCURRENCY } from '../../src/feeds/fan-out.js';
import { PRUNE_INTERVAL_MS } from '../../src/store/retention.js';
import { capturingLogger, clientFor } from '../helpers/replica.js';
import { UpstreamRateLimiter } from '../../src/api/rate-limiter.js';
import { ENGINES } from '../helpers/state.js';
import { pollUntil } from '../helpers/until.js';
import { addPost, channels, clock, heroes, perEngine, poller, pollerOn, r, state, subscribe, withReplica } from './poller-world.js';

withReplica();

describe.each(ENGINES)('the feed poller on %s', (engine) => {
  perEngine(engine);

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
