/** `npm run replica`: the API replica on `PORT`, accepting only `RIVALS_API_KEY`; faults from `REPLICA_*`. */
import { createLogger } from '../core/logger.js';
import { faultsFromEnv } from './faults.js';
import { startReplica } from './server.js';

const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info' });
try {
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number (got "${process.env.PORT}")`);
  const apiKey = process.env.RIVALS_API_KEY?.trim() || 'replica-key';
  const replica = await startReplica({ apiKey, port, host: process.env.REPLICA_HOST ?? '127.0.0.1', faults: faultsFromEnv(process.env), logger });
  // The URL on stdout by itself, so scripts can read it; the key is the caller's own, so it is not printed.
  process.stdout.write(`${replica.url}\n`);
  logger.info({ url: replica.url, faults: replica.faults(), customKey: apiKey !== 'replica-key' }, 'API replica listening');
  const stop = () => {
    void replica.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  logger.fatal({ err }, 'replica failed to start');
  process.exitCode = 1;
}
