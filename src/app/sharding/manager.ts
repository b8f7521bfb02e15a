/**
 * Starts a process per cluster through discord.js's `ShardingManager` (whose "shards" are our clusters) and restarts
 * one that dies. Its own respawn is off: it restarts at once, forever, so a crash on start would loop; here with back-off.
 */
import { ShardingManager, type Shard } from 'discord.js';
import { REST } from '@discordjs/rest';
import { Routes, type RESTGetAPIGatewayBotResult } from 'discord-api-types/v10';
import type { ChildProcess } from 'node:child_process';
import type { Config } from '../config.js';
import type { Logger } from '../../core/logger.js';
import { EXIT_GATEWAY_REFUSED } from '../../core/process-policy.js';
import { clusterEnv, planClusters, type ShardingPlan } from './plan.js';

export interface GatewayAdvice {
  /** Recommended shard count. */
  shards: number;
  /** Shards that may identify in one window (`session_start_limit.max_concurrency`). */
  maxConcurrency: number;
}

/**
 * `GET /gateway/bot` on `apiUrl`, so a local fake Discord or a REST proxy answers (discord.js's own asks discord.com).
 * @throws the REST error (401 for a bad token) or a network error.
 */
export async function fetchGatewayAdvice(apiUrl: string, token: string): Promise<GatewayAdvice> {
  const rest = new REST({ api: apiUrl, version: '10' }).setToken(token);
  try {
    const info = (await rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
    return { shards: info.shards, maxConcurrency: info.session_start_limit.max_concurrency };
  } finally {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  }
}

/** Ms; doubled per death in a row up to {@link RESTART_MAX_MS}. */
export const RESTART_BASE_MS = 1_000;
export const RESTART_MAX_MS = 60_000;
/** Ms a cluster stays up before its restart delay counts from scratch again. */
export const RESTART_STABLE_MS = 5 * 60_000;

/**
 * Discord's refusal of the token, intents or sharding must be fixed first: the manager stops every cluster and exits
 * with that code. Any other exit is restarted with back-off.
 */
const FATAL_EXIT_CODES = new Set([EXIT_GATEWAY_REFUSED]);

/** Ms, then SIGKILL; above a cluster's own stop bound (src/core/process-policy.ts). */
export const CLUSTER_STOP_TIMEOUT_MS = 15_000;
/** The clusters' bound plus a margin, within compose's stop_grace_period. */
export const MANAGER_SHUTDOWN_TIMEOUT_MS = 18_000;

/** Ms before the `deaths`-th restart in a row (from 1): exponential with jitter. */
export function restartDelay(deaths: number, random: () => number = Math.random): number {
  const base = Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** Math.max(0, deaths - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export interface ClusterManagerOptions {
  config: Config;
  logger: Logger;
  /** The bot's own entry file, run by each cluster. */
  file: string;
  /** The manager's own, so tsx's loader comes along. */
  execArgv?: string[];
  /** Default {@link fetchGatewayAdvice}. */
  advice?: (apiUrl: string, token: string) => Promise<GatewayAdvice>;
  env?: Record<string, string>;
}

export interface ClusterState {
  clusterId: number;
  shardIds: number[];
  /** From the first READY shard until it dies. */
  ready: boolean;
  restarts: number;
  pid?: number;
}

/** This machine's cluster processes. Without Redis they start one at a time so IDENTIFYs never overlap; with it, together. */
export class ClusterManager {
  readonly #options: ClusterManagerOptions;
  readonly #logger: Logger;
  #manager: ShardingManager | undefined;
  readonly #states = new Map<number, ClusterState & { deaths: number; upSince: number; timer?: NodeJS.Timeout }>();
  #stopping = false;
  #sequential = false;
  #serial: Promise<void> = Promise.resolve();
  #fatal: ((code: number) => void) | undefined;
  /** Set once {@link start} resolved the shard count. */
  plan: ShardingPlan | undefined;

  constructor(options: ClusterManagerOptions) {
    this.#options = options;
    this.#logger = options.logger;
  }

  get clusters(): ClusterState[] {
    return [...this.#states.values()].map(({ clusterId, shardIds, ready, restarts, pid }) => ({ clusterId, shardIds, ready, restarts, pid }));
  }

  /**
   * Resolves the plan and starts every cluster of this machine; `onFatal` hears an exit a restart cannot fix.
   * @throws {ShardingPlanError} when the IDs do not fit the shard count; the REST error when `auto` cannot be resolved.
   */
  async start(onFatal: (code: number) => void): Promise<void> {
    this.#fatal = onFatal;
    const { config } = this.#options;
    const sharding = config.sharding!;
    const token = config.discord.token!;
    const totalShards =
      sharding.shardCount === 'auto' ? (await (this.#options.advice ?? fetchGatewayAdvice)(config.discord.apiUrl, token)).shards : sharding.shardCount;
    const plan = planClusters({ totalShards, perCluster: sharding.shardsPerCluster, shardIds: sharding.shardIds, clusterIds: sharding.clusterIds });
    this.plan = plan;
    this.#logger.info(
      { totalShards, totalClusters: plan.totalClusters, clusters: plan.clusters.map((c) => ({ cluster: c.clusterId, shards: c.shardIds })) },
      "starting this machine's clusters",
    );
    if (!config.discordRestProxy && plan.totalClusters > 1) {
      // Discord's 50 requests a second are the bot's, not each process's (docs/operations.md, "The REST proxy").
      this.#logger.warn(
        { totalClusters: plan.totalClusters },
        'several cluster processes without DISCORD_REST_PROXY: each keeps its own Discord REST budget, so together they may pass the global limit during a feed fan-out',
      );
    }
    // ShardingManager counts processes: its "shards" are the bot's clusters.
    const manager = new ShardingManager(this.#options.file, {
      totalShards: plan.totalClusters,
      shardList: plan.clusters.map((c) => c.clusterId),
      mode: 'process',
      respawn: false,
      token,
      execArgv: this.#options.execArgv ?? [],
    });
    this.#manager = manager;
    this.#sequential = !config.redisUrl;
    const first = plan.clusters[0]!.clusterId;
    const started: Promise<void>[] = [];
    for (const cluster of plan.clusters) {
      const shard = manager.createShard(cluster.clusterId);
      Object.assign(shard.env as Record<string, string>, clusterEnv(cluster, plan.totalShards, cluster.clusterId === first), this.#options.env ?? {});
      this.#states.set(cluster.clusterId, { ...cluster, ready: false, restarts: 0, deaths: 0, upSince: 0 });
      this.#watch(shard);
      started.push(this.#spawn(shard));
    }
    await Promise.all(started);
  }

  /** Spawns a cluster and resolves once its shards are READY, it died, or the wait timed out; one at a time without Redis. */
  #spawn(shard: Shard): Promise<void> {
    if (!this.#sequential) return this.#spawnNow(shard);
    const next = this.#serial.then(() => this.#spawnNow(shard));
    this.#serial = next.catch(() => undefined);
    return next;
  }

  async #spawnNow(shard: Shard): Promise<void> {
    if (this.#stopping) return;
    const state = this.#states.get(shard.id)!;
    const expected = state.shardIds.length;
    const child = await shard.spawn(-1);
    // A stop that came while it spawned has not seen it.
    if (this.#stopping) {
      child.kill('SIGTERM');
      return;
    }
    state.pid = child.pid;
    state.upSince = Date.now();
    await new Promise<void>((resolve) => {
      let readyShards = 0;
      const done = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', done);
        resolve();
      };
      // discord.js's ShardClientUtil sends `{_ready: true}` once per shard turning READY.
      const onMessage = (message: unknown) => {
        if ((message as { _ready?: unknown } | null)?._ready === true && ++readyShards >= expected) done();
      };
      const timer = setTimeout(done, 120_000);
      child.on('message', onMessage);
      child.once('exit', done);
    });
  }

  #watch(shard: Shard): void {
    const state = this.#states.get(shard.id)!;
    shard.on('ready', () => {
      state.ready = true;
    });
    shard.on('death', (child) => {
      state.ready = false;
      if (this.#stopping) return;
      const code = (child as ChildProcess).exitCode;
      if (code !== null && FATAL_EXIT_CODES.has(code)) {
        this.#logger.fatal({ cluster: shard.id, code }, 'a cluster stopped with an error a restart cannot fix: stopping every cluster');
        this.#fatal?.(code);
        return;
      }
      if (Date.now() - state.upSince >= RESTART_STABLE_MS) state.deaths = 0;
      state.deaths++;
      const delayMs = restartDelay(state.deaths);
      this.#logger.error(
        { cluster: shard.id, shards: state.shardIds, code, signal: (child as ChildProcess).signalCode, restartInMs: delayMs },
        'a cluster died: restarting it',
      );
      state.timer = setTimeout(() => {
        state.timer = undefined;
        if (this.#stopping) return;
        state.restarts++;
        this.#spawn(shard).catch((err: unknown) => this.#logger.error({ err, cluster: shard.id }, 'a cluster could not be restarted'));
      }, delayMs);
    });
    shard.on('error', (err) => this.#logger.error({ err, cluster: shard.id }, 'cluster process error'));
  }

  /** SIGTERM every cluster (each finishes its answers and closes its stores), then SIGKILL past `timeoutMs`. */
  async stop(timeoutMs = CLUSTER_STOP_TIMEOUT_MS): Promise<void> {
    this.#stopping = true;
    for (const state of this.#states.values()) clearTimeout(state.timer);
    const children = [...(this.#manager?.shards.values() ?? [])]
      .map((shard) => shard.process)
      .filter((p): p is ChildProcess => !!p && p.exitCode === null && p.signalCode === null);
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}
