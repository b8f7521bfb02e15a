/**
 * `/settings language`: a member's own language for the bot's answers, stored with their
 * account links and read by the router for every answer after, whatever their Discord app speaks.
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
  it('registers for servers and direct messages, with "my Discord app" and every language by its own name', () => {
    const def = env.b.router.commands.find((c) => c.definition.name === 'settings')!.definition as {
      contexts: number[];
      options: { name: string; options: { name: string; required: boolean; choices: { name: string; value: string }[] }[] }[];
    };
    expect(def.contexts).toEqual([0, 1]);
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
