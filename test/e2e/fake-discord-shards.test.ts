/**
 * The fake Discord with several shards (test/e2e/fake-discord.ts, `FakeDiscordOptions.shards`): two
 * real discord.js clients share 4 shards ([0, 1] and [2, 3]) as two processes would. Each session gets
 * the guilds of its shard by Discord's rule, `(guild_id >> 22) % num_shards`; a dispatch goes to the
 * client holding the guild's shard only; the IDENTIFYs are recorded per rate-limit bucket, so the 5 s
 * discord.js keeps between its own shards shows; a closed shard resumes and gets what was sent meanwhile.
 * Without a client: IDENTIFY without `shard` is [0, 1], a shard id past the count is closed 4010, and,
 * on the fake's own clock, the strict identify limit answers INVALID_SESSION. The report of IDENTIFYs too
 * close together is checked on recorded times: how far apart two clients start is up to the machine.
 * Source: Discord developer documentation, "Gateway" (Sharding; Identifying; Session Start Limit
 * Object) and "Opcodes and Status Codes" (Gateway Close Event Codes).
 */
import { Client, GatewayIntentBits, Routes, type Interaction } from 'discord.js';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../helpers/until.js';
import {
  commandInteraction,
  IDENTIFY_WINDOW_MS,
  identifyViolations,
  inGuild,
  shardOf,
  startFakeDiscord,
  testGuildIds,
  type FakeDiscord,
  type IdentifyRecord,
} from './fake-discord.js';

const TOKEN = 'Bot-shards-test-token';
const USER = '300000000000000001';

/** A discord.js client holding `shards` of `shardCount`, logged in to the fake; resolves when every one of its shards is ready. */
async function shardedClient(apiUrl: string, shards: number[], shardCount: number): Promise<Client<true>> {
  const c = new Client({ intents: [GatewayIntentBits.Guilds], shards, shardCount, rest: { api: apiUrl } });
  const ready = new Promise<Client<true>>((resolve) => c.once('clientReady', resolve));
  await c.login(TOKEN);
  return ready;
}

/** The guild ids of the interactions `client` receives, as they arrive. */
function received(client: Client) {
  const seen: string[] = [];
  client.on('interactionCreate', (i: Interaction) => void seen.push(i.guildId ?? 'dm'));
  return seen;
}

