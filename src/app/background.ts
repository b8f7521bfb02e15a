/** The command context and its background work (feeds, meta, balance indexer, mains), wired once for Discord and the playground alike. */
import type { Keyv } from 'keyv';
import type { RivalsApi } from '../api/client.js';
import type { ChartRenderer } from '../charts/renderer.js';
import type { Logger } from '../core/logger.js';
import type { Metrics } from '../core/metrics.js';
import type { BotStatusSource } from '../catalog/bot-status.js';
import type { ChannelAccess, CommandContext } from '../discord/command.js';
import { MainsRefresher } from '../feeds/alerts.js';
import { CorrectionEditor } from '../feeds/corrections.js';
import { LadderMoments } from '../ladder/moments.js';
import { RankRoleSync, type RankRoleSyncOptions, type RoleTransport } from '../ladder/rank-roles.js';
import { DeliveryLedger, type FeedTransport } from '../feeds/delivery.js';
import type { Leadership } from '../feeds/leadership.js';
import { FeedPoller } from '../feeds/poller.js';
import { createFeedTester } from '../feeds/test-post.js';
import { BalanceIndexer } from '../jobs/balance-indexer.js';
import { HeroMeta } from '../jobs/hero-meta.js';
import { LinkVerifier } from '../jobs/link-verifier.js';
import { DEFAULT_MATCH_SHARE, Tracker } from '../jobs/tracker.js';
import type { State } from '../store/state.js';
import { createCommandContext } from './services.js';

export interface BackgroundOptions {
  api: RivalsApi;
  state: State;
  cacheStore: Keyv;
  /** Discord's permissions, or the playground's channels. */
  channels: ChannelAccess;
  charts?: ChartRenderer;
  /** Where feed posts, corrections and alerts go. */
  transport: FeedTransport;
  /** Discord's role routes, for rank roles; absent (the playground): rank roles are configured but never synced. */
  roles?: RoleTransport;
  /** The rank roles' clock (failures and their back-off) and a member's request's deadline; default `Date.now` and ROLE_CALL_DEADLINE_MS. */
  rankRoleSync?: Pick<RankRoleSyncOptions, 'now' | 'callDeadlineMs'>;
  logger: Logger;
  /** Default `feeds`. */
  feedComponent?: string;
  /** `RIVALS_API_RPM`, for the meta's progress. */
  requestsPerMinute: number;
  feedPollSeconds: number;
  leadership: Leadership;
  /** A guild's Discord language, for servers that chose none with /config language. */
  preferredLocale: (guildId: string) => string | undefined;
  /** Ms since the epoch (src/feeds/clock.ts); default `Date.now`. */
  feedNow?: () => number;
  metrics?: Metrics;
  /** Called on each poll asked at once (a /config feed backfill), after this process's own. */
  onPollNow?: () => void;
  /**
   * The shortest and longest interval between two reads of a tracked player, ms (`TRACKING_*_INTERVAL_SECONDS`), and the part
   * of reads for match details (`TRACKING_MATCH_SHARE`, 0–1; default {@link DEFAULT_MATCH_SHARE}).
   */
  tracking: { minIntervalMs: number; maxIntervalMs: number; matchShare?: number };
  /** When a tracking read may start (the rate limiter's `trackingWait`, ms); default at once. */
  trackingWait?: () => number;
  /** The runtime's part of /status: the shard serving a server and where to report a problem; default no gateway and nobody. */
  runtime?: Pick<BotStatusSource, 'shard' | 'reportTo'>;
}

export interface Background {
  context: Omit<CommandContext, 'logger'>;
  poller: FeedPoller;
  meta: HeroMeta;
  balanceIndexer: BalanceIndexer;
  mains: MainsRefresher;
  tracker: Tracker;
  verifier: LinkVerifier;
  /** Posts servers' ladder moments. */
  moments: LadderMoments;
  /** Keeps servers' rank roles in step; absent without {@link BackgroundOptions.roles}. */
  rankRoles?: RankRoleSync;
}

