/**
 * The locale files (src/i18n/locales) and the sentences of src/render/strings.ts read from them.
 *
 * - Parity, for every namespace of every locale (not only `messages`): the same keys as English, no
 *   more; the same `{{placeholders}}`; each plural key given once per plural category of the locale
 *   (`Intl.PluralRules`), no more; no empty message; Discord markdown (code spans, channel and member
 *   mentions, bold, underline) and emoji kept.
 * - Behaviour: `t` in each locale, plurals at 1, 5 and 1,000,000, prose lists, and a locale we do not
 *   have falling back to English; the playground page's own messages (src/playground/web/messages.ts),
 *   and the texts of Discord's client it draws in the acting member's language.
 */
import { describe, expect, it } from 'vitest';
import { LOCALES, localizedCommandPath, namespaces, pickLocale, readLocaleFile, runInLocale, SOURCE_LOCALE, type Locale } from '../../src/i18n/index.js';
import { isFrameKey, PAGE_LOCALES, pageMessages, type PageMessages } from '../../src/playground/web/messages.js';
import { deliveryProblem, gaveUpReason, PERMANENT_ERRORS } from '../../src/core/discord-errors.js';
import { t } from '../../src/render/strings.js';

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** A namespace file as `path.to.key` → message; a value that is not a string is kept as is, for the test to reject. */
function flatten(node: Record<string, unknown>, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(node)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      for (const [kk, vv] of flatten(v as Record<string, unknown>, `${prefix}${k}.`)) out.set(kk, vv);
    else out.set(`${prefix}${k}`, v);
  }
  return out;
}

/** The keys of a file grouped into messages: a plain key is its own group; `x_one`, `x_other`… are the plural group `x`. */
function groups(file: Map<string, unknown>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, value] of file) {
    const m = PLURAL_SUFFIX.exec(key);
    const base = m ? key.slice(0, m.index) : key;
    const forms = out.get(base) ?? new Map<string, string>();
    forms.set(m ? m[1]! : '', value as string);
    out.set(base, forms);
  }
  return out;
}

const placeholders = (text: string) => new Set([...text.matchAll(/\{\{\s*([^}\s,]+)[^}]*\}\}/g)].map((m) => m[1]!));
const sorted = (items: Iterable<string>) => [...items].sort();

/**
 * The Discord markdown and emoji of a message, sorted: code spans (with a `<hint>` inside one, such as
 * `<your name or UID>`, left free to translate; a span of options, `player:<…>`, as `‹options›`: option
 * and choice names are each locale's, checked in command-mentions.test.ts), `<#channel>` and
 * `<@member>` mentions, the number of `**` and `__`, and each emoji.
 */
