/**
 * The playground page's assets: the HTML shell, the stylesheet, and the script bundled at start by
 * esbuild from ./web (the Discord-like web components of @skyra/discord-components-core, the
 * Discord markdown parser and the page's own code) into one ES module held in memory.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The page's three files. */
export interface PageAssets {
  html: string;
  css: string;
  js: string;
}

const WEB = fileURLToPath(new URL('./web/', import.meta.url));

/**
 * Builds the page. Takes about half a second.
 * @throws esbuild's error when the page's code does not compile.
 */
export async function buildPageAssets(): Promise<PageAssets> {
  const [html, css, bundle] = await Promise.all([
    readFile(`${WEB}index.html`, 'utf8'),
    readFile(`${WEB}app.css`, 'utf8'),
    build({
      entryPoints: [`${WEB}main.ts`],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: ['chrome115', 'firefox115', 'safari16'],
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
    }),
  ]);
  return { html, css, js: bundle.outputFiles[0]!.text };
}
