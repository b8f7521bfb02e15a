/** The bot's composition root (src/index.ts loads it): config, logger, store and cache, API client, Discord runtime, feeds; the local playground without DISCORD_TOKEN or with `--playground`. */
import { commands } from '../commands/index.js';
import { ConfigError, loadConfig, webProblem, type Config } from './app/config.js';
import { EnvFileError, loadEnvFile } from './app/env-file.js';
import { Router } from './discord/router.js';
import { fetchCommandIds } from './discord/deploy.js';
import { loadAppEmojis } from './discord/application-emojis.js';
import { inviteUrl, loginFailure, startFailure, userInstallUrl } from './discord/startup.js';
import { setCommandIds } from './i18n/index.js';
import { discordChannelAccess } from './discord/channel-access.js';
import { createDiscordClient, shardServing } from './discord/client.js';
import { DiscordRuntime } from './discord/runtime.js';
import { DiscordRestBudget } from './discord/rest-budget.js';
import { NO_METRICS } from './core/metrics.js';
import { createMetrics } from './app/ops/create-metrics.js';
import { watchGateway } from './discord/gateway-policy.js';
import { EXIT_GATEWAY_REFUSED, EXIT_OK, logWritten, ProcessPolicy } from './core/process-policy.js';
import { createLogger } from './core/logger.js';
import { discordFeedTransport } from './feeds/discord-transport.js';
import { NEVER_LEADER, RedisJobTurns, RedisLeadership, SOLE_LEADER } from './feeds/leadership.js';
import { EXIT_STORE_UNAVAILABLE, StoreOpenError } from './store/database.js';
import { syncSettingsOverRedis } from './store/settings-sync.js';
import { pollSignalOverRedis, type PollSignal } from './feeds/poll-signal.js';
import { createApiServices } from './app/services.js';
import { createBackground } from './app/background.js';
import { discordRoleTransport } from './ladder/discord-roles.js';
import type { Playground } from './playground/start.js';
import { clusterConfigEnv, clusterFromEnv, ShardingPlanError, type ClusterIdentity } from './app/sharding/plan.js';
import { runClusterShards } from './app/sharding/cluster.js';
import { MANAGER_SHUTDOWN_TIMEOUT_MS } from './app/sharding/manager.js';
import type { IdentifyRedis } from './app/sharding/identify.js';
import { redisClientOf } from './cache/store.js';
import { dropPrestartedCharts } from './charts/prestart.js';
import type { Dashboard } from './web/start.js';

// A cluster process started by the cluster manager (src/app/sharding) gets its shards from it.
let cluster: ClusterIdentity | undefined;
let config: Config;
let envFile: string | null = null;
try {
  envFile = loadEnvFile();
  cluster = clusterFromEnv(process.env);
  config = loadConfig(cluster ? clusterConfigEnv(process.env) : process.env);
} catch (err) {
  const known = err instanceof ConfigError || err instanceof ShardingPlanError || err instanceof EnvFileError;
  // One line, never a stack: the logger and its LOG_LEVEL are not read yet.
  process.stderr.write(known ? `${err.message}\nSee .env.example for every variable.\n` : `${startFailure(err)}\n`);
  process.exit(1);
}

const rootLogger = createLogger({
  level: config.logLevel,
  secrets: [config.rivals.apiKey, config.discord.token, config.web.clientSecret, config.web.sessionSecret],
});
const logger = cluster ? rootLogger.child({ cluster: cluster.clusterId }) : rootLogger;
// Which file, never its values; the cluster processes inherit the manager's environment.
if (envFile && !cluster) logger.info({ file: envFile }, 'read the environment from .env (variables set in the process environment win)');
const playgroundAsked = process.argv.includes('--playground');
const managesClusters = !!config.sharding && !!config.discord.token && !playgroundAsked && !cluster;
// docs/operations.md, "Process policy": every stop goes through `policy.terminate`, bounded. The cache-override warning is expected
// (createDiscordClient says why), and a cluster manager's stop outlasts its clusters' own.
const policy = new ProcessPolicy({
  logger,
  expectedWarnings: ['UnsupportedCacheOverwriteWarning'],
  ...(managesClusters ? { shutdownTimeoutMs: MANAGER_SHUTDOWN_TIMEOUT_MS } : {}),
});
policy.install();
// A cluster whose manager is gone (SIGKILL, out of memory) stops: a new manager will start its shards again.
if (cluster) process.once('disconnect', () => void policy.terminate(EXIT_OK, 'the cluster manager is gone'));

