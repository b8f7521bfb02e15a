/**
 * Commands named in messages: `</config feed>` in a locale file becomes the command
 * mention `</config feed:id>` once the bot knows its commands' ids (each member's client shows the
 * name in their own language, clickable), else the name the member's client shows, in code
 * (`/configuration flux`); `{/leaderboard}` (titles, footers, labels, where Discord renders no
 * mention) is always that name, plain.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { fetchCommandIds } from '../../src/discord/deploy.js';
import { COMMAND_REFERENCE, LOCALES, localizedCommandPath, namespaces, readLocaleFile, runInLocale, setCommandIds, tr, trIn } from '../../src/i18n/index.js';
import { commandsFile, textsAt } from '../../src/i18n/commands.js';
import { t } from '../../src/render/strings.js';

afterEach(() => setCommandIds(new Map()));

/** Every string of a namespace file, by dotted key. */
function strings(node: unknown, prefix = ''): [string, string][] {
  if (typeof node === 'string') return [[prefix, node]];
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => strings(v, prefix ? `${prefix}.${k}` : k));
}

/** The chat-input command paths the bot registers: `link`, `config feed`, `alerts mains`… */
function registeredPaths(): Set<string> {
  const out = new Set<string>();
  for (const m of commands) {
    const d = m.definition as { name: string; type?: number; options?: { type: number; name: string; options?: { type: number; name: string }[] }[] };
    if ((d.type ?? 1) !== 1) continue;
    out.add(d.name);
    for (const o of d.options ?? []) {
      if (o.type === 1) out.add(`${d.name} ${o.name}`);
      if (o.type === 2) for (const s of o.options ?? []) out.add(`${d.name} ${o.name} ${s.name}`);
    }
  }
  return out;
}

