import { describe, expect, it } from 'vitest';
import { clusterConfigEnv, clusterEnv, clusterFromEnv, planClusters, ShardingPlanError } from '../../../src/app/sharding/plan.js';
import { RESTART_MAX_MS, restartDelay } from '../../../src/app/sharding/manager.js';
import { loadConfig } from '../../../src/app/config.js';

describe('planClusters', () => {
  it('splits the shards into clusters of SHARDS_PER_CLUSTER, the last one shorter', () => {
    expect(planClusters({ totalShards: 5, perCluster: 2 })).toEqual({
      totalShards: 5,
      totalClusters: 3,
      clusters: [
        { clusterId: 0, shardIds: [0, 1] },
        { clusterId: 1, shardIds: [2, 3] },
        { clusterId: 2, shardIds: [4] },
      ],
    });
  });

  it('keeps the clusters named by CLUSTER_IDS, so that machines agree on the split', () => {
    const machineA = planClusters({ totalShards: 4, perCluster: 2, clusterIds: [0] });
    const machineB = planClusters({ totalShards: 4, perCluster: 2, clusterIds: [1] });
    expect(machineA.clusters).toEqual([{ clusterId: 0, shardIds: [0, 1] }]);
    expect(machineB.clusters).toEqual([{ clusterId: 1, shardIds: [2, 3] }]);
    expect(machineA.totalShards).toBe(4);
  });

  it('groups SHARD_IDS by the cluster each belongs to, with only those shards', () => {
    expect(planClusters({ totalShards: 8, perCluster: 4, shardIds: [6, 1, 2, 1] }).clusters).toEqual([
      { clusterId: 0, shardIds: [1, 2] },
      { clusterId: 1, shardIds: [6] },
    ]);
  });

  it('refuses IDs beyond the total, naming them (an auto count lower than a machine expected)', () => {
    expect(() => planClusters({ totalShards: 2, perCluster: 1, shardIds: [2] })).toThrow(ShardingPlanError);
    expect(() => planClusters({ totalShards: 2, perCluster: 1, shardIds: [2] })).toThrow(/shard 2 does not exist: the bot has 2 shards/);
    expect(() => planClusters({ totalShards: 4, perCluster: 2, clusterIds: [2] })).toThrow(/cluster 2 does not exist/);
    expect(() => planClusters({ totalShards: 0, perCluster: 2 })).toThrow(/shard count/);
  });

  it('plans at scale: 2,000 shards at 16 a cluster', () => {
    const plan = planClusters({ totalShards: 2_000, perCluster: 16 });
    expect(plan.totalClusters).toBe(125);
    expect(plan.clusters.flatMap((c) => c.shardIds)).toEqual([...Array(2_000).keys()]);
  });
});

describe('a cluster process environment', () => {
  it('carries the cluster through the manager and back', () => {
    const env = { SHARDING_MANAGER: 'true', SHARDS: '1', SHARD_COUNT: '2', ...clusterEnv({ clusterId: 1, shardIds: [2, 3] }, 4, false) };
    expect(clusterFromEnv(env)).toEqual({ clusterId: 1, shardIds: [2, 3], totalShards: 4, first: false });
    expect(clusterFromEnv({ SHARD_COUNT: '4' })).toBeUndefined();
    expect(() => clusterFromEnv({ ...env, RIVALS_CLUSTER_SHARDS: '2,9' })).toThrow(ShardingPlanError);
  });

  it('reads its configuration without the manager’s SHARD_COUNT (discord.js sets it to the count of processes)', () => {
    // The manager's machine runs cluster 1 of 2 (CLUSTER_IDS=1); discord.js hands the child SHARD_COUNT=2 (clusters).
    const env = { DISCORD_TOKEN: 't', SHARD_COUNT: '2', SHARDS_PER_CLUSTER: '2', CLUSTER_IDS: '1', SHARDING_MANAGER: 'true', SHARDS: '1' };
    expect(() => loadConfig(env)).toThrow(/CLUSTER_IDS/);
    expect(loadConfig(clusterConfigEnv(env)).sharding).toBeUndefined();
  });
});

describe('restartDelay', () => {
  it('doubles from 1 s per death in a row, with jitter, up to 60 s', () => {
    expect(restartDelay(1, () => 0.5)).toBe(1_000);
    expect(restartDelay(2, () => 0.5)).toBe(2_000);
    expect(restartDelay(4, () => 0.5)).toBe(8_000);
    expect(restartDelay(20, () => 0.5)).toBe(RESTART_MAX_MS);
    expect(restartDelay(1, () => 0)).toBe(800);
    expect(restartDelay(1, () => 1)).toBe(1_200);
  });
});
