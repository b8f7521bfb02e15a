/**
 * The page's sentences and the texts Discord's client draws around the bot's messages, in the acting member's language, from the
 * `playground-page` locale files through the page's own i18next: src/i18n needs node:fs and AsyncLocalStorage, absent in a browser.
 */
import { createInstance } from 'i18next';
import de from '../../i18n/locales/de/playground-page.json' with { type: 'json' };
import en from '../../i18n/locales/en/playground-page.json' with { type: 'json' };
import esES from '../../i18n/locales/es-ES/playground-page.json' with { type: 'json' };
import fr from '../../i18n/locales/fr/playground-page.json' with { type: 'json' };
import ja from '../../i18n/locales/ja/playground-page.json' with { type: 'json' };
import ptBR from '../../i18n/locales/pt-BR/playground-page.json' with { type: 'json' };

const NS = 'playground-page';
const RESOURCES = { en, 'es-ES': esES, 'pt-BR': ptBR, fr, de, ja } as const;

export const isPageLocale = (value: string): value is PageLocale => value in RESOURCES;

/** English first. */
export const PAGE_LOCALES = Object.keys(RESOURCES) as PageLocale[];
export type PageLocale = keyof typeof RESOURCES;

/** Keys read through named functions; every other key is a frame label. */
const SENTENCES = [
  'unknownCommand',
  'placeholder',
  'placeholderDm',
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

/** Fills `used`'s placeholders before the sentence is cut around them: private-use characters, in no message. */
const USER = '\uE000';
const COMMAND = '\uE001';

/**
 * The page's sentences in `locale` (named as in src/render/strings.ts's `t` where the server says them too), the frame's labels,
 * and the `discord…` texts as Discord's client writes them in `locale`. A missing key falls back to English.
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
  // The numeric date by a message and in an embed footer: the components' own is always en-US.
  const date = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric' });
  return {
    /** For `Intl`: Discord's `<t:…>` timestamps are written in it. */
    locale,
    playgroundUnknownCommand: (name: string) => m('unknownCommand', { name }),
    playgroundPlaceholder: (channel: string) => m('placeholder', { channel }),
    /** In a DM with `name` (Discord writes "Message @name"). */
    playgroundPlaceholderDm: (name: string) => m('placeholderDm', { name }),
    playgroundPickerCommands: () => m('pickerCommands'),
    playgroundPickerOptions: (command: string) => m('pickerOptions', { command }),
    playgroundPickerSend: () => m('pickerSend'),
    playgroundPickerHint: () => m('pickerHint'),
    playgroundPickerRequired: (detail: string) => m('pickerRequired', { detail }),
    playgroundSlashOnly: () => m('slashOnly'),
    playgroundRefused: (status: number) => m('refused', { status }),
    playgroundWelcome: (channel: string) => m('welcome', { channel }),
    playgroundPostRefused: (status: number) => m('postRefused', { status }),
    playgroundPostAdded: () => m('postAdded'),
    playgroundStartFailed: (reason: string) => m('startFailed', { reason }),
    discordThinking: (bot: string) => m('thinking', { name: bot }),
    discordSelectPlaceholder: () => m('selectPlaceholder'),
    discordUnknownUser: () => m('unknownUser'),
    discordUnknownChannel: () => m('unknownChannel'),
    discordUnknownRole: () => m('unknownRole'),
    /** "Sam used /hero" in `locale`'s word order: the words between as strings, `user` and `command` where they go. */
    discordUsed: <T>(user: T, command: T): (string | T)[] =>
      m('used', { user: USER, command: COMMAND })
        .split(/(\uE000|\uE001)/)
        .filter((part) => part !== '')
        .map((part) => (part === USER ? user : part === COMMAND ? command : part)),
    discordOnlyYou: () => m('onlyYou'),
    discordDismissMessage: () => m('dismissMessage'),
    discordEdited: () => m('edited'),
    discordDate: (when: Date) => date.format(when),
    /** A playground channel's topic by name; `fallback` (its English topic) for another. */
    channelTopic: (name: string, fallback: string) => {
      const key = ({ general: 'topicGeneral', 'patch-notes': 'topicPatchNotes', 'balance-talk': 'topicBalanceTalk', ladder: 'topicLadder' } as const)[name];
      return key ? m(key) : fallback;
    },
    /** An attachment's size as Discord writes it under the file's name: bytes, KB or MB, at most two decimals. */
    fileSize: (bytes: number) => {
      const [value, unit] = bytes < 1024 ? [bytes, 'byte'] : bytes < 1024 * 1024 ? [bytes / 1024, 'kilobyte'] : [bytes / 1024 / 1024, 'megabyte'];
      return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 2 }).format(value);
    },
    /** A frame label by key (index.html's `data-text`, `data-title` and `data-aria-label`). */
    frame: (key: FrameKey, values?: Record<string, string>) => m(key, values),
  };
}

export type FrameKey = Exclude<keyof typeof en, (typeof SENTENCES)[number]>;

/** Whether `key` names a frame label (an index.html attribute value, or a `data-text` the page sets). */
export const isFrameKey = (key: string): key is FrameKey => key in en && !(SENTENCES as readonly string[]).includes(key);

export type PageMessages = ReturnType<typeof pageMessages>;
