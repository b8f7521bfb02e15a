/**
 * The charts' font: Inter (SIL Open Font License, assets/fonts/OFL.txt), registered with
 * @napi-rs/canvas from the files in assets/fonts, so charts look the same on every machine and never
 * fall back to a system font.
 */
import { fileURLToPath } from 'node:url';
import { GlobalFonts } from '@napi-rs/canvas';
import { FONT_FAMILY } from './theme.js';

/** The font files, relative to this module (the build rewrites `import.meta.url` to this source file's place). */
const FONT_FILES = ['Inter-Regular.ttf', 'Inter-SemiBold.ttf'].map((file) => fileURLToPath(new URL(`../../assets/fonts/${file}`, import.meta.url)));

let registered = false;

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
