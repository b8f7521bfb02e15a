/**
 * The views of /player (and its "Rivals profile" context menu), /match, /compare, /leaderboard and
 * /meta in every locale: each answer, rendered by the real handlers on the API replica
 * for a member whose Discord client is in that locale (interaction `locale`), is in the member's language (a known text equals the locale file's, and no
 * English text of these views' namespaces is left, but for words the two languages share) and stays
 * within Discord's limits, both as the handler returns it (before src/render/limits.ts fits it) and as
 * sent. Charts carry the locale in their spec, and the worker writes the chart's own words in it.
 */
import type { MessageKey } from '../../src/i18n/keys.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meta } from '../../commands/meta.js';
import { commands } from '../../commands/index.js';
import { chartConfig } from '../../src/charts/draw.js';
import { createChartRenderer } from '../../src/charts/renderer.js';
import type { HeroPerformanceChart, MetaScatterChart, RankHistoryChart } from '../../src/charts/specs.js';
import type { CommandContext, CommandInput } from '../../src/discord/command.js';
import { Router } from '../../src/discord/router.js';
import { HeroMeta } from '../../src/jobs/hero-meta.js';
import { LOCALES, readLocaleFile, trIn, type Locale } from '../../src/i18n/index.js';
import type { View } from '../../src/render/view.js';
import { MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';
import { expectFitsUncut, messageTexts } from '../helpers/limits.js';
import { recordingCharts } from '../helpers/charts.js';

const env = useReplicaBot();
const OTHERS = LOCALES.filter((l) => l !== 'en');
/** The namespaces these views take their words from. */
const NAMESPACES = ['player', 'match', 'compare', 'leaderboard', 'charts'];

const DOUBLE_C = '1786151874';
const SIR_FINAL = '1117455441';
const CARD1GAN = '1403392756';
const MATCH = '6713371_1740603484_820_11001_10';

/** Every leaf string of a locale's namespace files (all plural forms). */
function messages(locale: Locale): string[] {
  const leaves = (value: unknown): string[] => (typeof value === 'string' ? [value] : Object.values(value as object).flatMap(leaves));
  return NAMESPACES.flatMap((ns) => leaves(readLocaleFile(locale, ns)));
}

/**
 * The English words of these namespaces as they can show in an answer: each message cut at its
 * placeholders and separators, markdown and end punctuation stripped, at least 3 characters.
 */
function englishFragments(): string[] {
  const out = new Set<string>();
  for (const text of messages('en')) {
    for (const piece of text.split(/\{\{\w+\}\}|[·:;,()/\n]/)) {
      const fragment = piece
        .replace(/[*`_~]/g, '')
        .replace(/[.!?]+$/, '')
        .trim();
      if (fragment.length >= 3) out.add(fragment);
    }
  }
  return [...out];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether `fragment` stands in `text` as whole words (case matters: "Match" in German is not "match"). */
const hasWords = (text: string, fragment: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(fragment)}(?![\\p{L}\\p{N}])`, 'u').test(text);

/**
 * English words these views' messages share with each language on purpose: game terms kept in every
 * language (UID, MVP, SVP, KDA) and words gamers of that language use as they are.
 */
const SHARED: Record<Locale, string[]> = {
  en: [],
  'es-ES': ['Top', 'bots'],
  'pt-BR': ['Top', 'replay', 'bots', 'rank'],
  fr: ['Top', 'replay', 'bots'],
  // "Profile" is also German: the plural of Profil.
  de: ['Top', 'Match', 'Team', 'Profile'],
  ja: [],
};
const TERMS = ['UID', 'MVP', 'SVP', 'KDA'];

/** The English fragments that must not show in `locale`: all but the {@link SHARED} words and the game terms. */
function foreignTo(locale: Locale): string[] {
  const allowed = new Set([...TERMS, ...SHARED[locale]]);
  return englishFragments().filter((f) => !allowed.has(f));
}

/**
 * (a) No English text of these views' namespaces left in an answer in `locale`. (b), Discord's limits on
 * what the handler built and as sent, is test/helpers/limits.ts `expectFitsUncut`: a text the fitting
 * would have to cut is a text too long in that language.
 */
function expectNoEnglish(view: View, locale: Locale, where: string) {
  const text = messageTexts(view).join('\n');
  const left = foreignTo(locale).filter((f) => hasWords(text, f));
  expect(left, `${where} (${locale}): English left in\n${text}`).toEqual([]);
}

let ctx: CommandContext;
let charts: ReturnType<typeof recordingCharts>;
let router: Router;
beforeAll(async () => {
  charts = recordingCharts();
  ctx = { ...env.b.ctx, charts, meta: new HeroMeta({ api: env.b.ctx.api, heroes: env.b.ctx.heroes, logger: env.b.ctx.logger, now: env.b.ctx.now }) };
  router = new Router([...commands.filter((c) => c.definition.name !== 'meta'), meta]);
  await env.b.ctx.links.link(OTHER_MEMBER.userId, { uid: CARD1GAN, name: 'Card1gan' }, true);
});

/** A slash command (or context-menu command) run in `locale`. */
const run = (locale: Locale, name: string, options: CommandInput['options'], extra: Partial<CommandInput> = {}) =>
  router.command(name, { options, user: { ...MEMBER, locale }, ...extra, ...(extra.user ? { user: { ...extra.user, locale } } : {}) }, ctx);
/** A component pressed in `locale`. */
const press = async (locale: Locale, customId: string, values: string[] = []) =>
  (await router.component(customId, values, { ...MEMBER, locale }, MEMBER.userId, ctx)).view;
const fieldNames = (view: View) => (view.embeds ?? []).flatMap((e) => (e.fields ?? []).map((f) => f.name));
/** The message `key` in `locale`, checked to differ from English so that finding it proves the language. */
const own = (locale: Locale, key: MessageKey, values?: Record<string, string | number>) => {
  const text = trIn(locale, key, values);
  expect(text, `${key} in ${locale} is not translated`).not.toBe(trIn('en', key, values));
  return text;
};

describe('the English left in other languages', () => {
  it.each(OTHERS)('%s: only words its own messages use too', (locale) => {
    // Placeholders are names in code, not words of the language.
    const own = messages(locale)
      .join('\n')
      .replace(/\{\{\w+\}\}/g, '');
    for (const word of [...TERMS, ...SHARED[locale]]) expect(hasWords(own, word), word).toBe(true);
    expect(
      englishFragments()
        .filter((f) => hasWords(own, f))
        .sort(),
    ).toEqual([...TERMS, ...SHARED[locale]].sort());
  });
});

describe('/player in every locale', () => {
  it.each(LOCALES)('%s: the profile of a player', async (locale) => {
    const view = await run(locale, 'player', { query: DOUBLE_C });
    expect(view.isError, JSON.stringify(view)).toBeFalsy();
    expectFitsUncut(view, 'profile');
    const names = fieldNames(view);
    expect(names).toContain(trIn(locale, 'player:profile.rankScore'));
    // Top heroes are the card's; its text, in the member's language, stands in when the card is not shown.
    const top = [
      trIn(locale, 'player:profile.topHeroesRanked'),
      trIn(locale, 'player:profile.topHeroesUnranked'),
      trIn(locale, 'player:profile.topHeroesRecentRanked', { count: 20, n: '20' }),
      trIn(locale, 'player:profile.topHeroesRecentUnranked', { count: 20, n: '20' }),
    ];
    expect(names.filter((n) => top.includes(n))).toEqual([]);
    const card = view.files?.find((f) => f.name === 'profile.png');
    expect((card?.text?.fields ?? []).map((f) => f.name).filter((n) => top.includes(n))).toHaveLength(1);
    const menu = view.components![0]!.components[0]!;
    expect('placeholder' in menu && menu.placeholder).toBe(trIn(locale, 'player:menu.sections'));
    const stats = fieldNames(await press(locale, `pl.s:${DOUBLE_C}:`, ['stats']));
    expect(stats).toContain(`${trIn(locale, 'player:profile.perTenMinutes')} · ${trIn(locale, 'player:profile.allModes')}`);
    if (locale === 'en') return;
    expect(stats).toContain(own(locale, 'player:profile.playTimeByRole'));
    // The season may stand anywhere in the sentence (Japanese puts it first).
    const [before, after] = own(locale, 'player:profile.coverage', { season: '\u0000' }).split('\u0000').map(escapeRegExp);
    expect(view.embeds![0]!.description!.split('\n')[0]).toMatch(new RegExp(`^${before}.+${after}$`));
    expectNoEnglish(view, locale, 'profile');
  });

  it.each(LOCALES)('%s: every section, with its plural forms', async (locale) => {
    for (const section of ['stats', 'ranked', 'unranked', 'matchups', 'maps', 'teammates', 'rank-history', 'matches'] as const) {
      const view = await press(locale, `pl.s:${DOUBLE_C}:`, [section]);
      expect(view.isError, `${section} ${JSON.stringify(view)}`).toBeFalsy();
      expectFitsUncut(view, section);
      expect(view.embeds![0]!.author!.name).toContain(trIn(locale, `player:sections.${section}`));
      if (locale !== 'en' && section !== 'matches') expectNoEnglish(view, locale, section);
    }
    // Page 2 of the recent matches: no note of src/render/strings.ts (not yet in locale files), only rows and the picker.
    const matches = await press(locale, `pl.p:${DOUBLE_C}::matches:2:n`);
    expectFitsUncut(matches, 'matches page 2');
    const picker = matches.components!.flatMap((r) => r.components).find((c) => 'custom_id' in c && c.custom_id.startsWith('mt.l:'))!;
    expect('placeholder' in picker && picker.placeholder).toBe(trIn(locale, 'player:menu.openMatch'));
    if (locale !== 'en') expectNoEnglish(matches, locale, 'matches page 2');
    // Counts take the locale's plural forms ("19 matches", "19 partidas", "19試合").
    const ranked = await press(locale, `pl.s:${DOUBLE_C}:`, ['ranked']);
    expect(ranked.embeds![0]!.description!.split('\n')[0]).toContain(` · ${trIn(locale, 'player:count.matches', { count: 19, n: '19' })} · `);
  });

  it('writes dates of the match picker in the member’s language', async () => {
    const when = (view: View) =>
      (view.components ?? [])
        .flatMap((r) => r.components)
        .flatMap((c) => ('custom_id' in c && c.custom_id.startsWith('mt.l:') && 'options' in c && c.options ? c.options : []))
        .map((o) => o.description ?? '');
    const en = when(await press('en', `pl.p:${DOUBLE_C}::matches:2:n`));
    const fr = when(await press('fr', `pl.p:${DOUBLE_C}::matches:2:n`));
    const ja = when(await press('ja', `pl.p:${DOUBLE_C}::matches:2:n`));
    expect(en[0]).toMatch(/ · \d{1,2} [A-Z][a-z]{2} 2025$/);
    expect(fr.some((d) => / · \d{1,2} (janv\.|févr\.|mars|avr\.|mai|juin|juil\.|août) 2025$/.test(d))).toBe(true);
    expect(ja[0]).toMatch(/ · 2025年\d{1,2}月\d{1,2}日$/);
  });

  it.each(OTHERS)('%s: the "Rivals profile" context menu and the autocomplete', async (locale) => {
    const view = await run(locale, 'Rivals profile', {}, { user: MEMBER, targetUserId: OTHER_MEMBER.userId });
    expect(view.isError, JSON.stringify(view)).toBeFalsy();
    expectFitsUncut(view, 'context menu');
    expect(fieldNames(view)).toContain(own(locale, 'player:profile.allTimePeak'));
    expectNoEnglish(view, locale, 'context menu');
    const choices = await router.autocomplete('player', { focused: { name: 'query', value: '' }, options: {}, user: { ...OTHER_MEMBER, locale } }, ctx);
    expect(choices).toContainEqual({ name: `Card1gan · ${own(locale, 'player:autocomplete.default')}`, value: CARD1GAN });
  });
});

describe('/match in every locale', () => {
  it.each(LOCALES)('%s: the scoreboard, and a match opened from the picker', async (locale) => {
    const view = await run(locale, 'match', { match: MATCH });
    expect(view.isError, JSON.stringify(view)).toBeFalsy();
    expectFitsUncut(view, 'match');
    expect(fieldNames(view)).toEqual([trIn(locale, 'match:fields.mvp'), trIn(locale, 'match:fields.svp'), trIn(locale, 'match:fields.players')]);
    const opened = await press(locale, `mt.l:${CARD1GAN}`, ['6713355_1740604074_322_11001_10~1170~1~403~1740604635']);
    expectFitsUncut(opened, 'match from the picker');
    // The teams are the card's text: drawn as the card, their embeds kept beside it for where it is not shown.
    const teamEmbeds = view.files?.find((f) => f.name === 'match.png')?.text?.embeds ?? [];
    expect(view.embeds).toHaveLength(1);
    expect(teamEmbeds).toHaveLength(2);
    if (locale === 'en') return;
    const teams = teamEmbeds.map((e) => e.title);
    // "Team B" is "Team B" in German too; the result is not.
    expect(
      teams.some(
        (t) =>
          t === `${trIn(locale, 'match:team.named', { letter: 'A' })} · ${own(locale, 'match:team.victory')}` ||
          t === `${trIn(locale, 'match:team.named', { letter: 'A' })} · ${own(locale, 'match:team.defeat')}`,
      ),
    ).toBe(true);
    expect(teamEmbeds[1]!.description).toContain(`*${own(locale, 'match:status.left')}*`);
    expect(opened.embeds![0]!.description).toContain(own(locale, 'match:facts.duration', { duration: '' }).replace(/ $/, ''));
    expectNoEnglish(view, locale, 'match');
    expectNoEnglish(opened, locale, 'match from the picker');
  });
});

describe('a match without a scoreboard in every locale', () => {
  it.each(LOCALES)('%s: from the picker with its Back, and from /last, the row and why there is no scoreboard', async (locale) => {
    // Double C's newest match: the replica, like the API for most matches, has no scoreboard of it.
    const fromList = await press(locale, `mt.l:${DOUBLE_C}::1:`, ['5518160_1754021020_1290140_11001_11~1290~2~712~1754021918~2-3']);
    const last = await run(locale, 'last', { player: DOUBLE_C });
    for (const [where, view] of [
      ['from the picker', fromList],
      ['/last', last],
    ] as const) {
      expect(view.isError, `${where} ${JSON.stringify(view)}`).toBeFalsy();
      expectFitsUncut(view, where);
      const e = view.embeds![0]!;
      expect(e.title).toBe(`${trIn(locale, 'match:team.defeat')} · ${trIn(locale, 'render:modes.competitive')}`);
      expect(e.description).toContain(
        trIn(locale, 'match:noScoreboard.said', {
          reason: trIn(locale, 'match:noScoreboard.missing'),
          source: trIn(locale, 'match:noScoreboard.fromRow', { player: 'Double C' }),
        }),
      );
      expect(fieldNames(view)).toEqual([trIn(locale, 'match:last.hero'), trIn(locale, 'match:last.kda'), trIn(locale, 'match:last.rankScore')]);
      if (locale === 'en') continue;
      own(locale, 'match:noScoreboard.missing');
      own(locale, 'match:noScoreboard.fromRow', { player: 'Double C' });
      expectNoEnglish(view, locale, where);
    }
    const back = fromList.components!.flatMap((r) => r.components);
    expect(back).toEqual([expect.objectContaining({ custom_id: `pl.p:${DOUBLE_C}::matches:1:b`, label: `‹ ${trIn(locale, 'render:back')}` })]);
  });
});

describe('/compare in every locale', () => {
  it.each(LOCALES)('%s: two players side by side', async (locale) => {
    const view = await run(locale, 'compare', { player: SIR_FINAL, other: CARD1GAN });
    expect(view.isError, JSON.stringify(view)).toBeFalsy();
    expectFitsUncut(view, 'compare');
    expect(fieldNames(view)).toContain(trIn(locale, 'compare:bothPlay'));
    const spec = charts.specs.at(-1)!;
    expect(spec).toMatchObject({ kind: 'compare-rank', locale, title: trIn(locale, 'charts:titles.compare', { a: 'Sir Final', b: 'Card1gan' }) });
    expect(view.files![0]!.description).toBe(trIn(locale, 'charts:alt.compare', { a: 'Sir Final', b: 'Card1gan' }));
    if (locale === 'en') return;
    expect(fieldNames(view)).toContain(own(locale, 'compare:bothPlay'));
    // Decimals in the member's locale ("KDA 5,14" in French and German).
    if (locale === 'fr' || locale === 'de') expect(view.embeds![0]!.fields![2]!.value).toMatch(/KDA \d+,\d\d/);
    expectNoEnglish(view, locale, 'compare');
  });
});

describe('the season ladder in every locale', () => {
  it.each(LOCALES)('%s: /leaderboard without a hero', async (locale) => {
    const view = await run(locale, 'leaderboard', { platform: 'xbox' });
    expect(view.isError, JSON.stringify(view)).toBeFalsy();
    expectFitsUncut(view, 'leaderboard');
    expect(view.embeds![0]!.author!.name).toBe(trIn(locale, 'leaderboard:top.author', { platform: 'Xbox' }));
    expect(view.embeds![0]!.title).toBe(trIn(locale, 'player:season', { number: '3' }));
    // Drawn as its card, described in the member's language (the card's own texts: test/charts/card-cuts.test.ts).
    expect(view.files?.map((f) => [f.name, f.description])).toEqual([['season-ladder.png', trIn(locale, 'leaderboard:top.card.alt', { from: '1', to: '10' })]]);
    if (locale === 'en') return;
    expect(view.embeds![0]!.author!.name).toBe(own(locale, 'leaderboard:top.author', { platform: 'Xbox' }));
    expectNoEnglish(view, locale, 'season ladder');
  });
});

describe('/leaderboard in every locale', () => {
  it.each(LOCALES)('%s: a hero’s ranked players', async (locale) => {
    const view = await run(locale, 'leaderboard', { hero: 'storm', platform: 'ps' });
    expect(view.isError, JSON.stringify(view)).toBeFalsy();
    expectFitsUncut(view, 'leaderboard');
    expect(view.embeds![0]!.author!.name).toBe(
      `${trIn(locale, 'leaderboard:author', { platform: 'PlayStation' })} · ${trIn(locale, 'player:season', { number: '3' })}`,
    );
    if (locale === 'en') return;
    expect(view.embeds![0]!.author!.name).toBe(
      `${own(locale, 'leaderboard:author', { platform: 'PlayStation' })} · ${own(locale, 'player:season', { number: '3' })}`,
    );
    expectNoEnglish(view, locale, 'leaderboard');
  });
});

describe('/meta in every locale', () => {
  it.each(LOCALES)('%s: within limits, its chart in the member’s language', async (locale) => {
    const view = await run(locale, 'meta', {});
    expect(view.isError, JSON.stringify(view)).toBeFalsy();
    expectFitsUncut(view, 'meta');
    // The texts of /meta are src/render/strings.ts's (moved to locale files apart); the chart's words are ours.
    expect(charts.specs.at(-1)).toMatchObject({ kind: 'meta-scatter', locale });
  });
});

describe('charts in the member’s language', () => {
  it('a chart spec built in French carries French axis titles, whatever the locale it is drawn in', async () => {
    await run('fr', 'meta', {});
    const spec = charts.specs.at(-1) as MetaScatterChart;
    // Outside any locale (English here), as in the worker thread: the spec alone says French.
    const config = chartConfig(spec)!;
    const scales = config.options!.scales as Record<'x' | 'y', { title: { text: string } }>;
    expect(scales.x.title.text).toBe('Taux de sélection');
    expect(scales.y.title.text).toBe('Taux de victoire');
    // The same spec without its locale is English, as the golden images are.
    const english = chartConfig({ ...spec, locale: undefined })!;
    expect((english.options!.scales as typeof scales).x.title.text).toBe('Pick share');
  });

  it('the player’s hero and rank-history charts are titled in the member’s language', async () => {
    await press('de', `pl.s:${DOUBLE_C}:`, ['ranked']);
    const heroes = charts.specs.at(-1) as HeroPerformanceChart;
    expect(heroes).toMatchObject({ kind: 'hero-performance', locale: 'de', title: 'Double C · Wettkampf · Saison 3 (aktuell)' });
    expect(chartConfig(heroes)!.data.datasets[0]!.label).toBe('Spielzeit');
    await press('ja', `pl.s:${DOUBLE_C}:`, ['rank-history']);
    const rank = charts.specs.at(-1) as RankHistoryChart;
    expect(rank).toMatchObject({ kind: 'rank-history', locale: 'ja', title: 'Double C · ランク履歴' });
    expect(rank.seasons.map((s) => s.name).every((n) => /^シーズン\d+(\.5)?$/.test(n))).toBe(true);
  });

  describe('drawn by the worker', () => {
    const renderer = createChartRenderer();
    afterAll(() => renderer.close());

    it('draws a French spec to a PNG in the worker thread, which reads the French messages itself', async () => {
      await run('fr', 'meta', {});
      const png = await renderer.render(charts.specs.at(-1)!);
      expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    });
  });
});
