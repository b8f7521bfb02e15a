import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCanvas } from '@napi-rs/canvas';
import { parseEmojiName } from '../../src/render/emojis.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { registrationPayload } from '../../src/discord/deploy.js';
import { inviteUrl, userInstallUrl } from '../../src/discord/startup.js';
import { APP_ID, GUILD_ID, startFakeDiscord, type FakeDiscord } from '../e2e/fake-discord.js';

/** The registration payload as reviewed and committed; a change to any command shows up here. */
const PINNED = JSON.parse(readFileSync(new URL('../fixtures/commands.json', import.meta.url), 'utf8')) as unknown;

function deploy(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'deploy'], {
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A Discord that answers every request with `status` and Discord's JSON error `body`; `url` is its DISCORD_API_URL. */
async function refusingDiscord(status: number, body: { message: string; code: number }): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let discord: FakeDiscord;
beforeAll(async () => {
  discord = await startFakeDiscord();
});
afterAll(() => discord.close());

describe('command registration', () => {
  it('matches the pinned payload', () => {
    expect(registrationPayload(commands)).toEqual(PINNED);
  });

  it('pins where each command works: the game and the member’s own data wherever a member is, the server’s own commands only where a server installed the bot', () => {
    // Discord: integration types 0 guild install, 1 user install; contexts 0 guild, 1 bot DM, 2 private channel.
    const everywhere = { integration_types: [0, 1], contexts: [0, 1, 2] };
    const expected: Record<string, { integration_types: number[]; contexts: number[] }> = {
      ...Object.fromEntries(
        [
          ...[
            'player',
            'hero',
            'match',
            'last',
            'session',
            'scout',
            'leaderboard',
            'meta',
            'compare',
            'maps',
            'items',
            'achievements',
            'battlepass',
            'patch-notes',
          ],
          ...['link', 'unlink', 'settings', 'privacy', 'status', 'Rivals profile'],
        ].map((name) => [name, everywhere]),
      ),
      config: { integration_types: [0], contexts: [0] },
      ladder: { integration_types: [0], contexts: [0] },
      // Kept per server (its alerts channel) or for the bot's DM, so only where the bot itself is: not through a member's own install.
      alerts: { integration_types: [0], contexts: [0, 1] },
    };
    const payload = registrationPayload(commands) as { name: string; integration_types?: number[]; contexts?: number[] }[];
    expect(Object.fromEntries(payload.map((c) => [c.name, { integration_types: c.integration_types, contexts: c.contexts }]))).toEqual(expected);
  });

  it('every command and option reads well in the picker: lower-case names, descriptions within limits', () => {
    const payload = registrationPayload(commands);
    expect(payload.map((c) => c.name)).toEqual([
      'player',
      'compare',
      'hero',
      'match',
      'last',
      'session',
      'scout',
      'leaderboard',
      'ladder',
      'meta',
      'patch-notes',
      'items',
      'maps',
      'achievements',
      'battlepass',
      'link',
      'unlink',
      'alerts',
      'settings',
      'privacy',
      'status',
      'Rivals profile',
      'config',
    ]);
    expect(payload.at(-2)).toMatchObject({ name: 'Rivals profile', type: 2 });
    expect(payload.at(-1)).toMatchObject({ name: 'config', default_member_permissions: '32', contexts: [0] });
    for (const c of payload) {
      if (!('options' in c) || c.description === undefined) continue; // a context-menu command has a name only
      expect(c.name).toMatch(/^[a-z][a-z-]{0,31}$/);
      expect(c.description.length).toBeGreaterThan(10);
      expect(c.description.length).toBeLessThanOrEqual(100);
      for (const o of c.options ?? []) expect(o.description.length).toBeLessThanOrEqual(100);
    }
  });

  it('npm run deploy registers in the dev guild when DISCORD_DEV_GUILD_ID is set', async () => {
    const { code, stdout } = await deploy({
      DISCORD_TOKEN: 'deploy-token',
      DISCORD_CLIENT_ID: APP_ID,
      DISCORD_DEV_GUILD_ID: GUILD_ID,
      DISCORD_API_URL: discord.apiUrl,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/registered 23 commands \(guild /);
    const put = await discord.waitFor((c) => c.method === 'PUT' && c.path === `/applications/${APP_ID}/guilds/${GUILD_ID}/commands`);
    expect(put.body).toEqual(PINNED);
    expect(put.authorization).toBe('Bot deploy-token');
  }, 30_000);

  it('npm run deploy registers globally otherwise', async () => {
    const { code, stdout } = await deploy({ DISCORD_TOKEN: 'deploy-token', DISCORD_CLIENT_ID: APP_ID, DISCORD_API_URL: discord.apiUrl });
    expect(code).toBe(0);
    // The next step: the links that add the bot to a server and the commands to a member's account.
    expect(stdout).toContain(`deploy: add the bot to a server: ${inviteUrl(APP_ID)}\n`);
    expect(stdout).toContain(`deploy: or the game commands to your own account: ${userInstallUrl(APP_ID)}\n`);
    expect((await discord.waitFor((c) => c.method === 'PUT' && c.path === `/applications/${APP_ID}/commands`)).body).toEqual(PINNED);
  }, 30_000);

  it('npm run deploy uploads the tier, role and hero emojis from the API’s icons, and a second deploy leaves them as they are', async () => {
    const canvas = createCanvas(64, 64);
    canvas.getContext('2d').fillRect(0, 0, 64, 64);
    const icon = await canvas.encode('png');
    const asked: string[] = [];
    const images: Server = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' }).end(icon);
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    try {
      discord.appEmojis.splice(0);
      const env = {
        DISCORD_TOKEN: 'deploy-token',
        DISCORD_CLIENT_ID: APP_ID,
        DISCORD_API_URL: discord.apiUrl,
        RIVALS_IMAGE_BASE_URL: `http://127.0.0.1:${(images.address() as AddressInfo).port}/rivals`,
      };
      const first = await deploy(env);
      expect(first.code).toBe(0);
      const kinds = discord.appEmojis.map((e) => parseEmojiName(e.name)?.kind);
      expect(kinds.filter((k) => k === 'tier')).toHaveLength(9);
      expect(kinds.filter((k) => k === 'role')).toHaveLength(3);
      // Every hero of the (replica's) hero list, from its head icon.
      expect(kinds.filter((k) => k === 'hero').length).toBeGreaterThan(30);
      expect(asked).toContain('/rivals/ranked/grandmaster.png');
      expect(asked.some((u) => /^\/rivals\/heroes\/transformations\/.+-headbig-0\.webp$/.test(u))).toBe(true);
      expect(first.stdout).toMatch(new RegExp(`deploy: emojis: ${discord.appEmojis.length} uploaded, 0 replaced, 0 unchanged, 0 removed`));
      const ids = discord.appEmojis.map((e) => e.id);
      const second = await deploy(env);
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(new RegExp(`deploy: emojis: 0 uploaded, 0 replaced, ${ids.length} unchanged, 0 removed`));
      expect(discord.appEmojis.map((e) => e.id)).toEqual(ids);
    } finally {
      images.close();
    }
  }, 60_000);

  it('npm run deploy says what is missing without a token', async () => {
    const { code, stderr } = await deploy({ DISCORD_API_URL: discord.apiUrl });
    expect(code).toBe(2);
    expect(stderr).toMatch(/set DISCORD_TOKEN and DISCORD_CLIENT_ID/);
  }, 30_000);

  it('npm run deploy words a Discord it cannot reach as npm start does: not reached, so not refused, and the token not to blame', async () => {
    const { code, stderr } = await deploy({ DISCORD_TOKEN: 'offline-token-abc', DISCORD_CLIENT_ID: APP_ID, DISCORD_API_URL: 'http://discord.invalid/api' });
    expect(code).toBe(1);
    const line = stderr.split('\n').find((l) => l.startsWith('deploy: '))!;
    expect(line).toMatch(
      /^deploy: cannot reach discord\.invalid \((ENOTFOUND|EAI_AGAIN)\): check this machine's network and DNS, or DISCORD_API_URL; DISCORD_TOKEN was not tried$/,
    );
    expect(stderr).not.toMatch(/refused/);
    expect(stderr).not.toContain('offline-token-abc');
  }, 30_000);

  it('npm run deploy words a refused token as npm start does, with the way to reset it', async () => {
    // Discord's answer to a bad token (Discord: "HTTP Response Codes", 401).
    const refusing = await refusingDiscord(401, { message: '401: Unauthorized', code: 0 });
    try {
      const { code, stderr } = await deploy({ DISCORD_TOKEN: 'refused-token-abc', DISCORD_CLIENT_ID: APP_ID, DISCORD_API_URL: refusing.url });
      expect(code).toBe(1);
      expect(stderr).toContain(
        'deploy: Discord refused DISCORD_TOKEN (401): reset it in the Developer Portal (your application → Bot → Reset Token), put the new token in DISCORD_TOKEN, and run `npm run deploy` again',
      );
      expect(stderr).not.toContain('refused-token-abc');
    } finally {
      await refusing.close();
    }
  }, 30_000);

  it('npm run deploy to a server the bot is not in says to add the bot there first', async () => {
    const refusing = await refusingDiscord(403, { message: 'Missing Access', code: 50001 });
    try {
      const { code, stderr } = await deploy({ DISCORD_TOKEN: 't-abc', DISCORD_CLIENT_ID: APP_ID, DISCORD_DEV_GUILD_ID: '999', DISCORD_API_URL: refusing.url });
      expect(code).toBe(1);
      expect(stderr).toMatch(/^deploy: Discord refused access to the server DISCORD_DEV_GUILD_ID \(999\): add the bot to that server first/m);
    } finally {
      await refusing.close();
    }
  }, 30_000);
});
