/**
 * `/settings language`: a member's own language for the bot's answers, stored with their
 * account links and read by the router for every answer after, whatever their Discord app speaks.
 * `/settings platform`: their own default platform, used where no server's applies.
 */
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type DatabaseConnection } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Invoker } from '../../src/discord/command.js';
import { LOCALE_NAMES, LOCALES, runInLocale, trIn } from '../../src/i18n/index.js';
import { toMessagePayload, type MessagePayload } from '../../src/render/view.js';
import { AccountLinksRepository } from '../../src/store/account-links.js';
import type { Db } from '../../src/store/database.js';
import type { Tables } from '../../src/store/schema.js';
import { MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();

/** A database whose every call fails, as a broken disk or a lost server does. */
function failingDb(): Db {
  class FailingDriver extends DummyDriver {
    override acquireConnection(): Promise<DatabaseConnection> {
      return Promise.reject(new Error('disk I/O error'));
    }
  }
  return new Kysely<Tables>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new FailingDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}

const description = (p: MessagePayload) => p.embeds[0]!.description!;
const language = (value: string, user: Invoker = MEMBER) => env.b.run('settings', { language: value }, 'language', user);
/** The answer to `/player` with nothing linked: a sentence in the language of the answer. */
const notLinked = async (user: Invoker = MEMBER) => description((await env.b.run('player', {}, undefined, user)).payload);

describe('/settings language', () => {
  it('registers wherever a member is (both installs, every context), with "my Discord app" and every language by its own name', () => {
    const def = env.b.router.commands.find((c) => c.definition.name === 'settings')!.definition as {
      contexts: number[];
      integration_types: number[];
      options: { name: string; options: { name: string; required: boolean; choices: { name: string; value: string }[] }[] }[];
    };
    expect(def.contexts).toEqual([0, 1, 2]);
    expect(def.integration_types).toEqual([0, 1]);
    const option = def.options.find((o) => o.name === 'language')!.options[0]!;
    expect(option).toMatchObject({ name: 'language', required: true });
    expect(option.choices).toEqual([
      { name: 'The language of my Discord app', value: 'discord' },
      ...LOCALES.map((l) => ({ name: LOCALE_NAMES[l], value: l })),
    ]);
  });

  it('French: the answer is private and in French, and the member’s next answers are French although their Discord app speaks English', async () => {
    expect(MEMBER.locale).toBe('en-US');
    const { payload } = await language('fr');
    expect(payload.flags).toBe(64);
    expect(description(payload)).toBe(trIn('fr', 'settings:language.set', { language: 'Français' }));
    expect(await env.b.ctx.links.locale(MEMBER.userId)).toBe('fr');
    expect(await notLinked()).toBe(trIn('fr', 'messages:links.notLinkedSelf'));
    // Only theirs: another member of the server is still answered in their app's language.
    expect(await notLinked(OTHER_MEMBER)).toBe(trIn('en', 'messages:links.notLinkedSelf'));
  });

  it('is read from the store by a process that has not cached it (another process, a restart)', async () => {
    await language('de');
    const fresh = { ...env.b.ctx, links: new AccountLinksRepository(env.b.state.database.db) };
    const view = await env.b.router.command('player', { options: {}, user: MEMBER }, fresh);
    expect(toMessagePayload(view).embeds[0]!.description).toBe(trIn('de', 'messages:links.notLinkedSelf'));
  });

  it('`discord` goes back to the language of the member’s Discord app: the answer is already in it', async () => {
    await language('fr');
    // The member's app speaks German (the helper gives the router the locale of runInLocale around the call).
    const { payload } = await runInLocale('de', () => language('discord'));
    expect(payload.flags).toBe(64);
    expect(description(payload)).toBe(trIn('de', 'settings:language.discord', { language: 'Deutsch' }));
    expect(await env.b.ctx.links.locale(MEMBER.userId)).toBeNull();
    expect(await runInLocale('ja', () => notLinked())).toBe(trIn('ja', 'messages:links.notLinkedSelf'));
    expect(await notLinked()).toBe(trIn('en', 'messages:links.notLinkedSelf'));
  });

  it('works in direct messages (no server)', async () => {
    const dm: Invoker = { userId: MEMBER.userId, guildId: null, locale: 'en-US' };
    const { payload } = await language('ja', dm);
    expect(description(payload)).toBe(trIn('ja', 'settings:language.set', { language: '日本語' }));
    expect(await notLinked(dm)).toBe(trIn('ja', 'messages:links.notLinkedSelf'));
    await language('discord', dm);
  });

  it('a store that fails: the standard message, in the language the member was answered in, and nothing is chosen', async () => {
    const ctx = { ...env.b.ctx, links: new AccountLinksRepository(failingDb()) };
    const view = await env.b.router.command('settings', { subcommand: 'language', options: { language: 'fr' }, user: MEMBER }, ctx);
    const payload = toMessagePayload(view);
    expect(payload.flags).toBe(64);
    expect(description(payload)).toBe(trIn('en', 'messages:errors.storeUnavailable'));
    expect(env.b.logLines.some((l) => l.includes('state store unavailable') && l.includes('save member settings'))).toBe(true);
    expect(await env.b.ctx.links.locale(MEMBER.userId)).toBeNull();
  });

  it('a language stored by a newer version that this one does not speak reads as none', async () => {
    const user = { ...MEMBER, userId: '200000000000000077' };
    await env.b.state.database.db.insertInto('member_settings').values({ user_id: user.userId, locale: 'ko', updated_at: 1 }).execute();
    expect(await env.b.ctx.links.locale(user.userId)).toBeNull();
    expect(await runInLocale('pt-BR', () => notLinked(user))).toBe(trIn('pt-BR', 'messages:links.notLinkedSelf'));
    expect((await env.b.ctx.links.localesOf([user.userId])).size).toBe(0);
  });

  it('a value that is no language (the command line) is named, and nothing changes', async () => {
    await language('de');
    expect(description((await language('klingon')).payload)).toBe(trIn('de', 'settings:language.unknown', { value: 'klingon' }));
    expect(await env.b.ctx.links.locale(MEMBER.userId)).toBe('de');
    await language('discord');
  });
});

describe('/settings platform', () => {
  const platform = (value: string, user: Invoker = MEMBER) => env.b.run('settings', { platform: value }, 'platform', user);
  const leaderboardAuthor = async (user: Invoker, links = env.b.ctx.links) => {
    const view = await env.b.router.command('leaderboard', { options: { hero: 'hulk' }, user }, { ...env.b.ctx, links });
    return toMessagePayload(view).embeds[0]!.author!.name;
  };
  const SERVER = '300000000000000009';
  const dm: Invoker = { userId: '200000000000000031', guildId: null, locale: 'en-US' };
  /** The same member in a server that never added the bot, through their own install. */
  const userInstalled: Invoker = { ...dm, guildId: SERVER, serverInstall: false };
  /** The same member in that server once it added the bot. */
  const serverInstalled: Invoker = { ...dm, guildId: SERVER, serverInstall: true };

  it('is the member’s own default for /leaderboard where no server’s applies: a DM and a server that never added the bot', async () => {
    expect(await leaderboardAuthor(dm)).toBe(`${trIn('en', 'leaderboard:author', { platform: 'PC' })} · Season 3`);
    const { payload } = await platform('ps', dm);
    expect(payload.flags).toBe(64);
    expect(description(payload)).toBe(trIn('en', 'settings:platform.set', { platform: 'PlayStation' }));
    expect(await env.b.ctx.links.platformOf(dm.userId)).toBe('ps');
    expect(await leaderboardAuthor(dm)).toBe(`${trIn('en', 'leaderboard:author', { platform: 'PlayStation' })} · Season 3`);
    expect(await leaderboardAuthor(userInstalled)).toBe(`${trIn('en', 'leaderboard:author', { platform: 'PlayStation' })} · Season 3`);
  });

  it('gives way to the server’s default in a server that added the bot, and that server’s settings never reach the member’s own install', async () => {
    await platform('ps', dm);
    await env.b.ctx.settings.update(SERVER, (s) => {
      s.leaderboardPlatform = 'xbox';
      s.ephemeralByDefault = true;
    });
    expect(await leaderboardAuthor(serverInstalled)).toBe(`${trIn('en', 'leaderboard:author', { platform: 'Xbox' })} · Season 3`);
    expect(await env.b.router.prefersPrivate(serverInstalled, env.b.ctx)).toBe(true);
    // Only the member's own install brought the command here: the server's settings are not the bot's to apply.
    expect(await leaderboardAuthor(userInstalled)).toBe(`${trIn('en', 'leaderboard:author', { platform: 'PlayStation' })} · Season 3`);
    expect(await env.b.router.prefersPrivate(userInstalled, env.b.ctx)).toBe(false);
    expect(await env.b.router.peekPrivate(userInstalled, env.b.ctx)).toBe(false);
  });

  it('a store that fails: PC, with a warning, and the answer still comes', async () => {
    expect(await leaderboardAuthor(dm, new AccountLinksRepository(failingDb()))).toBe(`${trIn('en', 'leaderboard:author', { platform: 'PC' })} · Season 3`);
    expect(env.b.logLines.some((l) => l.includes('settings unavailable: /leaderboard shows PC'))).toBe(true);
  });

  it('is shown by /privacy show, exported, and deleted with the member’s data', async () => {
    await platform('xbox', dm);
    const shown = JSON.stringify((await env.b.run('privacy', {}, 'show', dm)).payload.embeds);
    expect(shown).toContain(trIn('en', 'privacy:platformChosen', { platform: 'Xbox' }));
    expect((await env.b.state.memberData.collect(dm.userId)).settings?.platform).toBe('xbox');
    await env.b.state.memberData.erase(dm.userId, Date.now());
    expect(await env.b.ctx.links.platformOf(dm.userId)).toBeNull();
  });

  it('a value that is no platform (the command line) is named, and nothing changes', async () => {
    await platform('pc', dm);
    expect(description((await platform('switch', dm)).payload)).toBe(trIn('en', 'settings:platform.unknown', { value: 'switch' }));
    expect(await env.b.ctx.links.platformOf(dm.userId)).toBe('pc');
  });
});
