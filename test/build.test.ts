/**
 * The production build: `npm run build` compiles to dist/, the bot runs as plain node on it,
 * `npm start` rebuilds only when the build is stale, and each mode imports only what it needs (Discord
 * mode with an API key never loads the playground, esbuild, the API replica, the PostgreSQL driver or
 * the Redis client).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { build, isStale, PLAYGROUND_PAGE } from '../scripts/build.mjs';
import { ROOT, startRecordingBot } from './helpers/bot-process.js';
import { startFakeDiscord, type FakeDiscord } from './e2e/fake-discord.js';

const scratch = mkdtempSync(join(tmpdir(), 'rivals-build-test-'));
const running: ChildProcess[] = [];
let discord: FakeDiscord | undefined;

afterEach(async () => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await discord?.close();
  discord = undefined;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the built bot with `env` (on a bare environment) until its output matches `ready`; resolves with the output and the modules it resolved. */
async function runUntil(env: Record<string, string>, ready: RegExp, name: string): Promise<{ output: string; modules: string[] }> {
  const bot = await startRecordingBot({ scratch, name, env, ready, running });
  return { output: bot.output(), modules: bot.modules() };
}

/** Of the build's own files among `modules`, those whose code defines `name`. */
const definedIn = (modules: string[], name: string) =>
  modules
    .filter((url) => url.startsWith('file:') && url.includes('/dist/'))
    .filter((url) => readFileSync(fileURLToPath(url), 'utf8').includes(`function ${name}(`));

describe('npm run build', () => {
  it('builds a tree that is fresh until an input changes, and stale when its entry point is missing', async () => {
    const out = join(scratch, 'dist');
    await build({ outdir: out, log: () => undefined });
    expect(isStale(out)).toBe(false);
    const stamp = JSON.parse(readFileSync(join(out, '.build-stamp'), 'utf8')) as { inputsChangedAt: number };
    writeFileSync(join(out, '.build-stamp'), JSON.stringify({ ...stamp, inputsChangedAt: stamp.inputsChangedAt - 1 }));
    expect(isStale(out)).toBe(true);
    writeFileSync(join(out, '.build-stamp'), JSON.stringify(stamp));
    rmSync(join(out, 'index.js'));
    expect(isStale(out)).toBe(true);
    expect(isStale(join(scratch, 'never-built'))).toBe(true);
  });

  it('bundles one copy of each package discord.js shares with our modules (its CommonJS build), zod without its other languages, all in ASCII', async () => {
    const out = join(scratch, 'dist-copies');
    const { inputs } = await build({ outdir: out, log: () => undefined });
    // node keeps each module's source in memory, one byte a character while all of it is Latin-1 and two
    // otherwise (a curly quote in one of our regular expressions did it); ASCII keeps it so. The
    // playground page's script is for the browser, not node.
    for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js') && name !== PLAYGROUND_PAGE)) {
      // eslint-disable-next-line no-control-regex -- \x00-\x7f is the ASCII range on purpose
      const nonAscii = /[^\x00-\x7f].{0,30}/u.exec(readFileSync(join(out, file), 'utf8'));
      expect(nonAscii?.[0], file).toBeUndefined();
    }
    for (const pkg of [
      '@discordjs/builders',
      '@discordjs/rest',
      '@discordjs/ws',
      '@discordjs/formatters',
      '@discordjs/util',
      '@sapphire/shapeshift',
      '@vladfrangu/async_event_emitter',
    ]) {
      expect(
        inputs.filter((path) => path.startsWith(`node_modules/${pkg}/`)),
        pkg,
      ).not.toEqual([]);
    }
    // No ES module file of any package of the family: the plugin falls back to esbuild's own resolution
    // (a second copy) when it cannot resolve an import as `require` would.
    expect(inputs.filter((path) => /^node_modules\/(@discordjs|@sapphire|@vladfrangu|discord-api-types)\/.*\.mjs$/.test(path))).toEqual([]);
    // `import * as z`: zod's error messages in its 40-odd other languages are left out.
    expect(inputs.filter((path) => path.startsWith('node_modules/zod/'))).not.toEqual([]);
    expect(inputs.filter((path) => /^node_modules\/zod\/.*\/locales\/(?!en\.js)/.test(path))).toEqual([]);
  });

  it('runs on Discord with an API key loading neither the playground, esbuild, the replica, PostgreSQL nor Redis', async () => {
    discord = await startFakeDiscord();
    // The caches are off in the bundle too: discord.js warns (logged at debug) for each manager it knows
    // as unsupported to limit, by its class name, which the bundle must keep for the limits to apply.
    // The guild's managers are made as its GUILD_CREATE is read, which on a busy machine may be logged
    // after the ready line: the run waits for all of them.
    const managers = ['ChannelManager', 'GuildChannelManager', 'RoleManager', 'PermissionOverwriteManager'];
    const { modules, output } = await runUntil(
      {
        DISCORD_TOKEN: 'build-test-token',
        DISCORD_API_URL: discord.apiUrl,
        RIVALS_API_KEY: 'key',
        RIVALS_API_BASE_URL: 'http://127.0.0.1:9',
        LOG_LEVEL: 'debug',
      },
      new RegExp(
        ['logged in to Discord', ...managers.map((m) => `Overriding the cache handling for ${m} is unsupported`)]
          .map((line) => `(?=[\\s\\S]*${line})`)
          .join(''),
      ),
      'discord',
    );
    for (const manager of managers) {
      expect(output).toContain(`Overriding the cache handling for ${manager} is unsupported`);
    }
    // discord.js is in the bundle; a native addon, the SQLite driver, stays in node_modules.
    expect(modules.filter((url) => url.includes('/node_modules/discord.js/'))).toEqual([]);
    expect(modules.some((url) => url.includes('/node_modules/better-sqlite3/'))).toBe(true);
    expect(modules.filter((url) => /\/node_modules\/(esbuild|@keyv\/redis|pg|@redis)\//.test(url))).toEqual([]);
    // pino is bundled too (its transports' worker threads are never used; pino-pretty is a terminal's).
    expect(modules.filter((url) => /\/node_modules\/(pino|pino-pretty|sonic-boom|thread-stream)\//.test(url))).toEqual([]);
    // Nothing of the TypeScript sources: the build alone.
    expect(
      modules.filter((url) => url.startsWith(pathToFileURL(join(ROOT, 'src')).href) || url.startsWith(pathToFileURL(join(ROOT, 'commands')).href)),
    ).toEqual([]);
    expect(definedIn(modules, 'startPlayground')).toEqual([]);
    expect(definedIn(modules, 'startReplica')).toEqual([]);
    expect(definedIn(modules, 'createDiscordClient')).not.toEqual([]);
  });

  it('serves the playground offline from the build: the page, its script, and the replica with its samples', async () => {
    const { output, modules } = await runUntil({ PORT: '0' }, /playground ready/, 'playground');
    expect(definedIn(modules, 'startReplica')).not.toEqual([]);
    const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.[1];
    expect(url).toBeDefined();
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    const script = await fetch(`${url}/app.js`);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(1_000);
    // The replica found its recorded samples next to its source: a hero lookup answers.
    const replica = /"replica":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.[1];
    const heroes = await fetch(`${replica}/api/v1/heroes`, { headers: { 'x-api-key': 'anything' } });
    expect(heroes.status).not.toBe(500);
  });
});
