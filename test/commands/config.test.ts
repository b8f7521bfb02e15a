import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Invoker } from '../../src/discord/command.js';
import { createFeedTester } from '../../src/feeds/test-post.js';
import { gaveUpReason } from '../../src/core/discord-errors.js';
import { runInLocale, trIn } from '../../src/i18n/index.js';
import { ADMIN, useReplicaBot, customIds, MEMBER, testChannels } from '../helpers/bot.js';

const env = useReplicaBot();
afterEach(() => {
  testChannels.missing.clear();
  testChannels.announcement.clear();
  testChannels.gone.clear();
});

const config = (sub: string, options: Record<string, string | number | boolean> = {}, user: Invoker = ADMIN) => env.b.run('config', options, sub, user);
/** Gives the bot a feed tester whose sends go to `send` (a Discord transport's other calls succeed); the test deletes it. */
const useFeedTester = (send: (channelId: string, body: { embeds: { title?: string }[] }) => Promise<{ id: string }>) => {
  env.b.ctx.feedTester = createFeedTester(env.b.ctx.api, env.b.ctx.settings, {
    send,
    crosspost: async () => undefined,
    edit: async () => undefined,
    startThread: async () => ({ id: 't1' }),
    openDm: async () => ({ id: 'd1' }),
    ownMessagesAfter: async () => [],
  });
};
const text = (p: { content: string; embeds: { description?: string; fields?: { name: string; value: string }[] }[] }) =>
  [p.content, ...p.embeds.map((e) => [e.description ?? '', ...(e.fields ?? []).map((f) => `${f.name}: ${f.value}`)].join('\n'))].join('\n');

