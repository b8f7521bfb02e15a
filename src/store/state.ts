/** Durable state, opened once by the composition root: the database and the repositories over it. */
import type { Logger } from '../core/logger.js';
import { AccountLinksRepository } from './account-links.js';
import { BalanceHistoryRepository } from './balance-history.js';
import { openDatabase, type Database, type DatabaseOptions } from './database.js';
import { AlertsRepository } from './alerts.js';
import { FeedDigestsRepository } from './feed-digests.js';
import { FeedPostsRepository } from './feed-posts.js';
import { FeedStateRepository } from './feed-state.js';
import { GuildSettingsRepository, type GuildSettingsOptions } from './guild-settings.js';
import { HeroMetaRepository } from './hero-meta.js';
import { LadderRepository } from './ladder/index.js';
import { MatchFetchRepository } from './match-fetches.js';
import { MatchStoreRepository } from './matches.js';
import { ServerMatchesRepository } from './server-matches.js';
import { ConfigAuditRepository } from './config-audit.js';
import { PublicPagesRepository } from './public-pages.js';
import { MemberDataRepository } from './member-data.js';
import { RankRolesRepository } from './rank-roles.js';
import { TrackingRepository } from './tracking.js';
import { VerificationsRepository } from './verifications.js';

export interface State {
  database: Database;
  settings: GuildSettingsRepository;
  links: AccountLinksRepository;
  feedState: FeedStateRepository;
  feedPosts: FeedPostsRepository;
  feedDigests: FeedDigestsRepository;
  alerts: AlertsRepository;
  balanceHistory: BalanceHistoryRepository;
  heroMeta: HeroMetaRepository;
  tracking: TrackingRepository;
  memberData: MemberDataRepository;
  verifications: VerificationsRepository;
  ladder: LadderRepository;
  rankRoles: RankRolesRepository;
  matches: MatchStoreRepository;
  matchFetches: MatchFetchRepository;
  serverMatches: ServerMatchesRepository;
  /** Who changed a server's settings, from /config or the dashboard. */
  audit: ConfigAuditRepository;
  /** Servers' public pages, which the dashboard publishes. */
  publicPages: PublicPagesRepository;
  close(): Promise<void>;
}

export function stateOf(database: Database, settings: GuildSettingsOptions = {}): State {
  return {
    database,
    settings: new GuildSettingsRepository(database.db, settings),
    links: new AccountLinksRepository(database.db),
    feedState: new FeedStateRepository(database.db),
    feedPosts: new FeedPostsRepository(database.db),
    feedDigests: new FeedDigestsRepository(database.db),
    alerts: new AlertsRepository(database.db),
    balanceHistory: new BalanceHistoryRepository(database.db),
    heroMeta: new HeroMetaRepository(database.db),
    tracking: new TrackingRepository(database.db, database.engine),
    memberData: new MemberDataRepository(database.db, database.engine),
    verifications: new VerificationsRepository(database.db),
    ladder: new LadderRepository(database.db),
    rankRoles: new RankRolesRepository(database.db),
    matches: new MatchStoreRepository(database.db),
    matchFetches: new MatchFetchRepository(database.db, database.engine),
    serverMatches: new ServerMatchesRepository(database.db),
    audit: new ConfigAuditRepository(database.db),
    publicPages: new PublicPagesRepository(database.db),
    close: () => database.close(),
  };
}

export interface OpenStateOptions extends DatabaseOptions {
  logger: Logger;
  settings?: GuildSettingsOptions;
}

/**
 * Runs the migrations too.
 * @throws {StoreOpenError} when the store cannot be opened (see {@link openDatabase}).
 */
export async function openState(options: OpenStateOptions): Promise<State> {
  const database = await openDatabase({
    ...options,
    onIdleError: options.onIdleError ?? ((err) => options.logger.warn({ err }, 'a database connection was lost')),
  });
  return stateOf(database, options.settings);
}
