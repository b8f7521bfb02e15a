/**
 * The charts' fonts, shipped in assets/fonts (SIL OFL 1.1) so charts never fall back to a system font.
 * Noto Sans JP's files are large, so they are registered only once a chart needs them.
 */
import { fileURLToPath } from 'node:url';
import { GlobalFonts } from '@napi-rs/canvas';
import type { ChartSpec } from './specs.js';
import { FONT_FAMILY, JAPANESE_FONT_FAMILY } from './theme.js';

/** The build rewrites `import.meta.url` to this source file's place. */
const fontFile = (file: string) => fileURLToPath(new URL(`../../assets/fonts/${file}`, import.meta.url));

const FONT_FILES = ['Inter-Regular.ttf', 'Inter-SemiBold.ttf'].map(fontFile);

const JAPANESE_FONT_FILES = ['NotoSansJP-Regular.ttf', 'NotoSansJP-SemiBold.ttf'].map(fontFile);

/** CJK punctuation, kana, ideographs and full-width forms: what Inter lacks and Noto Sans JP draws. */
const JAPANESE_TEXT = /[\u3000-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{3ffff}]/u;

let registered = false;
let japaneseRegistered = false;

/**
 * Weights 400 and 600, once per thread; the addon's process-wide collection takes a repeat without a new family.
 * @throws Error naming the file when a font file is missing or unreadable.
 */
export function registerChartFonts(): void {
  if (registered) return;
  for (const path of FONT_FILES) {
    if (!GlobalFonts.registerFromPath(path, FONT_FAMILY)) throw new Error(`chart font not loaded: ${path}`);
  }
  registered = true;
}

/**
 * Weights 400 and 600, once per thread, as {@link registerChartFonts}.
 * @throws Error naming the file when a font file is missing or unreadable.
 */
export function registerJapaneseFonts(): void {
  if (japaneseRegistered) return;
  for (const path of JAPANESE_FONT_FILES) {
    if (!GlobalFonts.registerFromPath(path, JAPANESE_FONT_FAMILY)) throw new Error(`chart font not loaded: ${path}`);
  }
  japaneseRegistered = true;
}

/** A `ja` locale, or any Japanese text in it, such as a player name. @param spec a checked spec: plain data. */
export function needsJapaneseFont(spec: ChartSpec): boolean {
  // Image bytes are no text, and would stringify as one key per byte.
  return spec.locale === 'ja' || JAPANESE_TEXT.test(JSON.stringify(spec, (key, value: unknown) => (key === 'images' ? undefined : value)));
}
