/**
 * Health and metrics over real parts: the discord.js runtime logged in to the local fake
 * Discord, the API client with its cache and rate limiter on the replica, the feed poller and delivery
 * ledger over an in-memory SQLite store posting through the fake Discord, and the ops server on
 * loopback. Each hook runs, then `GET /metrics` must list every metric the dashboard reads, with the
 * counts the test caused, and `GET /healthz` must say, in JSON, why it is unhealthy.
 */
import { Routes } from 'discord-api-types/v10';
import { Client, GatewayDispatchEvents, GatewayIntentBits } from 'discord.js';
import Keyv from 'keyv';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../../commands/index.js';
import { RivalsApi } from '../../../src/api/client.js';
import { UpstreamRateLimiter } from '../../../src/api/rate-limiter.js';
import { ResponseCache } from '../../../src/cache/response-cache.js';
import { LruStore } from '../../../src/cache/store.js';
import type { CommandModule } from '../../../src/discord/command.js';
import { DiscordRestBudget } from '../../../src/discord/rest-budget.js';
import { Router } from '../../../src/discord/router.js';
import { discordChannelAccess } from '../../../src/discord/channel-access.js';
import { createDiscordClient } from '../../../src/discord/client.js';
import { DiscordRuntime } from '../../../src/discord/runtime.js';
import { CorrectionEditor } from '../../../src/feeds/corrections.js';
import { DeliveryLedger } from '../../../src/feeds/delivery.js';
import { discordFeedTransport } from '../../../src/feeds/discord-transport.js';
import { SOLE_LEADER } from '../../../src/feeds/leadership.js';
import { FeedPoller } from '../../../src/feeds/poller.js';
import { gatewayOf, healthCheck, storePing, type GatewayState, type Health } from '../../../src/app/ops/health.js';
import { NO_METRICS } from '../../../src/core/metrics.js';
import { createMetrics } from '../../../src/app/ops/create-metrics.js';
import type { PrometheusMetrics } from '../../../src/app/ops/prometheus.js';
import { startOpsServer, type OpsServer } from '../../../src/app/ops/server.js';
import type { Replica } from '../../../src/replica/server.js';
import type { State } from '../../../src/store/state.js';
import { createCommandContext } from '../../../src/app/services.js';
import { MEMBER, OTHER_MEMBER } from '../../helpers/bot.js';
import { freePort } from '../../helpers/free-port.js';
import { capturingLogger, clientFor, replica } from '../../helpers/replica.js';
import { memoryState } from '../../helpers/state.js';
import {
  autocompleteInteraction,
  CHANNEL_ID,
  commandInteraction,
  componentInteraction,
  FEED_CHANNEL_IDS,
  GUILD_ID,
  startFakeDiscord,
  type FakeDiscord,
} from '../../e2e/fake-discord.js';
import { loadConfig } from '../../../src/app/config.js';
import { startOps } from '../../../src/app/ops/index.js';
import { eventually, expectFixedTypes, FIXED_METRICS, parseSamples, sampleValue, typeOf } from './samples.js';

const TOKEN = 'fake-bot-token-xyz';
const { logger, lines } = capturingLogger([TOKEN]);

let r: Replica;
let discord: FakeDiscord;
let metrics: PrometheusMetrics;
let client: Client;
let runtime: DiscordRuntime;
let state: State;
let api: RivalsApi;
let cache: ResponseCache;
let limiter: UpstreamRateLimiter;
const servers: OpsServer[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  r = await replica();
  discord = await startFakeDiscord();
  metrics = await createMetrics({ cluster: '3' });
  cache = new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }) });
  limiter = new UpstreamRateLimiter({ requestsPerMinute: 6_000 });
  api = clientFor(r, { cache, limiter, metrics, timeoutMs: 8_000 });
  client = createDiscordClient({ apiUrl: discord.apiUrl, budget: new DiscordRestBudget(undefined, undefined, metrics) });
  state = memoryState();
  const context = createCommandContext(api, state, new Keyv({ store: new LruStore(1000) }), discordChannelAccess(client));
  runtime = new DiscordRuntime(client, { router: new Router(commands), context, logger, metrics });
  metrics.watch({ gateway: gatewayOf(client), cache: () => cache.stats });
  const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
  await client.login(TOKEN);
  await ready;
});

