/**
 * The views of /hero, /items, /maps, /achievements, /battlepass and /patch-notes in every locale
 *: each command's typical answers, rendered through the router over the replica inside
 * `runInLocale`, are in that locale (known texts equal the locale files' `hero`, `catalog` and `posts`
 * messages, and no English message of those namespaces is left in another language's answer), and
 * stay within Discord's limits before `fitView` cuts anything (German and French run longer).
 */
import { describe, expect, it } from 'vitest';
import { releaseDate } from '../../commands/patch-notes.js';
import { commandReferences, LOCALES, readLocaleFile, runInLocale, type Locale } from '../../src/i18n/index.js';
import type { View } from '../../src/render/view.js';
import { bot, useReplicaBot } from '../helpers/bot.js';
import { expectFitsUncut, messageTexts } from '../helpers/limits.js';

// Every view of six languages from one client: a loaded machine must not turn a slow read into an error view.
const env = useReplicaBot({ apiTimeoutMs: 10_000 });
type Bot = ReturnType<typeof bot>;

const NAMESPACES = ['hero', 'items', 'maps', 'achievements', 'battlepass', 'patch-notes'] as const;
type Messages = Record<string, unknown>;

/** A message of a namespace by its dotted path (`overview.realName`), read from its file (readLocaleFile), not through i18next. */
function file(locale: Locale, ns: (typeof NAMESPACES)[number], path: string): string {
  let node: unknown = readLocaleFile(locale, ns);
  for (const part of path.split('.')) node = (node as Messages)[part];
  if (typeof node !== 'string') throw new Error(`${locale}: the namespace ${ns} has no ${path}`);
  // Commands it names written out as a member reads them (`{/leaderboard}` → `/classement`).
  return commandReferences(node, locale);
}

/** The plural form of `path` a locale uses for `count` (Intl.PluralRules), from the file. */
const pluralFile = (locale: Locale, ns: (typeof NAMESPACES)[number], path: string, count: number) =>
  file(locale, ns, `${path}_${new Intl.PluralRules(locale).select(count)}`);

/** `template` with its `{{name}}` placeholders filled. */
const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? `{{${k}}}`);

/** A number as the locale writes it (what src/i18n/format.ts `integer` gives). */
const int = (locale: Locale, n: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(n);

/** Every text of a view a member reads (test/helpers/limits.ts), the absent ones left out. */
const texts = (view: View): string[] => messageTexts(view).filter(Boolean);

/** Every message of a namespace file, by key without its plural suffix (`leaderboard.line`), each with its plural forms. */
function messages(locale: Locale, ns: (typeof NAMESPACES)[number]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (node: Messages, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      if (typeof v === 'string') {
        const key = `${prefix}${k.replace(/_(zero|one|two|few|many|other)$/, '')}`;
        out.set(key, [...(out.get(key) ?? []), v]);
      } else walk(v as Messages, `${prefix}${k}.`);
    }
  };
  walk(readLocaleFile(locale, ns), '');
  return out;
}

