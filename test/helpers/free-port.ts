/** A free TCP port on 127.0.0.1, for test servers that must be told their port up front. */
import { createServer } from 'node:net';

/**
 * Asks the kernel for an unused loopback port, then frees it for the caller to bind. Another process
 * could take it in between; callers that can tell (a server failing to bind) try again.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
