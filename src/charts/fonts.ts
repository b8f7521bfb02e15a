/**
 * The charts' fonts, registered with @napi-rs/canvas from files that ship with the bot, so charts look
 * the same on every machine and never fall back to a system font:
 *
 * - Inter (SIL Open Font License 1.1, assets/fonts/OFL.txt), Regular and SemiBold, from assets/fonts:
 *   every chart's Latin text. Registered when the chart worker starts.
 * - Noto Sans JP (SIL Open Font License 1.1, assets/fonts/NotoSansJP-OFL.txt), Regular and SemiBold,
 *   from assets/fonts: the Japanese text Inter has no glyphs for. The files are large, so they are
 *   registered only when a chart needs them ({@link needsJapaneseFont}), the first time one is drawn.
 *
 * Charts name both in their font string (src/charts/theme.ts `FONT_STACK`: `600 30px Inter, "Noto Sans JP"`):
 * @napi-rs/canvas takes each character from the first family that has it, so Latin text, digits and
 * punctuation stay in Inter, and kana and kanji come from Noto Sans JP. Before Noto Sans JP is
 * registered the second name matches nothing, and English charts are drawn exactly as with Inter alone.
 */
import { fileURLToPath } from 'node:url';
import { GlobalFonts } from '@napi-rs/canvas';
import type { ChartSpec } from './specs.js';
import { FONT_FAMILY, JAPANESE_FONT_FAMILY } from './theme.js';

/** A file of assets/fonts, relative to this module (the build rewrites `import.meta.url` to this source file's place). */
const fontFile = (file: string) => fileURLToPath(new URL(`../../assets/fonts/${file}`, import.meta.url));

const FONT_FILES = ['Inter-Regular.ttf', 'Inter-SemiBold.ttf'].map(fontFile);

/** Noto Sans JP at weight 400 and 600, as Inter's. */
const JAPANESE_FONT_FILES = ['NotoSansJP-Regular.ttf', 'NotoSansJP-SemiBold.ttf'].map(fontFile);

/**
 * Characters Inter lacks that Noto Sans JP draws: CJK symbols and punctuation (、。「」), hiragana,
 * katakana (and the prolonged sound mark ー), the CJK blocks up to the unified ideographs, CJK
 * compatibility ideographs and forms, half- and full-width forms (（）！), and the supplementary
 * ideographs. Inter covers Latin, Greek and Cyrillic, which Noto Sans JP would not improve.
 */
const JAPANESE_TEXT = /[\u3000-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{3ffff}]/u;

let registered = false;
let japaneseRegistered = false;

/**
 * Registers Inter Regular (400) and SemiBold (600) under the family {@link FONT_FAMILY}. Later calls
 * in the same thread do nothing; a new worker thread registers them again, which the addon's
 * process-wide font collection takes without adding a family.
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
 * Registers Noto Sans JP Regular (400) and SemiBold (600) under the family {@link JAPANESE_FONT_FAMILY}.
 * Later calls in the same thread do nothing; like Inter, a new thread registers them again without
 * adding a family (the addon maps the files).
 * @throws Error naming the file when a font file is missing or unreadable.
 */
export function registerJapaneseFonts(): void {
  if (japaneseRegistered) return;
  for (const path of JAPANESE_FONT_FILES) {
    if (!GlobalFonts.registerFromPath(path, JAPANESE_FONT_FAMILY)) throw new Error(`chart font not loaded: ${path}`);
  }
  japaneseRegistered = true;
}

/**
 * Whether drawing `spec` needs Noto Sans JP: its `locale` is `ja` (the chart's own words are then
 * Japanese), or some text in it (title, series, player, hero, role or tier names) has a character of
 * {@link JAPANESE_TEXT}, such as a Japanese player name in an English chart.
 * @param spec a checked spec (src/charts/specs.ts `parseChartSpec`): plain data, every text a string.
 */
export function needsJapaneseFont(spec: ChartSpec): boolean {
  return spec.locale === 'ja' || JAPANESE_TEXT.test(JSON.stringify(spec));
}