function markdown(text: string): string[] {
  const codeSpans = [...text.matchAll(/`[^`]*`/g)].map((m) => (/^`\p{L}[\p{L}\p{N}_-]*:/u.test(m[0]) ? '‹options›' : m[0].replace(/<[^>]*>/g, '<…>')));
  const outside = text.replace(/`[^`]*`/g, '');
  const mentions = [...outside.matchAll(/<[#@][^>]*>/g)].map((m) => m[0]);
  const bold = `** ×${outside.split('**').length - 1}`;
  const underline = `__ ×${outside.split('__').length - 1}`;
  const emoji = [...outside.matchAll(/\p{Extended_Pictographic}/gu)].map((m) => m[0]);
  return sorted([...codeSpans, ...mentions, bold, underline, ...emoji]);
}

const pluralCategories = (locale: Locale) => sorted(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);

describe('every locale file matches English', () => {
  const english = new Map(namespaces().map((ns) => [ns, groups(flatten(readLocaleFile(SOURCE_LOCALE, ns)))]));

  it('English has namespaces, each with messages', () => {
    expect(namespaces()).toEqual(expect.arrayContaining(['common', 'messages', 'playground-page']));
    for (const [ns, messages] of english) expect(messages.size, ns).toBeGreaterThan(0);
  });

  for (const ns of namespaces()) {
    describe(ns, () => {
      const en = english.get(ns)!;

      it.each(LOCALES)('%s has the same keys, the plural forms of its language, and only strings', (locale) => {
        const messages = groups(flatten(readLocaleFile(locale, ns)));
        expect(sorted(messages.keys())).toEqual(sorted(en.keys()));
        const categories = pluralCategories(locale);
        for (const [key, forms] of messages) {
          const plural = !en.get(key)!.has('');
          expect(sorted(forms.keys()), `${ns}:${key}`).toEqual(plural ? categories : ['']);
          for (const [form, text] of forms) {
            expect(typeof text, `${ns}:${key} ${form}`).toBe('string');
            expect(text.trim(), `${ns}:${key} ${form} is empty`).not.toBe('');
          }
        }
      });

      it.each(LOCALES.filter((l) => l !== SOURCE_LOCALE))('%s has the same placeholders, markdown and emoji', (locale) => {
        const messages = groups(flatten(readLocaleFile(locale, ns)));
        for (const [key, enForms] of en) {
          const forms = messages.get(key);
          if (!forms) continue; // reported by the key test
          // A plural's forms together use English's placeholders (a `_one` may say "the latest match" without the number).
          const union = (f: Map<string, string>) => sorted(new Set([...f.values()].flatMap((text) => [...placeholders(String(text))])));
          expect(union(forms), `${ns}:${key}`).toEqual(union(enForms));
          const reference = enForms.get('') ?? enForms.get('other')!;
          for (const [form, text] of forms) expect(markdown(String(text)), `${ns}:${key} ${form}`).toEqual(markdown(reference));
        }
      });
    });
  }
});

describe('t reads the current locale', () => {
  it('in English outside any locale, in French inside runInLocale', () => {
    expect(t.playerNotFound('x')).toBe('No player called “x”. Check the spelling, or use the UID.');
    expect(runInLocale('fr', () => t.playerNotFound('x'))).toBe('Aucun joueur ne s’appelle «\u00a0x\u00a0». Vérifiez l’orthographe, ou utilisez l’UID.');
    expect(runInLocale('fr', () => t.playerNotFound('1403392756'))).toBe(
      'Aucun joueur n’a l’UID 1403392756. Vérifiez le numéro sur le profil du joueur, ou utilisez son pseudo.',
    );
    expect(runInLocale('ja', () => t.apiDown())).toBe('Marvel Rivals API が現在応答していません。1 分ほどしてからもう一度お試しください。');
    expect(runInLocale('de', () => t.notLinkedOther('42'))).toBe('<@42> hat kein Rivals-Konto verknüpft. Das geht mit `/verknüpfen`.');
  });

  it('falls back to English for a locale we do not have', () => {
    expect(runInLocale(pickLocale('ko', 'zh-CN'), () => t.apiDown())).toBe('The Marvel Rivals API is not answering right now. Please try again in a minute.');
    // A locale that slipped through unchecked reads English messages, not keys.
    expect(runInLocale('ko' as Locale, () => t.playerNotFound('x'))).toBe('No player called “x”. Check the spelling, or use the UID.');
  });

  it('plurals: one, a few, and a round million in each locale, with the number formatted in it', () => {
    const lines: Record<Locale, [string, string, string]> = {
      en: ['…and 1 more line', '…and 5 more lines', '…and 1,000,000 more lines'],
      'es-ES': ['…y 1 línea más', '…y 5 líneas más', '…y 1.000.000 de líneas más'],
      'pt-BR': ['…e mais 1 linha', '…e mais 5 linhas', '…e mais 1.000.000 de linhas'],
      fr: ['…et 1 ligne de plus', '…et 5 lignes de plus', '…et 1\u202f000\u202f000 de lignes de plus'],
      de: ['…und 1 weitere Zeile', '…und 5 weitere Zeilen', '…und 1.000.000 weitere Zeilen'],
      ja: ['…ほか 1 行', '…ほか 5 行', '…ほか 1,000,000 行'],
    };
    for (const locale of LOCALES)
      expect(
        runInLocale(locale, () => [1, 5, 1_000_000].map((n) => t.balanceMoreLines(n))),
        locale,
      ).toEqual(lines[locale]);
    expect(t.updateCooldown(1)).toBe('This player was updated recently. The API allows another update in 1 minute.');
    expect(t.updateCooldown(12)).toBe('This player was updated recently. The API allows another update in 12 minutes.');
    expect(runInLocale('es-ES', () => t.newerFromProfile(1))).toBe(
      'La partida más reciente viene del perfil: el historial guardado de la API aún no se ha puesto al día.',
    );
    expect(runInLocale('es-ES', () => t.newerFromProfile(3))).toBe(
      'Las 3 partidas más recientes vienen del perfil: el historial guardado de la API aún no se ha puesto al día.',
    );
  });

  it('picks a sentence by a flag, and lists in the prose of the locale', () => {
    expect(t.historyFromProfile(20, false)).toBe('The API’s match history is not answering, so these are the latest 20 matches from their profile.');
    expect(t.historyFromProfile(20, true)).toMatch(/^The API has no stored match history for this player yet, so these are the latest 20 matches/);
    expect(t.unknownHero('iron', ['Iron Man', 'Iron Fist', 'Ironheart'])).toBe(
      'No hero is called “iron”. Did you mean **Iron Man**, **Iron Fist**, or **Ironheart**?',
    );
    expect(runInLocale('fr', () => t.unknownHero('iron', ['Iron Man', 'Iron Fist']))).toBe(
      'Aucun héros ne s’appelle «\u00a0iron\u00a0». Vouliez-vous dire **Iron Man** ou **Iron Fist**\u00a0?',
    );
    expect(runInLocale('ja', () => t.unlinked(['A', 'B']))).toBe('**A**、**B** の連携を解除しました。');
    expect(runInLocale('ja', () => t.playgroundBadChoice('platform', ['PC', 'PlayStation', 'Xbox']))).toBe(
      '「platform」には次のいずれかを選んでください：PC、PlayStation、Xbox。',
    );
  });

  it('explains every delivery problem the store keeps in the admin’s language: by code, by its English reason, a give-up, or as Discord worded it', () => {
    for (const [code, reason] of [...Object.entries(PERMANENT_ERRORS), ['10008', 'Unknown Message: the message was deleted']] as const) {
      const byCode = deliveryProblem('whatever was kept', Number(code));
      expect(deliveryProblem(reason), code).toEqual(byCode);
      for (const locale of LOCALES) {
        const text = runInLocale(locale, () => t.deliveryProblem(byCode));
        expect(text, `${locale} ${code}`).not.toBe(String(code));
        if (locale !== SOURCE_LOCALE) expect(text, `${locale} ${code}`).not.toBe(t.deliveryProblem(byCode));
      }
    }
    expect(runInLocale('de', () => t.deliveryProblem(deliveryProblem(gaveUpReason(5, 'HTTP 500'))))).toMatch(/5.*HTTP 500/);
    expect(runInLocale('fr', () => t.deliveryProblem(deliveryProblem('Cloudflare said no')))).toBe('Cloudflare said no');
  });

  it('formats numbers and ages in the locale', () => {
    expect(t.pageOf(2, 1200)).toBe('Page 2 of 1,200');
    expect(runInLocale('de', () => t.pageOf(2, 1200))).toBe('Seite 2 von 1.200');
    expect(t.age(3, 'hour')).toBe('3 hours');
    expect(runInLocale('de', () => t.age(3, 'hour'))).toBe('3 Stunden');
    expect(runInLocale('es-ES', () => t.staleNote(t.age(2, 'day')))).toBe('API no disponible: se muestran datos de hace 2 días');
    expect(runInLocale('fr', () => t.playgroundOutOfRange('backfill', 0, 2.5))).toBe('«\u00a0backfill\u00a0» doit être compris entre 0 et 2,5.');
  });
});

/** One call of each entry of `t`: the type makes a new entry without a sample fail to compile. */
const SAMPLES: { [K in keyof typeof t]: Parameters<(typeof t)[K]> } = {
  unknownHero: ['iron', ['Iron Man', 'Iron Fist']],
  playerNotFound: ['x'],
  playerNotFoundSuggest: ['x', ['Sir Final', 'Card1gan']],
  playerGone: ['1'],
  matchGone: ['1'],
  goneAfterPress: [],
  badSeason: ['9'],
  badSeasonListed: ['9', '3.5'],
  historyFromProfile: [5, true],
  newerFromProfile: [5],
  noRecentMatches: [],
  seasonTotalsUnavailable: ['S1'],
  noMatchesInSeason: ['S1'],
  updateRequested: [],
  updateNotPossible: [],
  updateCooldown: [5],
  compareSamePlayer: ['A'],
  privateProfile: ['A'],
  matchNotFound: ['1'],
  notFoundQuery: ['x'],
  nothingFromApi: [],
  itemNotFound: ['x'],
  achievementNotFound: ['x'],
  battlePassNotFound: ['9'],
  postNotFound: ['1'],
  storeUnavailable: [],
  apiDown: [],
  apiUnknownForm: [],
  apiTimeout: [],
  rateLimited: [30],
  apiUnauthorized: [],
  badArgument: ['query', 'tooLong', { max: 256 }],
  unexpected: ['ref'],
  expiredComponent: [],
  nothingHere: [],
  restarting: [],
  notLinkedSelf: [],
  notLinkedSelfCompare: [],
  notLinkedSelfLast: [],
  notLinkedSelfScout: [],
  notLinkedOther: ['1'],
  linked: ['A', '1', true],
  tooManyLinks: [5],
  unlinked: [['A']],
  linkedList: [['a']],
  configGuildOnly: [],
  configNeedsManageServer: [],
  channelGone: ['1'],
  channelMissing: ['1', ['Send Messages']],
  publishNeedsAnnouncement: ['1'],
  feedSet: ['Patch notes', '1', 3],
  feedFix: ['1'],
  heroFilter: [['Hulk']],
  heroFilterBalancesOnly: [],
  heroFilterTooMany: [25],
  alertsUnavailable: [],
  alertsNone: [],
  alertsAllOff: [],
  alertsNeedLink: [],
  alertsTooMany: [10],
  alertsMains: ['Hulk', 'now'],
  alertsMainsPending: [],
  alertsWatching: ['Hulk'],
  alertsByDm: [],
  alertsInChannel: ['1'],
  alertsNoChannel: [],
  alertsChannelSet: ['1'],
  alertsChannelOff: [],
  quietHours: ['22:00', '08:00', 'UTC'],
  digestSchedule: ['weekly', '18:00', 'UTC'],
  badDigestTime: ['x'],
  digestAtWithoutDigest: [],
  threadsOn: [],
  threadsNeedText: [],
  quietNow: ['08:00', 'UTC'],
  badQuietHours: ['x'],
  unknownTimeZone: ['x'],
  feedEdited: ['1', 'now'],
  feedEditFailed: ['1', 'now', 'gone'],
  deliveryProblem: [{ kind: 'discord', code: 50013, key: 'missingPermissions' }],
  testPostSent: ['Patch notes', '1'],
  testPostNotSet: ['Patch notes'],
  testPostFailed: ['1', 'gone'],
  testPostOffline: [],
  resetConfirm: [],
  resetDone: [],
  resetCancelled: [],
  staleNote: ['1 hour'],
  ageFewSeconds: [],
  age: [2, 'day'],
  pageOf: [1, 2],
  metaGathering: [],
  metaGatheringEta: [12, 37, 25_000],
  metaUnavailable: [],
  metaTitle: ['Vanguard'],
  metaSort: ['pick-share'],
  metaSortedBy: ['x'],
  metaLine: ['Hulk', '50 %', '3 %', '2.00'],
  metaRoleHeading: [null, true],
  metaNoHeroes: [null],
  metaFooter: ['1 hour', 3, 40, true],
  metaChartTitle: [null],
  notLinkedSelfSession: [],
  serverMetaTitle: ['Duelist'],
  serverMetaBasis: ['season', 42, 'Season 2'],
  serverMetaBracket: ['Gold'],
  serverMetaHow: [10],
  serverMetaLine: ['Hela', '56 %', '48 %', '64 %', '12 %', '3.1', 42],
  serverMetaFew: ['Storm', '2–1', 3],
  serverMetaNone: ['30d', 'Gold'],
  serverMetaNoneOf: ['met'],
  serverMetaFooterBot: [],
  serverMetaFooter: [],
  serverMetaChartTitle: [],
  metaChartAlt: [40, 'Vanguard', 'Hulk 55 %', 'Thor 9 %'],
  balanceUnavailable: [],
  balanceBuilding: ['Hulk'],
  balanceNone: ['Hulk'],
  balanceVerdict: ['adjusted'],
  balanceKind: ['patch-note'],
  balanceNoDate: [],
  balanceMoreLines: [3],
  balanceFooter: [3],
  balanceRead: [3],
  playgroundUnknownCommand: ['x'],
  playgroundNoPermission: ['config'],
  playgroundNeedsSubcommand: ['config', ['show', 'feed']],
  playgroundUnknownSubcommand: ['config', 'x'],
  playgroundUnknownOption: ['config', 'x'],
  playgroundMissingOption: ['x'],
  playgroundBadChoice: ['x', ['A', 'B']],
  playgroundBadNumber: ['x', true],
  playgroundOutOfRange: ['x', 0, 10],
  playgroundBadLength: ['x', 1, 100],
  playgroundBadBoolean: ['x'],
  playgroundUnknownMember: ['x', 'y'],
  playgroundUnknownChannel: ['x', 'y'],
  playgroundUnknownRole: ['x', 'y'],
  playgroundUnknownMessage: [],
  playgroundEphemeralOwner: [],
  playgroundPlaceholder: ['general'],
  playgroundPlaceholderDm: ['Rivals Bot'],
  playgroundPickerCommands: [],
  playgroundPickerOptions: ['/config'],
  playgroundPickerSend: [],
  playgroundPickerHint: [],
  playgroundSlashOnly: [],
  playgroundRefused: [400],
  playgroundWelcome: ['general'],
  playgroundPostRefused: [400],
  playgroundPostAdded: [],
  playgroundStartFailed: ['x'],
};

/** Entries whose text is the same word in some languages (a label, a heading of a role name). */
const SAME_AS_ENGLISH = new Set(['metaSort', 'metaRoleHeading', 'balanceVerdict', 'playgroundPickerOptions', 'playgroundPickerCommands']);

describe('every entry of t', () => {
  const call = (name: keyof typeof t) => (t[name] as (...args: unknown[]) => string)(...SAMPLES[name]);
  const english = new Map((Object.keys(t) as (keyof typeof t)[]).map((name) => [name, call(name)]));

  it.each(LOCALES)('reads a message of %s, with every placeholder filled', (locale) => {
    for (const name of Object.keys(t) as (keyof typeof t)[]) {
      const text = runInLocale(locale, () => call(name));
      expect(text, name).not.toMatch(/\{\{|^(messages|playground-page):|^[a-z]+(\.[a-zA-Z]+)+$/);
      expect(text.trim(), name).not.toBe('');
      if (locale !== SOURCE_LOCALE && !SAME_AS_ENGLISH.has(name)) expect(text, `${name} is not translated in ${locale}`).not.toBe(english.get(name));
    }
  });
});

describe("the playground page's own messages", () => {
  it("write the topics of the page's own channels in each language, naming /config feed as that language's clients do", () => {
    for (const locale of PAGE_LOCALES) {
      const page = pageMessages(locale);
      for (const name of ['general', 'patch-notes', 'balance-talk']) {
        expect(page.channelTopic(name, 'fallback'), `${locale} ${name}`).not.toBe('fallback');
        if (locale !== 'en') expect(page.channelTopic(name, ''), `${locale} ${name}`).not.toBe(pageMessages('en').channelTopic(name, ''));
      }
      expect(page.channelTopic('patch-notes', '')).toContain(`/${localizedCommandPath('config feed', locale)}`);
      expect(page.channelTopic('another-channel', 'its own topic')).toBe('its own topic');
    }
  });

  it('speaks the same locales as the bot, English by default', () => {
    expect(PAGE_LOCALES).toEqual([...LOCALES]);
    expect(pageMessages().playgroundWelcome('general')).toBe('Welcome to #general!');
  });

  it('reads the same playground-page messages as the server, in the locale it is given', () => {
    for (const locale of LOCALES) {
      const page = pageMessages(locale);
      runInLocale(locale, () => {
        expect(page.playgroundPlaceholder('general')).toBe(t.playgroundPlaceholder('general'));
        expect(page.playgroundPlaceholderDm('Rivals Bot')).toBe(t.playgroundPlaceholderDm('Rivals Bot'));
        expect(page.playgroundRefused(400)).toBe(t.playgroundRefused(400));
        expect(page.playgroundUnknownCommand('x')).toBe(t.playgroundUnknownCommand('x'));
        expect(page.playgroundStartFailed('boom')).toBe(t.playgroundStartFailed('boom'));
      });
    }
    expect(pageMessages('de').playgroundWelcome('general')).toBe('Willkommen in #general!');
  });

  it("writes what Discord's own client writes around a message in the page's locale, not in English", () => {
    const english = pageMessages('en');
    expect(english.discordThinking('Rivals Bot')).toBe('Rivals Bot is thinking');
    expect(english.discordSelectPlaceholder()).toBe('Make a selection');
    const chrome = (page: PageMessages) => [
      page.discordThinking('Rivals Bot'),
      page.discordSelectPlaceholder(),
      page.discordUnknownUser(),
      page.discordUnknownChannel(),
      page.discordUnknownRole(),
      page.playgroundPickerRequired('Hero name'),
      page.discordUsed('Sam', '/hero').join(''),
      page.discordOnlyYou(),
      page.discordDismissMessage(),
      page.discordEdited(),
    ];
    for (const locale of PAGE_LOCALES.filter((l) => l !== 'en')) {
      const page = pageMessages(locale);
      expect(page.locale).toBe(locale);
      expect(page.discordThinking('Rivals Bot'), locale).toContain('Rivals Bot');
      expect(page.playgroundPickerRequired('Hero name'), locale).toContain('Hero name');
      chrome(page).forEach((text, i) => expect(text, `${locale} #${i}`).not.toBe(chrome(english)[i]));
    }
    expect(pageMessages('fr').discordThinking('Rivals Bot')).toBe('Rivals Bot réfléchit');
    expect(pageMessages('de').discordSelectPlaceholder()).toBe('Triff eine Auswahl');
    expect(pageMessages('ja').discordUnknownChannel()).toBe('不明なチャンネル');
    expect(pageMessages('fr').discordOnlyYou()).toBe('Vous seul(e) pouvez voir ceci');
    expect(pageMessages('de').discordDismissMessage()).toBe('Nachricht verwerfen');
    expect(pageMessages('ja').discordEdited()).toBe('(編集済)');
  });

  it('cuts "<member> used /command" around the member and the command, in the order each language puts them', () => {
    // Objects, as the page passes elements: they come back themselves, not as text.
    const [user, command]: { stands: string }[] = [{ stands: 'Sam' }, { stands: '/hero' }];
    expect(pageMessages('en').discordUsed(user, command)).toEqual([user, ' used ', command]);
    expect(pageMessages('fr').discordUsed(user, command)).toEqual([user, ' a utilisé ', command]);
    expect(pageMessages('de').discordUsed(user, command)).toEqual([user, ' hat ', command, ' verwendet']);
    expect(pageMessages('ja').discordUsed(user, command)).toEqual([user, 'が', command, 'を使用しました']);
    for (const locale of PAGE_LOCALES) {
      const parts = pageMessages(locale).discordUsed(user, command);
      expect(
        parts.filter((p) => p === user),
        locale,
      ).toHaveLength(1);
      expect(
        parts.filter((p) => p === command),
        locale,
      ).toHaveLength(1);
      expect(parts.filter((p) => typeof p === 'string').join(''), locale).not.toMatch(/\{\{|[\uE000\uE001]/);
    }
    // What the member and the command are called never counts as a placeholder.
    expect(pageMessages('en').discordUsed('\uE001', '\uE000')).toEqual(['\uE001', ' used ', '\uE000']);
  });

  it('writes the date by a message and in an embed footer as each locale writes a short date (English: as the Discord components do)', () => {
    const noonUtc = new Date(Date.UTC(2026, 2, 5, 12)); // 5 March 2026 in every time zone from UTC−11 to UTC+11
    expect(Object.fromEntries(PAGE_LOCALES.map((l) => [l, pageMessages(l).discordDate(noonUtc)]))).toEqual({
      en: '03/05/2026',
      'es-ES': '05/03/2026',
      'pt-BR': '05/03/2026',
      fr: '05/03/2026',
      de: '05.03.2026',
      ja: '2026/03/05',
    });
  });

  it('tells the labels of the frame from the sentences read through named functions', () => {
    for (const key of ['appTag', 'servers', 'commandInput', 'textChannels', 'addPost']) expect(isFrameKey(key), key).toBe(true);
    for (const key of ['thinking', 'selectPlaceholder', 'unknownUser', 'pickerRequired', 'welcome', 'used', 'onlyYou', 'dismissMessage', 'edited', 'nope'])
      expect(isFrameKey(key), key).toBe(false);
  });
});