/** ms after READY before the hourly jobs start, so the first interactions after a start are answered before their heavy work. */
const HOURLY_JOBS_DELAY_MS = 10_000;
/** How often the application's emojis are read again, ms: a deploy's new ones show within the hour. */
const EMOJI_REFRESH_MS = 60 * 60_000;
/** A turn of an hourly job with Redis, ms: a little under the hour, so the next hour's turn is free. */
const JOB_TURN_MS = 55 * 60_000;

/** Upper bound on the first feed poll's delay after READY, ms, so the first interactions after a (re)start do not wait behind it. */
const FIRST_FEED_POLL_DELAY_MS = 3_000;

try {
  if (managesClusters) {
    // docs/operations.md, "Sharding across machines": this process starts and watches the clusters, each running the same entry (argv[1], with execArgv for tsx).
    const { runClusterManager } = await import('./app/sharding/main.js');
    // Its clusters draw; this process never does.
    void dropPrestartedCharts();
    await runClusterManager({ config, logger: logger.child({ component: 'sharding' }), policy, file: process.argv[1]!, execArgv: process.execArgv });
  } else {
    await runBot();
  }
} catch (err) {
  // A failure of the start itself is one line of advice; its stack only at LOG_LEVEL=debug.
  if (!policy.terminating) {
    logger.debug({ err }, 'the start-up error');
    logger.fatal(startFailure(err));
    await policy.terminate(1, 'start-up failed');
  }
}

