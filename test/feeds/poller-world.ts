/**
 * What the feed poller's tests share: the replica and its API client, a transport that behaves as Discord, the poller's
 * clock, and a poller over a fresh state per test on each engine. Exports are live: `state` and `channels` are each
 * test's own once {@link perEngine} has run its hooks.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { RivalsApi } from '../../src/api/client.js';
import { HeroDirectory } from '../../src/catalog/hero-directory.js';
import { CorrectionEditor } from '../../src/feeds/corrections.js';
import { DeliveryLedger, type FeedTransport } from '../../src/feeds/delivery.js';
import { SOLE_LEADER, type Leadership } from '../../src/feeds/leadership.js';
import { FeedPoller } from '../../src/feeds/poller.js';
import type { MessagePayload } from '../../src/render/view.js';
import type { Replica } from '../../src/replica/server.js';
import type { FeedType } from '../../src/store/guild-settings.js';
import { type State } from '../../src/store/state.js';
import { capturingLogger, clientFor, replica } from '../helpers/replica.js';
import { memoryState, openTestState, type Engine } from '../helpers/state.js';

/** A transport that behaves as Discord: messages per channel, deduplicated by nonce; failures and hooks on demand. */
export class FakeChannels implements FeedTransport {
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

export let r: Replica;
export let api: RivalsApi;
export let heroes: HeroDirectory;
/** Starts the replica and its client for the file, and stops them after it. */
export function withReplica(): void {
  beforeAll(async () => {
    r = await replica();
    api = clientFor(r);
    heroes = new HeroDirectory(api);
  });
  afterAll(async () => {
    await api.close();
    await r.close();
  });
}

/** The poller's and the ledger's clock: real time unless a test moves it. */
export const clock = { offset: 0, now: () => Date.now() + clock.offset };

let postCounter = 0;
/** Adds a patch note on top of the replica's first page; returns its id. */
export function addPost(title = 'A new patch'): string {
  const id = `2099${String(++postCounter).padStart(4, '0')}`;
  r.dataset.posts.patchNotes.unshift({ id, title, date: '2099/01/01', overview: 'What changed.', fullContent: 'All of it.', imagePath: '/p.jpg' });
  return id;
}

/** A poller over `state` (a new "process" each call: its own ledger and memory). */
export function pollerOn(
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

export async function subscribeOn(
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
export const freshState = (engine: Engine): Promise<State> => (engine === 'sqlite' ? Promise.resolve(memoryState()) : openTestState('postgres'));

export let state: State;
export let channels: FakeChannels;
/** Each test of the enclosing describe gets a fresh state on `engine` and a fresh transport, at real time. */
export function perEngine(engine: Engine): void {
  beforeEach(async () => {
    clock.offset = 0;
    state = await freshState(engine);
    channels = new FakeChannels();
  });
  afterEach(async () => {
    await state.close();
  });
}
/** A poller over the test's state ("a new process" each call). */
export const poller = (transport: FeedTransport = channels, leadership: Leadership = SOLE_LEADER) => pollerOn(state, transport, { leadership });
/** Subscribes the test's state's guild `guildId` to `type` in `channelId`. */
export const subscribe = (guildId: string, type: FeedType, channelId: string, extra?: Parameters<typeof subscribeOn>[4]) =>
  subscribeOn(state, guildId, type, channelId, extra);
