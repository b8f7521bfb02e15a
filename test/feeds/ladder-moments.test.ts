/** Ladder moments: planned by the store when a standing crosses a tier or a peak division, posted once through the ledger. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { momentsBetween, type Standing } from '../../src/game/ladder.js';
import { DeliveryLedger, type FeedTransport } from '../../src/feeds/delivery.js';
import { LadderMoments } from '../../src/feeds/ladder-moments.js';
import type { MessagePayload } from '../../src/render/view.js';
import type { State } from '../../src/store/state.js';
import { memoryState } from '../helpers/state.js';

const GUILD = 'g1';
const CHANNEL = 'c1';
const T0 = Date.UTC(2026, 10, 1);
const logger = pino({ level: 'silent' });

const standing = (tier: string, score: number, extra: Partial<Standing> = {}): Standing => ({
  season: 9,
  tier,
  score,
  peak: score,
  matches: 10,
  role: 'Duelist',
  weekDelta: null,
  private: false,
  ...extra,
});

/** Keeps what each send carried; `failWith` makes every send throw it. */
class Transport implements FeedTransport {
  sent: { channelId: string; body: MessagePayload }[] = [];
  failWith: unknown;
  async send(channelId: string, body: MessagePayload & { nonce: string; enforce_nonce: true }) {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- whatever the test set, as a transport would
    if (this.failWith) throw this.failWith;
    this.sent.push({ channelId, body });
    await new Promise((resolve) => setImmediate(resolve));
    return { id: `m${this.sent.length}` };
  }
  async crosspost() {}
  async edit() {}
  async startThread(): Promise<{ id: string }> {
    throw new Error('not used');
  }
  async openDm(): Promise<{ id: string }> {
    throw new Error('not used');
  }
}

describe('momentsBetween', () => {
  it('a tier crossed either way, and a peak in a new division; nothing within a tier, across seasons or from nothing', () => {
    expect(momentsBetween(standing('Gold I', 3880), standing('Platinum III', 3905))).toEqual([
      { kind: 'rank-up', from: 'Gold I', to: 'Platinum III' },
      { kind: 'peak', score: 3905 },
    ]);
    expect(momentsBetween(standing('Platinum III', 3905), standing('Gold I', 3880, { peak: 3905 }))).toEqual([
      { kind: 'rank-down', from: 'Platinum III', to: 'Gold I' },
    ]);
    // Gold II → Gold I is a division, not a tier; 3,820 → 3,850 stays in the peak's division.
    expect(momentsBetween(standing('Gold II', 3820), standing('Gold I', 3850))).toEqual([]);
    expect(momentsBetween(null, standing('Gold I', 3850))).toEqual([]);
    expect(momentsBetween(standing('Gold I', 3850, { season: 8 }), standing('Diamond I', 4250))).toEqual([]);
    expect(momentsBetween(standing('Gold I', 3850), standing('Diamond I', 4250, { private: true }))).toEqual([]);
  });
});

