/**
 * `npm run build`: compiles the bot to plain JavaScript in dist/ with esbuild, so production runs
 * `node dist/index.js` with no npm, tsx or esbuild process (docs/operations.md, "Production").
 *
 * - Entry points: src/index.ts (the bot) -> dist/index.js, src/deploy.ts (`npm run deploy`) ->
 *   dist/deploy.js, src/charts/worker-entry.ts (the chart worker threads' entry, which loads their task;
 *   src/charts/renderer.ts finds it beside its own chunk) -> dist/chart-worker.js, src/rest-proxy.ts (the REST proxy service,
 *   `npm run rest-proxy`) -> dist/rest-proxy.js, src/web.ts (the dashboard alone, `npm run web`) -> dist/web.js. Our modules
 *   and the packages they use are
 *   bundled: node then reads a few files at start instead of resolving and reading about 900, which
 *   takes the cold start from about 2.5 s to about 1.5 s on the development machine ({@link EXTERNAL}
 *   says which packages stay outside).
 * - ES modules with code splitting: what the composition root imports dynamically (the playground,
 *   the API replica, the Redis client) lands in its own chunk and loads only in the mode that needs it.
 *   Chunks sit beside the entry points, in dist/ itself.
 * - A module that finds files next to itself (`new URL('./samples/', import.meta.url)`) still finds
 *   them in src/: its `import.meta.url` is rewritten to its source file's place, relative to dist/, so
 *   dist/ works wherever the checkout is.
 * - The output is ASCII only (esbuild escapes strings; our regular expressions write `\u2019`, not the
 *   character; licence comments go to .LEGAL.txt files): node holds every loaded file's source in
 *   memory, one byte a character while all of it is Latin-1 and two otherwise. Curly quotes and dashes
 *   in our regular expressions had put our two largest chunks at two bytes (0.36 MiB of heap).
 * - dist/.build-stamp records the inputs' newest change; {@link isStale} compares against it.
 *
 * This file is plain JavaScript: `npm start` (scripts/start.mjs) runs it straight after `npm ci`.
 */
