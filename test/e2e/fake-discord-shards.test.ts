/**
 * The fake Discord with several shards (test/e2e/fake-discord.ts, `FakeDiscordOptions.shards`): two
 * real discord.js clients share 4 shards ([0, 1] and [2, 3]) as two processes would. Each session gets
 * the guilds of its shard by Discord's rule, `(guild_id >> 22) % num_shards`; a dispatch goes to the
 * client holding the guild's shard only; the IDENTIFYs are recorded per rate-limit bucket, so the 5 s
 * discord.js keeps between its own shards shows, and the clash between the two clients is reported; a
 * closed shard resumes and gets what was sent meanwhile. Without a client: IDENTIFY without `shard` is
 * [0, 1], a shard id past the count is closed 4010, and the strict identify limit answers INVALID_SESSION.
 * Source: Discord developer documentation, "Gateway" (Sharding; Identifying; Session Start Limit
 * Object) and "Opcodes and Status Codes" (Gateway Close Event Codes).
 */
import { Client, GatewayIntentBits, Routes, type Interaction } from 'discord.js';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commandInteraction, IDENTIFY_WINDOW_MS, inGuild, shardOf, startFakeDiscord, testGuildIds, type FakeDiscord } from './fake-discord.js';

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

const until = async (probe: () => boolean, what: string, timeoutMs = 10_000) => {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

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
      await until(() => seen.get(b)!.length === 1, 'the interaction on shard 3');

      // One more on every shard: each connection delivers in order, so once these are in, anything the first
      // one's dispatch sent to another connection, or sent twice, has arrived before them.
      const next = [0, 1, 2, 3].map((s) => inGuild(commandInteraction(USER, 'ping'), fake.guildForShard(s)));
      for (const i of next) fake.dispatchInteraction(i);
      await until(() => next.every((i, s) => ids.get(s < 2 ? a : b)!.includes(i.id)), 'the interactions on every shard');
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

  it('records every IDENTIFY: within a client 5 s apart in the bucket, across the two clients too close', () => {
    expect(fake.identifies.map((i) => [i.shard, i.total, i.outcome]).sort()).toEqual([
      [0, 4, 'ready'],
      [1, 4, 'ready'],
      [2, 4, 'ready'],
      [3, 4, 'ready'],
    ]);
    const at = (shard: number) => fake.identifies.find((i) => i.shard === shard)!.at;
    // discord.js starts the 5 s as its first IDENTIFY leaves; the fake notes it on arrival, a moment later.
    expect(at(1) - at(0)).toBeGreaterThanOrEqual(IDENTIFY_WINDOW_MS - 25);
    expect(at(3) - at(2)).toBeGreaterThanOrEqual(IDENTIFY_WINDOW_MS - 25);
    // The two clients share bucket 0 (max_concurrency 1) and did not wait for each other.
    const violations = fake.identifyViolations();
    expect(violations.length).toBeGreaterThan(0);
    const client = (shard: number) => (shard < 2 ? 'a' : 'b');
    for (const v of violations) {
      expect(v.bucket).toBe(0);
      expect(client(v.first.shard)).not.toBe(client(v.second.shard));
      expect(v.apartMs).toBeLessThan(IDENTIFY_WINDOW_MS);
    }
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
    await until(() => seen.get(b)!.length === 1, 'the replayed interaction');
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
      await until(() => twice.length === 1 && seen.get(b)!.length === 1, 'the interaction on both sessions of shard 3');
      expect(seen.get(a)).toEqual([]);
    } finally {
      await c.destroy();
    }
    // discord.js closes with 1000 on destroy: Discord ends that session; the first one of shard 3 stays.
    await until(() => fake.gatewaySessions().filter((s) => s.shard === 3 && s.valid).length === 1, 'the end of the second session');
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

  it('strictIdentify: an IDENTIFY less than 5 s after the last in its bucket gets INVALID_SESSION; another bucket does not', async () => {
    fake = await startFakeDiscord({ shards: 4, maxConcurrency: 2, strictIdentify: true });
    expect(await identifyOnce(fake, [0, 4])).toMatchObject({ t: 'READY' });
    expect(await identifyOnce(fake, [1, 4])).toMatchObject({ t: 'READY' });
    expect(await identifyOnce(fake, [2, 4])).toEqual({ op: 9, d: false, s: null, t: null });
    expect(fake.identifies.map((i) => [i.shard, i.outcome])).toEqual([
      [0, 'ready'],
      [1, 'ready'],
      [2, 'rate-limited'],
    ]);
    expect(fake.identifyViolations().map((v) => [v.bucket, v.first.shard, v.second.shard])).toEqual([[0, 0, 2]]);
    expect(fake.connectedShards()).toEqual([0, 1]);
  });

  it('without strictIdentify the same IDENTIFY is answered, and only reported', async () => {
    fake = await startFakeDiscord({ shards: 4, maxConcurrency: 2 });
    for (const s of [0, 2]) expect(await identifyOnce(fake, [s, 4])).toMatchObject({ t: 'READY' });
    expect(fake.identifyViolations().map((v) => [v.bucket, v.first.shard, v.second.shard])).toEqual([[0, 0, 2]]);
  });
});
