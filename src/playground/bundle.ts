/** The page's HTML, stylesheet and script: the script built beside the bot (dist/playground-page.js), or bundled now by esbuild under tsx. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface PageAssets {
  html: string;
  css: string;
  js: string;
}

/** Set to true by the build (scripts/build.mjs `define`); undeclared under tsx. */
declare const PLAYGROUND_PAGE_BUILT: boolean | undefined;

const WEB = fileURLToPath(new URL('./web/', import.meta.url));
/** The build rewrites `import.meta.url` to this source file's place, and dist/ sits beside src/. */
const BUILT_PAGE = fileURLToPath(new URL('../../dist/playground-page.js', import.meta.url));

/** Bundled as the build does (scripts/build.mjs `PAGE_OPTIONS`). */
async function bundlePage(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [`${WEB}main.ts`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['chrome115', 'firefox115', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/**
 * Reads the page (under tsx, bundling its script takes about half a second).
 * @throws the file system's error when a file is missing; esbuild's when the page's code does not compile.
 */
export async function buildPageAssets(): Promise<PageAssets> {
  const built = typeof PLAYGROUND_PAGE_BUILT !== 'undefined' && PLAYGROUND_PAGE_BUILT;
  const [html, css, js] = await Promise.all([
    readFile(`${WEB}index.html`, 'utf8'),
    readFile(`${WEB}app.css`, 'utf8'),
    built ? readFile(BUILT_PAGE, 'utf8') : bundlePage(),
  ]);
  return { html, css, js };
}
