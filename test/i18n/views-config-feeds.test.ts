/**
 * The views of /config, /link and /alerts and the feed messages (feed post, digest, hero alert, thread
 * parts) in every locale: rendered inside runInLocale, each is in that language (known
 * labels read from the locale files, and no English text of the namespaces `config`, `link`, `feeds`
 * and `render` left in the other languages; src/render/strings.ts sentences are not checked here), and each stays within Discord's limits before
 * src/render/limits.ts has to cut anything, even in German and French, which run longer.
 */
import type { MessageKey } from '../../src/i18n/keys.js';
import { describe, expect, it } from 'vitest';
import { planAlerts, MAX_MENTIONS_PER_MESSAGE } from '../../src/feeds/alerts.js';
import { digestView } from '../../src/feeds/digest.js';
import { feedPostView, threadPartViews, type FeedPost } from '../../src/feeds/render.js';
import { LOCALES, readLocaleFile, runInLocale, trIn, type Locale } from '../../src/i18n/index.js';
import { LIMITS } from '../../src/render/limits.js';
import type { View } from '../../src/render/view.js';
import type { AlertMember } from '../../src/store/alerts.js';
import { ADMIN, MEMBER, testChannels, useReplicaBot } from '../helpers/bot.js';
import { expectFitsUncut, messageTexts } from '../helpers/limits.js';

const env = useReplicaBot();

/** Every leaf of a locale file, by its dotted key (plural suffixes kept: `count_one`). */
function leaves(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) for (const [key, text] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(key, text);
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/**
 * The English texts of `namespaces` that `text` (rendered in `locale`) still holds: each English
 * message's literal pieces between placeholders (those with a letter and 3 characters or more), found
 * as whole words, case-sensitively. A piece the locale's own message (any plural form) also holds is
 * the same in both languages and allowed.
 */
function englishLeft(text: string, locale: Locale, namespaces: string[]): string[] {
  const found: string[] = [];
  for (const ns of namespaces) {
    const en = leaves(readLocaleFile('en', ns));
    const own = leaves(readLocaleFile(locale, ns));
    for (const [key, message] of en) {
      const base = key.replace(PLURAL, '');
      const ownTexts = [...own].filter(([k]) => k.replace(PLURAL, '') === base).map(([, v]) => v);
      for (const piece of message.split(/\{\{[^}]+\}\}/).map((p) => p.trim())) {
        if (piece.length < 3 || !/\p{L}/u.test(piece) || ownTexts.some((o) => o.includes(piece))) continue;
        const escaped = piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        if (new RegExp(`(?<!\\p{L})${escaped}(?!\\p{L})`, 'u').test(text)) found.push(`${ns}:${key} “${piece}”`);
      }
    }
  }
  return found;
}

/**
 * A view is in `locale` (no English of `namespaces` left unless the same in both) and within Discord's
 * limits, as rendered and as sent, with nothing cut by src/render/limits.ts `fitView` (test/helpers/limits.ts).
 */
function expectLocalised(view: View, locale: Locale, namespaces: string[], where: string) {
  if (locale !== 'en') expect(englishLeft(messageTexts(view).join('\n'), locale, namespaces), `${where} in ${locale}`).toEqual([]);
  expectFitsUncut(view, `${where} in ${locale}`);
}

/** The message `key` of `locale` is not the English one (so that finding it proves the language). */
function expectTranslated(locale: Locale, key: MessageKey, values?: Record<string, string | number>) {
  if (locale !== 'en') expect(trIn(locale, key, values), `${key} in ${locale}`).not.toBe(trIn('en', key, values));
}

