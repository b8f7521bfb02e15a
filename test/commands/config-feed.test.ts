/**
 * `/config feed` run again on a feed already set: only the options given change, the answer lists
 * exactly those, and a backfill asked for is delivered by a poll started at once (the real feed
 * poller and delivery ledger over the bot's store, with a transport that behaves as Discord).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Invoker } from '../../src/discord/command.js';
import { DeliveryLedger, type FeedTransport } from '../../src/feeds/delivery.js';
import { CorrectionEditor } from '../../src/feeds/corrections.js';
import { SOLE_LEADER } from '../../src/feeds/leadership.js';
import { FeedPoller } from '../../src/feeds/poller.js';
import { fetchFeed } from '../../src/feeds/read.js';
import { createFeedTester } from '../../src/feeds/test-post.js';
import { runInLocale } from '../../src/i18n/index.js';
import type { MessagePayload } from '../../src/render/view.js';
import { ADMIN, testChannels, useReplicaBot } from '../helpers/bot.js';
import { capturingLogger } from '../helpers/replica.js';
import { pollUntil } from '../helpers/until.js';

const env = useReplicaBot();
afterEach(() => {
  testChannels.announcement.clear();
  delete env.b.ctx.feedTester;
});

const config = (sub: string, options: Record<string, string | number | boolean>, user: Invoker = ADMIN) => env.b.run('config', options, sub, user);
const stored = async (guildId: string) => (await env.b.ctx.settings.get(guildId)).feeds;

/** Discord's side of feed sends: messages per channel, a repeated nonce answered with the message it created. */
class Channels implements FeedTransport {
  readonly messages = new Map<string, (MessagePayload & { id: string })[]>();
  readonly #nonces = new Map<string, string>();
  #id = 0;
  async send(channelId: string, body: MessagePayload & { nonce: string; enforce_nonce: true }) {
    const existing = this.#nonces.get(`${channelId}:${body.nonce}`);
    if (existing) return { id: existing };
    const id = String(++this.#id);
    this.#nonces.set(`${channelId}:${body.nonce}`, id);
    this.messages.set(channelId, [...(this.messages.get(channelId) ?? []), { ...body, id }]);
    return { id };
  }
  async crosspost() {}
  async edit() {}
  async startThread(_channelId: string, messageId: string) {
    return { id: messageId };
  }
  async openDm(userId: string) {
    return { id: `dm-${userId}` };
  }
  async ownMessagesAfter(channelId: string) {
    return this.messages.get(channelId) ?? [];
  }
  titles(channelId: string): string[] {
    return (this.messages.get(channelId) ?? []).map((m) => m.embeds[0]!.title ?? '');
  }
}

/**
 * A feed poller over the bot's store whose regular polls never come during a test (an hour apart,
 * never started), wired into /config as the runtime wires it.
 */
function pollerWired(channels: Channels) {
  const { logger, lines } = capturingLogger();
  const state = env.b.state;
  const now = () => env.b.clock.now;
  const poller = new FeedPoller({
    api: env.b.ctx.api,
    db: state.database.db,
    feedState: state.feedState,
    settings: state.settings,
    ledger: new DeliveryLedger(state.database.db, channels, logger, now),
    feedPosts: state.feedPosts,
    digests: state.feedDigests,
    editor: new CorrectionEditor(state.database.db, channels, logger, now),
    leadership: SOLE_LEADER,
    logger,
    intervalSeconds: 3600,
    now,
  });
  let polls = 0;
  env.b.ctx.feedTester = createFeedTester(env.b.ctx.api, state.settings, channels, () => {
    polls++;
    void poller.pollNow();
  });
  return { poller, lines, polls: () => polls };
}

describe('/config feed run again', () => {
  it('changes only the options given, keeps the rest, and lists exactly what changed', async () => {
    const guild = { ...ADMIN, guildId: '310000000000000001' };
    testChannels.announcement.add('540');
    const first = await config(
      'feed',
      {
        type: 'balances',
        channel: '540',
        role: '601',
        publish: true,
        heroes: 'hulk',
        quiet: '22:00-08:00',
        timezone: 'Europe/Paris',
        digest: 'daily',
        at: '18:00',
        thread: true,
      },
      guild,
    );
    expect(first.payload.content).toBe('Balance posts will be posted in <#540>.');
    const before = (await stored(guild.guildId)).balances!;
    expect(before).toMatchObject({
      roleId: '601',
      publish: true,
      quiet: { start: 1320, end: 480 },
      timeZone: 'Europe/Paris',
      digest: { every: 'daily', at: 1080 },
      threads: true,
    });
    expect(before.heroes).toHaveLength(1);

    // Only the role: everything else stays, down to the digest's period and the channel's history.
    await env.b.ctx.settings.update(guild.guildId, (s) => void (s.feeds.balances!.lastDelivered = { postId: 'b1', at: 1 }));
    const role = await config('feed', { type: 'balances', channel: '540', role: '602' }, guild);
    expect(role.payload.content).toBe('Balance posts: changed as asked, everything else kept.\n• pings <@&602>');
    const afterRole = (await stored(guild.guildId)).balances!;
    expect(afterRole).toEqual({ ...before, roleId: '602', lastDelivered: { postId: 'b1', at: 1 }, since: afterRole.since });
    // A new identity for the poller's marks, yet still counting posts from when the channel was set.
    expect(afterRole.since).toBe(before.since + 1);

    // Options given with the values they already have: nothing changed, and the answer says so.
    const same = await config('feed', { type: 'balances', channel: '540', role: '602', publish: true, quiet: '22:00-08:00' }, guild);
    expect(same.payload.content).toBe('Balance posts: nothing changed, every option given was already set that way.');

    // Several at once, listed in the order of /config show; the hero filter and the role stay.
    const several = await config('feed', { type: 'balances', channel: '540', quiet: 'off', digest: 'off', thread: false, backfill: 2 }, guild);
    expect(several.payload.content).toBe(
      'Balance posts: changed as asked, everything else kept.\n• also the latest 2 posts\n• no quiet hours\n• one message per post\n• no thread',
    );
    expect((await stored(guild.guildId)).balances).toMatchObject({ roleId: '602', heroes: before.heroes, timeZone: 'Europe/Paris', backfill: 2 });
    expect((await stored(guild.guildId)).balances).not.toHaveProperty('digestPeriod');

    // Another channel, not an announcement channel: the settings move with the feed, publishing
    // cannot, and the channel's history starts again.
    const moved = await config('feed', { type: 'balances', channel: '541' }, guild);
    expect(moved.payload.content).toBe('Balance posts: changed as asked, everything else kept.\n• now in <#541>\n• not published');
    expect((await stored(guild.guildId)).balances).toMatchObject({
      channelId: '541',
      roleId: '602',
      heroes: before.heroes,
      publish: false,
      lastDelivered: null,
      since: env.b.clock.now,
    });

    // A channel that had stopped posting: set again, it posts again, and the answer says so (in the admin's language).
    await env.b.ctx.settings.update(guild.guildId, (s) => void (s.feeds.balances!.broken = { code: 50013, reason: 'Missing Permissions', at: 1 }));
    const fixed = await runInLocale('de', () => config('feed', { type: 'balances', channel: '541', timezone: 'UTC' }, guild));
    expect(fixed.payload.content).toBe('Balance-Updates: wie angegeben geändert, alles andere bleibt.\n• postet wieder\n• Zeitzone UTC');
    expect((await stored(guild.guildId)).balances).toMatchObject({ broken: null, roleId: '602' });
    expect((await stored(guild.guildId)).balances).not.toHaveProperty('timeZone');
  });

  it('a new digest schedule counts from now; an unchanged one keeps the period it was in', async () => {
    const guild = { ...ADMIN, guildId: '310000000000000002' };
    await config('feed', { type: 'devDiaries', channel: '545', digest: 'daily', at: '10:00' }, guild);
    // The period the poller last sent, which a run that does not touch the digest must not reset.
    await env.b.ctx.settings.update(guild.guildId, (s) => void (s.feeds.devDiaries!.digestPeriod = 'day-2000-01-01'));
    await config('feed', { type: 'devDiaries', channel: '545', role: '603' }, guild);
    expect((await stored(guild.guildId)).devDiaries!.digestPeriod).toBe('day-2000-01-01');
    const moved = await config('feed', { type: 'devDiaries', channel: '545', at: '11:00' }, guild);
    expect(moved.payload.content).toBe('Dev diaries: changed as asked, everything else kept.\n• digest every day at 11:00 (UTC)');
    expect((await stored(guild.guildId)).devDiaries!.digestPeriod).not.toBe('day-2000-01-01');
  });

  it('a backfill is posted at once, not at the next poll; asked again on the same channel, only the posts it lacks follow', async () => {
    const guild = { ...ADMIN, guildId: '310000000000000003' };
    const channels = new Channels();
    const { poller, polls } = pollerWired(channels);
    // The feed's first poll (it records what exists and posts nothing), so the backfill is all that sends.
    await poller.tick();
    expect(channels.titles('550')).toEqual([]);
    const latest = (await fetchFeed(env.b.ctx.api, 'devDiaries')).map((p) => p.post.title);

    const answer = await config('feed', { type: 'devDiaries', channel: '550', backfill: 2 }, guild);
    expect(answer.payload.content).toBe('Dev diaries will be posted in <#550>, starting with the latest 2.');
    expect(polls()).toBe(1);
    // The poller's own polls are an hour apart and were never started: only the poll /config started can send these.
    await pollUntil(() => channels.titles('550').length === 2, 'the backfill', { timeoutMs: 10_000, context: () => JSON.stringify(channels.titles('550')) });
    expect(channels.titles('550')).toEqual([latest[1], latest[0]]);
    await pollUntil(async () => (await stored(guild.guildId)).devDiaries!.backfill === 0, 'the backfill cleared', { timeoutMs: 10_000, context: () => '' });

    // A larger backfill on the same channel: the delivery ledger keeps the two already there from being sent again.
    const again = await config('feed', { type: 'devDiaries', channel: '550', backfill: 3 }, guild);
    expect(again.payload.content).toBe('Dev diaries: changed as asked, everything else kept.\n• also the latest 3 posts');
    expect(polls()).toBe(2);
    await pollUntil(() => channels.titles('550').length === 3, 'the third post', { timeoutMs: 10_000, context: () => JSON.stringify(channels.titles('550')) });
    await poller.pollNow();
    await poller.tick();
    expect(channels.titles('550')).toEqual([latest[1], latest[0], latest[2]]);

    // No backfill asked: no poll started.
    await config('feed', { type: 'devDiaries', channel: '550', role: '604' }, guild);
    expect(polls()).toBe(2);
    await poller.stop();
  });

  it('set again during quiet hours: the post it holds still reaches the channel when they end', async () => {
    const guild = { ...ADMIN, guildId: '310000000000000004' };
    const realNow = env.b.clock.now;
    const channels = new Channels();
    const { poller } = pollerWired(channels);
    try {
      env.b.clock.now = Date.parse('2099-03-01T23:00:00Z');
      await poller.tick();
      await config('feed', { type: 'devDiaries', channel: '560', quiet: '22:00-08:00' }, guild);
      env.b.clock.now += 60_000;
      const id = `quiet-${realNow}`;
      env.r.dataset.posts.devDiaries.unshift({
        id,
        title: 'Found in the quiet hours',
        date: '2099/03/01',
        overview: 'Held.',
        fullContent: 'Held until morning.',
        imagePath: '/q.jpg',
      });
      await poller.tick();
      // Found and held: pending, not sent.
      expect((await env.b.state.feedState.pending('devDiaries')).map((p) => p.post.id)).toContain(id);
      expect(channels.titles('560')).toEqual([]);

      env.b.clock.now += 60_000;
      expect((await config('feed', { type: 'devDiaries', channel: '560', role: '605' }, guild)).payload.content).toBe(
        'Dev diaries: changed as asked, everything else kept.\n• pings <@&605>',
      );
      env.b.clock.now = Date.parse('2099-03-02T08:01:00Z');
      await poller.tick();
      const [message] = channels.messages.get('560') ?? [];
      expect(message?.embeds[0]!.title).toBe('Found in the quiet hours');
      expect(message?.content).toBe('<@&605>');
    } finally {
      env.b.clock.now = realNow;
      await poller.stop();
    }
  });
});
