/** The playground over the API services: the same Router, context, feed poller and ledger as the bot, with its own channels. */
import { commands as defaultCommands } from '../../commands/index.js';
import { ApiError } from '../core/api-errors.js';
import type { CommandModule } from '../discord/command.js';
import { registrationPayload } from '../discord/deploy.js';
import { Router } from '../discord/router.js';
import { SOLE_LEADER } from '../feeds/leadership.js';
import type { Config } from '../app/config.js';
import type { Logger } from '../core/logger.js';
import type { ApiServices } from '../app/services.js';
import type { FeedPoller } from '../feeds/poller.js';
import { ladderSeats, seedLadder } from './seed-ladder.js';
import { duoSeats, seedDuos } from './seed-duos.js';
import { addTeammateProfile } from '../replica/data/teammates.js';
import { seedTracking } from './seed-tracking.js';
import { seedKnownPlayers } from './seed-players.js';
import type { State } from '../store/state.js';
import { createBackground } from '../app/background.js';
import { openState } from '../store/state.js';
import { buildPageAssets } from './bundle.js';
import { playgroundChannelAccess, playgroundFeedTransport } from './channels.js';
import type { Definition } from './command-line.js';
import { BOT, CHANNELS, dmChannelOf, DM_TOPIC, GUILD, LANGUAGES, PlaygroundGuild, PlaygroundLocales } from './guild.js';
import { BackgroundJob } from '../core/background-job.js';
import { ROLES_EVERY_MS } from '../ladder/rank-roles.js';
import { playgroundGame } from './game.js';
import { coalesced, playgroundRoleTransport } from './roles.js';
import { replicaSamples } from './samples.js';
import { ImageProxy } from './images.js';
import { PlaygroundInteractions } from './interactions.js';
import { MessageStore } from './messages.js';
import type { EditablePost, NewPost, PostEdit, PostFeed } from './protocol.js';
import { startPlaygroundServer } from './server.js';
import { dashboardCommands, startDashboard } from '../web/start.js';
import { pretendSignIn } from '../web/sign-in.js';
import { playgroundDirectory, playgroundIdentity } from './dashboard.js';

export interface PlaygroundOptions {
  config: Config;
  services: ApiServices;
  logger: Logger;
  /** Loopback address; default 127.0.0.1. */
  host?: string;
  /** Default `config.port`; 0 picks a free port. */
  port?: number;
  /** Overrides the acknowledgement deadline (tests). */
  ackDeadlineMs?: number;
  /** Overrides FEED_POLL_SECONDS. */
  feedPollSeconds?: number;
  /** Default: commands/index.ts. */
  commands?: CommandModule[];
  /** The dashboard's port: default `WEB_PORT`, or any free port when the playground's is (0); null: no dashboard. */
  dashboardPort?: number | null;
}

/** Tracked players read at most after an interaction, before the rank roles are brought in step. */
const CATCH_UP_READS = 10;

/** Under DATA_DIR, never the bot's store: its feed records list the replica's posts, so a real run sharing it would post the backlog. */
export const PLAYGROUND_STATE_FILE = 'playground.sqlite';

export interface Playground {
  url: string;
  /** The playground's dashboard; absent when it did not start. */
  dashboardUrl?: string;
  messages: MessageStore;
  interactions: PlaygroundInteractions;
  poller: FeedPoller;
  locales: PlaygroundLocales;
  /** The pretend server's members and the roles they hold. */
  guild: PlaygroundGuild;
  /** Brings the server's rank roles in step now (tests; the playground also does after each interaction and every minute). */
  syncRoles(): Promise<void>;
  /** The playground's own store (tests read what it recorded). */
  state: State;
  /** Stops the poller, waits for answers in flight, closes the server and the playground's state (not the services). */
  close(): Promise<void>;
}

/** `YYYY/MM/DD`, as the API's posts write dates (spec: patch notes). */
const postDate = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '/');

/** A post as the replica stores it (the API's field names), read leniently. */
function asEditable(raw: Record<string, unknown>): EditablePost {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const date = text(raw.date).match(/^(\d{4})[/.-](\d{2})[/.-](\d{2})/);
  return {
    id: String(raw.id),
    title: text(raw.title),
    date: date ? `${date[1]}-${date[2]}-${date[3]}` : null,
    overview: text(raw.overview),
    fullContent: text(raw.fullContent),
  };
}

