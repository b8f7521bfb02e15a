/**
 * The REST proxy: one HTTP service that every process of the bot sends its Discord REST
 * requests to, so that Discord's limits, which are per bot and not per process, are kept once for all
 * of them: the global 50 requests a second (Discord: Topics, Rate Limits, "Global Rate Limit") by a
 * {@link DiscordRestBudget} (46 in any sliding second, at least 20 ms apart, ./rest-budget.ts), and
 * each route's bucket by @discordjs/rest's handlers, which learn the buckets from Discord's
 * `X-RateLimit-*` headers and wait out a 429's `Retry-After`. The forwarding itself is
 * @discordjs/proxy's `proxyRequests` (2.1.1) over a @discordjs/rest `REST`; the service's entry point
 * is src/rest-proxy.ts (`npm run rest-proxy`).
 *
 * What @discordjs/proxy does, read from its source, and what is added here:
 * - Paths: it strips `/api` and an optional `/vN` from the incoming path and queues the rest as the
 *   route, to which the `REST` prepends its own `api` and `/v10`. A client therefore uses
 *   `${proxy}/api` as its REST API (src/discord/runtime.ts, createDiscordClient). Only `/api/...` is
 *   forwarded here; `GET /healthz` is answered by the proxy; anything else is 404.
 * - Authorization: it forwards the client's `Authorization` header as it is (`auth: false`) and never
 *   uses a token of its own, so one proxy would let any token spend one bot's budget. Here a request
 *   whose `Authorization` is not `Bot ${DISCORD_TOKEN}` is answered 401 by the proxy and never reaches
 *   Discord; a request without the header goes on without it (the proxy never adds the token, so its
 *   port grants nothing the client did not already hold). Bot processes send the header as discord.js does.
 * - Bodies: it passes the incoming request stream as the body, which can be read once: after a 429 the
 *   `REST` would retry with an empty body (a feed post would come back 400 "Cannot send an empty
 *   message"). Here the body is read into memory first (at most {@link MAX_BODY_BYTES}), so a retry
 *   sends it again.
 * - Errors: Discord's 4xx answers reach the client with their status and JSON; an error it does not
 *   know (a connection refused or reset) would end the response as an empty 200, so here it becomes a
 *   502. The `REST` makes no retries of its own (`retries: 0`): a 5xx or a timeout reaches the client,
 *   whose own `REST` retries, so a failure is retried by one layer, not by both (4 × 4 attempts).
 * - Priority: a request with the header {@link PRIORITY_HEADER}: {@link INTERACTIVE_PRIORITY} (a bot
 *   process sets it on requests made while answering an interaction) takes the budget's next slot before
 *   any feed post waiting. `proxyRequests` forwards only three headers to `rest.queueRequest`, but it
 *   passes the incoming request itself as the body, so the `REST` here reads the header from it and
 *   runs the request in an AsyncLocalStorage context that the budget's `makeRequest` wrapper reads.
 *   The header is not sent on to Discord.
 * - A client that goes away (its own timeout) takes its request out of the budget's queue, so a post it
 *   will retry is not also sent late.
 * Interaction callbacks and the interaction token's webhook routes are outside the global limit and
 * the bot sends them straight to Discord; if one comes here it is forwarded at once, outside the budget.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { proxyRequests } from '@discordjs/proxy';
import {
  DefaultRestOptions,
  DiscordAPIError,
  HTTPError,
  RateLimitError,
  REST,
  type InternalRequest,
  type RESTOptions,
  type ResponseLike,
} from '@discordjs/rest';
import type { Logger } from '../core/logger.js';
import { DiscordRestBudget, INTERACTIVE_PRIORITY, PRIORITY_HEADER, UNCOUNTED } from './rest-budget.js';
import { discordAgent } from './agent.js';

/** The largest request body the proxy forwards, bytes (Discord's own upload limit is lower). 413 above it. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Most connections the proxy keeps to Discord: at 46 requests a second, a few dozen are busy at once. */
const UPSTREAM_CONNECTIONS = 128;

export interface RestProxyOptions {
  /** The bot's token (DISCORD_TOKEN): a client's `Authorization` must be `Bot ${token}`, or absent. */
  token: string;
  /** Discord's REST API without the version (DISCORD_API_URL, e.g. `https://discord.com/api`). */
  apiUrl: string;
  logger: Logger;
  /** The budget of every request but the interaction routes (default: a new one, 46 a second). */
  budget?: DiscordRestBudget;
  /** How long one request may take from when the proxy queued it, budget wait included, ms (default @discordjs/rest's 15 000). */
  timeoutMs?: number;
  /** TCP port (0: any free one). */
  port: number;
  /** Interface to listen on (default: all). */
  host?: string;
}

/** What the proxy has done since it started; `GET /healthz` answers it too. */
export interface RestProxyStats {
  /** Requests handed to Discord (each retry after a 429 counts again). */
  forwarded: number;
  /** 429 answers Discord gave (global or per route); each was waited out and retried. */
  rateLimited: number;
  /** Requests refused for an `Authorization` that is not the bot's. */
  refused: number;
  /** Requests waiting for the budget now. */
  waiting: number;
}

