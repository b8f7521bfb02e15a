/** The bot's locales, apart from the rest of src/i18n so that browser code and chart specs can name them without Node. */

/** Every locale the bot speaks, English first (the source every other is translated from). */
export const LOCALES = ['en', 'es-ES', 'pt-BR', 'fr', 'de', 'ja'] as const;
/** One of {@link LOCALES}. */
export type Locale = (typeof LOCALES)[number];
