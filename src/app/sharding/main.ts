/** The cluster manager's process: what `npm start` runs with `SHARD_COUNT` set. It opens no store and no Discord connection. */
import type { Config } from '../config.js';
import type { Logger } from '../../core/logger.js';
import { EXIT_OK, type ProcessPolicy } from '../../core/process-policy.js';
import { ClusterManager } from './manager.js';

/** Runs the manager until a signal or a fatal cluster exit; a plan that cannot start exits 1 with one log line. */
export async function runClusterManager(options: {
  config: Config;
  logger: Logger;
  policy: ProcessPolicy;
  file: string;
  execArgv: string[];
}): Promise<ClusterManager> {
  const { policy, logger } = options;
  const manager = new ClusterManager({ config: options.config, logger, file: options.file, execArgv: options.execArgv });
  policy.setShutdown(async (reason) => {
    logger.info({ reason }, 'stopping every cluster');
    await manager.stop();
  });
  process.once('SIGINT', () => void policy.terminate(EXIT_OK, 'SIGINT'));
  process.once('SIGTERM', () => void policy.terminate(EXIT_OK, 'SIGTERM'));
  try {
    await manager.start((code) => void policy.terminate(code, 'a cluster failed'));
  } catch (err) {
    if (!policy.terminating) {
      logger.fatal({ err }, 'the clusters could not start (check SHARD_COUNT, SHARD_IDS, CLUSTER_IDS and DISCORD_TOKEN)');
      await policy.terminate(1, 'sharding failed');
    }
  }
  if (!policy.terminating) logger.info({ clusters: manager.clusters.map((c) => c.clusterId) }, 'every cluster of this machine is up');
  return manager;
}