describe('/config, /link and /alerts in every locale', () => {
  it('/config show and status: titles, feed names, On/Off, pings, published, not posting, last post', async () => {
    testChannels.announcement.add('701');
    try {
      await env.b.run('config', { type: 'patchNotes', channel: '701', role: '801', publish: true }, 'feed', ADMIN);
      await env.b.run('config', { type: 'balances', channel: '702' }, 'feed', ADMIN);
      await env.b.run('config', { channel: '703' }, 'alerts', ADMIN);
      await env.b.ctx.settings.update(ADMIN.guildId, (s) => {
        s.feeds.patchNotes!.broken = { code: 50013, reason: 'Missing Permissions', at: 1_763_000_000_000 };
        s.feeds.patchNotes!.lastDelivered = { postId: '20251113', at: 1_763_000_000_000 };
      });
      for (const locale of LOCALES) {
        const show = await runInLocale(locale, () => env.b.run('config', {}, 'show', ADMIN));
        const embed = show.view.embeds![0]!;
        expect(embed.title).toBe(trIn(locale, 'config:show.title'));
        expect(embed.fields!.map((f) => f.name).slice(0, 4)).toEqual(
          (['patchNotes', 'balances', 'devDiaries', 'gameVersions'] as const).map((f) => trIn(locale, `feeds:name.${f}`)),
        );
        expect(embed.fields![0]!.value).toBe(
          `<#701> · ${trIn(locale, 'config:show.pings', { roleId: '801' })} · ${trIn(locale, 'config:show.published')} · ${trIn(locale, 'config:show.notPosting')}`,
        );
        expect(embed.fields![2]!.value).toBe(trIn(locale, 'config:off'));
        const field = (key: MessageKey) => embed.fields!.find((f) => f.name === trIn(locale, key));
        expect(field('config:show.privateAnswers')?.value).toBe(trIn(locale, 'config:off'));
        expect(field('config:show.display')?.value).toBe(trIn(locale, 'config:display.cards'));
        expect(field('ladder:title')?.value).toBe(trIn(locale, 'config:off'));
        expect(field('ladder:roles.title')?.value).toBe(trIn(locale, 'config:off'));
        for (const key of ['config:show.title', 'config:off', 'config:show.published', 'feeds:name.patchNotes'] as const) expectTranslated(locale, key);
        expectLocalised(show.view, locale, ['config', 'feeds', 'render', 'ladder'], '/config show');

        const status = (await runInLocale(locale, () => env.b.run('config', {}, 'status', ADMIN))).view;
        expect(status.embeds![0]!.title).toBe(trIn(locale, 'config:status.title'));
        expect(status.embeds![0]!.fields![0]!.value).toContain(
          trIn(locale, 'config:status.lastPost', { when: '<t:1763000000:R>', post: trIn(locale, 'config:status.postId', { postId: '20251113' }) }),
        );
        expect(status.embeds![0]!.fields![1]!.value).toBe(`<#702> · ${trIn(locale, 'config:status.noPostYet')}\n${trIn(locale, 'config:status.noProblem')}`);
        expectLocalised(status, locale, ['config', 'feeds', 'render'], '/config status');

        const reset = (await runInLocale(locale, () => env.b.run('config', {}, 'reset', ADMIN))).view;
        const labels = reset.components![0]!.components.map((c) => ('label' in c ? c.label : ''));
        expect(labels).toEqual([trIn(locale, 'config:reset.confirm'), trIn(locale, 'config:reset.cancel')]);
        expectLocalised(reset, locale, ['config'], '/config reset');
      }
      // Known texts of the French, German and Japanese files.
      expect(trIn('fr', 'config:show.title')).toBe('Paramètres du serveur');
      expect(trIn('de', 'feeds:name.patchNotes')).toBe('Patchnotes');
      expect(trIn('ja', 'config:off')).toBe('オフ');
    } finally {
      testChannels.announcement.clear();
    }
  });

  it('/link and /unlink: the link view within limits; "All linked accounts" in the member\'s language', async () => {
    for (const locale of LOCALES) {
      const linked = await runInLocale(locale, () => env.b.run('link', { player: 'Card1gan' }));
      expect(linked.view.isError).toBeFalsy();
      expectLocalised(linked.view, locale, ['link'], '/link');
      const choices = await env.b.router.autocomplete(
        'unlink',
        { focused: { name: 'player', value: '' }, options: {}, user: { ...MEMBER, locale } },
        env.b.ctx,
      );
      // Recent lookups stay out whatever the language of their label: only the linked account, then "all".
      expect(choices.map((c) => c.value)).toEqual(['1403392756', 'all']);
      expect(choices.at(-1)!.name).toBe(trIn(locale, 'link:allAccounts'));
      expect(choices.every((c) => c.name.length <= LIMITS.choiceName)).toBe(true);
      expectTranslated(locale, 'link:allAccounts');
    }
    expect(trIn('fr', 'link:allAccounts')).toBe('Tous les comptes liés');
    expect(trIn('de', 'link:allAccounts')).toBe('Alle verknüpften Konten');
    expect(trIn('ja', 'link:allAccounts')).toBe('連携中のすべてのアカウント');
  });

  it("/alerts list: the watched heroes listed the locale's way, within limits", async () => {
    await env.b.run('alerts', { name: 'storm' }, 'hero');
    await env.b.run('alerts', { name: 'hulk' }, 'hero');
    for (const locale of LOCALES) {
      const list = (await runInLocale(locale, () => env.b.run('alerts', {}, 'list'))).view;
      const separator = trIn(locale, 'render:listSeparator');
      expect(list.embeds![0]!.description).toContain(`**Storm${separator}Hulk**`);
      // Its sentences are src/render/strings.ts's (t.*); what this view renders itself is the list.
      expectLocalised(list, locale, ['render'], '/alerts list');
    }
    expect(trIn('ja', 'render:listSeparator')).toBe('、');
  });
});