describe('/config', () => {
  it('is for Manage Server only: a member without it is told so, privately, and nothing changes', async () => {
    const { payload } = await config('feed', { type: 'patchNotes', channel: '500' }, MEMBER);
    expect(payload.flags).toBe(64);
    expect(text(payload)).toMatch(/You need the Manage Server permission/);
    expect((await env.b.ctx.settings.get(MEMBER.guildId)).feeds.patchNotes).toBeUndefined();
  });

  it('registers with Manage Server as the default permission, in servers only', () => {
    const def = env.b.router.commands.find((c) => c.definition.name === 'config')!.definition as { default_member_permissions: string; contexts: number[] };
    expect(def.default_member_permissions).toBe('32');
    expect(def.contexts).toEqual([0]);
  });

  it('sets a feed channel with a role and shows it', async () => {
    const { payload } = await config('feed', { type: 'patchNotes', channel: '501', role: '601', backfill: 3 });
    expect(payload.flags).toBe(64);
    expect(payload.content).toBe('Patch notes will be posted in <#501>, starting with the latest 3.');
    expect(text(payload)).toMatch(/Patch notes: <#501> · pings <@&601>/);
    const stored = (await env.b.ctx.settings.get(ADMIN.guildId)).feeds.patchNotes!;
    expect(stored).toMatchObject({ channelId: '501', roleId: '601', backfill: 3, publish: false, broken: null });
    expect(payload.allowed_mentions).toEqual({ parse: [] });
  });

  it('refuses a channel where the bot cannot post, naming what is missing', async () => {
    testChannels.missing.set('502', ['Send Messages', 'Embed Links']);
    const { payload } = await config('feed', { type: 'balances', channel: '502' });
    expect(text(payload)).toMatch(/The bot cannot post in <#502>: it lacks Send Messages, Embed Links there/);
    // In the admin's language, by the names Discord's client gives those permissions there.
    const french = text((await runInLocale('fr', () => config('feed', { type: 'balances', channel: '502' }))).payload);
    expect(french).toMatch(/il lui manque ces permissions\s: Envoyer des messages, Intégrer des liens\./);
    expect(french).not.toMatch(/Send Messages|Embed Links/);
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.balances).toBeUndefined();
    testChannels.gone.add('503');
    expect(text((await config('feed', { type: 'balances', channel: '503' })).payload)).toMatch(/no longer exists/);
  });

  it('publishes only in announcement channels', async () => {
    expect(text((await config('feed', { type: 'devDiaries', channel: '504', publish: true })).payload)).toMatch(/is not an announcement channel/);
    // The option to leave off is named as the admin's client names it.
    expect(text((await runInLocale('fr', () => config('feed', { type: 'devDiaries', channel: '504', publish: true }))).payload)).toMatch(
      /Laissez \*\*publier\*\* désactivé/,
    );
    testChannels.announcement.add('505');
    await config('feed', { type: 'devDiaries', channel: '505', publish: true });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries).toMatchObject({ channelId: '505', publish: true });
  });

  it('filters balance posts on heroes, named as members type them; refuses the filter elsewhere, unknown heroes and too many', async () => {
    const { payload } = await config('feed', { type: 'balances', channel: '507', heroes: 'hulk, Storm ,hulk' });
    expect(text(payload)).toMatch(/Balance posts: <#507> · only posts changing Hulk, Storm/);
    const stored = (await env.b.ctx.settings.get(ADMIN.guildId)).feeds.balances!;
    const heroes = await env.b.ctx.heroes.list();
    expect(stored.heroes).toEqual(['Hulk', 'Storm'].map((n) => heroes.find((h) => h.name.toLowerCase() === n.toLowerCase())!.id));
    expect(text((await config('feed', { type: 'patchNotes', channel: '501', heroes: 'hulk' })).payload)).toMatch(/The hero filter works on balance posts only/);
    expect(text((await config('feed', { type: 'balances', channel: '507', heroes: 'hulk, zzzqqq' })).payload)).toMatch(/No hero is called “zzzqqq”/);
    const eleven = heroes
      .slice(0, 11)
      .map((h) => h.name)
      .join(', ');
    expect(text((await config('feed', { type: 'balances', channel: '507', heroes: eleven })).payload)).toMatch(/at most 10 heroes/);
    // The refused changes left the filter as it was.
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.balances!.heroes).toEqual(stored.heroes);
    // Set again without the option: the filter is kept; `off` (or the word in the admin's language) clears it.
    await config('feed', { type: 'balances', channel: '507' });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.balances!.heroes).toEqual(stored.heroes);
    expect((await runInLocale('fr', () => config('feed', { type: 'balances', channel: '507', heroes: 'Désactivé' }))).payload.content).toContain(
      '• tous les équilibrages',
    );
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.balances!.heroes).toBeUndefined();
    await config('feed-off', { type: 'balances' });
  });

  it('quiet hours in a time zone: stored, shown, reported by status while they last; bad windows and zones are named', async () => {
    const { payload } = await config('feed', { type: 'devDiaries', channel: '508', quiet: '22:00-08:00', timezone: 'europe/paris' });
    expect(text(payload)).toMatch(/Dev diaries: <#508> · quiet 22:00–08:00 \(Europe\/Paris\)/);
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries).toMatchObject({ quiet: { start: 1320, end: 480 }, timeZone: 'Europe/Paris' });
    // 23:30 in Paris in November is 22:30 UTC.
    const realNow = env.b.ctx.now;
    env.b.ctx.now = () => Date.parse('2026-11-22T22:30:00Z');
    try {
      expect(text((await config('status')).payload)).toMatch(/🌙 Quiet hours now: new posts wait until 08:00 \(Europe\/Paris\)\./);
      env.b.ctx.now = () => Date.parse('2026-11-22T12:00:00Z');
      expect(text((await config('status')).payload)).not.toMatch(/Quiet hours now/);
    } finally {
      env.b.ctx.now = realNow;
    }
    expect(text((await config('feed', { type: 'devDiaries', channel: '508', quiet: 'late' })).payload)).toMatch(
      /“late” is not a time window\. Write quiet hours as start-end in 24-hour time/,
    );
    expect(text((await config('feed', { type: 'devDiaries', channel: '508', quiet: '22:00-08:00', timezone: 'Mars/Olympus' })).payload)).toMatch(
      /“Mars\/Olympus” is not a time zone/,
    );
    // UTC is the default and is not stored; "off" clears the window.
    await config('feed', { type: 'devDiaries', channel: '508', quiet: '1:00-6:00', timezone: 'UTC' });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries).toMatchObject({ quiet: { start: 60, end: 360 } });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries!.timeZone).toBeUndefined();
    await config('feed', { type: 'devDiaries', channel: '508', quiet: 'off' });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries!.quiet).toBeUndefined();
    // The word for "off" in the admin's language works too, and the refusal names it.
    for (const [locale, off] of [
      ['de', 'AUS'],
      ['fr', 'désactivé'],
    ] as const) {
      await config('feed', { type: 'devDiaries', channel: '508', quiet: '1:00-6:00' });
      await runInLocale(locale, () => config('feed', { type: 'devDiaries', channel: '508', quiet: off }));
      expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries!.quiet, locale).toBeUndefined();
    }
    expect(text((await runInLocale('de', () => config('feed', { type: 'devDiaries', channel: '508', quiet: 'spät' }))).payload)).toContain('oder `aus`.');
    await config('feed-off', { type: 'devDiaries' });
  });

  it('a digest instead of one message per post: daily or weekly at a time, shown; a bad time, or a time without a digest, is named', async () => {
    const { payload } = await config('feed', { type: 'devDiaries', channel: '509', digest: 'weekly', at: '18:30', timezone: 'Asia/Tokyo' });
    expect(text(payload)).toMatch(/Dev diaries: <#509> · digest every Monday at 18:30 \(Asia\/Tokyo\)/);
    const stored = (await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries!;
    expect(stored).toMatchObject({ digest: { every: 'weekly', at: 1110 }, timeZone: 'Asia/Tokyo' });
    // The first digest counts from now: its period is the current one.
    expect(stored.digestPeriod).toMatch(/^week-\d{4}-\d{2}-\d{2}$/);
    // Daily instead of weekly keeps the time; a time alone moves the digest there.
    await config('feed', { type: 'devDiaries', channel: '509', digest: 'daily' });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries!.digest).toEqual({ every: 'daily', at: 1110 });
    expect(text((await config('feed', { type: 'devDiaries', channel: '509', digest: 'daily', at: 'teatime' })).payload)).toMatch(
      /“teatime” is not a time of day/,
    );
    await config('feed', { type: 'devDiaries', channel: '509', at: '18:00' });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries!.digest).toEqual({ every: 'daily', at: 1080 });
    expect(text((await config('feed', { type: 'devDiaries', channel: '509', digest: 'off', at: '18:00' })).payload)).toMatch(/A digest time needs a digest/);
    await config('feed', { type: 'devDiaries', channel: '509', digest: 'off' });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries!.digest).toBeUndefined();
    expect(text((await config('feed', { type: 'devDiaries', channel: '509', at: '18:00' })).payload)).toMatch(/A digest time needs a digest/);
    // A new digest without a time: 09:00.
    await config('feed', { type: 'devDiaries', channel: '509', digest: 'weekly' });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries!.digest).toEqual({ every: 'weekly', at: 540 });
    await config('feed-off', { type: 'devDiaries' });
  });

  it('posts the full text in a thread when asked; game versions have none', async () => {
    const { payload } = await config('feed', { type: 'devDiaries', channel: '510', thread: true });
    expect(text(payload)).toMatch(/Dev diaries: <#510> · full text in a thread/);
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.devDiaries!.threads).toBe(true);
    expect(text((await config('feed', { type: 'gameVersions', channel: '510', thread: true })).payload)).toMatch(
      /Game versions have no full text to put in a thread/,
    );
    await config('feed-off', { type: 'devDiaries' });
  });

  it('autocompletes time zones from a city', async () => {
    const choices = await env.b.router.autocomplete(
      'config',
      { subcommand: 'feed', focused: { name: 'timezone', value: 'new york' }, options: {}, user: ADMIN },
      env.b.ctx,
    );
    expect(choices).toContainEqual({ name: 'America/New York', value: 'America/New_York' });
    expect(choices.length).toBeLessThanOrEqual(25);
  });

  it('turns a feed off', async () => {
    await config('feed', { type: 'gameVersions', channel: '506' });
    expect(text((await config('feed-off', { type: 'gameVersions' })).payload)).toMatch(/Game versions: Off/);
  });

  it('sets the default leaderboard platform, which /leaderboard then uses', async () => {
    await config('platform', { platform: 'xbox' });
    const board = await env.b.run('leaderboard', { hero: 'storm' }, undefined, ADMIN);
    expect(board.payload.embeds[0]!.author?.name).toBe('Leaderboard · Xbox · Season 3');
    await config('platform', { platform: 'pc' });
  });

  it('private answers make every answer in the server ephemeral', async () => {
    await config('private-answers', { enabled: true });
    expect((await env.b.run('hero', { name: 'hulk' })).payload.flags).toBe(64);
    await config('private-answers', { enabled: false });
    expect((await env.b.run('hero', { name: 'hulk' })).payload.flags).toBe(0);
  });

  it('status shows each feed, its last post and its problem with what to fix', async () => {
    await env.b.ctx.settings.update(ADMIN.guildId, (s) => {
      s.feeds.patchNotes!.lastDelivered = { postId: '20251113', at: 1_763_000_000_000 };
      s.feeds.patchNotes!.broken = { code: 50013, reason: 'Missing Permissions', at: 1_763_000_000_000 };
    });
    const status = text((await config('status')).payload);
    expect(status).toMatch(
      /Patch notes: <#501> · Last post <t:1763000000:R>: post 20251113\n⚠️ Missing Permissions: the bot cannot post embeds in the channel\. Give the bot View Channel, Send Messages and Embed Links in <#501>/,
    );
    // The stored reason is English (for the log); the admin reads it in their language, by its code.
    const french = text((await runInLocale('fr', () => config('status'))).payload);
    expect(french).toContain('⚠️ Permissions manquantes\u00a0: le bot ne peut pas publier d’embeds dans le salon.');
    expect(french).not.toContain('Missing Permissions');
    expect(status).toMatch(/Balance posts: Off/);
  });

  it('status shows the tracking backlog: how many are tracked, how many wait for a read and for how long', async () => {
    const db = env.b.state.database.db;
    await db.deleteFrom('tracked_players').execute();
    expect(text((await config('status')).payload)).toContain('Player tracking: No linked account is tracked yet');
    const now = env.b.ctx.now();
    await env.b.state.tracking.follow('1', now - 2 * 3_600_000);
    await env.b.state.tracking.follow('2', now - 60_000);
    await env.b.state.tracking.follow('3', now + 3_600_000);
    const status = text((await config('status')).payload);
    expect(status).toContain('Player tracking: 3 players tracked; the least recently read was read 2h 0m ago.');
    expect(status).toContain('2 are due for a read, the longest waiting 2h 0m');
    const german = text((await runInLocale('de', () => config('status'))).payload);
    expect(german).toContain('Spielerverfolgung: 3 Spieler werden verfolgt');
    await db.deleteFrom('tracked_players').execute();
  });

  it('status shows the last correction edited in place, or why it could not be', async () => {
    await env.b.ctx.settings.update(ADMIN.guildId, (s) => {
      s.feeds.patchNotes!.broken = null;
      s.feeds.patchNotes!.lastEdit = { postId: '20251113', at: 1_763_000_600_000, error: null };
    });
    expect(text((await config('status')).payload)).toMatch(/No problem\.\n✏️ Last correction: post 20251113, edited in place <t:1763000600:R>\./);
    await env.b.ctx.settings.update(ADMIN.guildId, (s) => {
      s.feeds.patchNotes!.lastEdit = { postId: '20251113', at: 1_763_000_600_000, error: 'Unknown Message: the message was deleted' };
    });
    expect(text((await config('status')).payload)).toMatch(
      /✏️ Last correction: post 20251113 could not be edited <t:1763000600:R> \(Unknown Message: the message was deleted\); it is not tried again\./,
    );
    expect(text((await runInLocale('de', () => config('status'))).payload)).toContain('(Unbekannte Nachricht: Die Nachricht wurde gelöscht)');
    // Given up after temporary failures: the count in the reader's words, Discord's own message as it came.
    await env.b.ctx.settings.update(ADMIN.guildId, (s) => {
      s.feeds.patchNotes!.lastEdit = { postId: '20251113', at: 1_763_000_600_000, error: gaveUpReason(5, 'Service Unavailable') };
    });
    expect(text((await config('status')).payload)).toContain('(given up after 5 attempts: Service Unavailable)');
    expect(text((await runInLocale('fr', () => config('status'))).payload)).toContain('(abandonné après 5 tentatives\u00a0: Service Unavailable)');
  });

  it('language: feed posts and alerts in the language chosen, shown by /config show; `discord` goes back to the server’s Discord language', async () => {
    const admin = { ...ADMIN, guildLocale: 'de' };
    const set = await config('language', { language: 'fr' }, admin);
    expect(set.payload.flags).toBe(64);
    // The answer is in the admin's language (English), naming the server's.
    expect(set.payload.content).toBe(trIn('en', 'config:language.set', { language: 'Français' }));
    expect(text(set.payload)).toMatch(/Language of posts and alerts: Français\n/);
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).locale).toBe('fr');
    expect(text((await config('show', {}, admin)).payload)).toMatch(/Language of posts and alerts: Français\n/);

    const back = await config('language', { language: 'discord' }, admin);
    expect(back.payload.content).toBe(trIn('en', 'config:language.discord', { language: 'Deutsch' }));
    expect(text(back.payload)).toMatch(/Language of posts and alerts: Deutsch \(the server’s Discord language\)\n/);
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).locale).toBeUndefined();
    // Without the server's Discord language (the command line): English.
    expect(text((await config('show')).payload)).toMatch(/Language of posts and alerts: English \(the server’s Discord language\)\n/);
  });

  it('language needs Manage Server, and a value that is no language is named; nothing changes', async () => {
    const refused = await config('language', { language: 'ja' }, MEMBER);
    expect(refused.payload.flags).toBe(64);
    expect(text(refused.payload)).toMatch(/You need the Manage Server permission/);
    expect(text((await config('language', { language: 'klingon' })).payload)).toMatch(/“klingon” is not a language the bot speaks/);
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).locale).toBeUndefined();
  });

  it('test-post: the post is in the server’s language (its /config language, else its Discord language), the answer in the admin’s', async () => {
    const sent: { channelId: string; title: string }[] = [];
    useFeedTester(async (channelId, body) => (sent.push({ channelId, title: body.embeds[0]!.title ?? '' }), { id: 'm1' }));
    try {
      await config('feed', { type: 'devDiaries', channel: '520' });
      await config('language', { language: 'fr' });
      // The admin waits for the read: it goes at members' priority, not behind the feeds'.
      const read = vi.spyOn(env.b.ctx.api, 'devDiaries');
      const answer = await config('test-post', { type: 'devDiaries' }, { ...ADMIN, guildLocale: 'de' });
      expect(read.mock.calls.at(-1)![1]).toMatchObject({ fresh: true, priority: 'interactive' });
      read.mockRestore();
      expect(sent.at(-1)).toMatchObject({
        channelId: '520',
        title: expect.stringMatching(new RegExp(`^${trIn('fr', 'feeds:testPost.prefix', { title: '' })}`)),
      });
      expect(text(answer.payload)).toMatch(/A test post of dev diaries was sent to <#520>/);
      await config('language', { language: 'discord' });
      await config('test-post', { type: 'devDiaries' }, { ...ADMIN, guildLocale: 'de' });
      expect(sent.at(-1)!.title).toMatch(new RegExp(`^${trIn('de', 'feeds:testPost.prefix', { title: '' })}`));
      expect(sent).toHaveLength(2);
    } finally {
      delete env.b.ctx.feedTester;
      await config('feed-off', { type: 'devDiaries' });
    }
  });

  it('test-post: a refused post says why in the admin’s language, from Discord’s error code', async () => {
    const refusal = Object.assign(new Error('Missing Access'), { code: 50001, status: 403 });
    useFeedTester(async () => Promise.reject(refusal));
    try {
      await config('feed', { type: 'devDiaries', channel: '520' });
      expect(text((await config('test-post', { type: 'devDiaries' })).payload)).toContain(
        'The test post to <#520> failed: Missing Access: the bot cannot see the channel.',
      );
      const german = text((await runInLocale('de', () => config('test-post', { type: 'devDiaries' }))).payload);
      expect(german).toContain('Der Testbeitrag an <#520> ist fehlgeschlagen: Kein Zugriff: Der Bot kann den Kanal nicht sehen.');
      // A temporary failure keeps Discord's own message.
      refusal.message = 'Service Unavailable';
      Object.assign(refusal, { code: 0, status: 503 });
      expect(text((await config('test-post', { type: 'devDiaries' })).payload)).toContain('failed: Service Unavailable.');
    } finally {
      delete env.b.ctx.feedTester;
      await config('feed-off', { type: 'devDiaries' });
    }
  });

  it('reset asks first; only a confirmed press by a manager resets', async () => {
    const ask = await config('reset');
    const [confirm, cancel] = customIds(ask.payload);
    expect(confirm).toBe(`cfg.reset:${ADMIN.guildId}`);
    const cancelled = await env.b.press(cancel!, [], ADMIN, ADMIN.userId);
    expect(text(cancelled.payload)).toBe('\nNothing was changed.');
    // Each answer takes the confirmation's place, its buttons gone: they cannot be pressed again.
    expect(cancelled).toMatchObject({ mode: 'update', payload: { components: [] } });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.patchNotes).toBeDefined();
    const refused = await env.b.press(confirm!, [], MEMBER, ADMIN.userId);
    expect(text(refused.payload)).toMatch(/You need the Manage Server permission/);
    expect(refused.mode).toBe('reply');
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds.patchNotes).toBeDefined();
    const done = await env.b.press(confirm!, [], ADMIN, ADMIN.userId);
    expect(text(done.payload)).toMatch(/back to its default/);
    expect(done).toMatchObject({ mode: 'update', payload: { components: [] } });
    expect((await env.b.ctx.settings.get(ADMIN.guildId)).feeds).toEqual({});
  });
});
