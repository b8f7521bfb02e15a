/**
 * Which shards each cluster process runs (docs/operations.md, "Sharding across machines"). Cluster `c` holds shards `c × perCluster` to
 * `(c + 1) × perCluster − 1`, so every machine agrees on the split from `SHARD_COUNT` and `SHARDS_PER_CLUSTER` alone.
 */

/** Shard IDs ascending. */
export interface ClusterPlan {
  clusterId: number;
  shardIds: number[];
}

export interface ShardingPlan {
  /** Across every machine (the second number of Discord's `[shard_id, num_shards]`). */
  totalShards: number;
  totalClusters: number;
  /** This machine's, ascending by ID. */
  clusters: ClusterPlan[];
}

export class ShardingPlanError extends Error {
  override name = 'ShardingPlanError';
}

/**
 * This machine's clusters: those named by `clusterIds`, or holding `shardIds` (with those shards only), or all.
 * @throws {ShardingPlanError} when a named ID does not exist at this total (`auto` may give fewer shards than expected).
 */
export function planClusters(options: { totalShards: number; perCluster: number; shardIds?: number[]; clusterIds?: number[] }): ShardingPlan {
  const { totalShards, perCluster } = options;
  if (!(Number.isInteger(totalShards) && totalShards >= 1)) throw new ShardingPlanError(`the shard count must be a whole number from 1 (got ${totalShards})`);
  if (!(Number.isInteger(perCluster) && perCluster >= 1)) throw new ShardingPlanError(`shards per cluster must be a whole number from 1 (got ${perCluster})`);
  const totalClusters = Math.ceil(totalShards / perCluster);
  const shardsOf = (clusterId: number) =>
    Array.from({ length: Math.min(perCluster, totalShards - clusterId * perCluster) }, (_, i) => clusterId * perCluster + i);
  let clusters: ClusterPlan[];
  if (options.shardIds) {
    const beyond = options.shardIds.find((id) => id >= totalShards);
    if (beyond !== undefined) throw new ShardingPlanError(`shard ${beyond} does not exist: the bot has ${totalShards} shards (0 to ${totalShards - 1})`);
    const byCluster = new Map<number, number[]>();
    for (const id of [...new Set(options.shardIds)].sort((a, b) => a - b)) {
      const clusterId = Math.floor(id / perCluster);
      byCluster.set(clusterId, [...(byCluster.get(clusterId) ?? []), id]);
    }
    clusters = [...byCluster].map(([clusterId, shardIds]) => ({ clusterId, shardIds }));
  } else if (options.clusterIds) {
    const beyond = options.clusterIds.find((id) => id >= totalClusters);
    if (beyond !== undefined)
      throw new ShardingPlanError(
        `cluster ${beyond} does not exist: ${totalShards} shards at ${perCluster} a cluster make ${totalClusters} clusters (0 to ${totalClusters - 1})`,
      );
    clusters = [...new Set(options.clusterIds)].sort((a, b) => a - b).map((clusterId) => ({ clusterId, shardIds: shardsOf(clusterId) }));
  } else {
    clusters = Array.from({ length: totalClusters }, (_, clusterId) => ({ clusterId, shardIds: shardsOf(clusterId) }));
  }
  return { totalShards, totalClusters, clusters };
}

/** The environment variables through which the cluster manager tells a cluster process its part. */
export const CLUSTER_ENV = { id: 'RIVALS_CLUSTER_ID', shards: 'RIVALS_CLUSTER_SHARDS', total: 'RIVALS_TOTAL_SHARDS', first: 'RIVALS_FIRST_CLUSTER' } as const;

/** What a cluster process runs, read from its environment ({@link clusterFromEnv}). */
export interface ClusterIdentity {
  clusterId: number;
  shardIds: number[];
  totalShards: number;
  /** True for the machine's lowest cluster: without Redis, the one that polls the feeds. */
  first: boolean;
}

/** The environment of cluster `plan` of `totalShards` (merged over the manager's own by discord.js's ShardingManager). */
export function clusterEnv(plan: ClusterPlan, totalShards: number, first: boolean): Record<string, string> {
  return {
    [CLUSTER_ENV.id]: String(plan.clusterId),
    [CLUSTER_ENV.shards]: plan.shardIds.join(','),
    [CLUSTER_ENV.total]: String(totalShards),
    [CLUSTER_ENV.first]: first ? '1' : '0',
  };
}

/**
 * This process's cluster when the manager started it (discord.js's ShardingManager sets `SHARDING_MANAGER`); undefined otherwise.
 * @throws {ShardingPlanError} when the variables are set but malformed (a cluster started by hand).
 */
export function clusterFromEnv(env: Record<string, string | undefined>): ClusterIdentity | undefined {
  if (!env.SHARDING_MANAGER || env[CLUSTER_ENV.id] === undefined) return undefined;
  const clusterId = Number(env[CLUSTER_ENV.id]);
  const totalShards = Number(env[CLUSTER_ENV.total]);
  const shardIds = (env[CLUSTER_ENV.shards] ?? '').split(',').filter(Boolean).map(Number);
  if (
    !Number.isInteger(clusterId) ||
    !Number.isInteger(totalShards) ||
    shardIds.length === 0 ||
    shardIds.some((id) => !Number.isInteger(id) || id < 0 || id >= totalShards)
  ) {
    throw new ShardingPlanError(
      `this cluster's variables are malformed: ${CLUSTER_ENV.id}=${env[CLUSTER_ENV.id]}, ${CLUSTER_ENV.shards}=${env[CLUSTER_ENV.shards]}, ${CLUSTER_ENV.total}=${env[CLUSTER_ENV.total]}`,
    );
  }
  return { clusterId, shardIds, totalShards, first: env[CLUSTER_ENV.first] === '1' };
}

/** A cluster process's config environment: the manager's without the sharding variables (discord.js sets `SHARD_COUNT` to its process count). */
export function clusterConfigEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const { SHARD_COUNT: _count, SHARD_IDS: _shards, CLUSTER_IDS: _clusters, SHARDS: _s, ...rest } = env;
  return rest;
}
