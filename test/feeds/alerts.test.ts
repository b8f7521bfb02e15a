/** Working out hero alerts: who is told, where, and in messages within Discord's limits (src/feeds/alerts.ts planAlerts). */
import { describe, expect, it, vi } from 'vitest';
import { MainsRefresher, MAX_MENTIONS_PER_MESSAGE, planAlerts, type AlertAudience } from '../../src/feeds/alerts.js';
import type { RivalsApi } from '../../src/api/client.js';
import type { AccountLinksRepository } from '../../src/store/account-links.js';
import type { AlertsRepository } from '../../src/store/alerts.js';
import { capturingLogger } from '../helpers/replica.js';
import { runInLocale, trIn, type Locale } from '../../src/i18n/index.js';
import type { AlertMember } from '../../src/store/alerts.js';

const post = {
  id: 'b1',
  title: 'Balance Post: Hulk and Storm',
  date: '2099-01-01',
  overview: 'Numbers.',
  image: null,
  heroes: ['1011', '1015'],
  verdicts: { '1011': 'nerf' as const, '1015': 'buff' as const },
};
const NAMES: Record<string, string> = { '1011': 'Hulk', '1015': 'Storm', '1016': 'Loki' };
const member = (userId: string, guildId: string, extra: Partial<AlertMember> = {}): AlertMember => ({
  userId,
  guildId,
  mains: false,
  heroes: [],
  dm: false,
  ...extra,
});
const audience = (members: AlertMember[], mains: Record<string, string[]> = {}, channels: Record<string, string> = { g1: 'c-alerts' }): AlertAudience => ({
  members,
  mains: new Map(Object.entries(mains).map(([u, heroes]) => [u, { uid: `uid-${u}`, heroes, refreshedAt: 0 }])),
  alertsChannel: (g) => channels[g],
  heroName: (id) => NAMES[id] ?? id,
});

describe('hero alerts', () => {
  it('mention exactly the members whose mains or watched heroes the post changes, once per channel, with the verdicts', () => {
    const planned = planAlerts(
      'balances',
      post,
      audience(
        [
          member('u1', 'g1', { mains: true }),
          member('u2', 'g1', { heroes: ['1015'] }),
          member('u3', 'g1', { mains: true }),
          member('u4', 'g1', { heroes: ['1016'] }),
          member('u5', 'g1', { mains: false, heroes: [] }),
        ],
        { u1: ['1011', '1016', '1020'], u3: ['1016', '1020', '1021'] },
      ),
    );
    expect(planned).toHaveLength(1);
    const [alert] = planned;
    expect(alert!.target).toBe('c-alerts');
    expect(alert!.view.allowedUserIds).toEqual(['u1', 'u2']);
    expect(alert!.view.content).toBe(
      '🔔 **Balance Post\\: Hulk and Storm** changes heroes members here follow:\n🔴 **Hulk** (nerf): <@u1>\n🟢 **Storm** (buff): <@u2>',
    );
  });

  it('one message per guild channel; a member who asked for direct messages gets one, whatever the guilds; a guild without a channel tells nobody in it', () => {
    const planned = planAlerts(
      'patchNotes',
      post,
      audience(
        [
          member('u1', 'g1', { heroes: ['1011'] }),
          member('u2', 'g2', { heroes: ['1011'] }),
          member('u3', 'g1', { heroes: ['1011'], dm: true }),
          member('u3', 'g2', { heroes: ['1015'], dm: true }),
          member('u4', 'g3', { heroes: ['1011'] }),
        ],
        {},
        { g1: 'c1', g2: 'c2' },
      ),
    );
    expect(planned.map((p) => [p.target, p.view.allowedUserIds ?? []])).toEqual([
      ['c1', ['u1']],
      ['c2', ['u2']],
      ['dm:u3', []],
    ]);
    expect(planned[2]!.view.content).toContain('changes heroes you follow: 🔴 **Hulk** (nerf), 🟢 **Storm** (buff).');
  });

  it('split into parts of at most 100 mentions and 2,000 characters, every member mentioned once', () => {
    const many = Array.from({ length: 250 }, (_, i) => member(`1${String(i).padStart(17, '0')}`, 'g1', { heroes: ['1011', '1015'] }));
    const planned = planAlerts('balances', post, audience(many));
    expect(planned.length).toBeGreaterThan(2);
    for (const p of planned) {
      expect(p.view.content!.length).toBeLessThanOrEqual(2000);
      expect(p.view.allowedUserIds!.length).toBeLessThanOrEqual(MAX_MENTIONS_PER_MESSAGE);
      // Everyone mentioned in the text may be pinged, and no one else.
      const mentioned = [...p.view.content!.matchAll(/<@(\d+)>/g)].map((m) => m[1]!);
      expect(new Set(mentioned)).toEqual(new Set(p.view.allowedUserIds));
    }
    expect(planned.map((p) => p.part)).toEqual(planned.map((_, i) => i + 1));
    const all = new Set(planned.flatMap((p) => p.view.allowedUserIds!));
    expect(all.size).toBe(250);
    // The same inputs plan the same messages (a crash re-plans nothing different).
    expect(planAlerts('balances', post, audience(many))).toEqual(planned);
  });

  it('each in its reader’s language: a channel in its guild’s, a direct message in the member’s own, else their server’s', () => {
    const locales: Record<string, Locale> = { g1: 'fr', g2: 'ja' };
    const planned = planAlerts('balances', post, {
      ...audience(
        [
          member('u1', 'g1', { heroes: ['1011'] }),
          member('u2', 'g2', { heroes: ['1011'], dm: true }),
          member('u3', 'g2', { heroes: ['1015'], dm: true }),
          member('u4', '', { heroes: ['1015'] }),
        ],
        {},
        { g1: 'c-fr' },
      ),
      localeOf: (g) => locales[g] ?? 'en',
      memberLocale: (u) => (u === 'u2' ? 'de' : null),
    });
    expect(planned.map((p) => p.target)).toEqual(['c-fr', 'dm:u2', 'dm:u3', 'dm:u4']);
    const [channel, german, japanese, english] = planned;
    // The French guild's channel: header, verdict, embed and button in French.
    expect(channel!.view.content).toBe(
      `${trIn('fr', 'feeds:alert.channelHeader', { title: 'Balance Post\\: Hulk and Storm' })}\n🔴 **Hulk** (${trIn('fr', 'feeds:alert.verdict.nerf')})\u00a0: <@u1>`,
    );
    expect(channel!.view.embeds![0]!.author?.name).toBe('Équilibrage');
    expect(channel!.view.components![0]!.components[0]).toMatchObject({ label: trIn('fr', 'feeds:post.readAll') });
    // The member who chose German gets German, although their server speaks Japanese.
    expect(german!.view.content).toBe(
      trIn('de', 'feeds:alert.dm', {
        title: 'Balance Post\\: Hulk and Storm',
        heroes: trIn('de', 'feeds:alert.hero', { mark: '🔴', hero: 'Hulk', verdict: 'Nerf' }),
      }),
    );
    expect(german!.view.embeds![0]!.author?.name).toBe(trIn('de', 'feeds:alert.kind.balances'));
    // One who chose nothing: their server's language; one following heroes only from direct messages: the current locale.
    expect(japanese!.view.content).toBe(
      trIn('ja', 'feeds:alert.dm', {
        title: 'Balance Post\\: Hulk and Storm',
        heroes: trIn('ja', 'feeds:alert.hero', { mark: '🟢', hero: 'Storm', verdict: trIn('ja', 'feeds:alert.verdict.buff') }),
      }),
    );
    expect(english!.view.content).toContain('changes heroes you follow: 🟢 **Storm** (buff).');
    expect(runInLocale('es-ES', () => planAlerts('balances', post, audience([member('u4', '', { heroes: ['1015'] })])))[0]!.view.content).toBe(
      trIn('es-ES', 'feeds:alert.dm', {
        title: 'Balance Post\\: Hulk and Storm',
        heroes: trIn('es-ES', 'feeds:alert.hero', { mark: '🟢', hero: 'Storm', verdict: trIn('es-ES', 'feeds:alert.verdict.buff') }),
      }),
    );
  });

  it('a post that changes no hero alerts nobody', () => {
    expect(planAlerts('balances', { ...post, verdicts: {} }, audience([member('u1', 'g1', { heroes: ['1011'] })]))).toEqual([]);
  });
});