describe('4 shards in two clients, max_concurrency 1', () => {
  let fake: FakeDiscord;
  let a: Client<true>;
  let b: Client<true>;
  const seen = new Map<Client, string[]>();
  beforeAll(async () => {
    fake = await startFakeDiscord({ shards: 4, maxConcurrency: 1 });
    // Started together, as two processes would be: each waits 5 s between its own two IDENTIFYs.
    [a, b] = await Promise.all([shardedClient(fake.apiUrl, [0, 1], 4), shardedClient(fake.apiUrl, [2, 3], 4)]);
    for (const c of [a, b]) seen.set(c, received(c));
  }, 40_000);
  afterAll(async () => {
    await Promise.all([a?.destroy(), b?.destroy()]);
    await fake?.close();
  });

  it('/gateway/bot recommends 4 shards with max_concurrency 1', async () => {
    const res = await fetch(`${fake.apiUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${TOKEN}` } });
    expect(await res.json()).toMatchObject({ shards: 4, session_start_limit: { max_concurrency: 1 } });
  });

  it('each client’s READYs cover its own shards, and the guilds are split by the shard rule', async () => {
    expect(fake.connectedShards()).toEqual([0, 1, 2, 3]);
    expect(
      fake
        .gatewaySessions()
        .map((s) => [s.shard, s.total])
        .sort(),
    ).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
    ]);
    await Promise.all([0, 1, 2, 3].map((s) => fake.ready(s)));
    expect([...a.ws.shards.keys()].sort()).toEqual([0, 1]);
    expect([...b.ws.shards.keys()].sort()).toEqual([2, 3]);
    // 4 test guilds by default with 4 shards: one on each.
    const all = [0, 1, 2, 3].map((k) => testGuildIds(k).guildId);
    expect(new Set(all.map((g) => shardOf(g, 4)))).toEqual(new Set([0, 1, 2, 3]));
    for (const s of [0, 1, 2, 3]) expect(fake.guildsOfShard(s)).toEqual([all.find((g) => shardOf(g, 4) === s)]);
    expect([...a.guilds.cache.keys()].sort()).toEqual([fake.guildForShard(0), fake.guildForShard(1)].sort());
    expect([...b.guilds.cache.keys()].sort()).toEqual([fake.guildForShard(2), fake.guildForShard(3)].sort());
    for (const c of [a, b])
      for (const guild of c.guilds.cache.values()) {
        expect(guild.available).toBe(true);
        expect(guild.shardId).toBe(shardOf(guild.id, 4));
        expect(guild.channels.cache.size).toBe(4);
      }
  });

  it('an interaction reaches only the client holding its guild’s shard, on every shard', async () => {
    for (const list of seen.values()) list.length = 0;
    /** The ids of the interactions each client received, as they arrive. */
    const ids = new Map<Client, string[]>([
      [a, []],
      [b, []],
    ]);
    const listeners = [...ids].map(([c, list]) => [c, (i: Interaction) => void list.push(i.id)] as const);
    for (const [c, listener] of listeners) c.on('interactionCreate', listener);
    try {
      const guild3 = fake.guildForShard(3);
      const first = inGuild(commandInteraction(USER, 'ping'), guild3);
      fake.dispatchInteraction(first);
      await pollUntil(() => seen.get(b)!.length === 1, 'the interaction on shard 3');

      // One more on every shard: each connection delivers in order, so once these are in, anything the first
      // one's dispatch sent to another connection, or sent twice, has arrived before them.
      const next = [0, 1, 2, 3].map((s) => inGuild(commandInteraction(USER, 'ping'), fake.guildForShard(s)));
      for (const i of next) fake.dispatchInteraction(i);
      await pollUntil(() => next.every((i, s) => ids.get(s < 2 ? a : b)!.includes(i.id)), 'the interactions on every shard');
      expect(ids.get(a)!.sort()).toEqual([next[0]!.id, next[1]!.id].sort());
      expect(seen.get(a)!.sort()).toEqual([fake.guildForShard(0), fake.guildForShard(1)].sort());
      expect(ids.get(b)![0]).toBe(first.id);
      expect(ids.get(b)!.slice(1).sort()).toEqual([next[2]!.id, next[3]!.id].sort());
    } finally {
      for (const [c, listener] of listeners) c.off('interactionCreate', listener);
    }
  });

  it('the channels of every shard’s guild answer REST and record what is posted there', async () => {
    for (const s of [0, 1, 2, 3]) {
      const guildId = fake.guildForShard(s);
      const k = [0, 1, 2, 3].find((i) => testGuildIds(i).guildId === guildId)!;
      const feed = testGuildIds(k).feedChannelIds[1];
      const client = s < 2 ? a : b;
      expect(await client.rest.get(Routes.channel(feed))).toMatchObject({ id: feed, guild_id: guildId, name: 'feed-2' });
      expect(await client.rest.get(Routes.guildMember(guildId, client.user.id))).toMatchObject({ user: { id: client.user.id } });
      await client.rest.post(Routes.channelMessages(feed), { body: { content: `shard ${s}` } });
      expect(fake.channelMessages.get(feed)!.map((m) => m.content)).toEqual([`shard ${s}`]);
    }
  });

  it('records every IDENTIFY, each client’s own 5 s apart in the bucket', () => {
    expect(fake.identifies.map((i) => [i.shard, i.total, i.outcome]).sort()).toEqual([
      [0, 4, 'ready'],
      [1, 4, 'ready'],
      [2, 4, 'ready'],
      [3, 4, 'ready'],
    ]);
    const at = (shard: number) => fake.identifies.find((i) => i.shard === shard)!.at;
    // discord.js starts the 5 s as its first IDENTIFY leaves and the fake notes it on arrival, which a busy machine
    // delays: a second of slack still tells a client that waited from one that did not.
    expect(at(1) - at(0)).toBeGreaterThanOrEqual(IDENTIFY_WINDOW_MS - 1_000);
    expect(at(3) - at(2)).toBeGreaterThanOrEqual(IDENTIFY_WINDOW_MS - 1_000);
    // What the fake reports is its rule applied to these records (the rule itself: its own tests below). Whether
    // the two clients clashed depends on how far apart the busy machine started them, so it is not asserted here.
    expect(fake.identifyViolations()).toEqual(identifyViolations(fake.identifies, 1));
    // With max_concurrency 4 every shard has its own bucket: nothing is too close.
    expect(fake.identifyViolations(4)).toEqual([]);
  });

  it('closeShard(2, 4000): shard 2 resumes and gets the dispatch sent while it was away; the others stay', async () => {
    for (const list of seen.values()) list.length = 0;
    const guild2 = fake.guildForShard(2);
    const session = fake.nextSession({ shard: 2, timeoutMs: 15_000 });
    fake.closeShard(2, 4000);
    expect(fake.connectedShards()).toEqual([0, 1, 3]);
    expect(() => fake.dispatchInteraction(inGuild(commandInteraction(USER, 'ping'), guild2))).toThrow('no gateway connection for shard 2');
    // Kept for the replay, as Discord does between a close and a RESUME.
    fake.dispatch('INTERACTION_CREATE', inGuild(commandInteraction(USER, 'ping'), guild2));
    expect(await session).toBe('resumed');
    await pollUntil(() => seen.get(b)!.length === 1, 'the replayed interaction');
    expect(seen.get(b)).toEqual([guild2]);
    expect(fake.connectedShards()).toEqual([0, 1, 2, 3]);
    expect(fake.identifies).toHaveLength(4);
    expect(fake.gatewayCloses.filter((c) => c.code === 4000)).toHaveLength(1);
    expect(seen.get(a)).toEqual([]);
  }, 20_000);

  it('a second session of shard 3 (a client run twice) gets shard 3’s dispatches as well, as Discord sends them to both', async () => {
    const c = await shardedClient(fake.apiUrl, [3], 4);
    try {
      for (const list of seen.values()) list.length = 0;
      const twice = received(c);
      const guild3 = fake.guildForShard(3);
      expect([...c.guilds.cache.keys()]).toEqual([guild3]);
      expect(fake.gatewaySessions().filter((s) => s.shard === 3 && s.connected)).toHaveLength(2);
      fake.dispatchInteraction(inGuild(commandInteraction(USER, 'ping'), guild3));
      await pollUntil(() => twice.length === 1 && seen.get(b)!.length === 1, 'the interaction on both sessions of shard 3');
      expect(seen.get(a)).toEqual([]);
    } finally {
      await c.destroy();
    }
    // discord.js closes with 1000 on destroy: Discord ends that session; the first one of shard 3 stays.
    await pollUntil(() => fake.gatewaySessions().filter((s) => s.shard === 3 && s.valid).length === 1, 'the end of the second session');
    expect(fake.connectedShards()).toEqual([0, 1, 2, 3]);
  }, 20_000);
});

