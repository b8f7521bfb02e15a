/**
 * The REST proxy (src/discord/rest-proxy.ts) over real HTTP on loopback: bot-configured
 * discord.js REST clients (createDiscordClient with a proxy URL) -> the proxy -> a strict fake of
 * Discord's REST API written here, which answers 429 to a bot-token request that would make more than
 * 50 in any sliding second (Discord: Topics, Rate Limits, "Global Rate Limit") and, when told, a
 * per-route 429 with `Retry-After` and the `X-RateLimit-*` headers Discord sends.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from 'discord.js';
import { Routes } from 'discord-api-types/v10';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runWithDeadline } from '../../src/core/deadline.js';
import { DiscordRestBudget, PRIORITY_HEADER } from '../../src/discord/rest-budget.js';
import { NO_METRICS } from '../../src/core/metrics.js';
import { startRestProxy, type RestProxy } from '../../src/discord/rest-proxy.js';
import { createDiscordClient } from '../../src/discord/client.js';
import { capturingLogger } from '../helpers/replica.js';
import { mostInAnyWindow } from '../helpers/windows.js';
import { pollUntil } from '../helpers/until.js';

const TOKEN = 'proxy-test-token-7c1f';

/** One request as the fake Discord received it. */
interface Arrival {
  method: string;
  /** Without `/api/v10`. */
  path: string;
  /** performance.now() at arrival, ms. */
  at: number;
  authorization: string | undefined;
  priority: string | undefined;
  body: string;
  /** What the fake answered. */
  status: number;
}

const INTERACTION_ROUTE = /^\/(interactions\/\d+\/[^/]+\/callback|webhooks\/\d+\/[^/]+(\/.*)?)$/;

/**
 * A strict fake of Discord's REST API: at most `perSecond` bot-token requests (interaction routes
 * exempt) in any sliding second, the next answered 429 as Discord does for the global limit (not
 * counted); {@link limitRoute} makes a route answer per-route 429s for a while.
 */
