/** A playground over the in-process replica, as `npm start` runs it with no token and no API key. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/app/config.js';
import { startPlayground, type Playground, type PlaygroundOptions } from '../../src/playground/start.js';
import { createApiServices, type ApiServices } from '../../src/app/services.js';
import { capturingLogger } from './replica.js';

export async function bootPlayground(
  options: Partial<PlaygroundOptions> = {},
): Promise<{ playground: Playground; services: ApiServices; lines: string[]; dataDir: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rivals-playground-'));
  // A rate far above what the tests use: they drive many fresh reads a minute beside the first hero-meta
  // gathering, and are about the playground, not the key's rate (test/cache/rate-limiter.test.ts is).
  const config = loadConfig({ DATA_DIR: dataDir, RIVALS_API_RPM: '600' });
  const { logger, lines } = capturingLogger();
  const services = await createApiServices(config, logger);
  const playground = await startPlayground({ config, services, logger, port: 0, feedPollSeconds: 3600, ...options });
  return {
    playground,
    services,
    lines,
    dataDir,
    close: async () => {
      await playground.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
