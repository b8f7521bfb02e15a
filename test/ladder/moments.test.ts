/** Ladder moments: planned by the store when a standing crosses a tier or a peak division, posted once through the ledger. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { momentsBetween } from '../../src/game/ladder.js';
import { DeliveryLedger, type FeedTransport } from '../../src/feeds/delivery.js';
import { LadderMoments, recapDue } from '../../src/ladder/moments.js';
import type { MessagePayload } from '../../src/render/view.js';
import type { State } from '../../src/store/state.js';
import { insertTrackedMatch, memoryState } from '../helpers/state.js';
import { standing } from '../helpers/standing.js';

const GUILD = 'g1';
const CHANNEL = 'c1';
const T0 = Date.UTC(2026, 10, 1);
const logger = pino({ level: 'silent' });

/** Keeps what each send carried; `failWith` makes every send throw it. */
class Transport implements FeedTransport {
  sent: { channelId: string; body: MessagePayload & { nonce?: string } }[] = [];
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
  async ownMessagesAfter(channelId: string) {
    return this.sent.flatMap((s, i) => (s.channelId === channelId ? [{ ...s.body, id: `m${i + 1}` }] : []));
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

  it('/privacy export lists the moments about the member; /privacy delete removes them', async () => {
    await state.ladder.setStanding('100', standing('Platinum III', 3905, { peak: 3890 }), T0 + 1);
    expect(await state.ladder.pendingMoments(10)).toHaveLength(1);
    const exported = (await state.memberData.collect('m1')).moments;
    expect(exported).toEqual([{ guildId: GUILD, channelId: CHANNEL, moment: expect.anything() as unknown, createdAt: T0 + 1, settledAt: null }]);
    expect(JSON.stringify(exported[0]!.moment)).toContain('Platinum III');
    await state.memberData.erase('m1', T0);
    expect((await state.memberData.collect('m1')).moments).toEqual([]);
    expect(await state.ladder.pendingMoments(10)).toEqual([]);
  });
});

describe('recapDue', () => {
  it('the latest recap day and time at or before an instant, in the server’s time zone, across a change of clocks', () => {
    // Monday 2026-11-02 is a Monday; 18:00 in Paris is 17:00 UTC in November.
    const monday18Paris = Date.UTC(2026, 10, 2, 17, 0);
    expect(recapDue(1, 18 * 60, 'Europe/Paris', monday18Paris)).toEqual({ date: '2026-11-02', minutesAgo: 0 });
    expect(recapDue(1, 18 * 60, 'Europe/Paris', monday18Paris - 60_000)).toEqual({ date: '2026-10-26', minutesAgo: 7 * 1440 - 1 });
    expect(recapDue(1, 18 * 60, 'Europe/Paris', monday18Paris + 90 * 60_000)).toEqual({ date: '2026-11-02', minutesAgo: 90 });
    // The Monday after the clocks went back (25 October): still 18:00 local, now 17:00 UTC; a week earlier it was 16:00 UTC.
    expect(recapDue(1, 18 * 60, 'Europe/Paris', Date.UTC(2026, 9, 19, 16, 0))).toEqual({ date: '2026-10-19', minutesAgo: 0 });
    expect(recapDue(0, 0, 'UTC', Date.UTC(2026, 10, 1, 0, 0))).toEqual({ date: '2026-11-01', minutesAgo: 0 });
  });
});

