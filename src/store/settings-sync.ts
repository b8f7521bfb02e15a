/** Keeps several processes' settings caches coherent over Redis pub/sub; without Redis the cache's short TTL bounds staleness. */
import type { Logger } from '../core/logger.js';
import type { GuildSettingsRepository } from './guild-settings.js';
import { openRedisChannel } from './redis-channel.js';

/** Messages are `<process id> <guild id>`. */
export const SETTINGS_CHANNEL = 'rivals:settings:changed';

/**
 * @returns a stop function. Publishing failures are logged, never thrown (the TTL covers them).
 * @throws when Redis does not answer within `timeoutMs`.
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
