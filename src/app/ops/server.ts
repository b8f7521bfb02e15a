/** The ops server on `METRICS_PORT` (`GET /healthz`, `GET /metrics` in Prometheus text format), apart from everything members use. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../core/logger.js';
import type { Health } from './health.js';

export interface MetricsText {
  readonly contentType: string;
  text(): Promise<string>;
}

export interface OpsServerOptions {
  /** 0 picks a free one. */
  port: number;
  /** Default `0.0.0.0`: in a container, scraped from outside it. */
  host?: string;
  metrics: MetricsText;
  health: () => Promise<Health>;
  logger: Logger;
}

export interface OpsServer {
  /** Loopback when listening on every interface. */
  url: string;
  port: number;
  /** Also closes open keep-alive connections. */
  close(): Promise<void>;
}

/** @throws the listen error (`EADDRINUSE`, `EACCES`). */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const host = options.host ?? '0.0.0.0';
  const server = createServer((req, res) => {
    handle(req, res, options).catch((err: unknown) => {
      options.logger.error({ err, path: req.url }, 'ops request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal error\n');
    });
  });
  // Probes and scrapers send small requests: a slow client is not worth a socket for long.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => options.logger.error({ err }, 'ops server error'));
  const { port } = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, options: OpsServerOptions): Promise<void> {
  const path = (req.url ?? '/').split('?', 1)[0];
  if (path !== '/healthz' && path !== '/metrics') return send(res, req, 404, 'text/plain; charset=utf-8', 'not found: try /healthz or /metrics\n');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return send(res, req, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
  }
  if (path === '/healthz') {
    const health = await options.health();
    return send(res, req, health.status === 'ok' ? 200 : 503, 'application/json; charset=utf-8', JSON.stringify(health));
  }
  return send(res, req, 200, options.metrics.contentType, await options.metrics.text());
}

function send(res: ServerResponse, req: IncomingMessage, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
