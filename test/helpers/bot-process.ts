/**
 * How the end-to-end tests start the bot as a process: exactly as production runs it, `node dist/index.js`
 * on the build that test/global-setup.ts makes once a run (scripts/build.mjs), with signals going
 * straight to node. `npm start` runs the same file after building when stale.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The node arguments that run the bot: the production build's entry point. */
export const BOT_ARGS: readonly string[] = [join(ROOT, 'dist', 'index.js')];
