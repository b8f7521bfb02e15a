/**
 * The playground page's own sentences, for the browser, and the texts of Discord's client it draws
 * around the bot's messages ("is thinking", a select menu's placeholder, unknown mentions, dates,
 * "<member> used /command", "Only you can see this • Dismiss message", "(edited)"), both in the
 * acting member's language: the `playground-page` namespace of src/i18n/locales (the same keys
 * src/render/strings.ts reads on the server), its six JSON files inlined by esbuild, through an i18next
 * instance of the page's own. src/i18n itself reads files with node:fs and keeps the locale in an
 * AsyncLocalStorage, neither of which exists in a browser.
 */
import { createInstance } from 'i18next';
import de from '../../i18n/locales/de/playground-page.json' with { type: 'json' };
import en from '../../i18n/locales/en/playground-page.json' with { type: 'json' };
import esES from '../../i18n/locales/es-ES/playground-page.json' with { type: 'json' };
import fr from '../../i18n/locales/fr/playground-page.json' with { type: 'json' };
import ja from '../../i18n/locales/ja/playground-page.json' with { type: 'json' };
import ptBR from '../../i18n/locales/pt-BR/playground-page.json' with { type: 'json' };

const NS = 'playground-page';
/** Each locale's messages, keyed as src/i18n's `LOCALES`. */
const RESOURCES = { en, 'es-ES': esES, 'pt-BR': ptBR, fr, de, ja } as const;

/** Whether `value` is one of {@link PAGE_LOCALES}. */
export const isPageLocale = (value: string): value is PageLocale => value in RESOURCES;

/** The locales the page can speak: those of src/i18n (`LOCALES`), English first. */
export const PAGE_LOCALES = Object.keys(RESOURCES) as PageLocale[];
/** One of {@link PAGE_LOCALES}. */
export type PageLocale = keyof typeof RESOURCES;

/** The keys of the page's sentences, which {@link pageMessages} reads through named functions; every other key is a frame label. */
const SENTENCES = [
  'unknownCommand',
  'placeholder',
  'pickerCommands',
  'pickerOptions',
  'pickerSend',
  'pickerHint',
  'pickerRequired',
  'slashOnly',
  'refused',
  'welcome',
  'postRefused',
  'postAdded',
  'startFailed',
  'thinking',
  'selectPlaceholder',
  'unknownUser',
  'unknownChannel',
  'unknownRole',
  'used',
  'onlyYou',
  'dismissMessage',
  'edited',
  'topicGeneral',
  'topicPatchNotes',
  'topicBalanceTalk',
] as const satisfies readonly (keyof typeof en)[];

/** What `used`'s placeholders are filled with before the sentence is cut around them (private-use characters, in no message). */
const USER = '\uE000';
const COMMAND = '\uE001';

/**
 * The page's sentences in `locale`, one function per sentence (those the server also says are named as
 * the matching entries of src/render/strings.ts's `t`), {@link PageMessages.frame} for the labels of the
 * page's frame (its sidebars, switchers, header buttons and dialogs), and the texts Discord's own
 * client writes around a bot's messages (the `discord…` entries), as that client writes them in
 * `locale`. A key missing from `locale` falls back to English.
 */
