/**
 * Feed delivery under failure, with real bot processes against the fake Discord and a test-owned
 * replica: a process SIGKILLed in the middle of a fan-out and restarted delivers the rest and repeats
 * none; two processes sharing Redis deliver each post once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeCacheStore } from '../../src/cache/store.js';
import type { Replica } from '../../src/replica/server.js';
import { GuildSettingsRepository } from '../../src/store/guild-settings.js';
import { createStateStore } from '../../src/store/state-store.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { replica, TEST_KEY } from '../helpers/replica.js';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.js';

let r: Replica;
let discord: FakeDiscord;
const bots: { proc: ChildProcess; output: () => string }[] = [];

beforeAll(async () => {
  r = await replica();
  discord = await startFakeDiscord();
});
afterEach(async () => {
  for (const b of bots.splice(0)) {
    if (b.proc.exitCode === null && b.proc.signalCode === null) {
      const exited = new Promise((resolve) => b.proc.once('exit', resolve));
      b.proc.kill('SIGKILL');
      await exited;
    }
  }
  discord.setChannelDelay(0);
});
afterAll(async () => {
  await discord.close();
  await r.close();
});

function startBot(env: Record<string, string>) {
  let output = '';
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    env: { PATH: process.env.PATH!, DISCORD_TOKEN: 'crash-token', DISCORD_API_URL: discord.apiUrl, RIVALS_API_KEY: TEST_KEY, RIVALS_API_BASE_URL: r.url, FEED_POLL_SECONDS: '1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const bot = { proc, output: () => output };
  bots.push(bot);
  return bot;
}

async function until<T>(probe: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${bots.map((b) => b.output().slice(-1500)).join('\n---\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const channelIds = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i + 1).padStart(3, '0')}`);
const posts = (channelId: string) => discord.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${channelId}/messages`).length;

/** Subscribes one guild per channel to patch notes, in the store the bots will use. */
async function subscribeAll(store: ReturnType<typeof createStateStore>, channels: string[]) {
  const settings = new GuildSettingsRepository(store);
  for (const [i, channelId] of channels.entries()) {
    await settings.update(`95${String(i).padStart(16, '0')}`, (s) => {
      s.feeds.patchNotes = { channelId, roleId: null, since: Date.now(), publish: false, backfill: 0, broken: null, lastDelivered: null };
    });
  }
}

function addPost(id: string) {
  r.dataset.posts.patchNotes.unshift({ id, title: `Version ${id}`, date: '2099/06/01', overview: 'New.', fullContent: 'Text.', imagePath: '/x.jpg' });
}

describe('feed delivery under failure', () => {
  it('a process killed with SIGKILL in the middle of a fan-out, restarted, delivers the rest and repeats none', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rivals-crash-'));
    try {
      const channels = channelIds('9610000000000000', 20);
      const store = createStateStore({ dataDir });
      await subscribeAll(store, channels);
      await store.disconnect();

      const first = startBot({ DATA_DIR: dataDir });
      await until(() => first.output().includes('feed initialised') && first.output().match(/"feed":"gameVersions".*feed initialised/), 'the first poll');
      discord.setChannelDelay(250);
      addPost('20990601');
      // Kill it once a few channels got the post, while others are on the wire or still queued.
      await until(() => channels.filter((c) => discord.channelMessages.get(c)?.length).length >= 5, 'the fan-out to start');
      first.proc.kill('SIGKILL');
      await new Promise((resolve) => first.proc.once('exit', resolve));
      const deliveredBefore = channels.filter((c) => discord.channelMessages.get(c)?.length).length;
      expect(deliveredBefore).toBeLessThan(20);

      discord.setChannelDelay(0);
      startBot({ DATA_DIR: dataDir });
      await until(() => channels.every((c) => discord.channelMessages.get(c)?.length), 'every channel to get the post');
      await new Promise((resolve) => setTimeout(resolve, 2_500)); // two more polls
      for (const c of channels) expect(discord.channelMessages.get(c), c).toHaveLength(1);
      // Channels done before the crash were not sent to again.
      const resent = channels.filter((c) => posts(c) > 1);
      expect(resent.length).toBeLessThanOrEqual(8); // at most the sends in flight at the kill (the fan-out concurrency)
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  describe('two processes on one Redis', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis?.stop());

    it('deliver each post once: one poller leads', async () => {
      const channels = channelIds('9620000000000000', 6);
      const store = createStateStore({ redisUrl: redis.url, dataDir: '' });
      await subscribeAll(store, channels);
      await closeCacheStore(store);
      const a = startBot({ REDIS_URL: redis.url });
      const b = startBot({ REDIS_URL: redis.url });
      await until(() => a.output().includes('logged in to Discord') && b.output().includes('logged in to Discord'), 'both logins');
      await until(() => /"feed":"gameVersions".*feed initialised/.test(a.output() + b.output()), 'the first poll');
      addPost('20990602');
      await until(() => channels.every((c) => discord.channelMessages.get(c)?.some((m) => (m.embeds as { title: string }[])[0]!.title === 'Version 20990602')), 'the deliveries');
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      for (const c of channels) {
        expect(discord.channelMessages.get(c)!.filter((m) => (m.embeds as { title: string }[])[0]!.title === 'Version 20990602')).toHaveLength(1);
        expect(posts(c)).toBe(1); // not even a deduplicated second send: only the leader posts
      }
      const initialised = (a.output() + b.output()).match(/feed initialised/g)!.length;
      expect(initialised).toBe(4); // four feeds, initialised once, by one process
    }, 90_000);
  });
});
