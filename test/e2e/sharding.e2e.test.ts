/**
 * The sharded deployment end to end: the fake Discord recommends 4 shards with
 * max_concurrency 1; two "machines" (`CLUSTER_IDS=0` and `CLUSTER_IDS=1`, two shards each, the
 * production build as `npm start` runs it) share one PostgreSQL and one Redis. Every shard's
 * interactions are answered, IDENTIFYs never break the concurrency limit across processes, a feed
 * post reaches a channel in every shard's guild once, 100 identical /player lookups spread over
 * both machines make one upstream request, and a cluster killed with SIGKILL comes back and answers
 * again with nothing posted twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Replica } from '../../src/replica/server.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { newStateLocation, openAt, type TestStateLocation } from '../helpers/state.js';
import { replica, TEST_KEY } from '../helpers/replica.js';
import { BOT_ARGS } from '../helpers/bot-process.js';
import { commandInteraction, inGuild, shardOf, testGuildIds, startFakeDiscord, type FakeDiscord, type RestCall } from './fake-discord.js';
import { pollUntil } from '../helpers/until.js';

const SHARDS = 4;
let r: Replica;
let discord: FakeDiscord;
let redis: RedisServer;
let where: TestStateLocation & { cleanup(): void };
const machines: { proc: ChildProcess; output: () => string }[] = [];

/** The fake's test guild on each shard, by shard (its 4 test guilds lie one a shard). */
const guilds = Array.from({ length: SHARDS }, (_, shard) =>
  testGuildIds([...Array(SHARDS).keys()].find((k) => shardOf(testGuildIds(k).guildId, SHARDS) === shard)!),
);

beforeAll(async () => {
  [r, discord, redis, where] = await Promise.all([
    replica(),
    startFakeDiscord({ shards: SHARDS, maxConcurrency: 1, strictIdentify: true }),
    startRedis(),
    newStateLocation('postgres'),
  ]);
  expect(guilds.map((g) => shardOf(g.guildId, SHARDS))).toEqual([0, 1, 2, 3]);
}, 120_000);

afterAll(async () => {
  await Promise.all(
    machines.map(async (m) => {
      if (m.proc.exitCode !== null || m.proc.signalCode !== null) return;
      const exited = new Promise((resolve) => m.proc.once('exit', resolve));
      m.proc.kill('SIGTERM');
      await exited;
    }),
  );
  await discord?.close();
  await r?.close();
  await redis?.stop();
  where?.cleanup();
}, 60_000);

