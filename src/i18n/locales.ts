/** Apart from the rest of src/i18n so that browser code and chart specs can name locales without Node. */

/** English first: the source every other is translated from. */
export const LOCALES = ['en', 'es-ES', 'pt-BR', 'fr', 'de', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];
