/**
 * Starting the dashboard, as the built bot runs it: without DISCORD_CLIENT_SECRET and WEB_PUBLIC_URL, `npm run web`
 * (dist/web.js) exits 1 with one line naming them, and the bot on Discord says in one line that the dashboard is off
 * and goes on; with them, the bot serves it and logs its address.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startRecordingBot } from '../helpers/bot-process.js';
import { freePort } from '../helpers/free-port.js';
import { APP_ID, FAKE_CLIENT_SECRET, startFakeDiscord, type FakeDiscord } from './fake-discord.js';

let discord: FakeDiscord;
const running: ChildProcess[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'rivals-web-start-'));

beforeAll(async () => {
  discord = await startFakeDiscord();
});
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await discord?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('starting the dashboard', () => {
  it('npm run web without its variables exits 1 with one line naming them, and no secret', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'web.js')], {
      cwd: scratch,
      env: { PATH: process.env.PATH!, HOME: scratch, DATA_DIR: join(scratch, 'data'), DISCORD_TOKEN: 'a-secret-bot-token', DISCORD_CLIENT_ID: APP_ID },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'npm run web: the web dashboard is off: set DISCORD_CLIENT_SECRET, WEB_PUBLIC_URL (see .env.example and docs/operations.md, "The dashboard")',
    ]);
    expect(run.stdout + run.stderr).not.toContain('a-secret-bot-token');
  });

  it('the bot says in one line that the dashboard is off, and runs', async () => {
    const bot = await startRecordingBot({
      scratch,
      name: 'off',
      env: { DISCORD_TOKEN: 'fake-bot-token-xyz', DISCORD_CLIENT_ID: APP_ID, DISCORD_API_URL: discord.apiUrl, PORT: '0' },
      ready: /logged in to Discord/,
      running,
    });
    const lines = bot
      .output()
      .split('\n')
      .filter((l) => l.includes('dashboard'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('the web dashboard is off: set DISCORD_CLIENT_SECRET, WEB_PUBLIC_URL');
  });

  it('with them, the bot serves it and logs the address admins open, never the secrets', async () => {
    const port = await freePort();
    const bot = await startRecordingBot({
      scratch,
      name: 'on',
      env: {
        DISCORD_TOKEN: 'fake-bot-token-xyz',
        DISCORD_CLIENT_ID: APP_ID,
        DISCORD_API_URL: discord.apiUrl,
        DISCORD_CLIENT_SECRET: FAKE_CLIENT_SECRET,
        WEB_PUBLIC_URL: `http://127.0.0.1:${port}`,
        WEB_PORT: String(port),
        WEB_SESSION_SECRET: 'a-session-secret-of-32-characters-at-least',
        PORT: '0',
      },
      ready: /logged in to Discord/,
      running,
    });
    expect(bot.output()).toContain(`dashboard ready: admins open http://127.0.0.1:${port}`);
    const login = await fetch(`http://127.0.0.1:${port}/login`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toContain(`${discord.apiUrl}/oauth2/authorize?`);
    expect(bot.output()).not.toContain(FAKE_CLIENT_SECRET);
    expect(bot.output()).not.toContain('a-session-secret-of-32-characters-at-least');
  });
});
