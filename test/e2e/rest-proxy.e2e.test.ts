/**
 * The REST proxy service end to end: the built proxy (`node dist/rest-proxy.js`, as
 * production runs it) in front of the fake Discord, and the built bot with DISCORD_REST_PROXY pointing
 * at it. The bot logs in through the proxy (its /gateway/bot), a /config channel check goes through
 * it, interaction answers go straight to Discord (they still arrive while the proxy is stopped with
 * SIGSTOP), and the service answers /healthz, refuses to start without DISCORD_TOKEN and stops on
 * SIGTERM with exit 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER } from '../helpers/bot.js';
import { BOT_ARGS, ROOT } from '../helpers/bot-process.js';
import { freePort } from '../helpers/free-port.js';
import { ADMIN_PERMISSIONS, commandInteraction, FEED_CHANNEL_IDS, startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { pollUntil } from '../helpers/until.js';

const PROXY_ARGS = [join(ROOT, 'dist', 'rest-proxy.js')];
const TOKEN = 'proxy-e2e-token-3b9d';

/** A child process whose stdout and stderr are collected. */
function start(args: readonly string[], env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [...args], { env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

const until = <T>(probe: () => T | undefined | false, what: string, output: () => string, timeoutMs = 20_000): Promise<T> =>
  pollUntil(probe, what, { timeoutMs, context: () => output().slice(-2000) });

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

let discord: FakeDiscord;
let proxy: ReturnType<typeof start>;
let bot: ReturnType<typeof start>;
let proxyUrl: string;
const dataDir = mkdtempSync(join(tmpdir(), 'rivals-proxy-e2e-'));

beforeAll(async () => {
  discord = await startFakeDiscord();
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  proxy = start(PROXY_ARGS, { DISCORD_TOKEN: TOKEN, DISCORD_API_URL: discord.apiUrl, REST_PROXY_PORT: String(port), LOG_LEVEL: 'info' });
  await until(() => proxy.output().includes('REST proxy listening'), 'the proxy', proxy.output);
  bot = start(BOT_ARGS, { DISCORD_TOKEN: TOKEN, DISCORD_API_URL: discord.apiUrl, DISCORD_REST_PROXY: proxyUrl, DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  await until(() => bot.output().includes('logged in to Discord'), 'login', bot.output, 30_000);
}, 60_000);

afterAll(async () => {
  for (const { child } of [bot, proxy]) {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited(child);
    }
  }
  await discord.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const health = async () => (await (await fetch(`${proxyUrl}/healthz`)).json()) as { status: string; forwarded: number; refused: number };
const callbackOf = (id: string) => discord.waitFor((c) => c.method === 'POST' && c.path.startsWith(`/interactions/${id}/`), 10_000);

describe('a bot process with DISCORD_REST_PROXY', () => {
  it('logs in through the proxy with its own token', async () => {
    const seen = await health();
    expect(seen.status).toBe('ok');
    expect(seen.forwarded).toBeGreaterThanOrEqual(1);
    expect(seen.refused).toBe(0);
    expect(discord.calls.some((c) => c.path === '/gateway/bot' && c.authorization === `Bot ${TOKEN}`)).toBe(true);
  });

  it('answers interactions straight to Discord: the answer arrives while the proxy is stopped', async () => {
    proxy.child.kill('SIGSTOP');
    try {
      const interaction = commandInteraction(MEMBER.userId, 'maps', {});
      discord.dispatchInteraction(interaction);
      const call = await callbackOf(interaction.id);
      expect([4, 5]).toContain((call.body as { type: number }).type);
      if ((call.body as { type: number }).type === 5) {
        await discord.waitFor((c) => c.method === 'PATCH' && c.path.includes(`/${interaction.token}/messages/@original`), 10_000);
      }
    } finally {
      proxy.child.kill('SIGCONT');
    }
  }, 20_000);

  it("sends a handler's REST requests (the /config channel check) through the proxy", async () => {
    const before = (await health()).forwarded;
    const interaction = commandInteraction(
      MEMBER.userId,
      'config',
      { type: 'patchNotes', channel: { channel: FEED_CHANNEL_IDS[0] } },
      { subcommand: 'feed', permissions: ADMIN_PERMISSIONS },
    );
    discord.dispatchInteraction(interaction);
    const call = await callbackOf(interaction.id);
    expect(JSON.stringify(call.body)).toContain('Patch notes will be posted in');
    expect(discord.calls.some((c) => c.method === 'GET' && c.path === `/channels/${FEED_CHANNEL_IDS[0]}`)).toBe(true);
    // The channel, its guild and the bot's member: three requests, each through the proxy.
    expect((await health()).forwarded - before).toBeGreaterThanOrEqual(3);
  }, 20_000);
});

describe('the REST proxy service', () => {
  it('refuses to start without DISCORD_TOKEN, naming it and never a value', async () => {
    const bare = start(PROXY_ARGS, { REST_PROXY_PORT: '0', DISCORD_API_URL: 'not a url' });
    expect(await exited(bare.child)).toBe(1);
    expect(bare.output()).toContain('DISCORD_TOKEN: is required');
    expect(bare.output()).toContain('DISCORD_API_URL: must be an http(s) URL');
  });

  it('stops on SIGTERM: exit 0 and a last line saying so', async () => {
    proxy.child.kill('SIGTERM');
    expect(await exited(proxy.child)).toBe(0);
    expect(proxy.output()).toMatch(/"reason":"SIGTERM".*"msg":"stopped"/);
    expect(proxy.output()).not.toContain(TOKEN);
  });
});
