/**
 * The bot's entry point (`npm start`, `node dist/index.js`): turns on Node's module compile cache, starts the
 * drawing thread (src/charts/prestart.ts), then loads the composition root (src/bot.ts), which starts everything.
 *
 * The compile cache (Node.js documentation, "Module compile cache", `module.enableCompileCache`) keeps
 * V8's compiled code of the bot's modules on disk, so a restart skips most of compiling them (about a
 * fifth of a cold start: docs/benchmarks.md). It lives in `NODE_COMPILE_CACHE` when set, else in the
 * system's temporary folder, keyed by each file's content and the Node.js version, so a new build or a
 * new Node.js never reads stale code; `NODE_DISABLE_COMPILE_CACHE=1` turns it off. It must be turned on
 * here, before the composition root's static imports are compiled.
 */
import { enableCompileCache, flushCompileCache } from 'node:module';

enableCompileCache();
// The drawing thread starts loading now, beside the composition root, not when the first card is asked for.
const { prestartCharts } = await import('./charts/prestart.js');
prestartCharts();
await import('./bot.js');
// Written at a clean exit anyway; a process that is killed (a container stopped hard) keeps what the start compiled.
flushCompileCache();
