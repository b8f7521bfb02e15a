/**
 * The playground page's assets: the HTML shell, the stylesheet, and the script: in the built bot the
 * one scripts/build.mjs bundled beside it (dist/playground-page.js); under tsx, bundled now by esbuild
 * (a development package) from ./web (the Discord-like web components of
 * @skyra/discord-components-core, the Discord markdown parser and the page's own code).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The page's three files. */
export interface PageAssets {
  html: string;
  css: string;
  js: string;
}

/** Set to true by the build (scripts/build.mjs `define`); undeclared under tsx. */
declare const PLAYGROUND_PAGE_BUILT: boolean | undefined;

const WEB = fileURLToPath(new URL('./web/', import.meta.url));
/** The built page's script: the build rewrites `import.meta.url` to this source file's place, and dist/ sits beside src/. */
const BUILT_PAGE = fileURLToPath(new URL('../../dist/playground-page.js', import.meta.url));

/** The page's script bundled now, as the build does (esbuild's options in scripts/build.mjs `PAGE_OPTIONS`). */
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
