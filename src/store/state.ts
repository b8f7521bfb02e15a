/**
 * Durable state, opened once by the composition root: the database (src/store/database.ts) and the
 * repositories over it.
 */
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

/** The repositories over one open database. */
export interface State {
  database: Database;
  settings: GuildSettingsRepository;
  links: AccountLinksRepository;
  feedState: FeedStateRepository;
  /** Each feed post's content hash and revision, for corrections in place (src/feeds/corrections.ts). */
  feedPosts: FeedPostsRepository;
  /** Posts waiting for each channel's next digest (src/feeds/digest.ts). */
  feedDigests: FeedDigestsRepository;
  /** Members' hero alerts and their mains (src/feeds/alerts.ts). */
  alerts: AlertsRepository;
  /** Each hero's balance history (src/jobs/balance-indexer.ts writes it, /hero reads it). */
  balanceHistory: BalanceHistoryRepository;
  /** The latest hero meta gathered, served at once after a restart (src/game/meta.ts writes it, /meta reads it). */
  heroMeta: HeroMetaRepository;
  close(): Promise<void>;
}

/** Builds the repositories over an open database. */
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
    close: () => database.close(),
  };
}

export interface OpenStateOptions extends DatabaseOptions {
  logger: Logger;
  settings?: GuildSettingsOptions;
}

/**
 * Opens the database, runs its migrations, and builds the repositories.
 * @throws {StoreOpenError} when the store cannot be opened (see {@link openDatabase}).
 */
export async function openState(options: OpenStateOptions): Promise<State> {
  const database = await openDatabase({
    ...options,
    onIdleError: options.onIdleError ?? ((err) => options.logger.warn({ err }, 'a database connection was lost')),
  });
  return stateOf(database, options.settings);
}
