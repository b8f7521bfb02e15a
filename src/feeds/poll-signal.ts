/**
 * "Poll the feeds now", across processes: a backfill asked on one process is posted at once by the
 * process that leads the feeds, wherever it runs (Redis pub/sub). Only the leader polls (src/feeds/
 * poller.ts), so every process passes the signal to its own poller and the leader's acts on it.
 */
import { randomUUID } from 'node:crypto';
import pTimeout from 'p-timeout';
import type { Logger } from '../logger.js';
import type { PubSubClient } from '../store/settings-sync.js';

/** The Redis channel of poll requests; messages are the id of the process that asked. */
export const POLL_NOW_CHANNEL = 'rivals:feeds:poll-now';

/** A process's end of the signal. */
export interface PollSignal {
  /** Asks every other process to poll now. Never throws: a failed publish is logged (the next regular poll catches up). */
  publish(): void;
  stop(): Promise<void>;
}

/**
 * Subscribes to other processes' poll requests, calling `onRequest` for each.
 * @throws when Redis does not answer within `timeoutMs` (start never waits longer).
 */
export async function pollSignalOverRedis(client: () => Promise<unknown>, onRequest: () => void, logger: Logger, timeoutMs = 5_000): Promise<PollSignal> {
  const self = randomUUID();
  const publisher = (await client()) as PubSubClient;
  const subscriber = publisher.duplicate();
  subscriber.on('error', (err) => logger.warn({ err }, 'poll signal: Redis subscriber error'));
  const setup = (async () => {
    await subscriber.connect();
    await subscriber.subscribe(POLL_NOW_CHANNEL, (origin) => {
      if (origin !== self) onRequest();
    });
  })();
  await pTimeout(setup, { milliseconds: timeoutMs, message: `Redis did not answer within ${timeoutMs} ms` });
  return {
    publish() {
      void publisher.publish(POLL_NOW_CHANNEL, self).catch((err: unknown) => logger.warn({ err }, 'poll signal: could not ask the other processes to poll'));
    },
    async stop() {
      await (subscriber.close ?? subscriber.quit)?.call(subscriber).catch(() => undefined);
    },
  };
}