export function pageMessages(locale: PageLocale = 'en') {
  const i18n = createInstance();
  void i18n.init({
    initAsync: false,
    lng: locale,
    fallbackLng: 'en',
    ns: [NS],
    defaultNS: NS,
    keySeparator: '.',
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
    resources: Object.fromEntries(Object.entries(RESOURCES).map(([l, messages]) => [l, { [NS]: messages }])),
  });
  const m = (key: keyof typeof en, values?: Record<string, string | number>): string => i18n.t(key, values ?? {});
  // The short numeric date the Discord components write by a message and in an embed footer (theirs is en-US: 03/05/2026).
  const date = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric' });
  return {
    /** The locale of these messages (for `Intl`: Discord's `<t:…>` timestamps are written in it). */
    locale,
    playgroundUnknownCommand: (name: string) => m('unknownCommand', { name }),
    playgroundPlaceholder: (channel: string) => m('placeholder', { channel }),
    playgroundPickerCommands: () => m('pickerCommands'),
    playgroundPickerOptions: (command: string) => m('pickerOptions', { command }),
    playgroundPickerSend: () => m('pickerSend'),
    playgroundPickerHint: () => m('pickerHint'),
    /** An option's description in the picker, marked as required. */
    playgroundPickerRequired: (detail: string) => m('pickerRequired', { detail }),
    playgroundSlashOnly: () => m('slashOnly'),
    playgroundRefused: (status: number) => m('refused', { status }),
    playgroundWelcome: (channel: string) => m('welcome', { channel }),
    playgroundPostRefused: (status: number) => m('postRefused', { status }),
    playgroundPostAdded: () => m('postAdded'),
    playgroundStartFailed: (reason: string) => m('startFailed', { reason }),
    /** A deferred answer's placeholder, before its animated dots: "Rivals Bot is thinking". */
    discordThinking: (bot: string) => m('thinking', { name: bot }),
    /** A select menu's placeholder when the bot gives none. */
    discordSelectPlaceholder: () => m('selectPlaceholder'),
    /** The name of a mentioned member the server does not have (drawn as `@unknown-user`). */
    discordUnknownUser: () => m('unknownUser'),
    /** The name of a mentioned channel the server does not have (drawn as `#unknown-channel`). */
    discordUnknownChannel: () => m('unknownChannel'),
    /** The name of a mentioned role the server does not have (drawn as `@unknown-role`). */
    discordUnknownRole: () => m('unknownRole'),
    /**
     * The header of a message answering a command, "Sam used /hero", in the order `locale` writes it
     * ("Samが/heroを使用しました", "Sam hat /hero verwendet"): the words between as strings, and `user`
     * and `command` (what the page draws them as: a coloured name, a command pill) where they go.
     */
    discordUsed: <T>(user: T, command: T): (string | T)[] =>
      m('used', { user: USER, command: COMMAND })
        .split(/(\uE000|\uE001)/)
        .filter((part) => part !== '')
        .map((part) => (part === USER ? user : part === COMMAND ? command : part)),
    /** The line under an ephemeral message, before its "Dismiss message" link. */
    discordOnlyYou: () => m('onlyYou'),
    /** The link under an ephemeral message that hides it. */
    discordDismissMessage: () => m('dismissMessage'),
    /** The small mark after the text of a message edited after it was sent: "(edited)". */
    discordEdited: () => m('edited'),
    /** `when` as the short numeric date by a message and in an embed footer: 03/05/2026, 05/03/2026, 05.03.2026, 2026/03/05. */
    discordDate: (when: Date) => date.format(when),
    /** The topic of one of the playground server's channels (src/playground/guild.ts) by its name; `fallback` (the server's English topic) for another. */
    channelTopic: (name: string, fallback: string) => {
      const key = ({ general: 'topicGeneral', 'patch-notes': 'topicPatchNotes', 'balance-talk': 'topicBalanceTalk' } as const)[name];
      return key ? m(key) : fallback;
    },
    /** A label of the page's frame by its key (index.html names them in `data-text`, `data-title` and `data-aria-label` attributes). */
    frame: (key: FrameKey, values?: Record<string, string>) => m(key, values),
  };
}

/** The keys of the page's frame labels: every key of the namespace but the sentences ({@link SENTENCES}). */
export type FrameKey = Exclude<keyof typeof en, (typeof SENTENCES)[number]>;

/** Whether `key` names a label of the page's frame (a `data-text`, `data-title` or `data-aria-label` value of index.html, or a `data-text` the page sets). */
export const isFrameKey = (key: string): key is FrameKey => key in en && !(SENTENCES as readonly string[]).includes(key);

/** The page's sentences in one locale ({@link pageMessages}). */
export type PageMessages = ReturnType<typeof pageMessages>;
