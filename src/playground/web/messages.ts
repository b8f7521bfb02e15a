/**
 * The playground page's own sentences, for the browser: the `playground-page` namespace of
 * src/i18n/locales (the same keys src/strings.ts reads on the server), its six JSON files inlined by
 * esbuild, through an i18next instance of the page's own. src/i18n itself reads files with node:fs
 * and keeps the locale in an AsyncLocalStorage, neither of which exists in a browser.
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

/**
 * The page's sentences in `locale`, one function per sentence (named as the matching entries of
 * src/strings.ts's `t`), and {@link PageMessages.frame} for the labels of the page's frame (its
 * sidebars, switchers, header buttons and dialogs). A key missing from `locale` falls back to English.
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
  return {
    playgroundUnknownCommand: (name: string) => m('unknownCommand', { name }),
    playgroundPlaceholder: (channel: string) => m('placeholder', { channel }),
    playgroundPickerCommands: () => m('pickerCommands'),
    playgroundPickerOptions: (command: string) => m('pickerOptions', { command }),
    playgroundPickerSend: () => m('pickerSend'),
    playgroundPickerHint: () => m('pickerHint'),
    playgroundSlashOnly: () => m('slashOnly'),
    playgroundRefused: (status: number) => m('refused', { status }),
    playgroundWelcome: (channel: string) => m('welcome', { channel }),
    playgroundPostRefused: (status: number) => m('postRefused', { status }),
    playgroundPostAdded: () => m('postAdded'),
    playgroundStartFailed: (reason: string) => m('startFailed', { reason }),
    /** A label of the page's frame by its key (index.html names them in `data-text` and `data-title` attributes). */
    frame: (key: FrameKey, values?: Record<string, string>) => m(key, values),
  };
}

/** The keys of the page's frame labels: every key of the namespace but the sentences above. */
export type FrameKey = Exclude<keyof typeof en, 'unknownCommand' | 'placeholder' | 'pickerCommands' | 'pickerOptions' | 'pickerSend' | 'pickerHint' | 'slashOnly' | 'refused' | 'welcome' | 'postRefused' | 'postAdded' | 'startFailed'>;

/** Whether `key` names a label of the page's frame (a `data-text` or `data-title` value of index.html). */
export const isFrameKey = (key: string): key is FrameKey => key in en;

/** The page's sentences in one locale ({@link pageMessages}). */
export type PageMessages = ReturnType<typeof pageMessages>;
