/**
 * Keeps the in-process guild settings caches of several bot processes coherent: every change made by
 * one process is published on a Redis channel, and every other process drops that guild from its
 * cache (Redis pub/sub). Without Redis, or while it is down, the cache's short TTL bounds staleness.
 */
import type { Logger } from '../core/logger.js';
import type { GuildSettingsRepository } from './guild-settings.js';
import { openRedisChannel } from './redis-channel.js';

/** The Redis channel of settings changes; messages are `<process id> <guild id>`. */
export const SETTINGS_CHANNEL = 'rivals:settings:changed';

/**
 * Subscribes `settings` to other processes' changes and publishes its own.
 * @returns a stop function. Publishing failures are logged, never thrown (the TTL covers them).
 */
export async function syncSettingsOverRedis(
  client: () => Promise<unknown>,
  settings: GuildSettingsRepository,
  logger: Logger,
  timeoutMs = 5_000,
): Promise<() => Promise<void>> {
  const channel = await openRedisChannel(
    client,
    SETTINGS_CHANNEL,
    (guildId) => {
      if (guildId) settings.invalidate(guildId);
    },
    logger,
    'settings sync',
    timeoutMs,
  );
  settings.onChange = (guildId) => {
    void channel.publish(guildId).catch((err: unknown) => logger.warn({ err, guild: guildId }, 'settings sync: could not publish a change'));
  };
  return async () => {
    settings.onChange = undefined;
    await channel.stop();
  };
}