describe('ladder moments', () => {
  let state: State;
  let transport: Transport;
  let moments: LadderMoments;
  beforeEach(async () => {
    state = memoryState();
    transport = new Transport();
    moments = new LadderMoments({
      ladder: state.ladder,
      settings: state.settings,
      ledger: new DeliveryLedger(state.database.db, transport, logger, () => T0),
      logger,
      now: () => T0,
    });
    await state.links.link('m1', { uid: '100', name: 'Card1gan' }, true, T0);
    await state.database.db.updateTable('account_links').set({ verified_at: T0 }).where('user_id', '=', 'm1').execute();
    await state.ladder.configure(GUILD, { enabled: true, momentsChannelId: CHANNEL }, T0);
    await state.ladder.setStanding('100', standing('Gold I', 3880), T0);
    await state.ladder.join(GUILD, 'm1', T0);
  });
  afterEach(() => state.close());

  it('posts a rank-up once, mentioning the member, however often the same change is read and however many senders run', async () => {
    await state.ladder.setStanding('100', standing('Platinum III', 3905, { peak: 3890 }), T0 + 1);
    // Another process read the same profile.
    await state.ladder.setStanding('100', standing('Platinum III', 3905, { peak: 3890 }), T0 + 2);
    const [a, b] = await Promise.all([moments.send(), moments.send()]);
    expect(a + b).toBe(1);
    expect(await moments.send()).toBe(0);
    expect(transport.sent).toHaveLength(1);
    const { channelId, body } = transport.sent[0]!;
    expect(channelId).toBe(CHANNEL);
    expect(body.content).toBe('<@m1>');
    expect(body.allowed_mentions).toEqual({ parse: [], users: ['m1'] });
    expect(body.embeds[0]!.description).toBe('<@m1> ranked up on **Card1gan**: Gold I → **Platinum III**.');
    expect(await state.ladder.pendingMoments(10)).toEqual([]);
  });

  it('a member who turned mentions off is named without a ping; the server’s language is used', async () => {
    await state.ladder.join(GUILD, 'm1', T0, { mentionsOff: true });
    await state.settings.update(GUILD, (s) => void (s.locale = 'de'));
    await state.ladder.setStanding('100', standing('Gold I', 3880, { peak: 3990 }), T0 + 1);
    await moments.send();
    const { body } = transport.sent[0]!;
    expect(body.content).toBe('');
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds[0]!.description).toBe('<@m1> hat mit **Card1gan** einen neuen Saison-Höchstwert erreicht: **3.990**.');
  });

  it('kinds turned off, a server without a channel, and members not listed plan nothing', async () => {
    await state.ladder.configure(GUILD, { kinds: ['peak'] }, T0);
    await state.ladder.setStanding('100', standing('Platinum III', 3890, { peak: 3890 }), T0 + 1);
    expect(await state.ladder.pendingMoments(10)).toEqual([]);
    await state.ladder.configure(GUILD, { kinds: ['rank', 'peak'], momentsChannelId: null }, T0);
    await state.ladder.setStanding('100', standing('Diamond III', 4205), T0 + 2);
    expect(await state.ladder.pendingMoments(10)).toEqual([]);
    await state.ladder.configure(GUILD, { momentsChannelId: CHANNEL }, T0);
    await state.ladder.join(GUILD, 'm1', T0, { optedOut: true });
    await state.ladder.setStanding('100', standing('Grandmaster III', 4505), T0 + 3);
    expect(await state.ladder.pendingMoments(10)).toEqual([]);
    // The sender ran and had nothing to send.
    expect(await moments.send()).toBe(0);
    expect(transport.sent).toEqual([]);
  });

  it('a channel the bot cannot post in settles the moment with a log line instead of trying forever; a temporary failure is tried again', async () => {
    await state.ladder.setStanding('100', standing('Platinum III', 3905, { peak: 3890 }), T0 + 1);
    transport.failWith = { status: 503, message: 'Service Unavailable' };
    expect(await moments.send()).toBe(0);
    expect(await state.ladder.pendingMoments(10)).toHaveLength(1);
    transport.failWith = { code: 50001, status: 403, message: 'Missing Access' };
    // The ledger waits before a retry: move past it.
    const later = new LadderMoments({
      ladder: state.ladder,
      settings: state.settings,
      ledger: new DeliveryLedger(state.database.db, transport, logger, () => T0 + 3_600_000),
      logger,
      now: () => T0 + 3_600_000,
    });
    expect(await later.send()).toBe(0);
    expect(await state.ladder.pendingMoments(10)).toEqual([]);
  });

  it('/privacy delete removes the moments about the member', async () => {
    await state.ladder.setStanding('100', standing('Platinum III', 3905, { peak: 3890 }), T0 + 1);
    expect(await state.ladder.pendingMoments(10)).toHaveLength(1);
    await state.memberData.erase('m1', T0);
    expect(await state.ladder.pendingMoments(10)).toEqual([]);
  });
});
