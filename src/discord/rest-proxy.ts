/**
 * The REST proxy: every bot process sends its Discord REST requests here, so per-bot limits are kept once (the global limit by a
 * {@link DiscordRestBudget}, route buckets by @discordjs/rest). Forwarding is @discordjs/proxy's `proxyRequests`; clients use `${proxy}/api`.
 * Added, as @discordjs/proxy does not: a foreign `Authorization` gets 401 (it forwards any token); the body is buffered up to
 * {@link MAX_BODY_BYTES} (a retry after a 429 would resend the consumed stream empty); an unknown upstream failure is a 502, not an empty
 * 200, and not retried here (the client's REST retries); {@link PRIORITY_HEADER} runs the request in a context the budget reads.
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

/** Most connections the proxy keeps to Discord; the budget's pace keeps far fewer busy. */
const UPSTREAM_CONNECTIONS = 128;

export interface RestProxyOptions {
  /** The bot's token (DISCORD_TOKEN): a client's `Authorization` must be `Bot ${token}`, or absent. */
  token: string;
  /** Discord's REST API without the version (DISCORD_API_URL, e.g. `https://discord.com/api`). */
  apiUrl: string;
  logger: Logger;
  /** The budget of every request but the interaction routes (default: a new one). */
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
  waiting: number;
}

export interface RestProxy {
  /** `http://127.0.0.1:{port}`: a bot process's DISCORD_REST_PROXY, when it runs on this machine. */
  url: string;
  port: number;
  stats(): RestProxyStats;
  /** Stops taking connections, lets requests under way finish for up to `timeoutMs` (default 10 s), then closes every connection and the agent. */
  close(timeoutMs?: number): Promise<void>;
}

class ProxiedRest extends REST {
  readonly #interactive: AsyncLocalStorage<boolean>;

  constructor(options: Partial<RESTOptions>, interactive: AsyncLocalStorage<boolean>) {
    super(options);
    this.#interactive = interactive;
  }

  /** Called by `proxyRequests` with the incoming request as `body`. @throws HTTPError 413 past {@link MAX_BODY_BYTES}, 502 on an unmapped failure. */
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
 * Starts the proxy on `port`: `/api/...` is proxied; `GET /healthz` answers {@link RestProxyStats} (503 once closing); anything else 404,
 * a foreign token 401, in Discord's error shape `{ message, code: 0 }`.
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