/** The words of a message around its placeholders, trimmed of symbols, that have at least three letters ("over", "Real name"). */
const fragments = (message: string) =>
  message
    .split(/\{\{\w+\}\}/)
    .map((p) => p.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ''))
    .filter((p) => /\p{L}{3}/u.test(p));

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** How often `fragment` stands as whole words in `text` (case-sensitive). */
const occurrences = (text: string, fragment: string) =>
  text.match(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(fragment)}(?![\\p{L}\\p{N}])`, 'gu'))?.length ?? 0;

/** The replica's data a command shows, as one text: English from the API may repeat a word of ours ("over", "Health"). */
function apiText(command: string): string {
  const d = env.r.dataset;
  const data: Record<string, unknown[]> = {
    hero: [d.heroes, [...d.heroStats.values()], [...d.leaderboards.values()]],
    items: [d.items],
    maps: [d.maps],
    achievements: [d.heroes.map((h) => h.name), d.achievements, [...d.achievementDetails.values()]],
    battlepass: [[...d.battlePasses.values()]],
    'patch-notes': [d.posts, d.gameVersions],
  };
  // The strings themselves, not JSON: its `\n` escapes would glue an "n" to the next word.
  const strings: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.entries(v).forEach(([k, x]) => (strings.push(k), walk(x)));
  };
  walk(data[command]);
  return strings.join('\n');
}

/** Typical answers of each command, as the handlers return them. */
const COMMANDS: Record<string, (b: Bot) => Promise<Record<string, View>>> = {
  hero: async (b) => {
    const views: Record<string, View> = { overview: (await b.run('hero', { name: 'spider man' })).view, hulk: (await b.run('hero', { name: 'hulk' })).view };
    for (const s of ['abilities', 'costumes', 'transformations', 'lore', 'stats', 'leaderboard', 'balance'])
      views[s] = (await b.press('hero.s:1011', [s])).view;
    views['abilities 2'] = (await b.press('hero.p:1011:abilities:2:n')).view;
    return views;
  },
  items: async (b) => ({
    all: (await b.run('items', {})).view,
    sprays: (await b.run('items', { type: 'spray' })).view,
    one: (await b.run('items', { name: 'Hammer Drop' })).view,
  }),
  maps: async (b) => ({ first: (await b.run('maps', {})).view, last: (await b.press('maps.p:4:l')).view }),
  achievements: async (b) => ({
    all: (await b.run('achievements', {})).view,
    loki: (await b.run('achievements', { hero: 'loki' })).view,
    'loki page': (await b.press(`ach.p:${(await b.ctx.heroes.resolve('loki')).id}:1:n`)).view,
    one: (await b.run('achievements', { name: 'Worthy' })).view,
  }),
  battlepass: async (b) => ({ current: (await b.run('battlepass', {})).view, s1: (await b.run('battlepass', { season: 1 })).view }),
  'patch-notes': async (b) => ({
    list: (await b.run('patch-notes', {})).view,
    balances: (await b.run('patch-notes', { type: 'balances' })).view,
    diaries: (await b.run('patch-notes', { type: 'dev-diaries' })).view,
    versions: (await b.run('patch-notes', { type: 'game-versions' })).view,
    read: (await b.press('pn.o:patch-notes:1', ['20251113'])).view,
    version: (await b.press('pn.o:game-versions:1', ['20250410'])).view,
    gone: (await b.press('pn.o:balances:1', ['nosuchpost'])).view,
  }),
};

/** What each command's answers must say in `locale`, read from the locale files. */
const EXPECTED: Record<string, (locale: Locale, views: Record<string, View>) => void> = {
  hero: (locale, v) => {
    const h = (path: string) => file(locale, 'hero', path);
    const overview = v.overview!.embeds![0]!;
    expect(overview.fields!.map((f) => f.name)).toEqual(['realName', 'role', 'attackType', 'teams', 'difficulty', 'kit'].map((k) => h(`overview.${k}`)));
    const kit = fill(h('overview.kitValue'), {
      abilities: fill(pluralFile(locale, 'hero', 'overview.abilityCount', 10), { n: int(locale, 10) }),
      costumes: fill(pluralFile(locale, 'hero', 'overview.costumeCount', 4), { n: int(locale, 4) }),
    });
    expect(v.hulk!.embeds![0]!.fields!.find((f) => f.name === h('overview.kit'))?.value).toBe(kit);
    expect(v.overview!.components![0]!.components[0]).toMatchObject({ placeholder: h('menuPlaceholder') });
    const menu = v.overview!.components![0]!.components[0]!;
    expect('options' in menu && menu.options.map((o) => o.label)).toEqual(
      ['overview', 'abilities', 'costumes', 'transformations', 'lore', 'stats', 'leaderboard', 'balance'].map((s) => h(`sections.${s}`)),
    );
    expect(v.abilities!.embeds![0]!.author?.name).toBe(fill(h('author'), { hero: 'Hulk', section: h('sections.abilities') }));
    const bruce = v.transformations!.embeds![0]!.fields![0]!;
    expect(bruce.value).toBe(`${fill(h('transformations.health'), { health: '200' })}\n${fill(h('transformations.speed'), { speed: '6' })}`);
    expect(v.transformations!.embeds![0]!.fields![1]!.value).toBe(h('transformations.noStats'));
    expect(v.stats!.embeds![0]!.fields!.map((f) => f.name)).toEqual(
      ['matches', 'winRate', 'playTime', 'averageKda', 'damage', 'healing', 'damageTaken', 'hitRate', 'soloKills'].map((k) => h(`stats.${k}`)),
    );
    expect(v.leaderboard!.embeds![0]!.footer?.text).toBe(h('leaderboard.footer'));
  },
  items: (locale, v) => {
    const c = (path: string) => file(locale, 'items', path);
    expect(v.all!.embeds![0]!.title).toBe(c('title'));
    expect(v.sprays!.embeds![0]!.title).toBe(c('types.spray'));
    expect(v.one!.embeds![0]!.fields!.map((f) => f.name)).toEqual([c('quality'), c('hero'), c('id')]);
  },
  maps: (locale, v) => {
    const c = (path: string) => file(locale, 'maps', path);
    const first = v.first!.embeds![0]!;
    expect(first.title).toBe(c('title'));
    expect(first.footer?.text).toBe(fill(pluralFile(locale, 'maps', 'count', 35), { n: int(locale, 35) }));
    expect(first.description).toContain(`**Central Park** · Convergence · ${c('competitive')} · [${c('video')}](https://youtu.be/fs_pMBXSr9Y)`);
  },
  achievements: (locale, v) => {
    const c = (path: string) => file(locale, 'achievements', path);
    expect(v.all!.embeds![0]!.title).toBe(c('title'));
    expect(v.loki!.embeds![0]!.title).toBe(fill(c('heroTitle'), { hero: 'Loki' }));
    expect(v['loki page']!.embeds![0]!.title).toBe(fill(c('heroTitle'), { hero: 'Loki' }));
    expect(v.one!.embeds![0]!.fields!.map((f) => f.name)).toEqual([c('pointsField'), c('rarity')]);
    const points = v.all!.embeds![0]!.description!.split('\n')[0]!.split(' · ').at(-1)!;
    const n = Number(points.replace(/\D/g, ''));
    expect(points).toBe(fill(pluralFile(locale, 'achievements', 'points', n), { n: int(locale, n) }));
  },
  battlepass: (locale, v) => {
    const c = (path: string) => file(locale, 'battlepass', path);
    expect(v.current!.embeds![0]!.author?.name).toBe(fill(c('author'), { season: '1.5' }));
    expect(v.current!.embeds![0]!.footer?.text).toBe(c('luxury'));
  },
  'patch-notes': (locale, v) => {
    const p = (path: string) => file(locale, 'patch-notes', path);
    expect(v.list!.embeds![0]!.title).toBe(p('types.patchNotes'));
    expect(v.balances!.embeds![0]!.title).toBe(p('types.balances'));
    expect(v.diaries!.embeds![0]!.title).toBe(p('types.devDiaries'));
    expect(v.list!.components![0]!.components[0]).toMatchObject({ placeholder: p('readOne') });
    const versions = v.versions!.embeds![0]!;
    expect(versions.title).toBe(p('types.gameVersions'));
    const april = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(Date.UTC(2025, 3, 10));
    expect(versions.description).toContain(`**20250410** · ${fill(p('released'), { date: april })}`);
    const menu = v.versions!.components![0]!.components[0]!;
    expect(menu).toMatchObject({ placeholder: p('readVersion') });
    expect('options' in menu && menu.options.find((o) => o.value === '20250410')).toMatchObject({
      label: fill(p('versionLabel'), { version: '20250410' }),
      description: april,
    });
    const read = v.read!.embeds![0]!;
    expect(read.author?.name).toBe(p('types.patchNotes'));
    // A post's date (the API's YYYY-MM-DD) in the locale's words, as the list and its menu give it.
    const november = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(2025, 10, 13));
    expect(read.footer?.text).toBe(fill(p('published'), { date: november }));
    expect(v.list!.embeds![0]!.fields!.some((f) => f.name.endsWith(` · ${november}`))).toBe(true);
    const posts = v.list!.components![0]!.components[0]!;
    expect('options' in posts && posts.options.some((o) => o.description === november)).toBe(true);
    const back = v.read!.components!.at(-1)!.components[0]!;
    expect('label' in back && back.label).toBe(p('back.patchNotes'));
    expect(v.version!.components!.at(-1)!.components[0]).toMatchObject({ label: p('back.gameVersions') });
    expect(v.gone!.embeds![0]!.description).toBe(fill(p('gone'), { id: 'nosuchpost' }));
  },
};