describe('IDENTIFY checks, on a bare WebSocket', () => {
  let fake: FakeDiscord | undefined;
  const sockets: WebSocket[] = [];
  afterEach(async () => {
    for (const ws of sockets.splice(0)) ws.terminate();
    await fake?.close();
    fake = undefined;
  });

  /** Opens a gateway connection, sends IDENTIFY with `shard` (none when undefined) after HELLO, and resolves with the first answer: a payload or the close. */
  async function identifyOnce(f: FakeDiscord, shard?: [number, number]): Promise<{ op?: number; d?: unknown; t?: string; closed?: number }> {
    const { url } = (await (await fetch(`${f.apiUrl}/v10/gateway/bot`)).json()) as { url: string };
    const ws = new WebSocket(url);
    sockets.push(ws);
    return new Promise((resolve) => {
      ws.on('close', (code) => resolve({ closed: code }));
      ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw)) as { op: number; d: unknown; t?: string };
        if (msg.op === 10) return ws.send(JSON.stringify({ op: 2, d: { token: TOKEN, intents: 1, properties: {}, ...(shard ? { shard } : {}) } }));
        resolve(msg);
      });
    });
  }

  it('without `shard` the session is [0, 1] and gets every guild; a shard id past the count is closed 4010', async () => {
    fake = await startFakeDiscord({ shards: 2 });
    const ready = await identifyOnce(fake);
    expect(ready.t).toBe('READY');
    expect(ready.d).toMatchObject({ shard: [0, 1], guilds: [{ id: testGuildIds(0).guildId }, { id: testGuildIds(1).guildId }] });
    expect(await identifyOnce(fake, [2, 2])).toEqual({ closed: 4010 });
    expect(await identifyOnce(fake, [1, 2])).toMatchObject({ t: 'READY', d: { shard: [1, 2], guilds: [{ id: fake.guildForShard(1, 2) }] } });
    expect(fake.identifies.map((i) => i.outcome)).toEqual(['ready', 'invalid-shard', 'ready']);
    expect(fake.gatewayCloses).toMatchObject([{ code: 4010, by: 'fake' }]);
  });

  it('strictIdentify: an IDENTIFY less than 5 s after the last in its bucket gets INVALID_SESSION; another bucket does not; 5 s on it is answered', async () => {
    // The fake's clock stands still until the test moves it: the IDENTIFYs are as close as the test says, however slow the machine.
    const clock = { ms: 0 };
    fake = await startFakeDiscord({ shards: 4, maxConcurrency: 2, strictIdentify: true, now: () => clock.ms });
    expect(await identifyOnce(fake, [0, 4])).toMatchObject({ t: 'READY' });
    expect(await identifyOnce(fake, [1, 4])).toMatchObject({ t: 'READY' });
    clock.ms = IDENTIFY_WINDOW_MS - 1;
    expect(await identifyOnce(fake, [2, 4])).toEqual({ op: 9, d: false, s: null, t: null });
    clock.ms = IDENTIFY_WINDOW_MS;
    expect(await identifyOnce(fake, [2, 4])).toMatchObject({ t: 'READY', d: { shard: [2, 4] } });
    expect(fake.identifies.map((i) => [i.shard, i.outcome, i.at])).toEqual([
      [0, 'ready', 0],
      [1, 'ready', 0],
      [2, 'rate-limited', IDENTIFY_WINDOW_MS - 1],
      [2, 'ready', IDENTIFY_WINDOW_MS],
    ]);
    // Every IDENTIFY counts in the report, the refused one too: it came too early; the next one came 1 ms after it.
    expect(fake.identifyViolations().map((v) => [v.bucket, v.first.shard, v.second.shard, v.apartMs])).toEqual([
      [0, 0, 2, IDENTIFY_WINDOW_MS - 1],
      [0, 2, 2, 1],
    ]);
    expect(fake.connectedShards()).toEqual([0, 1, 2]);
  });

  it('without strictIdentify the same IDENTIFY is answered, and only reported', async () => {
    const clock = { ms: 0 };
    fake = await startFakeDiscord({ shards: 4, maxConcurrency: 2, now: () => clock.ms });
    expect(await identifyOnce(fake, [0, 4])).toMatchObject({ t: 'READY' });
    clock.ms = IDENTIFY_WINDOW_MS - 1;
    expect(await identifyOnce(fake, [2, 4])).toMatchObject({ t: 'READY' });
    expect(fake.identifyViolations().map((v) => [v.bucket, v.first.shard, v.second.shard, v.apartMs])).toEqual([[0, 0, 2, IDENTIFY_WINDOW_MS - 1]]);
  });
});