afterEach(async () => {
  r.setFaults({});
  for (const server of servers.splice(0)) await server.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

afterAll(async () => {
  await runtime.shutdown(2_000);
  limiter.stop();
  await api.close();
  await state.close();
  await discord.close();
  await r.close();
});

/** An ops server on a free loopback port. */
async function serve(options: { metrics?: PrometheusMetrics; health?: () => Promise<Health> } = {}): Promise<OpsServer> {
  const server = await startOpsServer({
    port: 0,
    host: '127.0.0.1',
    metrics: options.metrics ?? metrics,
    health: options.health ?? healthCheck({ gateway: gatewayOf(client), store: storePing(state.database.db) }),
    logger,
  });
  servers.push(server);
  return server;
}

const callbackOf = (id: string) => discord.waitFor((c) => c.method === 'POST' && c.path.startsWith(`/interactions/${id}/`));

/** Dispatches `interaction` on the gateway and waits for the bot's initial response to reach the fake Discord. */
async function interact(interaction: { id: string }): Promise<void> {
  discord.dispatchInteraction(interaction);
  await callbackOf(interaction.id);
}

describe('GET /metrics', () => {
  it('lists every metric of the dashboard, with what each hook counted', async () => {
    // Interactions: a command twice (the second from the cache), an error, a component and an autocomplete.
    await interact(commandInteraction(MEMBER.userId, 'player', { query: '1403392756' }));
    await interact(commandInteraction(MEMBER.userId, 'player', { query: '1403392756' }));
    await interact(commandInteraction(MEMBER.userId, 'player', { query: 'no-such-player-anywhere' }));
    await interact(componentInteraction(MEMBER.userId, MEMBER.userId, 'lb.p:1015:pc:2:n'));
    await interact(autocompleteInteraction(MEMBER.userId, 'hero', 'name', 'spid'));
    // A REST request outside an interaction: the Discord budget's background priority.
    await client.rest.get(Routes.channel(CHANNEL_ID));
    // Feeds: the first poll records what exists; a new patch note then goes to one channel and is given up for another.
    const transport = discordFeedTransport(client.rest, () => client.user?.id);
    const poller = new FeedPoller({
      api,
      db: state.database.db,
      feedState: state.feedState,
      settings: state.settings,
      ledger: new DeliveryLedger(state.database.db, transport, logger, Date.now, metrics),
      feedPosts: state.feedPosts,
      digests: state.feedDigests,
      editor: new CorrectionEditor(state.database.db, transport, logger),
      leadership: SOLE_LEADER,
      logger,
      intervalSeconds: 600,
      metrics,
    });
    await poller.tick();
    const since = Date.now() - 1_000;
    for (const [guildId, channelId] of [
      [GUILD_ID, FEED_CHANNEL_IDS[0]],
      ['910000000000000002', FEED_CHANNEL_IDS[1]],
    ] as const) {
      await state.settings.update(guildId, (s) => {
        s.feeds.patchNotes = { channelId, roleId: null, since, publish: false, backfill: 0, broken: null, lastDelivered: null, lastEdit: null };
      });
    }
    discord.failChannel(FEED_CHANNEL_IDS[1], { status: 403, code: 50001, message: 'Missing Access' });
    r.dataset.posts.patchNotes.unshift({
      id: '20990001',
      title: 'Metrics patch',
      date: '2099/01/01',
      overview: 'What changed.',
      fullContent: 'All of it.',
      imagePath: '/p.jpg',
    });
    await poller.tick();
    discord.failChannel(FEED_CHANNEL_IDS[1]);

    const server = await serve();
    // The last answer is counted once Discord's answer to it is back in the bot.
    await eventually(async () => {
      const all = parseSamples(await (await fetch(`${server.url}/metrics`)).text());
      expect(sampleValue(all, 'rivals_autocomplete_total', { command: 'hero' })).toBe(1);
    });
    // Read before the scrape: a heartbeat acknowledged after it would otherwise count a latency the scrape could not show.
    const pinged = client.ws.shards.get(0)!.ping >= 0;
    const res = await fetch(`${server.url}/metrics`);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    const samples = parseSamples(text);

    for (const [name, type] of Object.entries(FIXED_METRICS)) {
      expect(typeOf(text, name), name).toBe(type);
      // The latency of a shard exists once its first heartbeat is acknowledged (up to 41 s with the fake's interval): its own test below.
      if (name === 'rivals_gateway_latency_seconds' && !pinged) continue;
      expect(
        samples.some((s) => s.name === name || s.name.startsWith(`${name}_`)),
        `${name} has samples`,
      ).toBe(true);
    }
    // Every series carries the process's cluster.
    expect(samples.filter((s) => s.labels.cluster !== '3')).toEqual([]);

    expect(sampleValue(samples, 'rivals_interactions_total', { command: 'player', outcome: 'answered' })).toBe(2);
    expect(sampleValue(samples, 'rivals_interactions_total', { command: 'player', outcome: 'error' })).toBe(1);
    expect(sampleValue(samples, 'rivals_interactions_total', { command: 'lb.p', outcome: 'answered' })).toBe(1);
    expect(sampleValue(samples, 'rivals_autocomplete_total', { command: 'hero', outcome: 'answered' })).toBe(1);
    for (const [kind, n] of [
      ['command', 3],
      ['component', 1],
      ['autocomplete', 1],
    ] as const) {
      expect(sampleValue(samples, 'rivals_interaction_ack_seconds_count', { kind }), kind).toBe(n);
      expect(sampleValue(samples, 'rivals_interaction_answer_seconds_count', { kind }), kind).toBe(n);
      // Each within Discord's 3 s from the interaction's creation.
      expect(sampleValue(samples, 'rivals_interaction_ack_seconds_bucket', { kind, le: '3' }), kind).toBe(n);
    }
    expect(sampleValue(samples, 'rivals_upstream_requests_total', { endpoint: 'player', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'rivals_upstream_requests_total', { endpoint: 'player', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'rivals_upstream_requests_total', { endpoint: 'patchNotes', status: '200' })).toBe(2);
    // The endpoint's name, never a player's name or id.
    expect(samples.filter((s) => s.name === 'rivals_upstream_requests_total' && /\d{6,}|no-such|\//.test(s.labels.endpoint!))).toEqual([]);
    expect(sampleValue(samples, 'rivals_cache_hits_total')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'rivals_cache_misses_total')).toBeGreaterThanOrEqual(3);
    expect(sampleValue(samples, 'rivals_cache_hits_total')).toBe(cache.stats.hits);
    expect(sampleValue(samples, 'rivals_rate_limiter_wait_seconds_count', { limiter: 'upstream', priority: 'interactive' })).toBeGreaterThanOrEqual(3);
    expect(sampleValue(samples, 'rivals_rate_limiter_wait_seconds_count', { limiter: 'upstream', priority: 'background' })).toBeGreaterThanOrEqual(8);
    // The login's GET /gateway/bot, the channel read and the two feed sends; interaction routes skip the budget and are not counted.
    expect(sampleValue(samples, 'rivals_rate_limiter_wait_seconds_count', { limiter: 'discord', priority: 'background' })).toBeGreaterThanOrEqual(3);
    expect(sampleValue(samples, 'rivals_rate_limiter_wait_seconds_count', { limiter: 'discord', priority: 'interactive' })).toBe(0);
    expect(sampleValue(samples, 'rivals_feed_posts_found_total', { feed: 'patchNotes' })).toBe(1);
    expect(sampleValue(samples, 'rivals_feed_posts_delivered_total', { feed: 'patchNotes' })).toBe(1);
    expect(sampleValue(samples, 'rivals_feed_posts_failed_total', { feed: 'patchNotes' })).toBe(1);
    expect(sampleValue(samples, 'rivals_gateway_ready', { shard: '0' })).toBe(1);
    expect(sampleValue(samples, 'rivals_gateway_status', { shard: '0' })).toBe(0);
    expect(sampleValue(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(1_000_000);
    // Nothing secret in the exposition.
    expect(text).not.toContain(TOKEN);
    expect(lines.join('')).not.toContain(TOKEN);
  });

  it('counts each outcome: an error, a late answer, a failed one, restarting, and names it does not know as unknown', async () => {
    const m = await createMetrics({ cluster: '0' });
    // A command whose handler answers after the 3 s budget of this runtime, for `late`.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: CommandModule = {
      definition: { name: 'slow', description: 'Answers once released.' },
      execute: async () => {
        await held;
        return { content: 'finally' };
      },
    };
    const context = createCommandContext(api, state, new Keyv({ store: new LruStore(1000) }));
    // A client that never logs in: its gateway dispatch is emitted here, its answers go to the fake Discord's REST API.
    const idle = createDiscordClient({ apiUrl: discord.apiUrl });
    const second = new DiscordRuntime(idle, { router: new Router([...commands, slow]), context, logger, metrics: m, budgetMs: 3_000 });
    // And one whose Discord is gone: nothing it sends arrives.
    const gone = createDiscordClient({ apiUrl: `http://127.0.0.1:${await freePort()}` });
    const third = new DiscordRuntime(gone, { router: new Router(commands), context, logger, metrics: m });
    cleanups.push(async () => {
      release();
      await third.shutdown(1_000);
    });
    const emit = (c: Client, interaction: object) => c.ws.emit(GatewayDispatchEvents.InteractionCreate, interaction);

    emit(idle, commandInteraction(MEMBER.userId, 'maps'));
    emit(idle, commandInteraction(MEMBER.userId, 'player', { query: 'no-such-player-anywhere' }));
    emit(idle, commandInteraction(MEMBER.userId, 'no-such-command'));
    emit(idle, componentInteraction(OTHER_MEMBER.userId, MEMBER.userId, 'old-bot-button:7'));
    emit(idle, autocompleteInteraction(MEMBER.userId, 'no-such-command', 'name', 'x'));
    const late = commandInteraction(MEMBER.userId, 'slow');
    emit(idle, late);
    emit(gone, commandInteraction(MEMBER.userId, 'maps'));
    // The late answer: deferred publicly, then the private "took too long" as a follow-up (the placeholder deleted) at the budget's end, less the reserve to send it.
    await discord.waitFor((c) => c.method === 'POST' && c.path.endsWith(`/webhooks/${late.application_id}/${late.token}`), 5_000);
    // While the runtime finishes an interaction in flight at shutdown, a new one is told the bot is restarting.
    const inFlight = commandInteraction(MEMBER.userId, 'slow');
    emit(idle, inFlight);
    await callbackOf(inFlight.id);
    const stopping = second.shutdown(5_000);
    const restarting = commandInteraction(MEMBER.userId, 'maps');
    emit(idle, restarting);
    await callbackOf(restarting.id);
    release();
    await stopping;

    const samples = await eventually(async () => {
      const all = parseSamples(await m.text());
      expect(sampleValue(all, 'rivals_interactions_total', { outcome: 'failed' })).toBe(1);
      return all;
    });
    const count = (labels: Record<string, string>) => sampleValue(samples, 'rivals_interactions_total', labels);
    expect(count({ command: 'maps', outcome: 'answered' })).toBe(1);
    expect(count({ command: 'player', outcome: 'error' })).toBe(1);
    expect(count({ command: 'unknown', outcome: 'error' })).toBe(2);
    expect(count({ command: 'slow', outcome: 'late' })).toBe(1);
    // Released while the runtime was stopping, within its budget: finished and answered.
    expect(count({ command: 'slow', outcome: 'answered' })).toBe(1);
    expect(count({ command: 'maps', outcome: 'restarting' })).toBe(1);
    expect(count({ command: 'maps', outcome: 'failed' })).toBe(1);
    expect(sampleValue(samples, 'rivals_autocomplete_total', { command: 'unknown', outcome: 'answered' })).toBe(1);
    // Only names the router knows, and `unknown`, ever become labels.
    expect(new Set(samples.filter((s) => s.name === 'rivals_interactions_total').map((s) => s.labels.command))).toEqual(
      new Set(['maps', 'player', 'unknown', 'slow']),
    );
    // Seven commands, of which the failed one was never acknowledged: it is in no latency histogram.
    expect(sampleValue(samples, 'rivals_interaction_ack_seconds_count', { kind: 'command' })).toBe(6);
    expect(sampleValue(samples, 'rivals_interaction_answer_seconds_count', { kind: 'command' })).toBe(6);
    expect(sampleValue(samples, 'rivals_interaction_ack_seconds_count', { kind: 'component' })).toBe(1);
    // The late one was answered at the budget's end less the reserve to send it (3 s - 1 s), past 1.5 s.
    expect(6 - sampleValue(samples, 'rivals_interaction_answer_seconds_bucket', { kind: 'command', le: '1.5' })).toBeGreaterThanOrEqual(1);
  });

  it('times the upstream requests that end without a status as timeout or network', async () => {
    const m = await createMetrics({ cluster: '0' });
    const slowApi = clientFor(r, { metrics: m, timeoutMs: 300 });
    const deadApi = new RivalsApi({ baseUrl: `http://127.0.0.1:${await freePort()}`, metrics: m, timeoutMs: 1_000 });
    cleanups.push(
      () => slowApi.close(),
      () => deadApi.close(),
    );
    r.setFaults({ latencyMs: 2_000, pathPrefix: '/api/v1/maps' });
    await expect(slowApi.maps()).rejects.toMatchObject({ kind: 'timeout' });
    await expect(deadApi.heroes()).rejects.toMatchObject({ kind: 'unavailable' });
    const samples = parseSamples(await m.text());
    expect(sampleValue(samples, 'rivals_upstream_requests_total', { endpoint: 'maps', status: 'timeout' })).toBe(1);
    expect(sampleValue(samples, 'rivals_upstream_requests_total', { endpoint: 'heroes', status: 'network' })).toBe(1);
  });

  it('reads each shard of the gateway at the scrape: latency in seconds, status, ready', async () => {
    const m = await createMetrics({ cluster: '1' });
    let gateway: GatewayState = {
      phase: 'ready',
      shards: [
        { id: 4, status: 0, ping: 87 },
        { id: 5, status: 2, ping: -1 },
      ],
    };
    m.watch({ gateway: () => gateway });
    let samples = parseSamples(await m.text());
    expect(sampleValue(samples, 'rivals_gateway_latency_seconds', { shard: '4' })).toBeCloseTo(0.087);
    expect(samples.some((s) => s.name === 'rivals_gateway_latency_seconds' && s.labels.shard === '5')).toBe(false);
    expect(sampleValue(samples, 'rivals_gateway_status', { shard: '5' })).toBe(2);
    expect(sampleValue(samples, 'rivals_gateway_ready', { shard: '4' })).toBe(1);
    expect(sampleValue(samples, 'rivals_gateway_ready', { shard: '5' })).toBe(0);
    // A shard the process no longer runs is gone at the next scrape.
    gateway = { phase: 'ready', shards: [{ id: 4, status: 0, ping: 90 }] };
    samples = parseSamples(await m.text());
    expect(samples.filter((s) => s.name.startsWith('rivals_gateway_')).map((s) => s.labels.shard)).toEqual(['4', '4', '4']);
  });

  it('keeps the hooks free without METRICS_PORT: the no-op metrics record nothing and are not enabled', () => {
    expect(NO_METRICS.enabled).toBe(false);
    expect(() => {
      NO_METRICS.interaction('command', 'player', 'answered');
      NO_METRICS.ack('command', 1);
      NO_METRICS.upstream('player', 200);
      NO_METRICS.feedPosts('found', 'patchNotes', 2);
    }).not.toThrow();
  });
});

describe('GET /healthz', () => {
  const get = async (server: OpsServer) => {
    const res = await fetch(`${server.url}/healthz`);
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, unknown> };
  };

  it('is 200 when every shard is READY and the store answers', async () => {
    const res = await get(await serve());
    expect(res).toMatchObject({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: { status: 'ok', store: 'ok', shards: [{ id: 0, status: 'Ready' }] },
    });
  });

  it('is 503 "logging in" for a client that has not logged in, without asking the store', async () => {
    const fresh = new Client({ intents: [GatewayIntentBits.Guilds] });
    let asked = 0;
    const server = await serve({ health: healthCheck({ gateway: gatewayOf(fresh), store: async () => void asked++ }) });
    expect(await get(server)).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'logging in', shards: [] } });
    expect(asked).toBe(0);
  });

  it('is 503 naming the first shard that is not READY, and its status', async () => {
    const gateway = (): GatewayState => ({
      phase: 'ready',
      shards: [
        { id: 0, status: 0, ping: 40 },
        { id: 2, status: 2, ping: 41 },
      ],
    });
    const server = await serve({ health: healthCheck({ gateway, store: storePing(state.database.db) }) });
    expect(await get(server)).toMatchObject({
      status: 503,
      body: {
        status: 'unavailable',
        reason: 'shard 2 is not ready (Reconnecting)',
        shards: [
          { id: 0, status: 'Ready', pingMs: 40 },
          { id: 2, status: 'Reconnecting', pingMs: 41 },
        ],
      },
    });
  });

  it('is 503 when the store fails, with its reason and no secret in it', async () => {
    const closed = memoryState();
    // Kysely destroys a driver only once it has been used.
    await storePing(closed.database.db)();
    await closed.close();
    const server = await serve({ health: healthCheck({ gateway: gatewayOf(client), store: storePing(closed.database.db) }) });
    const res = await get(server);
    expect(res.status).toBe(503);
    expect(res.body.reason).toMatch(/^the store did not answer: .*destroyed/);

    // A driver message that echoes DATABASE_URL (as some do in connection errors) is masked.
    const url = 'postgres://rivals:s3cret%2Fpw@db.internal:5432/rivals';
    const echoing = healthCheck({
      gateway: gatewayOf(client),
      store: async () => {
        throw Object.assign(new Error(`could not connect to ${url} as rivals with s3cret/pw`), { code: 'ECONNREFUSED' });
      },
      secrets: [url, 's3cret%2Fpw', 's3cret/pw', TOKEN],
    });
    const reason = ((await echoing()) as { reason: string }).reason;
    expect(reason).toBe('the store did not answer: could not connect to *** as rivals with *** (ECONNREFUSED)');
  });

  it('is 503 when the store hangs past its deadline, and asks a hung store once for concurrent probes', async () => {
    const busy = memoryState();
    cleanups.push(() => busy.close());
    // An SQLite transaction holds the one connection: every other statement waits behind it, as behind a stuck write.
    let finish!: () => void;
    const holding = busy.database.db.transaction().execute(() => new Promise<void>((resolve) => (finish = resolve)));
    let pings = 0;
    let storeAnswered = false;
    const check = healthCheck({
      gateway: gatewayOf(client),
      store: () => {
        pings++;
        return storePing(busy.database.db)().finally(() => (storeAnswered = true));
      },
      storeDeadlineMs: 200,
    });
    const server = await serve({ health: check });
    const [a, b] = await Promise.all([get(server), get(server)]);
    // Both answered while the store still could not: the probe gave up at its deadline instead of waiting for the store.
    expect(storeAnswered).toBe(false);
    for (const res of [a, b]) expect(res).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'the store did not answer within 200 ms' } });
    expect(pings).toBe(1);
    finish();
    await holding;
    await eventually(async () => expect((await get(server)).status).toBe(200));
  });

  it('answers HEAD without a body, refuses other methods on its paths, and is 404 elsewhere', async () => {
    const server = await serve();
    const head = await fetch(`${server.url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(`${server.url}/metrics`, { method: 'HEAD' })).status).toBe(200);
    const post = await fetch(`${server.url}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    for (const path of ['/', '/health', '/metrics/x', '/healthz/']) expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    expect((await fetch(`${server.url}/healthz?verbose=1`)).status).toBe(200);
  });

  it('says which port is taken when it cannot listen', async () => {
    const first = await serve();
    await expect(
      startOpsServer({ port: first.port, host: '127.0.0.1', metrics, health: async () => ({ status: 'ok', shards: [], store: 'ok' }), logger }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('startOps', () => {
  it("serves health and metrics from the composition root's parts, logs one line with the URL, and names METRICS_PORT when the port is taken", async () => {
    const config = loadConfig({ DISCORD_TOKEN: TOKEN, METRICS_PORT: '0' });
    const { logger: opsLogger, lines: opsLines } = capturingLogger([TOKEN]);
    const ops = await startOps({ config, client, services: { state, cache }, logger: opsLogger, metrics, host: '127.0.0.1' });
    cleanups.push(() => ops.close());
    expect(opsLines.filter((l) => l.includes(ops.url))).toHaveLength(1);
    expect(JSON.parse(opsLines.find((l) => l.includes(ops.url))!)).toMatchObject({
      component: 'ops',
      url: ops.url,
      msg: `health and metrics: ${ops.url}/healthz and ${ops.url}/metrics`,
    });
    expect((await fetch(`${ops.url}/healthz`)).status).toBe(200);
    expectFixedTypes(await (await fetch(`${ops.url}/metrics`)).text());

    const taken = loadConfig({ DISCORD_TOKEN: TOKEN, METRICS_PORT: String(ops.port) });
    await expect(startOps({ config: taken, client, services: { state, cache }, logger: opsLogger, metrics, host: '127.0.0.1' })).rejects.toThrow(
      `cannot serve health and metrics on METRICS_PORT ${ops.port}: the port is in use (EADDRINUSE)`,
    );
  });
});
