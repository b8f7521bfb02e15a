/** The contract between the runtime and the commands: a module is its definition plus handlers that return Views (STYLE.md principles 1, 3). */
import type { MainsRefresher } from '../feeds/alerts.js';
import type { MemberDataRepository } from '../store/member-data.js';
import type { MatchStoreRepository } from '../store/matches.js';
import type { ServerMatchesRepository } from '../store/server-matches.js';
import type { TrackingRepository } from '../store/tracking.js';
import type { LadderRepository } from '../store/ladder/index.js';
import type { RankRolesRepository } from '../store/rank-roles.js';
import type { RoleTransport } from '../ladder/rank-roles.js';
import type { VerificationsRepository } from '../store/verifications.js';
import type { AlertsRepository } from '../store/alerts.js';
import type { FeedPostsRepository } from '../store/feed-posts.js';
import type { ConfigAuditRepository } from '../store/config-audit.js';
import { SlashCommandBuilder } from '@discordjs/builders';
import { ApplicationIntegrationType, InteractionContextType } from 'discord-api-types/v10';
import { describe } from '../i18n/commands.js';
import type {
  APIApplicationCommandOptionChoice,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import type { RivalsApi } from '../api/client.js';
import type { HeroDirectory } from '../catalog/hero-directory.js';
import type { InteractionBudget } from '../core/deadline.js';
import type { Locale } from '../i18n/index.js';
import type { Logger } from '../core/logger.js';
import type { MapDirectory } from '../catalog/map-directory.js';
import type { View } from '../render/view.js';
import type { AccountLinksRepository } from '../store/account-links.js';
import type { GuildSettingsRepository } from '../store/guild-settings.js';
import type { RecentLookups } from '../store/recent-lookups.js';
import type { BackTargets } from '../store/back-targets.js';
import type { FeedTester } from '../feeds/test-post.js';
import type { ChartRenderer } from '../charts/renderer.js';
import type { HeroMeta } from '../jobs/hero-meta.js';
import type { BalanceHistoryRepository } from '../store/balance-history.js';
import type { BalanceIndexer } from '../jobs/balance-indexer.js';
import type { BotStatusSource } from '../catalog/bot-status.js';

/** Who asked, and where. */
export interface Invoker {
  userId: string;
  guildId?: string | null;
  /** Discord locale of the member's client, e.g. `en-US` (interaction `locale`). */
  locale?: string;
  /** Discord locale of the server, its community language (interaction `guild_locale`); absent in DMs. */
  guildLocale?: string;
  /** The member's permissions in the channel, as Discord's bitfield text (interaction `member.permissions`). */
  permissions?: string;
  /**
   * Whether the bot's server install brought this interaction (Discord: `authorizing_integration_owners` holds this
   * server under the guild-install key, "0"). False when only the member's own install did: the server never added
   * the bot and has no settings of its own. Absent (a payload without the field): assumed when there is a `guildId`.
   */
  serverInstall?: boolean;
}

/** The server whose settings apply to `user`'s interaction: its server when the bot is installed there, else null (a DM, or the member's own install alone). */
export function settingsServer(user: Invoker): string | null {
  return user.guildId && user.serverInstall !== false ? user.guildId : null;
}

/** What the bot may do in a channel (Discord: channel permission overwrites resolved for the bot's member). */
export interface ChannelCheck {
  exists: boolean;
  /** An announcement channel, whose posts can be published (crossposted). */
  announcement: boolean;
  /** Names of the permissions the bot lacks to post embeds there (View Channel, Send Messages, Embed Links); [] when none. */
  missing: string[];
  /** Names of what the bot lacks to post a feed's full text in threads (Create Public Threads, Send Messages in Threads); absent or [] when none. */
  missingForThreads?: string[];
}

/** Read access to Discord's view of channels, provided by the runtime (a fake in the CLI and tests). */
export interface ChannelAccess {
  check(guildId: string, channelId: string): Promise<ChannelCheck>;
}

/** What one interaction reads at most once, shared by the runtime's responder and the router (built by `Router.once`). */
export interface InteractionOnce {
  /** The language of the answers: the member's choice, their client's, their server's. */
  locale(): Promise<Locale>;
  prefersPrivate(): Promise<boolean>;
}

/** Dependencies every handler receives, built once in the composition root; `logger` is per interaction. */
export interface CommandContext {
  api: RivalsApi;
  heroes: HeroDirectory;
  /** Every map once, with labels that tell apart maps sharing a name (src/catalog/map-directory.ts). */
  maps: MapDirectory;
  links: AccountLinksRepository;
  settings: GuildSettingsRepository;
  recent: RecentLookups;
  /** Back buttons kept under short keys for the IDs they do not fit in (src/store/back-targets.ts). */
  backTargets: BackTargets;
  channels: ChannelAccess;
  /** Test posts to feed channels; absent without Discord (the CLI). */
  feedTester?: FeedTester;
  /** Draws charts off the event loop (src/charts/renderer.ts); absent: answers have no charts. */
  charts?: ChartRenderer;
  /** The hero meta, gathered in the background (src/game/meta.ts), for /meta; absent: /meta says it is unavailable. */
  meta?: HeroMeta;
  /** Each hero's balance history (src/store/balance-history.ts) and its indexer (src/jobs/balance-indexer.ts), for /hero; absent: said unavailable. */
  balance?: { history: BalanceHistoryRepository; indexer?: BalanceIndexer };
  /** Members' hero alerts and the reader of their mains (src/feeds/alerts.ts), for /alerts; absent: /alerts says it is unavailable. */
  alerts?: { members: AlertsRepository; mains: MainsRefresher };
  /** Tracked players (src/store/tracking.ts): linking starts tracking, /player shows the recorded timeline, /match by id a match's map, /config status the backlog; absent: none. */
  /** The match store (src/store/matches.ts): a match read before answers with no API request; absent (the CLI), the API alone. */
  matches?: Pick<MatchStoreRepository, 'get' | 'put'>;
  tracking?: Pick<TrackingRepository, 'follow' | 'syncUids' | 'backlog' | 'timeline' | 'setTracking' | 'seasonScores' | 'latestMatches' | 'recordsOfMatch'>;
  /** Everything stored about a member (src/store/member-data.ts), for /privacy; absent: /privacy cannot answer. */
  memberData?: Pick<MemberDataRepository, 'collect' | 'erase' | 'truncateLog'>;
  /** Proofs of account ownership (src/store/verifications.ts), for /link's "Prove this account is yours"; absent: not offered. */
  verifications?: VerificationsRepository;
  /** The feeds' posts as last read (src/store/feed-posts.ts), for the titles /config status names; absent: posts are named by id. */
  feedPosts?: Pick<FeedPostsRepository, 'posts'>;
  /** Servers' ladders (src/store/ladder/), for /ladder and /config ladder; absent: /ladder says it is unavailable. */
  ladder?: LadderRepository;
  /** What a server's members' recorded matches say (src/store/server-matches.ts), for `/meta scope:server` and `/ladder duos`; absent: said unavailable. */
  serverMatches?: Pick<ServerMatchesRepository, 'heroCounts' | 'metCounts' | 'storedCounts' | 'members' | 'pairCounts' | 'resultCounts'>;
  /**
   * Servers' rank roles (src/store/rank-roles.ts) and the server's roles as Discord has them (src/ladder/discord-roles.ts),
   * for /config rank-roles and /config status; `discord` absent without Discord (the playground): the roles are not checked.
   */
  rankRoles?: { store: RankRolesRepository; discord?: Pick<RoleTransport, 'guildRoles'> };
  /** The audit log of servers' settings (src/store/config-audit.ts), which /config writes; absent: changes are not logged. */
  audit?: Pick<ConfigAuditRepository, 'record' | 'list'>;
  /** The bot's own state, for /status; absent: /status tells only what the API client knows. */
  status?: BotStatusSource;
  logger: Logger;
  now: () => number;
  /** The interaction's time budget from its creation (src/core/deadline.ts); absent outside an interaction (feeds, the CLI). */
  budget?: InteractionBudget;
  /** The interaction's language and private default, read once (absent: the router reads them itself, as the CLI needs). */
  once?: InteractionOnce;
}

/** Parsed options of a slash command (option name -> value), with its subcommand if any. */
export interface CommandInput {
  subcommand?: string;
  options: Record<string, string | number | boolean | undefined>;
  user: Invoker;
  /** For a user context-menu command: the member it was used on. */
  targetUserId?: string;
  /** Where it was run from when not from Discord's client: `dashboard`, a form of the web dashboard (src/web/). */
  via?: 'dashboard';
  /** For a user context-menu command: that member's username (their id when the payload does not resolve them). */
  targetName?: string;
}

/** A button press or select-menu choice, with its custom ID decoded. */
export interface ComponentInput {
  customId: string;
  route: string;
  args: string[];
  /** Chosen values of a select menu; empty for a button. */
  values: string[];
  user: Invoker;
  /** Who ran the command the message answers (Discord: message.interaction_metadata.user). */
  invokerId?: string;
}

/** The option being typed in an autocomplete interaction. */
export interface AutocompleteInput {
  subcommand?: string;
  focused: { name: string; value: string };
  options: Record<string, string | number | boolean | undefined>;
  user: Invoker;
}

export type ComponentHandler = (input: ComponentInput, ctx: CommandContext) => Promise<View>;

/** One slash command: definition (registration payload) and handlers. */
export interface CommandModule {
  /** Discord: "Create Global Application Command" JSON body (a slash command or a user context-menu command). */
  definition: RESTPostAPIChatInputApplicationCommandsJSONBody | RESTPostAPIContextMenuApplicationCommandsJSONBody;
  execute(input: CommandInput, ctx: CommandContext): Promise<View>;
  /** True when its answers may carry charts or cards: the drawing thread is started as it runs (src/charts/renderer.ts `warm`). */
  draws?: boolean;
  /** Component handlers by custom-ID route; routes are global, so prefix them with the command name. */
  components?: Record<string, ComponentHandler>;
  autocomplete?(input: AutocompleteInput, ctx: CommandContext): Promise<APIApplicationCommandOptionChoice[]>;
  /**
   * The option (its registered name) through which members give an API argument this command or its components send,
   * keyed by the argument (`ApiArgumentError.argument`: `season`, `match_uid`) or else by the endpoint taking it
   * (`player`, `heroLeaderboard`): a refused argument is then named as the member's client names the option.
   */
  apiOptions?: Readonly<Record<string, string>>;
}

/**
 * Where an answer about the game works: installed in a server or by the member themselves, in a server, the bot's DM or
 * a private channel (Discord: "Application Commands", Installation Context and Interaction Contexts).
 */
export const EVERYWHERE = {
  integrationTypes: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
  contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
} as const;

/** Where a server's own command works: installed in the server, used in it. */
export const SERVER_ONLY = {
  integrationTypes: [ApplicationIntegrationType.GuildInstall],
  contexts: [InteractionContextType.Guild],
} as const;

/** Where a command works: the installs it is offered through, and the places it is used in. */
export interface CommandPlace {
  integrationTypes: readonly ApplicationIntegrationType[];
  contexts: readonly InteractionContextType[];
}

/**
 * A slash command's builder, headed: its name, its English description from src/i18n/locales/en/commands/<name>.json (the
 * other languages are added at registration), and where it works ({@link EVERYWHERE} unless said). Discord: "Application
 * Commands", Installation Context and Interaction Contexts. @throws Error when the locale file has no description for it.
 */
export function slashCommand(name: string, where: CommandPlace = EVERYWHERE): SlashCommandBuilder {
  return new SlashCommandBuilder()
    .setName(name)
    .setDescription(describe(name))
    .setIntegrationTypes(...where.integrationTypes)
    .setContexts(...where.contexts);
}