describe('top 3, season cards, the weekly recap, quiet hours and a deleted channel', () => {
  let state: State;
  let transport: Transport;
  let now = T0;
  const sender = () =>
    new LadderMoments({
      ladder: state.ladder,
      settings: state.settings,
      ledger: new DeliveryLedger(state.database.db, transport, logger, () => now),
      heroNames: async () =>
        new Map([
          ['1041', 'Winter Soldier'],
          ['1022', 'Captain America'],
        ]),
      logger,
      now: () => now,
    });
  /** Member `user` listed by `uid`, in `tier` at `score`. */
  const member = async (user: string, uid: string, tier: string, score: number) => {
    await state.links.link(user, { uid, name: `P${uid}` }, true, T0);
    await state.database.db.updateTable('account_links').set({ verified_at: T0 }).where('user_id', '=', user).execute();
    await state.ladder.setStanding(uid, standing(tier, score), T0);
    await state.ladder.join(GUILD, user, T0);
  };
  const match = (uid: string, n: number, playedAt: number, extra: { hero?: string; mvp?: boolean; score?: number; season?: number } = {}) =>
    insertTrackedMatch(state.database.db, {
      uid,
      match_uid: `${uid}-${n}`,
      played_at: playedAt,
      season: extra.season ?? 9,
      hero_id: extra.hero ?? '1041',
      new_score: extra.score ?? 3900,
      score_change: 20,
      new_level: 12,
      kills: 10,
      deaths: 5,
      assists: 3,
      mvp: extra.mvp ? 1 : 0,
      recorded_at: T0,
    });

  beforeEach(async () => {
    state = memoryState();
    transport = new Transport();
    now = T0;
    await state.ladder.configure(GUILD, { enabled: true, momentsChannelId: CHANNEL }, T0);
    await member('a', '1', 'Diamond I', 4290);
    await member('b', '2', 'Diamond II', 4150);
    await member('c', '3', 'Diamond III', 4020);
    await member('d', '4', 'Platinum I', 3990);
  });
  afterEach(() => state.close());

  it('a member moving into the top 3 is posted with their place, once a day however often they move in and out', async () => {
    await state.ladder.setStanding('4', standing('Diamond II', 4160), T0 + 1);
    await sender().send();
    expect(transport.sent.map((s) => s.body.embeds[0]!.description)).toEqual([
      '<@d> ranked up on **P4**: Platinum I → **Diamond II**.',
      '<@d> reached a new season peak on **P4**: **4,160**.',
      '<@d> entered the top 3 of the ladder on **P4**: **#2** with 4,160.',
    ]);
    // Out and back in the same day: not posted again. A member already in the top 3 moving within it: nothing.
    await state.ladder.setStanding('4', standing('Diamond II', 4100, { peak: 4160 }), T0 + 2);
    await state.ladder.setStanding('4', standing('Diamond II', 4170, { peak: 4170 }), T0 + 3);
    await state.ladder.setStanding('1', standing('Diamond I', 4295, { peak: 4295 }), T0 + 4);
    expect(await state.ladder.pendingMoments(10)).toEqual([]);
    // The next day it is news again.
    await state.ladder.setStanding('4', standing('Diamond II', 4000, { peak: 4170 }), T0 + 86_400_000);
    await state.ladder.setStanding('4', standing('Diamond II', 4180, { peak: 4180 }), T0 + 86_400_001);
    expect((await state.ladder.pendingMoments(10)).map((m) => m.moment)).toEqual([{ kind: 'top3', place: 2, score: 4180 }]);
    // Turned off: nothing planned.
    await state.ladder.configure(GUILD, { kinds: ['rank', 'peak'] }, T0);
    await state.ladder.setStanding('4', standing('Diamond II', 4000, { peak: 4180 }), T0 + 2 * 86_400_000);
    await state.ladder.setStanding('4', standing('Diamond II', 4190, { peak: 4190 }), T0 + 2 * 86_400_000 + 1);
    expect((await state.ladder.pendingMoments(10)).map((m) => m.moment.kind)).toEqual(['top3']);
  });

  it('when a member’s new season is read, their last season’s card is posted: final rank, peak, matches, change and heroes', async () => {
    await match('4', 1, 1_000, { hero: '1022', score: 3850 });
    await match('4', 2, 2_000, { hero: '1041', score: 3900 });
    await match('4', 3, 3_000, { hero: '1041', score: 3990 });
    // Another season's match is not this one's.
    await match('4', 4, 4_000, { hero: '1022', season: 8 });
    await state.ladder.setStanding('4', standing('Gold I', 3800, { season: 10, matches: 0, peak: 3800 }), T0 + 1);
    await sender().send();
    const card = transport.sent.map((s) => s.body.embeds[0]!).find((e) => e.title?.startsWith('Season'));
    expect(card).toEqual({
      color: 0x8b5cf6,
      title: 'Season 5 is over · P4',
      description: "<@d>'s season, as the bot recorded it.",
      fields: [
        { name: 'Final rank', value: 'Platinum I · 3,990', inline: true },
        { name: 'Season peak', value: '3,990', inline: true },
        { name: 'Ranked matches recorded', value: '10', inline: true },
        { name: 'Change over the season', value: '+160.0', inline: true },
        { name: 'Most played heroes', value: 'Winter Soldier, Captain America', inline: true },
      ],
    });
    // A member who played no ranked match that season gets no card.
    await state.ladder.setStanding('3', standing('Diamond III', 4020, { matches: 0 }), T0 + 2);
    await state.ladder.setStanding('3', standing('Gold I', 3800, { season: 10, matches: 0 }), T0 + 3);
    expect(await state.ladder.pendingMoments(10)).toEqual([]);
  });

  it('the weekly recap goes out at its day and hour in the server’s time zone, once, with the week’s leaders and the new top 3', async () => {
    // Monday 18:00 in Paris: 2026-11-02T17:00Z.
    const due = Date.UTC(2026, 10, 2, 17, 0);
    await state.ladder.configure(GUILD, { recapDay: 1, recapAt: 18 * 60, timeZone: 'Europe/Paris' }, T0);
    await state.ladder.setStanding('2', standing('Diamond II', 4150, { weekDelta: 85 }), T0 + 1);
    const inWeek = Math.floor(due / 1000) - 3 * 86_400;
    await match('1', 1, inWeek, { mvp: true });
    await match('1', 2, inWeek + 60, { mvp: true });
    await match('3', 3, inWeek + 120, { hero: '1022' });
    await match('3', 4, inWeek + 180, { hero: '1022' });
    await match('3', 5, inWeek + 240, { hero: '1022', mvp: true });
    // Before the week: not counted.
    await match('2', 6, inWeek - 10 * 86_400, { hero: '1022' });
    // P1 and P3 on one team: two wins and a loss; P2 and P3 once, too few for a duo of the week.
    const together = async (matchUid: string, uids: string[], won: 0 | 1, playedAt: number) => {
      for (const uid of uids) await insertTrackedMatch(state.database.db, { uid, match_uid: matchUid, played_at: playedAt, won, recorded_at: T0 });
    };
    await together('duo-1', ['1', '3'], 1, inWeek + 300);
    await together('duo-2', ['1', '3'], 1, inWeek + 400);
    await together('duo-3', ['1', '3'], 0, inWeek + 500);
    await together('duo-4', ['2', '3'], 1, inWeek + 600);
    for (const m of await state.ladder.pendingMoments(50)) await state.ladder.settleMoment(m, T0);

    now = due - 60_000;
    expect(await sender().send()).toBe(0);
    now = due + 5 * 60_000;
    const [x, y] = await Promise.all([sender().send(), sender().send()]);
    expect(x + y).toBe(1);
    expect(await sender().send()).toBe(0);
    const recap = transport.sent.at(-1)!.body;
    expect(recap.content).toBe('');
    expect(recap.allowed_mentions).toEqual({ parse: [] });
    expect(recap.embeds[0]).toEqual({
      color: 0x5865f2,
      title: 'This week on the ladder',
      description: 'Members listed: 4 · from the matches the bot recorded in the last 7 days.',
      fields: [
        { name: 'Most improved', value: '<@b> P2 · +85.0' },
        { name: 'Most matches', value: '<@c> P3 · 7' },
        { name: 'Most MVPs', value: '<@a> P1 · 2' },
        { name: 'Most played hero', value: 'Captain America · 3' },
        { name: 'Duo of the week', value: '<@a> P1 & <@c> P3 · 2–1 together' },
        // The first recap has nothing to compare with: nobody is marked new.
        { name: 'Top 3 (🆕 new since the last recap)', value: '**1.** <@a> P1 · 4,290\n**2.** <@b> P2 · 4,150\n**3.** <@c> P3 · 4,020' },
      ],
    });
    // A week later: d has climbed into the top 3, and is marked new; a recap more than a day late is skipped.
    await state.ladder.setStanding('4', standing('Diamond II', 4200), T0 + 5);
    now = due + 7 * 86_400_000 + 60_000;
    await sender().send();
    expect(transport.sent.at(-1)!.body.embeds[0]!.fields!.at(-1)!.value).toBe('**1.** <@a> P1 · 4,290\n**2.** <@d> P4 · 4,200 🆕\n**3.** <@b> P2 · 4,150');
    const before = transport.sent.length;
    now = due + 14 * 86_400_000 + 25 * 3_600_000;
    expect(await sender().send()).toBe(0);
    expect(transport.sent).toHaveLength(before);
  });

  it('quiet hours hold moments until they end; a deleted channel turns the posts off and is kept for /config status', async () => {
    // 23:00–07:00 in UTC; T0 is midnight.
    await state.ladder.configure(GUILD, { quiet: { start: 23 * 60, end: 7 * 60 } }, T0);
    // Another server, without quiet hours, lists the same member.
    await state.ladder.configure('g2', { enabled: true, momentsChannelId: 'c9' }, T0);
    await state.ladder.join('g2', 'd', T0);
    await state.ladder.setStanding('4', standing('Diamond III', 4010), T0 + 1);
    now = T0 + 3_600_000;
    await sender().send();
    expect(transport.sent.map((x) => x.channelId)).toEqual(['c9', 'c9']);
    expect(new Set((await state.ladder.pendingMoments(10)).map((m) => m.guildId))).toEqual(new Set([GUILD]));
    transport.sent = [];
    now = T0 + 7 * 3_600_000;
    transport.failWith = { code: 10003, status: 404, message: 'Unknown Channel' };
    expect(await sender().send()).toBe(0);
    const s = await state.ladder.settings(GUILD);
    expect(s.momentsChannelId).toBeNull();
    expect(s.problem).toMatchObject({ code: 10003, channelId: CHANNEL });
    // Nothing more is planned while the posts are off; an admin's new channel clears the problem.
    await state.ladder.setStanding('4', standing('Platinum I', 3990), T0 + 2);
    expect((await state.ladder.pendingMoments(10)).filter((m) => m.guildId === GUILD)).toEqual([]);
    expect((await state.ladder.configure(GUILD, { momentsChannelId: 'c2' }, T0)).problem).toBeNull();
    // A moment planned for the old channel failing afterwards neither turns the new one off nor reports a problem.
    await state.ladder.setMomentsProblem(GUILD, { code: 10003, reason: 'Unknown Channel', channelId: CHANNEL, at: now }, true);
    expect(await state.ladder.settings(GUILD)).toMatchObject({ momentsChannelId: 'c2', problem: null });
  });
});