describe('feed messages in every locale', () => {
  const longTitle = `Version 20990310 ${'Hulk and Storm adjustments '.repeat(12)}`.trim();
  const patchNote: FeedPost = {
    id: '20990310',
    title: longTitle,
    date: '2099-03-10',
    overview: 'Season 9 arrives. '.repeat(240),
    image: null,
    content: 'Hulk: damage 40 → 45.\n\n'.repeat(2_000),
  };

  it('a patch note: author line, read button, corrected footer; its thread parts numbered', () => {
    for (const locale of LOCALES) {
      const view = runInLocale(locale, () => feedPostView('patchNotes', patchNote, '801', true));
      const embed = view.embeds![0]!;
      expect(embed.author?.name).toBe(trIn(locale, 'feeds:post.new.patchNotes'));
      expect(embed.footer?.text).toBe(trIn(locale, 'feeds:post.corrected'));
      expect(view.components![0]!.components[0]).toMatchObject({ label: trIn(locale, 'feeds:post.readAll') });
      for (const key of ['feeds:post.new.patchNotes', 'feeds:post.corrected', 'feeds:post.readAll'] as const) expectTranslated(locale, key);
      expectLocalised(view, locale, ['feeds', 'render'], 'patch note');
      const version = runInLocale(locale, () => feedPostView('gameVersions', { ...patchNote, content: undefined }, null));
      expect(version.components![0]!.components[0]).toMatchObject({ label: trIn(locale, 'feeds:post.readPatchNotes') });
      expectLocalised(version, locale, ['feeds', 'render'], 'game version');

      const parts = runInLocale(locale, () => threadPartViews('patchNotes', patchNote));
      expect(parts.length).toBeGreaterThan(2);
      expect(parts[0]!.embeds![0]!.footer?.text).toBe(trIn(locale, 'feeds:thread.part', { part: 1, total: parts.length }));
      expect(parts.at(-1)!.embeds![0]!.footer?.text).toBe(trIn(locale, 'feeds:thread.partCutShort', { part: parts.length, total: parts.length }));
      for (const [i, part] of parts.entries()) expectLocalised(part, locale, ['feeds', 'render'], `thread part ${i + 1}`);
    }
    expect(runInLocale('fr', () => feedPostView('patchNotes', patchNote, null)).embeds![0]!.author?.name).toBe('Nouvelles notes de patch');
    expect(runInLocale('de', () => feedPostView('patchNotes', patchNote, null)).components![0]!.components[0]).toMatchObject({ label: 'Alles lesen' });
    expect(runInLocale('ja', () => feedPostView('patchNotes', patchNote, null)).embeds![0]!.author?.name).toBe('新しいパッチノート');
  });

  it('a digest: title, count in the right plural, schedule, dates in the locale, menu placeholder; 40 long posts within limits', () => {
    const post = (i: number): FeedPost => ({
      id: `p${i}`,
      title: `${'Season 9 changes '.repeat(20)}${i}`,
      date: '2099-03-10',
      overview: 'Numbers moved. '.repeat(30),
      image: null,
    });
    const many = Array.from({ length: 40 }, (_, i) => post(i));
    for (const locale of LOCALES) {
      const one = runInLocale(locale, () => digestView('patchNotes', { every: 'daily', at: 18 * 60 }, 'Europe/Paris', [post(1)], null)).embeds![0]!;
      expect(one.title).toBe(trIn(locale, 'feeds:digest.count', { count: 1, n: '1' }));
      const view = runInLocale(locale, () => digestView('balances', { every: 'weekly', at: 9 * 60 }, 'America/Argentina/ComodRivadavia', many, '801'));
      const embed = view.embeds![0]!;
      expect(embed.author?.name).toBe(trIn(locale, 'feeds:digest.title.balances.weekly'));
      expect(embed.title).toBe(trIn(locale, 'feeds:digest.count', { count: 40, n: '40' }));
      expect(embed.description).toBe(trIn(locale, 'feeds:digest.older', { count: 15, n: '15', shown: '25' }));
      expect(embed.footer?.text).toBe(
        trIn(locale, 'feeds:digest.footer', { when: trIn(locale, 'feeds:digest.weekly', { time: '09:00', zone: 'America/Argentina/ComodRivadavia' }) }),
      );
      const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.parse('2099-03-10T00:00:00Z'));
      expect(view.components![0]!.components[0]).toMatchObject({ placeholder: trIn(locale, 'feeds:digest.readOne') });
      expect((view.components![0]!.components[0] as { options: { description?: string }[] }).options[0]!.description).toBe(date);
      for (const key of ['feeds:digest.title.balances.weekly', 'feeds:digest.footer', 'feeds:digest.readOne'] as const)
        expectTranslated(locale, key, { when: 'x' });
      expectLocalised(view, locale, ['feeds', 'render'], 'digest');
    }
    const fr = runInLocale('fr', () => digestView('patchNotes', { every: 'daily', at: 18 * 60 }, 'UTC', [post(1), post(2)], null));
    expect(fr.embeds![0]!).toMatchObject({ author: { name: 'Notes de patch du jour' }, title: '2 publications' });
    expect(fr.embeds![0]!.fields![0]!.value).toMatch(/^\*10 mars 2099\* · /);
    expect(runInLocale('de', () => digestView('patchNotes', { every: 'daily', at: 0 }, 'UTC', [post(1)], null)).embeds![0]!.title).toBe('1 Beitrag');
    expect(runInLocale('ja', () => digestView('patchNotes', { every: 'daily', at: 0 }, 'UTC', [post(1), post(2)], null)).embeds![0]!.title).toBe('2件の投稿');
  });

  it('a hero alert: header, verdicts and the list of heroes in the locale; 250 members split within limits', () => {
    const post: FeedPost = {
      id: 'b1',
      title: 'Season 9 adjustments',
      date: '2099-03-10',
      overview: 'Numbers.',
      image: null,
      heroes: ['1011', '1015'],
      verdicts: { '1011': 'nerf', '1015': 'adjusted' },
    };
    const names: Record<string, string> = { '1011': 'Hulk', '1015': 'Storm' };
    const member = (userId: string, extra: Partial<AlertMember> = {}): AlertMember => ({
      userId,
      guildId: 'g1',
      mains: false,
      heroes: ['1011', '1015'],
      dm: false,
      ...extra,
    });
    const members = [...Array.from({ length: 250 }, (_, i) => member(`1${String(i).padStart(17, '0')}`)), member('u-dm', { dm: true })];
    const audience = { members, mains: new Map(), alertsChannel: () => 'c-alerts', heroName: (id: string) => names[id] ?? id };
    for (const locale of LOCALES) {
      const planned = runInLocale(locale, () => planAlerts('balances', post, audience));
      const channel = planned.filter((p) => p.target === 'c-alerts');
      expect(channel.length).toBeGreaterThan(2);
      const nerf = trIn(locale, 'feeds:alert.hero', { mark: '🔴', hero: 'Hulk', verdict: trIn(locale, 'feeds:alert.verdict.nerf') });
      expect(channel[0]!.view.content!.split('\n')[0]).toBe(
        `${trIn(locale, 'feeds:alert.channelHeader', { title: 'Season 9 adjustments' })}${locale === 'ja' ? `（1/${channel.length}）` : ` (1/${channel.length})`}`,
      );
      expect(channel[0]!.view.content).toContain(nerf);
      expect(channel[0]!.view.embeds![0]!.author?.name).toBe(trIn(locale, 'feeds:alert.kind.balances'));
      for (const p of channel) {
        expect(p.view.allowedUserIds!.length).toBeLessThanOrEqual(MAX_MENTIONS_PER_MESSAGE);
        expectLocalised(p.view, locale, ['feeds', 'render'], `alert part ${p.part}`);
      }
      const dm = planned.find((p) => p.target === 'dm:u-dm')!;
      const storm = trIn(locale, 'feeds:alert.hero', { mark: '🟡', hero: 'Storm', verdict: trIn(locale, 'feeds:alert.verdict.adjusted') });
      expect(dm.view.content).toBe(
        trIn(locale, 'feeds:alert.dm', { title: 'Season 9 adjustments', heroes: `${nerf}${trIn(locale, 'render:listSeparator')}${storm}` }),
      );
      expectLocalised(dm.view, locale, ['feeds', 'render'], 'alert by direct message');
      for (const key of ['feeds:alert.channelHeader', 'feeds:alert.verdict.adjusted', 'feeds:alert.kind.balances'] as const)
        expectTranslated(locale, key, { title: 'x' });
    }
    expect(runInLocale('ja', () => planAlerts('balances', post, { ...audience, members: [member('u-dm', { dm: true })] }))[0]!.view.content).toBe(
      '🔔 **Season 9 adjustments** で、あなたがウォッチしているヒーローが変更されました：🔴 **Hulk**（弱体化）、🟡 **Storm**（調整）',
    );
    expect(trIn('de', 'feeds:alert.verdict.fixed')).toBe('behoben');
    expect(trIn('fr', 'feeds:alert.verdict.adjusted')).toBe('ajusté');
  });
});
