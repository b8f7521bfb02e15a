/**
 * The cluster side of sharding: a cluster process's discord.js client runs the shards the manager
 * gave it (./plan.ts, {@link ClusterIdentity}) and identifies within Discord's `max_concurrency`
 * across every process of the bot (./identify.ts).
 */
import { SimpleIdentifyThrottler, type WebSocketManager } from '@discordjs/ws';
import type { Client } from 'discord.js';
import type { Logger } from '../../core/logger.js';
import { RedisIdentifyThrottler, type IdentifyRedis } from './identify.js';
import type { ClusterIdentity } from './plan.js';

/**
 * Sets `client` (not yet logged in) to run `cluster`'s shards of the bot's total, discord.js's
 * internal sharding (`shards`, `shardCount`; read at login). With `redis`, IDENTIFYs are throttled
 * through Redis with Discord's `max_concurrency` from `GET /gateway/bot`; without it, discord.js's
 * own per-process throttler is kept and the manager starts clusters one after another.
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