describe('command references in the locale files', () => {
  const paths = registeredPaths();
  const files = LOCALES.flatMap((locale) =>
    namespaces()
      .filter((ns) => ns !== 'commands')
      .map((ns) => [locale, ns] as const),
  );

  it.each(files)('%s/%s: every reference names a registered command, subcommand or group path', (locale, ns) => {
    for (const [key, text] of strings(readLocaleFile(locale, ns))) {
      for (const m of text.matchAll(COMMAND_REFERENCE)) expect(paths, `${locale}/${ns}:${key} names ${m[0]}`).toContain(m[1] ?? m[2]);
    }
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('%s names the same commands as English in every message, the same way', (locale) => {
    for (const ns of namespaces().filter((n) => n !== 'commands')) {
      const english = new Map(strings(readLocaleFile('en', ns)));
      for (const [key, text] of strings(readLocaleFile(locale, ns))) {
        const refs = (s: string) => [...s.matchAll(COMMAND_REFERENCE)].map((m) => m[0]).sort();
        // Plural forms English does not have (`_many`) follow its `_other`.
        const source = english.get(key) ?? english.get(key.replace(/_(zero|two|few|many)$/, '_other')) ?? '';
        expect(refs(text), `${locale}/${ns}:${key}`).toEqual(refs(source));
      }
    }
  });

  it('no message names a command the old way (a bare /name), which no client would translate', () => {
    const bare = new RegExp(`(?<![<{\\w/])/(${[...new Set([...paths].map((p) => p.split(' ')[0]))].join('|')})\\b(?![^<]*>)`);
    for (const locale of LOCALES) {
      for (const ns of namespaces().filter((n) => n !== 'commands' && n !== 'playground-page')) {
        for (const [key, text] of strings(readLocaleFile(locale, ns))) expect(text, `${locale}/${ns}:${key}`).not.toMatch(bare);
      }
    }
  });
});

describe('messages naming commands', () => {
  it('without command ids: the name each member’s client shows, in code; plain where mentions do not render', () => {
    expect(runInLocale('en', () => t.notLinkedOther('42'))).toBe('<@42> has not linked a Rivals account. They can link one with `/link`.');
    expect(runInLocale('fr', () => t.notLinkedOther('42'))).toBe('<@42> n’a pas lié de compte Rivals. Cette personne peut en lier un avec `/lier`.');
    expect(trIn('fr', 'config:testPostNotSet', { feed: 'X' })).toContain(`\`/${localizedCommandPath('config feed', 'fr')}\``);
    expect(trIn('ja', 'hero:leaderboard.footer')).toMatch(new RegExp(`/${textsAt(commandsFile('ja'), 'leaderboard')!.name}$`));
    expect(trIn('en', 'hero:leaderboard.footer')).toBe('Full list, every platform: /leaderboard');
    expect(trIn('de', 'hero:leaderboard.footer')).toMatch(new RegExp(`/${textsAt(commandsFile('de'), 'leaderboard')!.name}$`));
  });

  it('localizedCommandPath names each part of a path in the locale, English where a locale has none', () => {
    expect(localizedCommandPath('config feed', 'en')).toBe('config feed');
    const fr = commandsFile('fr');
    expect(localizedCommandPath('config feed', 'fr')).toBe(`${textsAt(fr, 'config')!.name} ${textsAt(fr, 'config.subcommands.feed')!.name}`);
    expect(localizedCommandPath('nothing-here', 'fr')).toBe('nothing-here');
  });

  it('with command ids: a mention of the registered (English) path and its id, in every locale; plain references stay names', () => {
    setCommandIds(
      new Map([
        ['link', '111111111111111111'],
        ['config', '222222222222222222'],
      ]),
    );
    for (const locale of LOCALES) {
      expect(runInLocale(locale, () => t.notLinkedOther('42'))).toContain('</link:111111111111111111>');
      expect(trIn(locale, 'config:testPostNotSet', { feed: 'X' })).toContain('</config feed:222222222222222222>');
      expect(trIn(locale, 'config:show.leaderboardPlatform')).not.toContain('</');
    }
    // A command whose id is unknown keeps its name.
    expect(trIn('en', 'messages:links.tooMany', { count: 2, max: 2 })).toContain('`/unlink`');
    // Back to names.
    setCommandIds(new Map());
    expect(tr('messages:links.notLinkedOther', { userId: '1' })).toContain('`/link`');
  });

  it('ignores ids that are not snowflakes', () => {
    setCommandIds(new Map([['link', '1; DROP']]));
    expect(tr('messages:links.notLinkedOther', { userId: '1' })).toContain('`/link`');
  });
});

describe('fetchCommandIds', () => {
  it('reads chat-input commands by name, globally or in the development guild; context-menu commands are left out', async () => {
    const asked: string[] = [];
    const rest = {
      get: async (route: string) => {
        asked.push(route);
        return [{ id: '1', name: 'link', type: 1 }, { id: '2', name: 'config' }, { id: '3', name: 'Rivals profile', type: 2 }, { name: 'no-id' }];
      },
    };
    expect(await fetchCommandIds(rest as never, '99')).toEqual(
      new Map([
        ['link', '1'],
        ['config', '2'],
      ]),
    );
    await fetchCommandIds(rest, '99', '77');
    expect(asked).toEqual(['/applications/99/commands', '/applications/99/guilds/77/commands']);
  });

  it('an answer that is not a list is no ids; a REST error is thrown', async () => {
    expect(await fetchCommandIds({ get: async () => ({ message: '?' }) }, '1')).toEqual(new Map());
    await expect(fetchCommandIds({ get: async () => Promise.reject(new Error('401: Unauthorized')) }, '1')).rejects.toThrow('401');
  });
});

describe('options named in messages', () => {
  /** Each option's name in `locale` → the option's English names (the same word may name several). */
  function optionNames(locale: (typeof LOCALES)[number]): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    const english = commandsFile('en');
    const local = commandsFile(locale);
    const walk = (en: Record<string, import('../../src/i18n/commands.js').CommandTexts> | undefined, loc: typeof en) => {
      for (const [key, entry] of Object.entries(en ?? {})) {
        for (const option of Object.keys(entry.options ?? {})) {
          const name = loc?.[key]?.options?.[option]?.name ?? option;
          out.set(name, new Set([...(out.get(name) ?? []), option]));
        }
        walk(entry.subcommands, loc?.[key]?.subcommands);
      }
    };
    walk(english, local);
    return out;
  }

  /** The option names in a message's code spans (`player:<…>`, `type:Balance posts heroes:…`), in order. */
  function optionsIn(text: string): string[] {
    return [...text.matchAll(/`([^`]*)`/g)]
      .filter((m) => /^\p{L}[\p{L}\p{N}_-]*:/u.test(m[1]!))
      .flatMap((m) => [...m[1]!.matchAll(/(?:^|\s)(\p{L}[\p{L}\p{N}_-]*):/gu)].map((o) => o[1]!));
  }

  it.each(LOCALES.filter((l) => l !== 'en'))('%s writes each option as its own clients name it, in English’s order', (locale) => {
    const names = optionNames(locale);
    for (const ns of namespaces().filter((n) => n !== 'commands' && n !== 'playground-page')) {
      const english = new Map(strings(readLocaleFile('en', ns)));
      for (const [key, text] of strings(readLocaleFile(locale, ns))) {
        const source = optionsIn(english.get(key) ?? english.get(key.replace(/_(zero|two|few|many)$/, '_other')) ?? '');
        const local = optionsIn(text);
        expect(local.length, `${locale}/${ns}:${key}`).toBe(source.length);
        local.forEach((name, i) =>
          expect([...(names.get(name) ?? [])], `${locale}/${ns}:${key}: “${name}:” is no option name of ${locale}`).toContain(source[i]),
        );
      }
    }
  });
});
