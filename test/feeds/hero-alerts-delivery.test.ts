/** Hero alerts from the feed poller: the opted-in members whose heroes a balance post changes, once, in their language, on both engines. */
import { describe, expect, it } from 'vitest';
import { trIn, type Locale } from '../../src/i18n/index.js';
import { ENGINES } from '../helpers/state.js';
import { channels, clock, heroes, perEngine, poller, pollerOn, r, state, withReplica } from './poller-world.js';

withReplica();

describe.each(ENGINES)("the feed poller's hero alerts on %s", (engine) => {
  perEngine(engine);

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
});