async function runBot(): Promise<void> {
  // Health and metrics (docs/operations.md, "Self-hosting") made first, since the API and REST budget report to them; prom-client loads only with METRICS_PORT.
  const onDiscord = !!config.discord.token && !playgroundAsked;
  const prometheus = onDiscord && config.metricsPort !== undefined ? await createMetrics({ cluster: String(cluster?.clusterId ?? 0) }) : undefined;
  const metrics = prometheus ?? NO_METRICS;
  let services: Awaited<ReturnType<typeof createApiServices>>;
  try {
    // The replica loads only offline, with no RIVALS_API_KEY.
    const replicaFaults = config.rivals.apiKey ? {} : (await import('./replica/faults.js')).faultsFromEnv(process.env);
    services = await createApiServices(config, logger, replicaFaults, metrics);
  } catch (err) {
    if (!(err instanceof StoreOpenError)) throw err;
    // One line naming the place and what to do (docs/operations.md, "Durable state"), and a distinct exit code.
    logger.fatal({ store: err.location }, err.message);
    logger.flush();
    await logWritten(logger);
    process.exit(EXIT_STORE_UNAVAILABLE);
  }
  if (services.replica) {
    logger.info({ replica: services.replica.url }, 'offline: no RIVALS_API_KEY, so the bot uses the in-process API replica');
  } else {
    logger.info({ api: config.rivals.baseUrl, rpm: config.rivals.requestsPerMinute, cache: config.redisUrl ? 'redis' : 'memory' }, 'using the game API');
  }
  logger.info({ store: services.state.database.location, engine: services.state.database.engine }, 'state store open');
  policy.setShutdown(() => services.close());

  /** Sets the graceful stop (`shutdown`, then services and store); the first SIGINT or SIGTERM runs it and exits 0. */
  function stopOnSignal(shutdown: (reason: string) => Promise<void>): void {
    policy.setShutdown(async (reason) => {
      await shutdown(reason);
      const started = performance.now();
      await services.close();
      logger.debug({ step: 'services (API, cache, store)', ms: Math.round(performance.now() - started) }, 'shutdown step done');
    });
    process.once('SIGINT', () => void policy.terminate(EXIT_OK, 'SIGINT'));
    process.once('SIGTERM', () => void policy.terminate(EXIT_OK, 'SIGTERM'));
  }

  if (!onDiscord) {
    if (!config.discord.token)
      logger.info(
        'DISCORD_TOKEN is not set, so the bot runs in the local playground. Set DISCORD_TOKEN and DISCORD_CLIENT_ID (see .env.example) to run it on Discord.',
      );
    let playground: Playground;
    try {
      // Its web server and esbuild load only in this mode.
      const { startPlayground } = await import('./playground/start.js');
      playground = await startPlayground({ config, services, logger });
    } catch (err) {
      const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
      // One line of advice; the stack only at debug.
      logger.debug({ err }, 'the playground start error');
      logger.fatal(inUse ? `port ${config.port} is in use: set PORT to a free port` : `the playground could not start: ${(err as Error).message}`);
      await services.close();
      logger.flush();
      await logWritten(logger);
      process.exit(1);
    }
    logger.info({ url: playground.url }, `playground ready: open ${playground.url} in a browser`);
    stopOnSignal(async (reason) => {
      logger.info({ reason }, 'shutting down the playground');
      await playground.close();
    });
  } else {
    // With DISCORD_REST_PROXY, REST goes through the shared proxy holding the one budget; interaction answers go straight to Discord.
    const proxyUrl = config.discordRestProxy;
    const client = createDiscordClient({
      apiUrl: config.discord.apiUrl,
      proxyUrl,
      budget: proxyUrl ? undefined : new DiscordRestBudget(undefined, undefined, metrics),
    });
    if (proxyUrl) logger.info({ proxy: proxyUrl }, 'Discord REST requests go through the REST proxy (interaction answers go straight to Discord)');
    if (cluster)
      runClusterShards(
        client,
        cluster,
        logger.child({ component: 'gateway' }),
        config.redisUrl ? (redisClientOf(services.cacheStore) as unknown as () => Promise<IdentifyRedis>) : undefined,
      );
    const settings = services.state.settings;
    /** The application's owner (a user id), read at READY. */
    let owner: string | undefined;
    const feedLogger = logger.child({ component: 'feeds' });
    // Without Redis, only one process of a machine polls: the one process, or its first cluster.
    const leadership = config.redisUrl ? new RedisLeadership(redisClientOf(services.cacheStore)) : !cluster || cluster.first ? SOLE_LEADER : NEVER_LEADER;
    // A backfill asked with /config feed starts a poll at once, here and in the leader (with Redis).
    // eslint-disable-next-line prefer-const -- assigned below, after onPollNow closes over it
    let pollSignal: PollSignal | undefined;
    const { context, poller, meta, balanceIndexer, mains, tracker, verifier, moments, rankRoles } = createBackground({
      api: services.api,
      state: services.state,
      cacheStore: services.cacheStore,
      channels: discordChannelAccess(client),
      charts: services.charts,
      transport: discordFeedTransport(client.rest, () => client.user?.id),
      roles: discordRoleTransport(client.rest, () => client.user?.id),
      logger,
      requestsPerMinute: config.rivals.requestsPerMinute,
      feedPollSeconds: config.feedPollSeconds,
      leadership,
      // For feed posts of servers that chose no language with /config language.
      preferredLocale: (guildId) => client.guilds.cache.get(guildId)?.preferredLocale,
      metrics,
      onPollNow: () => pollSignal?.publish(),
      tracking: config.tracking,
      trackingWait: () => services.limiter.trackingWait(),
      runtime: {
        shard: (guildId) => shardServing(client, guildId),
        reportTo: () => (config.supportUrl ? { url: config.supportUrl } : owner ? { ownerId: owner } : {}),
      },
    });
    // Read now, not with the hourly jobs: a /meta right after a restart is answered from the saved snapshot.
    void meta.restore();
    const router = new Router(commands);
    const runtime = new DiscordRuntime(client, {
      router,
      context,
      logger: logger.child({ component: 'discord' }),
      budgetMs: config.interactionBudgetMs,
      metrics,
      apiUrl: config.discord.apiUrl,
    });
    // A port that cannot be used stops the process (exit 1), as bad configuration does.
    const { startOps } = prometheus ? await import('./app/ops/index.js') : { startOps: undefined };
    const metricsPort = config.metricsPort === undefined || config.metricsPort === 0 ? config.metricsPort : config.metricsPort + (cluster?.clusterId ?? 0);
    const ops = await startOps?.({ config: { ...config, metricsPort }, client, services, logger, metrics: prometheus }).catch(async (err: unknown) => {
      logger.debug({ err }, 'the metrics server start error');
      logger.fatal((err as Error).message);
      await policy.terminate(1, 'METRICS_PORT unusable');
      throw err;
    });
    const stopSettingsSync = config.redisUrl
      ? await syncSettingsOverRedis(redisClientOf(services.cacheStore), settings, logger.child({ component: 'settings-sync' })).catch((err: unknown) => {
          logger.warn({ err }, 'settings sync over Redis is off: other processes see changes within 30 s');
          return async () => undefined;
        })
      : async () => undefined;
    pollSignal = config.redisUrl
      ? await pollSignalOverRedis(redisClientOf(services.cacheStore), () => void poller.pollNow(), feedLogger).catch((err: unknown) => {
          logger.warn({ err }, 'poll signal over Redis is off: a backfill asked on another process waits for the next poll');
          return undefined;
        })
      : undefined;
    // docs/operations.md, "The dashboard": beside the bot in a single-process install; a sharded one runs `npm run web`.
    let dashboard: Dashboard | undefined;
    const webOff = webProblem(config);
    if (webOff && !cluster) logger.info(webOff);
    else if (!cluster) {
      const webLogger = logger.child({ component: 'web' });
      const { startDashboard, discordDashboardParts, dashboardCommands } = await import('./web/start.js');
      dashboard = await startDashboard({
        config,
        logger: webLogger,
        ...discordDashboardParts(config, webLogger),
        ...dashboardCommands(router, context, services.state, webLogger)!,
      }).catch((err: unknown) => {
        // The bot goes on without it: members' commands matter more than the admins' pages.
        webLogger.debug({ err }, 'the dashboard start error');
        webLogger.error(`the dashboard could not start: ${(err as Error).message} (set WEB_PORT to a free port)`);
        return undefined;
      });
    }
    let hourlyJobs: NodeJS.Timeout | undefined;
    let firstPoll: NodeJS.Timeout | undefined;
    let emojiRefresh: NodeJS.Timeout | undefined;
    client.once('clientReady', (c) => {
      logger.info({ user: c.user.tag, guilds: c.guilds.cache.size }, 'logged in to Discord');
      // Whom /status names when SUPPORT_URL is unset: the application's owner, or its team's.
      if (!config.supportUrl)
        c.application.fetch().then(
          (app) => (owner = app.owner && 'ownerId' in app.owner ? (app.owner.ownerId ?? undefined) : app.owner?.id),
          (err: unknown) => logger.debug({ err }, 'could not read the application owner, for /status'),
        );
      firstPoll = setTimeout(
        () => {
          poller.start();
          moments.start();
          rankRoles?.start();
          // The schedule is shared through the database; without Redis the rate is per process, so one process of a machine tracks.
          if (config.redisUrl || leadership !== NEVER_LEADER) {
            tracker.start();
            verifier.start();
          }
        },
        Math.min(FIRST_FEED_POLL_DELAY_MS, config.feedPollSeconds * 1000),
      );
      firstPoll.unref();
      logger.info(
        { invite: inviteUrl(c.application.id), userInstall: userInstallUrl(c.application.id) },
        'add the bot to a server with the invite link (it asks for the permissions the features need), or the game commands to your own account with the userInstall link',
      );
      const scope = config.discord.devGuildId ? `the dev guild ${config.discord.devGuildId}` : 'globally';
      fetchCommandIds(client.rest, c.application.id, config.discord.devGuildId).then(
        (ids) => {
          setCommandIds(ids);
          if (ids.size === 0) logger.warn({ scope }, `no slash command is registered ${scope}: run \`npm run deploy\` once to register them`);
          else logger.info({ commands: ids.size, scope }, `slash commands registered ${scope}`);
        },
        (err: unknown) => logger.warn({ err }, 'could not read the registered commands: messages name commands without mentions'),
      );
      // Read again now and then, so a deploy's new emojis show without a restart; a failed read keeps the last ones.
      const readEmojis = () =>
        loadAppEmojis(client.rest, c.application.id).then(
          (n) => {
            if (n === 0) logger.warn('no application emojis: run `npm run deploy` to upload them; answers name tiers, roles and heroes as text');
            else logger.info({ emojis: n }, 'application emojis read');
          },
          (err: unknown) => logger.warn({ err }, 'could not read the application emojis: answers name tiers, roles and heroes as text'),
        );
      void readEmojis();
      emojiRefresh = setInterval(() => void readEmojis(), EMOJI_REFRESH_MS);
      emojiRefresh.unref();
      hourlyJobs = setTimeout(() => {
        // /meta is per process; the balance index and mains live in the shared store, so one process keeps each per hour.
        meta.start();
        const turn = (name: string): (() => Promise<boolean>) => {
          if (!config.redisUrl) return () => leadership.isLeader();
          const turns = new RedisJobTurns(redisClientOf(services.cacheStore), name, JOB_TURN_MS);
          return () => turns.take();
        };
        balanceIndexer.start(undefined, turn('balance-index'));
        mains.start(undefined, turn('mains-refresh'));
      }, HOURLY_JOBS_DELAY_MS);
      hourlyJobs.unref();
    });
    // A close Discord documents as not reconnectable stops the process (exit 78).
    watchGateway(client, { logger: logger.child({ component: 'gateway' }), policy });
    stopOnSignal(async (reason) => {
      logger.info({ reason, inflight: runtime.inflight }, 'shutting down: finishing replies in flight');
      // No new interactions first; the poll ends after sends on the wire (the rest stays pending for the next leader).
      runtime.stopTaking();
      clearTimeout(hourlyJobs);
      clearTimeout(firstPoll);
      clearInterval(emojiRefresh);
      // Timed at debug: a shutdown that outlasts its limit names the step that held it.
      const step = async (name: string, work: () => unknown) => {
        const started = performance.now();
        await work();
        logger.debug({ step: name, ms: Math.round(performance.now() - started) }, 'shutdown step done');
      };
      await step('feed poller', () => poller.stop());
      await step('hero meta', () => meta.stop());
      await step('balance indexer', () => balanceIndexer.stop());
      await step('mains refresh', () => mains.stop());
      await step('tracker', () => tracker.stop());
      await step('ladder moments', () => moments.stop());
      await step('rank roles', async () => rankRoles?.stop());
      await step('link verifier', () => verifier.stop());
      await step('feed leadership', () => leadership.release().catch(() => undefined));
      await step('settings sync', () => stopSettingsSync());
      await step('poll signal', () => pollSignal?.stop());
      await step('interactions in flight', () => runtime.shutdown());
      await step('metrics server', () => ops?.close());
      await step('dashboard', () => dashboard?.close());
    });
    try {
      await client.login(config.discord.token);
    } catch (err) {
      // A fatal close during login (4004 on the first IDENTIFY) has its own line and is already stopping the process.
      if (!policy.terminating) {
        // A refused token must be fixed before a restart helps (78); anything else may pass, and a cluster manager restarts on 1.
        const failure = loginFailure(err, new URL(config.discord.apiUrl).host);
        // One line of advice; the stack only at debug.
        logger.debug({ err }, 'the login error');
        logger.fatal(failure.message);
        await policy.terminate(failure.refused ? EXIT_GATEWAY_REFUSED : 1, 'login failed');
      }
    }
  }
}
