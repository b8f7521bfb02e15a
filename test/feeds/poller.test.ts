import Keyv from 'keyv';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RivalsApi } from '../../src/api/client.js';
import { DeliveryLedger, MAX_ATTEMPTS, retryDelayMs, type FeedTransport } from '../../src/feeds/delivery.js';
import { SOLE_LEADER, type Leadership } from '../../src/feeds/leadership.js';
import { FeedPoller } from '../../src/feeds/poller.js';
import type { MessagePayload } from '../../src/render/view.js';
import type { Replica } from '../../src/replica/server.js';
import { GuildSettingsRepository, type FeedType } from '../../src/store/guild-settings.js';
import { capturingLogger, clientFor, replica } from '../helpers/replica.js';

/** A transport that behaves as Discord: messages per channel, deduplicated by nonce; failures on demand. */
class FakeChannels implements FeedTransport {
  readonly messages = new Map<string, (MessagePayload & { nonce: string; id: string })[]>();
  readonly nonces = new Map<string, string>();
  readonly fail = new Map<string, { status: number; code: number } | 'hang'>();
  readonly crossposted: string[] = [];
  /** Send attempts per channel, whatever their result. */
  readonly attempts = new Map<string, number>();
  sends = 0;
  #id = 1000;
  async send(channelId: string, body: MessagePayload & { nonce: string; enforce_nonce: true }) {
    this.sends++;
    this.attempts.set(channelId, (this.attempts.get(channelId) ?? 0) + 1);
    const f = this.fail.get(channelId);
    if (f === 'hang') return new Promise<{ id: string }>(() => undefined);
    if (f) throw Object.assign(new Error(`HTTP ${f.status}`), f);
    const existing = this.nonces.get(`${channelId}:${body.nonce}`);
    if (existing) return { id: existing };
    const id = String(++this.#id);
    this.nonces.set(`${channelId}:${body.nonce}`, id);
    this.messages.set(channelId, [...(this.messages.get(channelId) ?? []), { ...body, id }]);
    return { id };
  }
  async crosspost(channelId: string, messageId: string) {
    this.crossposted.push(`${channelId}/${messageId}`);
  }
  count(channelId: string) {
    return this.messages.get(channelId)?.length ?? 0;
  }
}

let r: Replica;
let api: RivalsApi;
beforeAll(async () => {
  r = await replica();
  api = clientFor(r);
});
afterAll(async () => {
  await api.close();
  await r.close();
});

let state: Keyv;
let settings: GuildSettingsRepository;
let channels: FakeChannels;
beforeEach(() => {
  clock.offset = 0;
  state = new Keyv();
  settings = new GuildSettingsRepository(state);
  channels = new FakeChannels();
});

/** The ledger's clock: real time unless a test moves it. */
const clock = { offset: 0, now: () => Date.now() + clock.offset };

function poller(transport: FeedTransport = channels, leadership: Leadership = SOLE_LEADER) {
  const { logger } = capturingLogger();
  return new FeedPoller({ api, state, settings, ledger: new DeliveryLedger(state, transport, logger, clock.now), leadership, logger, intervalSeconds: 600 });
}

async function subscribe(guildId: string, type: FeedType, channelId: string, extra: { roleId?: string; backfill?: number; publish?: boolean; since?: number } = {}) {
  await settings.update(guildId, (s) => {
    s.feeds[type] = { channelId, roleId: extra.roleId ?? null, since: extra.since ?? Date.now(), publish: extra.publish ?? false, backfill: extra.backfill ?? 0, broken: null, lastDelivered: null };
  });
}

let postCounter = 0;
function addPost(title = 'A new patch'): string {
  const id = `2099${String(++postCounter).padStart(4, '0')}`;
  r.dataset.posts.patchNotes.unshift({ id, title, date: '2099/01/01', overview: 'What changed.', fullContent: 'All of it.', imagePath: '/p.jpg' });
  return id;
}

describe('the feed poller', () => {
  it('records what exists on its first run and posts nothing', async () => {
    await subscribe('g1', 'patchNotes', 'c1');
    await poller().tick();
    expect(channels.sends).toBe(0);
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
    expect((await settings.get('g3')).feeds.patchNotes!.lastDelivered?.postId).toBe(id);
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
    expect((await settings.get('locked')).feeds.patchNotes!.broken).toMatchObject({ code: 50013, reason: expect.stringMatching(/^Missing Permissions/) });
    expect(channels.sends).toBe(sendsAfterFirst); // not retried forever
  });

  it('retries a temporary failure on the next poll, and gives up after the last attempt', async () => {
    const p = poller();
    await p.tick();
    await subscribe('flaky', 'patchNotes', 'c-flaky');
    channels.fail.set('c-flaky', { status: 503, code: 0 });
    addPost();
    await p.tick();
    expect(channels.count('c-flaky')).toBe(0);
    channels.fail.delete('c-flaky');
    await p.tick();
    expect(channels.count('c-flaky')).toBe(1);
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
  });

  it('a crash in the middle of a fan-out: the restarted poller delivers the rest and repeats none', async () => {
    const first = poller();
    await first.tick();
    for (let i = 1; i <= 20; i++) await subscribe(`crash${i}`, 'patchNotes', `k${i}`);
    addPost('Crash test');
    // The process "dies" while a send is on the wire: that send hangs forever, the rest never start.
    channels.fail.set('k5', 'hang');
    void first.tick();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = [...Array(20).keys()].filter((i) => channels.count(`k${i + 1}`) === 1).length;
    expect(before).toBeLessThan(20);
    channels.fail.delete('k5');
    const sendsBefore = channels.sends;
    await poller().tick(); // the restarted process, on the same store
    for (let i = 1; i <= 20; i++) expect(channels.count(`k${i}`), `k${i}`).toBe(1);
    // The claims, not Discord's nonce, keep the restart from sending again: one send, to the channel left.
    expect(channels.sends - sendsBefore).toBe(20 - before);
  });

  it('a send that reached Discord before the crash is not posted twice (the nonce)', async () => {
    const p = poller();
    await p.tick();
    await subscribe('n', 'patchNotes', 'c-n');
    const id = addPost();
    // Sent, then the process died before marking it done: the claim is all the store has.
    await state.set(`delivery:patchNotes:${id}:c-n`, { v: 1, state: 'claimed', attempts: 1, at: Date.now(), messageId: null });
    const { deliveryNonce } = await import('../../src/feeds/delivery.js');
    channels.nonces.set(`c-n:${deliveryNonce({ feed: 'patchNotes', postId: id, channelId: 'c-n' })}`, '555');
    await p.tick();
    expect(channels.count('c-n')).toBe(0);
    expect((await state.get(`delivery:patchNotes:${id}:c-n`)) as { state: string; messageId: string }).toMatchObject({ state: 'done', messageId: '555' });
  });

  it('backfills the latest N posts once when the admin asked', async () => {
    const p = poller();
    await p.tick();
    await subscribe('bf', 'devDiaries', 'c-bf', { backfill: 3 });
    await p.tick();
    await p.tick();
    expect(channels.messages.get('c-bf')!.map((m) => m.embeds[0]!.title)).toEqual(['Dev Diary #4: Making of a map', 'Dev Diary #5: Competitive integrity', 'Dev Diary #6: Designing Season 5']);
    expect((await settings.get('bf')).feeds.devDiaries!.backfill).toBe(0);
  });

  it('publishes in announcement channels when asked', async () => {
    const p = poller();
    await p.tick();
    await subscribe('pub', 'patchNotes', 'c-pub', { publish: true });
    addPost();
    await p.tick();
    expect(channels.crossposted).toEqual([`c-pub/${channels.messages.get('c-pub')![0]!.id}`]);
  });

  it('backs off: at once, then 30 s doubling up to 30 min', () => {
    expect([1, 2, 3, 4, 10].map(retryDelayMs)).toEqual([0, 30_000, 60_000, 120_000, 30 * 60_000]);
  });

  it('does nothing in a process that does not lead', async () => {
    const follower = poller(channels, { isLeader: async () => false, release: async () => undefined });
    await follower.tick();
    await subscribe('f', 'patchNotes', 'c-f');
    addPost();
    await follower.tick();
    expect(channels.sends).toBe(0);
    expect(await state.get('feed:patchNotes')).toBeUndefined();
  });
});
