/**
 * The entry point without a Discord token: `npm start` serves the playground on PORT over the
 * in-process replica; `npm run playground` (`--playground`) does so even with a token; a taken port
 * is a clear fatal error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNELS, MEMBERS } from '../../src/playground/guild.js';
import { BOT_ARGS } from '../helpers/bot-process.js';
import { pollUntil } from '../helpers/until.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** What `npm start` runs, with `env` added to a bare environment (no token, no API key). */
function start(env: Record<string, string>, args: string[] = []): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const dataDir = mkdtempSync(join(tmpdir(), 'rivals-start-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [...BOT_ARGS, ...args], {
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe('npm start without DISCORD_TOKEN', () => {
  it('serves the playground on PORT, answers a command there, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const run = start({ PORT: String(port) });
    await pollUntil(() => run.output().includes('playground ready'), 'the playground start', { timeoutMs: 20_000, context: run.output });
    expect(run.output()).toContain(`open http://127.0.0.1:${port} in a browser`);
    expect(run.output()).toContain('DISCORD_TOKEN is not set, so the bot runs in the local playground');

    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(await page.text()).toContain('Rivals Bot · Playground');
    const events = await fetch(`http://127.0.0.1:${port}/api/events`);
    const reader = events.body!.getReader();
    const res = await fetch(`http://127.0.0.1:${port}/api/interactions/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ memberId: MEMBERS[0]!.id, channelId: CHANNELS[0]!.id, command: 'hero', options: { name: 'Hulk' } }),
    });
    expect(res.status).toBe(202);
    let text = '';
    while (!text.includes('"title":"Hulk"')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('shutting down the playground');
  }, 40_000);

  it('runs the playground with --playground (npm run playground) even when a token is set', async () => {
    const port = await freePort();
    const run = start({ PORT: String(port), DISCORD_TOKEN: 'playground-token-xyz789', DISCORD_API_URL: 'http://127.0.0.1:9/api' }, ['--playground']);
    await pollUntil(() => run.output().includes('playground ready'), 'the playground start', { timeoutMs: 20_000, context: run.output });
    expect(run.output()).not.toContain('logged in to Discord');
    expect(run.output()).not.toContain('playground-token-xyz789');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 40_000);

  it('says which variable to change when PORT is taken, and exits 1', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const run = start({ PORT: String(port) });
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain(`port ${port} is in use: set PORT to a free port`);
      // One line of advice, no stack trace (that goes at debug).
      const fatal = run
        .output()
        .split('\n')
        .filter((l) => l.includes('"level":60'));
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).not.toContain('"stack"');
    } finally {
      taken.close();
    }
  }, 40_000);
});