/** One machine: the cluster manager for `clusterId`, which forks the cluster process. */
function startMachine(clusterId: number) {
  let output = '';
  const proc = spawn(process.execPath, [...BOT_ARGS], {
    env: {
      PATH: process.env.PATH!,
      DISCORD_TOKEN: 'sharded-token',
      DISCORD_API_URL: discord.apiUrl,
      RIVALS_API_KEY: TEST_KEY,
      RIVALS_API_BASE_URL: r.url,
      RIVALS_API_RPM: '100000',
      FEED_POLL_SECONDS: '1',
      SHARD_COUNT: 'auto',
      SHARDS_PER_CLUSTER: '2',
      CLUSTER_IDS: String(clusterId),
      REDIS_URL: redis.url,
      DATABASE_URL: where.databaseUrl!,
      DATA_DIR: where.dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const machine = { proc, output: () => output };
  machines.push(machine);
  return machine;
}

const until = <T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> =>
  pollUntil(probe, what, { timeoutMs, context: () => machines.map((m) => m.output().slice(-3000)).join('\n---\n') });

const callbackOf = (id: string, timeoutMs = 15_000) => discord.waitFor((c) => c.method === 'POST' && c.path.startsWith(`/interactions/${id}/`), timeoutMs);
const body = (c: RestCall) => c.body as { type: number; data?: { embeds?: unknown[]; flags?: number } };
/** The final answer's message: the reply itself, or after a deferral (type 5) the edit of the original response. */
async function answerOf(i: { id: string; token: string }, timeoutMs = 30_000): Promise<unknown> {
  const callback = await callbackOf(i.id, timeoutMs);
  if (body(callback).type === 4) return body(callback).data;
  return (await discord.waitFor((c) => c.method === 'PATCH' && c.path.includes(`/${i.token}/messages/@original`), timeoutMs)).body;
}

/** A /player lookup in test guild `k` (on shard k). */
function playerIn(k: number, query: string) {
  const i = inGuild(commandInteraction('200000000000000001', 'player', { query }), guilds[k]!.guildId);
  discord.dispatchInteraction(i);
  return i;
}

/** Publishes patch note `id` on the replica: the next poll finds it. */
function publish(id: string) {
  r.dataset.posts.patchNotes.unshift({
    id,
    title: `Version ${id}`,
    date: `${id.slice(0, 4)}/${id.slice(4, 6)}/${id.slice(6, 8)}`,
    overview: 'Sharded.',
    fullContent: 'Text.',
    imagePath: '/x.jpg',
  });
}

/** The titles posted in each shard's guild's feed channel, by shard. */
const feedTitles = () => guilds.map((g) => (discord.channelMessages.get(g.feedChannelIds[0]) ?? []).map((m) => (m.embeds as { title: string }[])[0]!.title));

/** Pids of the cluster processes (children of the managers), from their log lines. */
function clusterPid(machine: { output: () => string }): number | undefined {
  const line = machine
    .output()
    .split('\n')
    .find((l) => /"cluster":\d+/.test(l) && /state store open/.test(l));
  return line ? (JSON.parse(line) as { pid: number }).pid : undefined;
}

describe('two machines, two shards each, one PostgreSQL and one Redis', () => {
  it('identifies every shard within max_concurrency across processes, and answers interactions on every shard', async () => {
    const a = startMachine(0);
    const b = startMachine(1);
    for (let shard = 0; shard < SHARDS; shard++) await until(() => discord.connectedShards().includes(shard), `shard ${shard} to connect`, 60_000);
    await until(() => /"feed":"gameVersions".*feed initialised/.test(a.output() + b.output()), 'the first poll');
    // Each machine ran its own shards: 0 and 1 on the first, 2 and 3 on the second, at 4 in all.
    const identified = discord.identifies.filter((i) => i.outcome === 'ready');
    expect(identified.map((i) => i.shard).sort()).toEqual([0, 1, 2, 3]);
    expect(identified.every((i) => i.total === SHARDS)).toBe(true);
    // max_concurrency 1: IDENTIFYs 5 s apart, though two processes started together (25 ms: the fake stamps arrival, discord.js departure).
    expect(discord.identifyViolations().filter((v) => v.apartMs < 4_975)).toEqual([]);
    expect(discord.identifies.filter((i) => i.outcome === 'rate-limited')).toEqual([]);

    for (let k = 0; k < SHARDS; k++) {
      const i = playerIn(k, '1403392756');
      // Answered at once, or deferred while the profile card is drawn (the first card starts the worker thread).
      expect([4, 5]).toContain(body(await callbackOf(i.id)).type);
      expect(JSON.stringify(await answerOf(i))).toContain('1403392756');
    }
    expect(a.output() + b.output()).not.toMatch(/"level":50/);
  }, 120_000);

  it('makes one upstream request for 100 concurrent identical /player lookups spread over both machines', async () => {
    const query = '1117455441';
    const path = (p: string) => p.includes(`/player/${query}`) && !p.includes('/update') && !p.includes('match-history');
    const upstream = () => [...r.requests.byPath].filter(([p]) => path(p)).reduce((n, [, count]) => n + count, 0);
    const before = upstream();
    const interactions = Array.from({ length: 100 }, (_, n) => playerIn(n % SHARDS, query));
    const answers = await Promise.all(interactions.map((i) => answerOf(i)));
    for (const answer of answers) expect(JSON.stringify(answer)).toContain(query);
    expect(upstream() - before).toBe(1);
  }, 60_000);

  it('delivers a feed post to a channel in every shard’s guild exactly once', async () => {
    const state = await openAt(where);
    try {
      for (const g of guilds) {
        await state.settings.update(g.guildId, (s) => {
          s.feeds.patchNotes = {
            channelId: g.feedChannelIds[0],
            roleId: null,
            since: Date.now(),
            publish: false,
            backfill: 0,
            broken: null,
            lastDelivered: null,
            lastEdit: null,
          };
        });
      }
    } finally {
      await state.close();
    }
    publish('20991101');
    await until(() => feedTitles().every((titles) => titles.length > 0), 'the post in every shard’s guild');
    // A later post: once it is everywhere, the polls after the first delivery, which would have posted it again, have run.
    publish('20991102');
    await until(() => feedTitles().every((titles) => titles.includes('Version 20991102')), 'the second post in every shard’s guild');
    for (const titles of feedTitles()) expect(titles).toEqual(['Version 20991101', 'Version 20991102']);
  }, 60_000);

  it('restarts a cluster killed with SIGKILL: its shards come back, answer again, and nothing is posted twice', async () => {
    const [, b] = machines;
    const pid = clusterPid(b!);
    expect(pid).toBeGreaterThan(0);
    const identifiesBefore = discord.identifies.length;
    process.kill(pid!, 'SIGKILL');
    await until(() => /a cluster died: restarting it/.test(b!.output()), 'the manager to see the death');
    await until(
      () => discord.identifies.slice(identifiesBefore).filter((i) => i.outcome === 'ready' && i.shard >= 2).length === 2,
      'shards 2 and 3 to identify again',
      60_000,
    );
    await until(
      () =>
        discord.connectedShards().length === SHARDS &&
        clusterPid(b!) !== undefined &&
        b!
          .output()
          .split('\n')
          .filter((l) => /logged in to Discord/.test(l)).length === 2,
      'the restarted cluster to log in',
      30_000,
    );
    expect(discord.identifyViolations().filter((v) => v.apartMs < 4_975)).toEqual([]);
    for (const k of [2, 3]) {
      const i = playerIn(k, '1403392756');
      expect(body(await callbackOf(i.id)).type).toBe(4);
    }
    // The feeds are polled again after the restart (the restarted cluster may hold the lead now): a new post
    // reaches every channel, and the earlier ones are still there once each. When the killed cluster held the
    // feed lead, nobody polls until its lease expires (60 s, src/feeds/leadership.ts): the wait allows for it.
    publish('20991103');
    await until(() => feedTitles().every((titles) => titles.includes('Version 20991103')), 'the post after the restart in every shard’s guild', 100_000);
    for (const titles of feedTitles()) expect(titles).toEqual(['Version 20991101', 'Version 20991102', 'Version 20991103']);
    // The other machine never stopped.
    expect(machines[0]!.proc.exitCode).toBeNull();
  }, 200_000);

  it('stops every cluster on SIGTERM to the manager, and a cluster whose manager is killed stops by itself', async () => {
    const [a, b] = machines;
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // Graceful: SIGTERM to the manager; its cluster finishes and the manager exits 0.
    const clusterA = clusterPid(a!)!;
    const exitedA = new Promise<number | null>((resolve) => a!.proc.once('exit', (code) => resolve(code)));
    a!.proc.kill('SIGTERM');
    expect(await exitedA).toBe(0);
    expect(alive(clusterA)).toBe(false);
    expect(a!.output()).toMatch(/"cluster":0.*"msg":"stopped"/);
    // Killed: the manager gets SIGKILL (out of memory, kill -9); its orphaned cluster notices and stops, so a new manager would not run its shards twice.
    const lines = b!
      .output()
      .split('\n')
      .filter((l) => /"cluster":\d+/.test(l) && /state store open/.test(l));
    const clusterB = (JSON.parse(lines.at(-1)!) as { pid: number }).pid;
    b!.proc.kill('SIGKILL');
    await until(() => !alive(clusterB), 'the orphaned cluster to stop', 20_000);
  }, 60_000);
});