describe('the locale files of hero, catalog and posts', () => {
  it('have the same keys and placeholders in every locale, with the plural forms of each', () => {
    for (const ns of NAMESPACES) {
      const en = messages('en', ns);
      for (const locale of LOCALES) {
        const m = messages(locale, ns);
        expect([...m.keys()].sort(), `${locale}/${ns}`).toEqual([...en.keys()].sort());
        const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
        const raw = JSON.stringify(readLocaleFile(locale, ns));
        for (const [key, forms] of m) {
          const placeholders = (s: string) => [...new Set(s.match(/\{\{\w+\}\}/g) ?? [])].sort();
          for (const form of forms) expect(placeholders(form), `${locale}/${ns}:${key}`).toEqual(placeholders(en.get(key)![0]!));
          if (en.get(key)!.length > 1) {
            expect(forms.length, `${locale}/${ns}:${key} plural forms`).toBe(categories.length);
            for (const c of categories) expect(raw, `${locale}/${ns}:${key}_${c}`).toContain(`"${key.split('.').at(-1)}_${c}"`);
          }
        }
      }
    }
  });
});

describe('views in every locale', () => {
  it('reads game versions’ release dates as calendar days in the locale, and nothing else as a date', () => {
    expect(releaseDate('April 10, 2025')).toBe('April 10, 2025');
    expect(runInLocale('fr', () => releaseDate('April 10, 2025'))).toBe('10 avril 2025');
    expect(runInLocale('de', () => releaseDate('2025-04-10'))).toBe('10. April 2025');
    expect(runInLocale('ja', () => releaseDate('Sept. 1, 2025'))).toBe('2025年9月1日');
    expect(runInLocale('fr', () => releaseDate('February 30, 2025'))).toBeNull();
    expect(runInLocale('fr', () => releaseDate('Ma 3, 2025'))).toBeNull();
    expect(runInLocale('fr', () => releaseDate('soon'))).toBeNull();
  });

  for (const [command, render] of Object.entries(COMMANDS)) {
    it(`/${command}: in each locale's words, and within Discord's limits`, async () => {
      const data = apiText(command);
      const rendered = new Map<Locale, Record<string, View>>();
      for (const locale of LOCALES) rendered.set(locale, await runInLocale(locale, () => render(env.b)));
      const all = (locale: Locale) => Object.values(rendered.get(locale)!).flatMap(texts).join('\n');
      for (const locale of LOCALES) {
        const views = rendered.get(locale)!;
        for (const [name, view] of Object.entries(views)) {
          expect(view.isError, `${locale} ${name}`).toBeFalsy();
          expectFitsUncut(view, `${locale} /${command} ${name}`);
        }
        EXPECTED[command]!(locale, views);
        if (locale === 'en') continue;
        // No English message of ours is left: a phrase of an English message (its words around the
        // placeholders) that the locale's own message of the same key does not use must not appear.
        // A phrase the API's own English data contains ("over", "Health") can appear through the data:
        // there it may appear no more often than in another language's answer, whose message differs.
        const text = all(locale);
        const baseline: Locale = locale === 'ja' ? 'de' : 'ja';
        for (const ns of NAMESPACES) {
          const ours = messages(locale, ns);
          const theirs = messages(baseline, ns);
          for (const [key, forms] of messages('en', ns)) {
            for (const fragment of new Set(forms.flatMap(fragments))) {
              if (ours.get(key)!.some((m) => occurrences(m, fragment) > 0)) continue;
              const where = `${locale} /${command}: English “${fragment}” (${ns}:${key})`;
              if (occurrences(data, fragment) === 0) expect(occurrences(text, fragment), where).toBe(0);
              else if (!theirs.get(key)!.some((m) => occurrences(m, fragment) > 0))
                expect(occurrences(text, fragment), where).toBeLessThanOrEqual(occurrences(all(baseline), fragment));
            }
          }
        }
        // And the answer differs from the English one.
        expect(text).not.toBe(all('en'));
      }
    });
  }
});