describe('the hourly mains refresh', () => {
  it('reads stale mains only in the process that leads: the others are asked each turn and read nothing', async () => {
    const staleMains = vi.fn(async () => [] as string[]);
    const { logger } = capturingLogger();
    const make = () =>
      new MainsRefresher({
        api: {} as unknown as RivalsApi,
        links: {} as unknown as AccountLinksRepository,
        alerts: { staleMains } as unknown as AlertsRepository,
        logger,
      });
    const follower = make();
    let asked = 0;
    follower.start(10, async () => (asked++, false));
    await vi.waitFor(() => expect(asked).toBeGreaterThanOrEqual(3), { timeout: 5_000 });
    await follower.stop();
    expect(staleMains).not.toHaveBeenCalled();
    const leader = make();
    leader.start(10, async () => true);
    await vi.waitFor(() => expect(staleMains.mock.calls.length).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    await leader.stop();
  });

  it('stop() gives up the profile read under way, even while it waits for the rate limit, and logs no failure', async () => {
    const reads: AbortSignal[] = [];
    const api = {
      player: (_uid: string, _params: unknown, options?: { signal?: AbortSignal }) =>
        new Promise<never>((_, reject) => {
          const signal = options!.signal!;
          reads.push(signal);
          signal.addEventListener('abort', () => reject(signal.reason as unknown));
        }),
    } as unknown as RivalsApi;
    const { logger, lines } = capturingLogger();
    const refresher = new MainsRefresher({
      api,
      links: { defaultUid: async () => '1234' } as unknown as AccountLinksRepository,
      alerts: { staleMains: async () => ['1', '2', '3'] } as unknown as AlertsRepository,
      logger,
    });
    // The run itself, to tell a stop that ended it from one that gave up waiting for it after its 5 s bound.
    const runs = vi.spyOn(refresher, 'refreshStale');
    refresher.start(60_000);
    await vi.waitFor(() => expect(reads).toHaveLength(1), { timeout: 5_000 });
    const order: string[] = [];
    const ended = () => order.push('run ended');
    void (runs.mock.results[0]!.value as Promise<void>).then(ended, ended);
    await refresher.stop();
    order.push('stop returned');
    // The read never answers unless given up: the run ended, and stop() returned because it had, not at its bound.
    expect(order).toEqual(['run ended', 'stop returned']);
    // The first member's read was given up, and the next members were not read.
    expect(reads).toHaveLength(1);
    expect(reads[0]!.aborted).toBe(true);
    expect(lines.filter((l) => l.includes('"level":40'))).toEqual([]);
  });
});
