import { createServer, type Server } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RivalsApi } from '../../src/api/client.js';

let server: Server;
let connections = 0;
let base = '';
const seenKeys: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seenKeys.push(req.headers['x-api-key'] as string | undefined);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"total_maps": 0, "maps": []}');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('the dispatcher', () => {
  it('can be injected, and its pooled connection is kept alive across requests', async () => {
    const agent = new Agent({ connections: 1, keepAliveTimeout: 5_000 });
    const dispatched: string[] = [];
    // An interceptor over the injected agent proves every request goes through it.
    const traced = agent.compose((dispatch: Dispatcher['dispatch']) => (opts, handler) => {
      dispatched.push(String(opts.path));
      return dispatch(opts, handler);
    });
    const api = new RivalsApi({ baseUrl: base, apiKey: 'abc', dispatcher: traced });
    connections = 0;
    for (let i = 1; i <= 5; i++) await api.maps({ page: i });
    expect(dispatched).toEqual([1, 2, 3, 4, 5].map((p) => `/api/v1/maps?limit=10&page=${p}`));
    expect(connections).toBe(1);
    expect(seenKeys.slice(-5)).toEqual(['abc', 'abc', 'abc', 'abc', 'abc']);
    await api.close(); // an injected dispatcher belongs to the caller: still usable after
    await expect(new RivalsApi({ baseUrl: base, dispatcher: traced }).maps()).resolves.toBeDefined();
    expect(seenKeys.at(-1)).toBeUndefined(); // no key configured: no header sent
    await agent.close();
  });
});