describe('identifyViolations, on recorded IDENTIFY times', () => {
  const at = (shard: number, ms: number, outcome: IdentifyRecord['outcome'] = 'ready'): IdentifyRecord => ({ shard, total: 4, at: ms, outcome });
  const pairs = (records: IdentifyRecord[], maxConcurrency: number) =>
    identifyViolations(records, maxConcurrency).map((v) => [v.bucket, v.first.shard, v.second.shard, v.apartMs]);

  it('two processes that each keep 5 s between their own shards, started 1.2 s apart, clash in a shared bucket', () => {
    // Process a holds shards 0 and 1, process b shards 2 and 3, each waiting the window between its own two.
    const records = [at(0, 0), at(2, 1_200), at(1, 5_000), at(3, 6_200)];
    expect(pairs(records, 1)).toEqual([
      [0, 0, 2, 1_200],
      [0, 2, 1, 3_800],
      [0, 1, 3, 1_200],
    ]);
    // Two buckets: shards 0 and 2 share one, 1 and 3 the other.
    expect(pairs(records, 2)).toEqual([
      [0, 0, 2, 1_200],
      [1, 1, 3, 1_200],
    ]);
    // A bucket each: nothing is too close.
    expect(pairs(records, 4)).toEqual([]);
  });

  it('one process that waits the whole window between its shards keeps to the limit; 1 ms less does not', () => {
    expect(pairs([at(0, 0), at(1, IDENTIFY_WINDOW_MS), at(2, 2 * IDENTIFY_WINDOW_MS), at(3, 3 * IDENTIFY_WINDOW_MS)], 1)).toEqual([]);
    expect(pairs([at(0, 0), at(1, IDENTIFY_WINDOW_MS - 1)], 1)).toEqual([[0, 0, 1, IDENTIFY_WINDOW_MS - 1]]);
  });

  it('compares each IDENTIFY with the one before it in its bucket, whatever its outcome', () => {
    const records = [at(0, 0), at(0, 3_000, 'rejected'), at(0, 6_000), at(0, 12_000, 'rate-limited'), at(0, 13_000)];
    expect(pairs(records, 1)).toEqual([
      [0, 0, 0, 3_000],
      [0, 0, 0, 3_000],
      [0, 0, 0, 1_000],
    ]);
    expect(pairs([], 1)).toEqual([]);
  });
});
