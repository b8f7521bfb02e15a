/** Redis pub/sub between the bot's processes; each message names its sender, so a process never hears its own. */
import { randomUUID } from 'node:crypto';
import pTimeout from 'p-timeout';
import type { Logger } from '../core/logger.js';

/** The node-redis v5 commands used. */
export interface PubSubClient {
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): PubSubClient;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'error', listener: (err: Error) => void): unknown;
  quit?(): Promise<unknown>;
  close?(): Promise<unknown>;
}

export interface RedisChannel {
  /** Resolves or rejects with the publish. */
  publish(body: string): Promise<unknown>;
  /** Never throws. */
  stop(): Promise<void>;
}

/**
 * Messages are `<process id> <body>`; `what` names the channel in the log.
 * @throws when Redis does not answer within `timeoutMs`.
 */
export async function openRedisChannel(
  client: () => Promise<unknown>,
  channel: string,
  onMessage: (body: string) => void,
  logger: Logger,
  what: string,
  timeoutMs = 5_000,
): Promise<RedisChannel> {
  const self = randomUUID();
  const publisher = (await client()) as PubSubClient;
  const subscriber = publisher.duplicate();
  subscriber.on('error', (err) => logger.warn({ err }, `${what}: Redis subscriber error`));
  const setup = (async () => {
    await subscriber.connect();
    await subscriber.subscribe(channel, (message) => {
      const space = message.indexOf(' ');
      const origin = space < 0 ? message : message.slice(0, space);
      if (origin !== self) onMessage(space < 0 ? '' : message.slice(space + 1));
    });
  })();
  await pTimeout(setup, { milliseconds: timeoutMs, message: `Redis did not answer within ${timeoutMs} ms` });
  return {
    publish: (body) => publisher.publish(channel, `${self} ${body}`),
    async stop() {
      await (subscriber.close ?? subscriber.quit)?.call(subscriber).catch(() => undefined);
    },
  };
}