export interface RestProxy {
  /** `http://127.0.0.1:{port}`: a bot process's DISCORD_REST_PROXY, when it runs on this machine. */
  url: string;
  port: number;
  stats(): RestProxyStats;
  /**
   * Stops taking connections, lets the requests under way finish for up to `timeoutMs` (default
   * 10 000), then closes every connection and the upstream agent.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** A `REST` whose queued requests come from `proxyRequests` (see the module's comment for each step). */
class ProxiedRest extends REST {
  readonly #interactive: AsyncLocalStorage<boolean>;

  constructor(options: Partial<RESTOptions>, interactive: AsyncLocalStorage<boolean>) {
    super(options);
    this.#interactive = interactive;
  }

  /**
   * `proxyRequests` calls this with the incoming request as `body`.
   * @throws HTTPError 413 for a body over {@link MAX_BODY_BYTES}; 502 for an upstream failure @discordjs/proxy would not map.
   */
  override async queueRequest(request: InternalRequest): Promise<ResponseLike> {
    const incoming = request.body;
    if (!(incoming instanceof IncomingMessage)) return super.queueRequest(request);
    const body = await readBody(incoming, request);
    const gone = new AbortController();
    const onClose = () => gone.abort();
    incoming.socket.once('close', onClose);
    // `proxyRequests` sets Content-Type even when the client sent none.
    const headers = Object.fromEntries(Object.entries(request.headers ?? {}).filter(([, value]) => value !== undefined));
    const interactive = incoming.headers[PRIORITY_HEADER] === INTERACTIVE_PRIORITY;
    try {
      return await this.#interactive.run(interactive, () =>
        super.queueRequest({ ...request, body: body.length > 0 ? body : undefined, headers, signal: gone.signal }),
      );
    } catch (err) {
      if (err instanceof DiscordAPIError || err instanceof HTTPError || err instanceof RateLimitError || (err instanceof Error && err.name === 'AbortError'))
        throw err;
      throw new HTTPError(502, 'Bad Gateway', request.method, request.fullRoute, { body: undefined });
    } finally {
      incoming.socket.off('close', onClose);
    }
  }
}

/** The whole body of `incoming`. @throws HTTPError 413 past {@link MAX_BODY_BYTES}. */
async function readBody(incoming: IncomingMessage, request: InternalRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HTTPError(413, 'Payload Too Large', request.method, request.fullRoute, { body: undefined });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** True when `header` is absent or is exactly `expected` (compared in constant time). */
function authorised(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return true;
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * Starts the proxy on `port` (see the module's comment for what it does) and resolves once it listens.
 * `GET /healthz` answers 200 `{ status: 'ok', forwarded, rateLimited, refused, waiting }` (503 with
 * `status: 'closing'` once {@link RestProxy.close} has begun); `/api/...` is proxied; anything else is
 * 404, with Discord's error shape `{ message, code: 0 }`, as is the 401 for a foreign token.
 * @throws the listen error (EADDRINUSE) when the port is taken.
 */
export async function startRestProxy(options: RestProxyOptions): Promise<RestProxy> {
  const { logger } = options;
  const budget = options.budget ?? new DiscordRestBudget();
  const interactive = new AsyncLocalStorage<boolean>();
  const agent = discordAgent(UPSTREAM_CONNECTIONS);
  const rest = new ProxiedRest(
    {
      api: options.apiUrl,
      version: '10',
      retries: 0,
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      // The budget counts the global limit, in sliding seconds; @discordjs/rest's fixed-window count would hold requests back twice.
      globalRequestsPerSecond: UNCOUNTED,
      makeRequest: budget.wrap(DefaultRestOptions.makeRequest, () => interactive.getStore() === true),
      agent,
    },
    interactive,
  );
  const counts = { forwarded: 0, rateLimited: 0, refused: 0 };
  rest.on('response', (request, response) => {
    counts.forwarded++;
    if (response.status !== 429) return;
    counts.rateLimited++;
    const headers = response.headers;
    logger.warn(
      {
        method: request.method,
        route: request.route,
        retryAfter: headers.get('retry-after'),
        global: headers.has('x-ratelimit-global'),
        scope: headers.get('x-ratelimit-scope'),
      },
      'Discord answered 429: waiting it out before the retry',
    );
  });
  const forward = proxyRequests(rest);
  const expected = Buffer.from(`Bot ${options.token}`);
  let closing = false;
  const stats = (): RestProxyStats => ({ ...counts, waiting: budget.waiting });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD'))
      return sendJson(res, closing ? 503 : 200, { status: closing ? 'closing' : 'ok', ...stats() });
    if (!path.startsWith('/api/')) return sendJson(res, 404, { message: '404: Not Found', code: 0 });
    if (!authorised(req.headers.authorization, expected)) {
      counts.refused++;
      logger.warn({ method: req.method, path }, "refused a request whose Authorization is not this bot's token");
      req.resume();
      return sendJson(res, 401, { message: '401: Unauthorized', code: 0 });
    }
    await forward(req, res);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      logger.error({ err, method: req.method }, 'REST proxy request failed');
      if (!res.headersSent) res.statusCode = 502;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    async close(timeoutMs = 10_000) {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      server.closeAllConnections();
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
      await agent.close();
    },
  };
}