/** Wires the context and its background work; starts nothing. */
export function createBackground(o: BackgroundOptions): Background {
  const { api, state } = o;
  const feedLogger = o.logger.child({ component: o.feedComponent ?? 'feeds' });
  // The poller is made below, before any interaction can ask for a poll.
  const pollNow = () => {
    void poller.pollNow();
    o.onPollNow?.();
  };
  const base = createCommandContext(api, state, o.cacheStore, o.channels, Date.now, createFeedTester(api, state.settings, o.transport, pollNow), o.charts);
  const meta = new HeroMeta({
    api,
    heroes: base.heroes,
    logger: o.logger.child({ component: 'meta' }),
    requestsPerMinute: o.requestsPerMinute,
    store: state.heroMeta,
  });
  const balanceIndexer = new BalanceIndexer({
    api,
    heroes: base.heroes,
    history: state.balanceHistory,
    logger: o.logger.child({ component: 'balance-history' }),
  });
  const mains = new MainsRefresher({ api, links: state.links, alerts: state.alerts, logger: o.logger.child({ component: 'alerts' }) });
  const ledger = new DeliveryLedger(state.database.db, o.transport, feedLogger, o.feedNow, o.metrics);
  const poller: FeedPoller = new FeedPoller({
    api,
    db: state.database.db,
    feedState: state.feedState,
    settings: state.settings,
    ledger,
    feedPosts: state.feedPosts,
    digests: state.feedDigests,
    alerts: state.alerts,
    // Members' own languages, for their direct-message alerts.
    links: state.links,
    editor: new CorrectionEditor(state.database.db, o.transport, feedLogger, o.feedNow),
    heroes: base.heroes,
    preferredLocale: o.preferredLocale,
    leadership: o.leadership,
    logger: feedLogger,
    intervalSeconds: o.feedPollSeconds,
    ...(o.feedNow ? { now: o.feedNow } : {}),
    ...(o.metrics ? { metrics: o.metrics } : {}),
  });
  const tracker = new Tracker({
    api,
    tracking: state.tracking,
    spare: o.trackingWait ?? (() => 0),
    logger: o.logger.child({ component: 'tracking' }),
    minMs: o.tracking.minIntervalMs,
    maxMs: o.tracking.maxIntervalMs,
    matches: { api, fetches: state.matchFetches, store: state.matches, share: o.tracking.matchShare ?? DEFAULT_MATCH_SHARE },
    ladder: {
      standings: state.ladder,
      roleOf: async () => {
        const roles = new Map((await base.heroes.list()).map((h) => [h.id, h.role]));
        return (heroId) => (heroId === null ? null : (roles.get(heroId) ?? null));
      },
    },
  });
  const context = {
    ...base,
    meta,
    balance: { history: state.balanceHistory, indexer: balanceIndexer },
    alerts: { members: state.alerts, mains },
    tracking: state.tracking,
    memberData: state.memberData,
    verifications: state.verifications,
    ladder: state.ladder,
    serverMatches: state.serverMatches,
    audit: state.audit,
    rankRoles: { store: state.rankRoles, ...(o.roles ? { discord: o.roles } : {}) },
    status: {
      startedAt: Date.now(),
      shard: o.runtime?.shard ?? (() => null),
      reportTo: o.runtime?.reportTo ?? (() => ({})),
      lastFeedRead: () => state.feedState.lastReadAt(),
      lastTrackingRead: () => state.tracking.lastReadAt(),
    },
  };
  const verifier = new LinkVerifier({ api, verifications: state.verifications, logger: o.logger.child({ component: 'verification' }) });
  // Any process may send them: the ledger delivers each once.
  const moments = new LadderMoments({
    ladder: state.ladder,
    settings: state.settings,
    ledger,
    preferredLocale: o.preferredLocale,
    heroNames: () => base.heroes.displayNames(),
    logger: o.logger.child({ component: 'ladder' }),
    // The feeds' clock: the weekly recap keeps to the same time as the digests.
    ...(o.feedNow ? { now: o.feedNow } : {}),
  });
  // Any process may run it: a lease per server lets one change its roles at a time.
  const rankRoles = o.roles
    ? new RankRoleSync({ roles: state.rankRoles, transport: o.roles, logger: o.logger.child({ component: 'rank-roles' }), ...o.rankRoleSync })
    : undefined;
  return { context, poller, meta, balanceIndexer, mains, tracker, verifier, moments, ...(rankRoles ? { rankRoles } : {}) };
}
