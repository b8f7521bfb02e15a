/** The cluster side of sharding: a process's client runs its shards and identifies within `max_concurrency` across the bot. */
import { SimpleIdentifyThrottler, type WebSocketManager } from '@discordjs/ws';
import type { Client } from 'discord.js';
import type { Logger } from '../../core/logger.js';
import { RedisIdentifyThrottler, type IdentifyRedis } from './identify.js';
import type { ClusterIdentity } from './plan.js';

/**
 * Sets `client` (before login) to run `cluster`'s shards. With `redis`, IDENTIFYs are throttled through Redis
 * (Discord: "Session Start Limit"); without it the manager starts clusters one after another.
 */
export function runClusterShards(client: Client, cluster: ClusterIdentity, logger: Logger, redis?: () => Promise<IdentifyRedis>): void {
  client.options.shards = cluster.shardIds;
  client.options.shardCount = cluster.totalShards;
  if (!redis) return;
  client.options.ws = {
    ...client.options.ws,
    buildIdentifyThrottler: async (manager: WebSocketManager) => {
      const { session_start_limit: limit } = await manager.fetchGatewayInformation();
      return new RedisIdentifyThrottler(limit.max_concurrency, redis, new SimpleIdentifyThrottler(limit.max_concurrency), logger);
    },
  };
}