/** Starts the playground and its feed poller. @throws when the port is taken (EADDRINUSE) or the page does not build. */
export async function startPlayground(o: PlaygroundOptions): Promise<Playground> {
  const logger = o.logger.child({ component: 'playground' });
  const modules = o.commands ?? defaultCommands;
  const messages = new MessageStore();
  const transport = playgroundFeedTransport(messages);
  const state = await openState({ dataDir: o.config.dataDir, file: PLAYGROUND_STATE_FILE, logger });
  const replica = o.services.replica;
  const captured = replica ? ladderSeats(replica.dataset.profileCaptures) : [];
  const partners = replica ? duoSeats(replica.dataset, captured, o.config.rivals.imageBaseUrl) : [];
  // Members of the ladder, so members look them up: the replica serves the profile their recorded matches give.
  for (const p of partners) if (replica) addTeammateProfile(replica.dataset, p.uid);
  const seats = [...captured, ...partners];
  const guild = new PlaygroundGuild(seats);
  const locales = new PlaygroundLocales(guild);
  // The same wiring as on Discord (src/app/background.ts), over the playground's channels, messages and members.
  const { context, poller, meta, balanceIndexer, mains, tracker, verifier, moments, rankRoles } = createBackground({
    api: o.services.api,
    state,
    cacheStore: o.services.cacheStore,
    channels: playgroundChannelAccess(),
    charts: o.services.charts,
    transport,
    roles: playgroundRoleTransport(guild),
    logger,
    feedComponent: 'playground-feeds',
    requestsPerMinute: o.config.rivals.requestsPerMinute,
    feedPollSeconds: o.feedPollSeconds ?? o.config.feedPollSeconds,
    leadership: SOLE_LEADER,
    // As the bot reads the guild's `preferred_locale` from discord.js's cache.
    preferredLocale: (guildId) => (guildId === GUILD.id ? locales.guild : undefined),
    tracking: o.config.tracking,
    trackingWait: () => o.services.limiter.trackingWait(),
  });
  // One sync at a time, so that none finds the server's lease taken by another and skips its turn.
  const syncRoles = coalesced(async () => void (await rankRoles!.run()));
  const rolesJob = new BackgroundJob(syncRoles);
  let closing = false;
  let lastSync: Promise<void> = Promise.resolve();
  const router = new Router(modules);
  const interactions = new PlaygroundInteractions({
    router,
    context,
    messages,
    logger,
    ackDeadlineMs: o.ackDeadlineMs,
    budgetMs: o.config.interactionBudgetMs,
    locales,
    guild,
    // A command may have changed what members should hold (/link, /config rank-roles, /ladder join): the players it made
    // due are read and the roles brought in step at once, where the bot takes up to the tracker's next turn and a minute.
    afterInteraction: () => {
      if (!closing) lastSync = catchUp().catch((err: unknown) => logger.warn({ err }, 'rank roles: could not sync'));
    },
  });
  /** The tracker's due reads (a few), then the rank roles. */
  const catchUp = coalesced(async () => {
    for (let i = 0; i < CATCH_UP_READS && (await tracker.step()) > 0; i++);
    await tracker.settled();
    await syncRoles();
  });
  /** Reads `uid` at once, as the tracker would at its next turn (first in its queue), then brings the rank roles in step. */
  const readNow = async (uid: string) => {
    await state.database.db.updateTable('tracked_players').set({ next_read_at: 0, deadline_at: 0 }).where('uid', '=', uid).execute();
    await catchUp();
  };
  const game = replica ? playgroundGame({ replica, state, imageBaseUrl: o.config.rivals.imageBaseUrl, readNow }) : undefined;
  const addPost = replica
    ? async (post: NewPost): Promise<{ id: string }> => {
        const now = Date.now();
        const id = `playground-${now.toString(36)}`;
        const overview = post.overview || post.title;
        const res = await fetch(`${replica.url}/__replica/posts/${post.feed}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id, title: post.title, date: postDate(now), overview, fullContent: overview, imagePath: `/${post.feed}/${id}.jpg` }),
        });
        if (res.status !== 201) throw new Error(`the replica refused the post: ${res.status} ${await res.text()}`);
        logger.info({ feed: post.feed, id }, 'post added to the replica; polling now');
        await poller.pollNow();
        return { id };
      }
    : undefined;
  /** A feed's first page, read fresh through the API client from the replica's public endpoint. */
  const latestPosts = async (feed: PostFeed): Promise<EditablePost[]> => {
    const page = { page: 1, limit: 10 };
    const options = { fresh: true };
    const read = () =>
      feed === 'patchNotes'
        ? o.services.api.patchNotes(page, options)
        : feed === 'balances'
          ? o.services.api.balances(page, options)
          : o.services.api.devDiaries(page, options);
    // The API answers an empty feed's first page with a 404.
    const entries = await read().then(
      (r) => r.data.entries,
      (err: unknown) => {
        if (err instanceof ApiError && err.kind === 'not_found') return [];
        throw err;
      },
    );
    return entries.map((p) => ({ id: p.id, title: p.title ?? '', date: p.date, overview: p.overview ?? '', fullContent: p.full_content ?? '' }));
  };
  const listPosts = replica ? latestPosts : undefined;
  const editPost = replica
    ? async (feed: PostFeed, id: string, edit: PostEdit): Promise<EditablePost | undefined> => {
        const res = await fetch(`${replica.url}/__replica/posts/${feed}/${encodeURIComponent(id)}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(edit),
        });
        if (res.status === 404) return undefined;
        if (res.status !== 200) throw new Error(`the replica refused the change: ${res.status} ${await res.text()}`);
        const changed = asEditable((await res.json()) as Record<string, unknown>);
        logger.info({ feed, id, fields: Object.keys(edit) }, 'post changed at the replica; polling now');
        // The poll finds the post's new content and edits every message delivered for it.
        await poller.pollNow();
        return changed;
      }
    : undefined;
  // The dashboard, signing in as the pretend server's members; a port in use leaves the playground without it.
  const port = o.port ?? o.config.port;
  const dashboardPort = o.dashboardPort === undefined ? (port === 0 ? 0 : o.config.web.port) : o.dashboardPort;
  const dashboardLogger = logger.child({ component: 'dashboard' });
  const served = dashboardCommands(router, context, state, dashboardLogger);
  const dashboard =
    dashboardPort === null || !served
      ? undefined
      : await startDashboard({
          config: o.config,
          logger: dashboardLogger,
          signIn: pretendSignIn(playgroundIdentity(guild), `/guilds/${GUILD.id}`),
          directory: playgroundDirectory(guild),
          host: o.host ?? '127.0.0.1',
          port: dashboardPort,
          ...served,
        }).catch((err: unknown) => {
          logger.warn({ err }, `the playground's dashboard could not start (port ${dashboardPort}): set WEB_PORT to a free port`);
          return undefined;
        });
  const assets = await buildPageAssets();
  const commandsJson = registrationPayload(modules) as Definition[];
  const server = await startPlaygroundServer({
    host: o.host ?? '127.0.0.1',
    port: o.port ?? o.config.port,
    assets,
    interactions,
    messages,
    guild,
    images: new ImageProxy({ allowedOrigins: [new URL(o.config.rivals.imageBaseUrl).origin] }),
    bootstrap: () => ({
      guild: { ...GUILD, preferredLocale: locales.guild },
      bot: BOT,
      members: guild.members.map((m) => ({ ...m, locale: locales.member(m.id), roles: guild.rolesOf(m.id) })),
      languages: [...LANGUAGES],
      channels: [...CHANNELS],
      directMessages: { topic: DM_TOPIC },
      roles: guild.roles.map((r) => ({ id: r.id, name: r.name, colour: r.colour, position: r.position, hoist: r.hoist, managed: r.managed })),
      commands: commandsJson,
      // The members' DMs too: the page shows each member only their own.
      messages: [...CHANNELS.map((c) => c.id), ...guild.members.map((m) => dmChannelOf(m.id))].flatMap((id) => messages.list(id)),
      replica: replica !== undefined,
      ...(dashboard ? { dashboardUrl: dashboard.url } : {}),
      ...(replica ? { samples: replicaSamples(replica.dataset, seats) } : {}),
    }),
    locales,
    addPost,
    listPosts,
    editPost,
    ...(game ? { game } : {}),
    logger,
  });
  if (o.services.replica) {
    await seedTracking(state, o.services.replica.dataset.profileCaptures, o.config.rivals.imageBaseUrl, logger);
    await seedLadder(
      state,
      o.services.replica.dataset.profileCaptures,
      o.config.rivals.imageBaseUrl,
      GUILD.id,
      logger,
      CHANNELS.find((c) => c.name === 'ladder')?.id,
    );
    await seedDuos(state, o.services.replica.dataset, partners, o.config.rivals.imageBaseUrl, GUILD.id, logger);
    seedKnownPlayers(context.recent, o.services.replica.dataset.players, o.config.rivals.imageBaseUrl);
  }
  // Messages live in memory, the store on disk: after a restart, members hold again the roles the bot recorded giving.
  for (const m of guild.members)
    for (const given of await state.rankRoles.givenTo(m.id)) if (given.guildId === GUILD.id && given.roleId) guild.addRole(m.id, given.roleId);
  poller.start();
  meta.start();
  balanceIndexer.start();
  mains.start();
  tracker.start();
  verifier.start();
  moments.start();
  rolesJob.start(ROLES_EVERY_MS, (err) => logger.warn({ err }, 'rank roles: could not sync; trying again'));
  return {
    url: server.url,
    ...(dashboard ? { dashboardUrl: dashboard.url } : {}),
    messages,
    interactions,
    poller,
    locales,
    guild,
    syncRoles: () => syncRoles(),
    state,
    close: async () => {
      closing = true;
      await poller.stop();
      // Awaited: its last save must not meet a closed store.
      await meta.stop();
      await balanceIndexer.stop();
      await mains.stop();
      await tracker.stop();
      await verifier.stop();
      await moments.stop();
      await interactions.settle();
      await lastSync;
      await rolesJob.stop();
      await server.close();
      await dashboard?.close();
      await state.close();
    },
  };
}