import { readdirSync, statSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the build goes. */
export const DIST = join(ROOT, 'dist');
/** The file in a build that records what it was made from: `{ inputsChangedAt, builtAt }`, ms since the epoch. */
const STAMP = '.build-stamp';
/** Folders and files whose change makes the build stale. */
const INPUTS = ['src', 'commands', 'package.json', 'package-lock.json', 'scripts/build.mjs'];
/**
 * Packages left as imports from node_modules: native addons (better-sqlite3), optional native helpers
 * of discord.js's gateway (zlib-sync, bufferutil, utf-8-validate), what only another mode loads
 * (pg with DATABASE_URL, @keyv/redis with REDIS_URL, esbuild for the playground under tsx), and pino-pretty (a
 * development package, loaded on a terminal only). pino is bundled (its 20 files took about 11 ms to
 * load at every start): the bot never uses pino's transports, whose worker threads would look for
 * files beside pino's own (src/core/logger.ts writes pino-pretty as a stream instead).
 * @discordjs/ws is bundled: its worker sharding strategy would look for its worker file beside the
 * bundle, and the bot runs its shards in one process (simple strategy).
 * For the charts: @napi-rs/canvas is a native addon, and piscina starts its threads from the worker.js
 * beside its own files, found through `__dirname` (undefined in an ES module bundle). chart.js is
 * bundled, into the chart worker's entry point only.
 */
const EXTERNAL = [
  'better-sqlite3',
  'pg',
  'pg-native',
  '@keyv/redis',
  'esbuild',
  'pino-pretty',
  'zlib-sync',
  'bufferutil',
  'utf-8-validate',
  '@napi-rs/canvas',
  'piscina',
];
/** Lets the bundled CommonJS packages (discord.js) `require` Node's own modules from an ES module. */
const REQUIRE_SHIM = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/** The playground page's script, built beside the bot for the browser (src/playground/bundle.ts reads it). */
export const PLAYGROUND_PAGE = 'playground-page.js';
/** The page's script for the browser: the Discord-like web components, the markdown parser and the page's own code. */
const PAGE_OPTIONS = {
  entryPoints: ['src/playground/web/main.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome115', 'firefox115', 'safari16'],
  minify: true,
  legalComments: 'none',
};

/**
 * The newest modification time under the build's inputs, ms since the epoch (0 when none exist).
 * Stats about 150 files: a few milliseconds.
 */
export function inputsChangedAt() {
  let newest = 0;
  const visit = (path) => {
    let info;
    try {
      info = statSync(path);
    } catch {
      return;
    }
    if (info.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (info.mtimeMs > newest) {
      newest = info.mtimeMs;
    }
  };
  for (const input of INPUTS) visit(join(ROOT, input));
  return newest;
}

/** True when the build in `outdir` (default dist/) is missing, or older than a source file, package.json or the lock file. */
export function isStale(outdir = DIST) {
  try {
    const stamp = JSON.parse(readFileSync(join(outdir, STAMP), 'utf8'));
    return !(stamp.inputsChangedAt >= inputsChangedAt()) || !statSync(join(outdir, 'index.js')).isFile();
  } catch {
    return true;
  }
}

/**
 * An esbuild plugin: in our own modules, `import.meta.url` becomes the URL of the source file,
 * relative to the output's place in dist/, so that files read next to a module are found.
 */
const sourceRelativeMetaUrl = (outdir) => ({
  name: 'source-relative-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromDist = relative(outdir, args.path).split(sep).join('/');
      return {
        contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromDist)}, import.meta.url).href`),
        loader: 'ts',
        resolveDir: dirname(args.path),
      };
    });
  },
});

/**
 * Packages that discord.js loads with `require` and our modules with `import`: each resolves to its
 * CommonJS build from both sides, so the bundle holds one copy. Their `exports` maps name a separate
 * ES module file, and without this the bundle carried two of @discordjs/builders, rest, ws, formatters
 * and their helpers: about 700 KB of source that node parsed at every start.
 */
const SHARED_WITH_DISCORD_JS = /^(@discordjs\/|@sapphire\/|@vladfrangu\/|discord-api-types(\/|$))/;

/** An esbuild plugin: `import` of a {@link SHARED_WITH_DISCORD_JS} package resolves as `require` does. */
const oneCopyOfDiscordJsPackages = () => ({
  name: 'one-copy-of-discord-js-packages',
  setup(build) {
    build.onResolve({ filter: SHARED_WITH_DISCORD_JS }, async (args) => {
      if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined;
      const resolved = await build.resolve(args.path, { kind: 'require-call', resolveDir: args.resolveDir, importer: args.importer });
      return resolved.errors.length > 0 ? undefined : { path: resolved.path, external: resolved.external, sideEffects: resolved.sideEffects };
    });
  },
});

/**
 * Builds `outdir` (default dist/; emptied first) from src/ and commands/. Resolves with esbuild's
 * warnings count and the files with code in the output (paths relative to the repository, as
 * esbuild's metafile names them: `node_modules/zod/v4/core/core.js`); `log` gets one line when done.
 * @throws esbuild's error (with the file and line) when the code does not compile.
 */
export async function build({ outdir = DIST, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const started = Date.now();
  const changedAt = inputsChangedAt();
  const { build: esbuild } = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: {
      index: 'src/index.ts',
      deploy: 'src/deploy.ts',
      'chart-worker': 'src/charts/worker-entry.ts',
      'rest-proxy': 'src/rest-proxy.ts',
      web: 'src/web.ts',
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external: EXTERNAL,
    // Class and function names as written: discord.js picks each manager's cache limit by its class's
    // name (Options.cacheWithLimits), and a bundle renames colliding classes (RoleManager2).
    keepNames: true,
    // Less for node to read and parse at every start (6.3 → 3.9 MiB); names are kept (above), and the
    // linked source maps give stack traces their TypeScript lines with --enable-source-maps.
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: REQUIRE_SHIM },
    // Licence comments of bundled packages go to a .LEGAL.txt beside each output file, so that the
    // output stays ASCII (one names its author with an ä).
    legalComments: 'external',
    sourcemap: 'linked',
    chunkNames: '[name]-[hash]',
    logLevel: 'warning',
    plugins: [sourceRelativeMetaUrl(outdir), oneCopyOfDiscordJsPackages()],
    // Tells src/playground/bundle.ts to read the page's script built below rather than build it.
    define: { PLAYGROUND_PAGE_BUILT: 'true' },
    metafile: true,
  });
  await esbuild({ ...PAGE_OPTIONS, absWorkingDir: ROOT, outfile: join(outdir, PLAYGROUND_PAGE), logLevel: 'warning' });
  writeFileSync(join(outdir, STAMP), `${JSON.stringify({ inputsChangedAt: changedAt, builtAt: Date.now() })}\n`);
  log(`build: ${relative(ROOT, outdir) || outdir}/ ready in ${Date.now() - started} ms`);
  const bundled = new Set(
    Object.values(result.metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, use]) => use.bytesInOutput > 0)
        .map(([path]) => path),
    ),
  );
  return { warnings: result.warnings.length, inputs: [...bundled] };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  build().catch((err) => {
    process.stderr.write(`build failed: ${err.message}\n`);
    process.exit(1);
  });
}