async function startStrictDiscord(perSecond = 50) {
  const arrivals: Arrival[] = [];
  const window: number[] = [];
  const routeLimits = new Map<string, { seconds: number; until?: number }>();
  let messageId = 1_000;
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  };
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a test server: Node ignores the handler's promise
  const server = createServer(async (req, res) => {
    // Stamped as the request comes in, before its body is read.
    const now = performance.now();
    const body = await read(req);
    const path = new URL(req.url ?? '/', 'http://fake').pathname.replace(/^\/api\/v\d+/, '');
    const arrival: Arrival = {
      method: req.method ?? 'GET',
      path,
      at: now,
      authorization: req.headers.authorization,
      priority: req.headers[PRIORITY_HEADER] as string | undefined,
      body,
      status: 200,
    };
    arrivals.push(arrival);
    const answer = (status: number, json?: unknown, headers: Record<string, string> = {}) => {
      arrival.status = status;
      res.writeHead(status, { ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
      res.end(json === undefined ? undefined : JSON.stringify(json));
    };
    if (req.headers.authorization?.startsWith('Bot ') && !INTERACTION_ROUTE.test(path)) {
      while (window.length > 0 && window[0]! <= now - 1_000) window.shift();
      if (window.length >= perSecond) {
        const retryAfter = (window[0]! + 1_000 - now) / 1_000;
        return answer(
          429,
          { message: 'You are being rate limited.', retry_after: retryAfter, global: true },
          { 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
        );
      }
      window.push(now);
    }
    const limit = routeLimits.get(path);
    if (limit) {
      limit.until ??= now + limit.seconds * 1_000;
      if (now < limit.until) {
        const left = (limit.until - now) / 1_000;
        return answer(
          429,
          { message: 'You are being rate limited.', retry_after: left, global: false },
          {
            'retry-after': String(Math.ceil(left)),
            'x-ratelimit-limit': '1',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset-after': left.toFixed(3),
            'x-ratelimit-bucket': 'fake-bucket',
            'x-ratelimit-scope': 'user',
          },
        );
      }
      routeLimits.delete(path);
    }
    if (/^\/interactions\/\d+\/[^/]+\/callback$/.test(path)) return answer(204);
    const post = path.match(/^\/channels\/(\d+)\/messages$/);
    if (post && req.method === 'POST') return answer(200, { id: String(++messageId), channel_id: post[1], ...(JSON.parse(body || '{}') as object) });
    if (req.method === 'GET') return answer(200, { id: path.split('/').at(-1) });
    return answer(404, { message: 'Unknown route', code: 0 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    arrivals,
    /** The next request to `path` opens `seconds` during which every request to it is answered a per-route 429. */
    limitRoute: (path: string, seconds: number) => void routeLimits.set(path, { seconds }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A discord.js REST client configured as a bot process with DISCORD_REST_PROXY (its REST only: no login). */
function botClient(apiUrl: string, proxyUrl: string): Client {
  const client = createDiscordClient({ apiUrl, proxyUrl });
  client.rest.setToken(TOKEN);
  return client;
}

let discord: Awaited<ReturnType<typeof startStrictDiscord>>;
let proxy: RestProxy;
/** When the proxy's budget started each request it counts (Date.now(), ms: the clock its windows are timed with). */
const budgetStarts: number[] = [];
const clients: Client[] = [];
const log = capturingLogger([TOKEN]);

beforeAll(async () => {
  discord = await startStrictDiscord(50);
  // The budget's metrics hear each request as it starts: the one point that is the proxy's own doing whatever the load.
  const budget = new DiscordRestBudget(undefined, undefined, { ...NO_METRICS, limiterWait: () => void budgetStarts.push(Date.now()) });
  proxy = await startRestProxy({ token: TOKEN, apiUrl: discord.apiUrl, port: 0, host: '127.0.0.1', logger: log.logger, budget });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.destroy();
});
afterAll(async () => {
  await proxy.close(1_000);
  await discord.close();
});

describe('two bot processes through one REST proxy', () => {
  it("share one global budget: 300 posts, never started over 47 in any sliding second, each delivered once, and a member's request goes first", async () => {
    const [a, b] = [botClient(discord.apiUrl, proxy.url), botClient(discord.apiUrl, proxy.url)];
    clients.push(a, b);
    const before = discord.arrivals.length;
    const startsBefore = budgetStarts.length;
    const forwardedAtStart = proxy.stats().forwarded;
    const posts = Array.from({ length: 300 }, (_, n) =>
      (n % 2 === 0 ? a : b).rest.post(Routes.channelMessages(String(930_000_000_000_000_000n + BigInt(n))), { body: { content: `post ${n}` } }),
    );
    // While much of the fan-out waits in the proxy (how much depends on how fast the clients hand it over),
    // a request made while answering an interaction (a /config channel check).
    await pollUntil(
      () => {
        const s = proxy.stats();
        return s.waiting >= 100 || (s.forwarded + s.waiting >= 300 && s.waiting >= 60);
      },
      'posts waiting in the proxy',
      { timeoutMs: 10_000, context: () => JSON.stringify(proxy.stats()) },
    );
    const forwardedBefore = proxy.stats().forwarded - forwardedAtStart;
    const check = runWithDeadline(Date.now() + 10_000, () => b.rest.get(Routes.channel('777')));
    await Promise.all([...posts, check]);

    const seen = discord.arrivals.slice(before);
    const delivered = seen.filter((s) => s.method === 'POST' && s.status === 200);
    expect(delivered).toHaveLength(300);
    expect(new Set(delivered.map((s) => s.body)).size).toBe(300);
    expect(seen.every((s) => s.authorization === `Bot ${TOKEN}`)).toBe(true);
    // The budget starts 46 in any sliding second (47 by this clock: p-queue counts whole milliseconds). What
    // the proxy controls is when it starts a request: arrivals on loopback can bunch up behind a busy event
    // loop, and a 429 that bunching brings is retried (the per-route test below), so the count is of starts.
    const starts = budgetStarts.slice(startsBefore);
    expect(starts.length).toBe(seen.filter((s) => s.authorization === `Bot ${TOKEN}`).length);
    expect(mostInAnyWindow(starts, 1_000)).toBeLessThanOrEqual(47);
    // The member's request went ahead of the 60 or more posts waiting, and its priority header stayed at the proxy.
    const checkAt = seen.findIndex((s) => s.path === '/channels/777');
    expect(checkAt).toBeGreaterThanOrEqual(0);
    expect(checkAt - forwardedBefore).toBeLessThan(60);
    expect(seen.every((s) => s.priority === undefined)).toBe(true);
    expect(proxy.stats()).toMatchObject({ waiting: 0 });
  }, 30_000);
});

describe('the REST proxy', () => {
  it('honours a per-route 429 and its Retry-After: one 429, then the retry with its body intact, then the rest', async () => {
    const client = botClient(discord.apiUrl, proxy.url);
    clients.push(client);
    const route = '/channels/555/messages';
    discord.limitRoute(route, 1);
    const rateLimitedBefore = proxy.stats().rateLimited;
    const sent = await Promise.all(
      [1, 2, 3].map((n) => client.rest.post(Routes.channelMessages('555'), { body: { content: `retry ${n}` } }) as Promise<{ content: string }>),
    );
    expect(sent.map((m) => m.content).sort()).toEqual(['retry 1', 'retry 2', 'retry 3']);
    const onRoute = discord.arrivals.filter((s) => s.path === route);
    // The retry waited out the Retry-After instead of storming the route: the fake answers 429 to every
    // request to it until the second it announced has passed by its own clock, so one 429 and then only 200s says so.
    expect(onRoute.map((s) => s.status)).toEqual([429, 200, 200, 200]);
    expect(onRoute[0]!.body).toBe(onRoute[1]!.body);
    expect(proxy.stats().rateLimited).toBe(rateLimitedBefore + 1);
    expect(log.lines.some((line) => line.includes('Discord answered 429'))).toBe(true);
  }, 15_000);

  it('answers GET /healthz itself with its counts, and 404 outside /api', async () => {
    const before = discord.arrivals.length;
    const health = await fetch(`${proxy.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get('content-type')).toBe('application/json');
    const body = (await health.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'ok', waiting: 0 });
    expect(typeof body.forwarded).toBe('number');
    expect((await fetch(`${proxy.url}/channels/1`)).status).toBe(404);
    expect(discord.arrivals.length).toBe(before);
  });

  it("refuses another token without asking Discord, and forwards a request without one as it came (never with the bot's token)", async () => {
    const before = discord.arrivals.length;
    const foreign = await fetch(`${proxy.url}/api/v10/channels/1`, { headers: { authorization: 'Bot someone-elses-token' } });
    expect(foreign.status).toBe(401);
    expect(await foreign.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    expect(discord.arrivals.length).toBe(before);
    const anonymous = await fetch(`${proxy.url}/api/v10/channels/2`);
    expect(anonymous.status).toBe(200);
    expect(discord.arrivals.at(-1)).toMatchObject({ path: '/channels/2', authorization: undefined });
    expect(log.lines.join('')).not.toContain(TOKEN);
  });

  it('takes the request of a client that went away out of the queue: it never reaches Discord', async () => {
    // One request a minute: after the first, every request waits in the budget for as long as the test runs,
    // so whatever leaves the queue here leaves it without a slot.
    const slow = await startRestProxy({
      token: TOKEN,
      apiUrl: discord.apiUrl,
      port: 0,
      host: '127.0.0.1',
      logger: log.logger,
      budget: new DiscordRestBudget(1, 0, NO_METRICS, 60_000),
    });
    let closed = false;
    try {
      const before = discord.arrivals.length;
      const paths = () => discord.arrivals.slice(before).map((s) => s.path);
      const waitUntil = (probe: () => boolean, what: string) =>
        pollUntil(probe, what, { timeoutMs: 10_000, context: () => JSON.stringify({ stats: slow.stats(), paths: paths() }) });
      const get = (id: string, signal?: AbortSignal) => fetch(`${slow.url}/api/v10/channels/${id}`, { headers: { authorization: `Bot ${TOKEN}` }, signal });
      // The first takes the one slot; 802 then queues, and 803 behind it.
      expect((await get('801')).status).toBe(200);
      const gaveUp = new AbortController();
      const abandoned = get('802', gaveUp.signal).catch((err: unknown) => (err as Error).name);
      await waitUntil(() => slow.stats().waiting === 1, '802 waiting in the budget');
      const third = get('803').then(
        (res) => res.status,
        (err: unknown) => (err as Error).name,
      );
      await waitUntil(() => slow.stats().waiting === 2, '803 waiting behind it');
      gaveUp.abort();
      expect(await abandoned).toBe('AbortError');
      // The proxy takes 802 out of the queue (no slot frees for a minute, so it did not leave by starting) ...
      await waitUntil(() => slow.stats().waiting === 1, '802 to leave the queue');
      expect(slow.stats().forwarded).toBe(1);
      // ... and 803, still waiting, is the only request left that the budget could start.
      expect(await Promise.race([third, Promise.resolve('still waiting')])).toBe('still waiting');
      await slow.close(1_000);
      closed = true;
      // Closing gave up 803 as well: 801 is all Discord ever saw.
      expect(await third).not.toBe(200);
      expect(paths()).toEqual(['/channels/801']);
    } finally {
      if (!closed) await slow.close(1_000);
    }
  }, 15_000);
});
