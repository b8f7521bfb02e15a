/**
 * `npm start`: runs the production build (dist/index.js) in this same node process, building it
 * first when it is missing or older than the sources (scripts/build.mjs), so that `npm start` works
 * straight after `npm ci`. Arguments (e.g. `--playground`) pass through to the bot.
 *
 * Under a process supervisor, run `npm run build` once and then `node dist/index.js` itself: signals
 * then go straight to node (docs/operations.md, "Production").
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { build, DIST, isStale } from './build.mjs';

if (isStale()) {
  try {
    await build();
  } catch (err) {
    process.stderr.write(`npm start: the build failed, so the bot cannot start:\n${err.message}\n`);
    process.exit(1);
  }
}
await import(pathToFileURL(join(DIST, 'index.js')).href);
