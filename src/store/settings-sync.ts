/**
 * Keeps the in-process guild settings caches of several bot processes coherent: every change made by
 * one process is published on a Redis channel, and every other process drops that guild from its
 * cache (Redis pub/sub). Without Redis, or while it is down, the cache's short TTL bounds staleness.
 */
import { randomUUID } from 'node:crypto';
import pTimeout from 'p-timeout';
import type { Logger } from '../logger.js';
import type { GuildSettingsRepository } from './guild-settings.js';

/** The Redis channel of settings changes; messages are `<process id> <guild id>`. */
export const SETTINGS_CHANNEL = 'rivals:settings:changed';

/** The node-redis v5 commands used (the cache store's client, src/feeds/leadership.ts redisClientOf). */
export interface PubSubClient {
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): PubSubClient;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'error', listener: (err: Error) => void): unknown;
  quit?(): Promise<unknown>;
  close?(): Promise<unknown>;
}

/**
 * Subscribes `settings` to other processes' changes and publishes its own.
 * @returns a stop function. Publishing failures are logged, never thrown (the TTL covers them).
 */
export async function syncSettingsOverRedis(client: () => Promise<unknown>, settings: GuildSettingsRepository, logger: Logger, timeoutMs = 5_000): Promise<() => Promise<void>> {
  const self = randomUUID();
  const publisher = (await client()) as PubSubClient;
  const subscriber = publisher.duplicate();
  subscriber.on('error', (err) => logger.warn({ err }, 'settings sync: Redis subscriber error'));
  const setup = (async () => {
    await subscriber.connect();
    await subscriber.subscribe(SETTINGS_CHANNEL, (message) => {
      const [origin, guildId] = message.split(' ');
      if (origin !== self && guildId) settings.invalidate(guildId);
    });
  })();
  // Start never waits on a Redis that does not answer.
  await pTimeout(setup, { milliseconds: timeoutMs, message: `Redis did not answer within ${timeoutMs} ms` });
  settings.onChange = (guildId) => {
    void publisher.publish(SETTINGS_CHANNEL, `${self} ${guildId}`).catch((err: unknown) => logger.warn({ err, guild: guildId }, 'settings sync: could not publish a change'));
  };
  return async () => {
    settings.onChange = undefined;
    await (subscriber.close ?? subscriber.quit)?.call(subscriber).catch(() => undefined);
  };
}
