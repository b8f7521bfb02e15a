/**
 * Boots the real bot stack (replica -> cached client -> router -> discord.js runtime) against the fake Discord, alone or
 * with its background work wired as in production, and reads its answers off the fake's REST calls.
 */
import Keyv from 'keyv';
import type { Client } from 'discord.js';
import { commands } from '../../commands/index.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { LruStore } from '../../src/cache/store.js';
import { Router } from '../../src/discord/router.js';
import type { CommandModule } from '../../src/discord/command.js';
import { createChartRenderer, type ChartRenderer } from '../../src/charts/renderer.js';
import { discordChannelAccess } from '../../src/discord/channel-access.js';
import { createDiscordClient } from '../../src/discord/client.js';
import { DiscordRuntime } from '../../src/discord/runtime.js';

import { createCommandContext } from '../../src/app/services.js';
import { discordFeedTransport } from '../../src/feeds/discord-transport.js';
import { createFeedTester } from '../../src/feeds/test-post.js';
import { memoryState } from '../helpers/state.js';
import type { Replica } from '../../src/replica/server.js';
import { capturingLogger, clientFor } from '../helpers/replica.js';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { replica } from '../helpers/replica.js';
import { afterAll, beforeAll } from 'vitest';
import { createBackground, type Background, type BackgroundOptions } from '../../src/app/background.js';
import { discordRoleTransport } from '../../src/ladder/discord-roles.js';
import { SOLE_LEADER } from '../../src/feeds/leadership.js';
import type { State } from '../../src/store/state.js';

/** Boots the bot with `modules` (default: every command of the bot). */
export async function bootBot(discord: FakeDiscord, r: Replica, modules: CommandModule[] = commands, charts?: ChartRenderer) {
  const { logger, lines } = capturingLogger(['fake-bot-token-xyz']);
  const api = clientFor(r, { cache: new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }) }), timeoutMs: 8_000 });
  const router = new Router(modules);
  const client: Client = createDiscordClient({ apiUrl: discord.apiUrl });
  const state = memoryState();
  const tester = createFeedTester(
    api,
    state.settings,
    discordFeedTransport(client.rest, () => client.user?.id),
  );
  const context = createCommandContext(api, state, new Keyv({ store: new LruStore(1000) }), discordChannelAccess(client), Date.now, tester, charts);
  const runtime = new DiscordRuntime(client, { router, context, logger });
  const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
  await client.login('fake-bot-token-xyz');
  await ready;
  return {
    client,
    runtime,
    router,
    logLines: lines,
    logger,
    /** The context the runtime gives handlers (without the per-interaction logger). */
    runtimeContext: () => context,
    close: async () => {
      await runtime.shutdown(2_000);
      await api.close();
      await state.close();
    },
  };
}

/**
 * Boots the bot over `state` with its background work wired as in production (src/app/background.ts): the tracker reads
 * every 300 to 600 ms; rank roles go through Discord's role routes; `feedNow` is the feeds' clock, `rankRoleSync` the
 * rank roles' clock and deadline. Starts nothing but the gateway session.
 */
export async function bootBackgroundBot(
  discord: FakeDiscord,
  r: Replica,
  state: State,
  options: { feedNow?: () => number; rankRoleSync?: BackgroundOptions['rankRoleSync'] } = {},
) {
  const { logger, lines } = capturingLogger(['fake-bot-token-xyz']);
  const api = clientFor(r, { cache: new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }) }), timeoutMs: 8_000 });
  const client: Client = createDiscordClient({ apiUrl: discord.apiUrl });
  const background: Background = createBackground({
    api,
    state,
    cacheStore: new Keyv({ store: new LruStore(1000) }),
    channels: discordChannelAccess(client),
    transport: discordFeedTransport(client.rest, () => client.user?.id),
    roles: discordRoleTransport(client.rest, () => client.user?.id),
    logger,
    requestsPerMinute: 600,
    feedPollSeconds: 3_600,
    leadership: SOLE_LEADER,
    preferredLocale: () => undefined,
    tracking: { minIntervalMs: 300, maxIntervalMs: 600 },
    ...(options.feedNow ? { feedNow: options.feedNow } : {}),
    ...(options.rankRoleSync ? { rankRoleSync: options.rankRoleSync } : {}),
  });
  const runtime = new DiscordRuntime(client, { router: new Router(commands), context: background.context, logger });
  const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
  await client.login('fake-bot-token-xyz');
  await ready;
  return {
    client,
    background,
    /** The bot's log, one JSON line each. */
    logLines: lines,
    close: async () => {
      await background.tracker.stop();
      await runtime.shutdown(2_000);
      await api.close();
    },
  };
}

/** An answer's embeds and component rows, as the bot sent them. */
export interface Answer {
  embeds: { title?: string; description?: string; fields?: { name: string; value: string }[]; footer?: { text: string } }[];
  components: { components: { custom_id?: string }[] }[];
}

/** The bot's answer to `interaction`: the callback's data, or an edit of the original (the first whose body `which` accepts). */
export async function answerOf(
  discord: FakeDiscord,
  interaction: { id: string; token: string },
  which: (body: unknown) => boolean = () => true,
): Promise<Answer> {
  const call = await discord.waitFor(
    (c) =>
      ((c.method === 'POST' &&
        c.path.startsWith(`/interactions/${interaction.id}/`) &&
        (c.body as { type: number }).type !== 5 &&
        (c.body as { type: number }).type !== 6) ||
        (c.method === 'PATCH' && c.path.includes(`/${interaction.token}/messages/@original`))) &&
      which(c.body),
  );
  const body = call.body as { data?: Partial<Answer> } & Partial<Answer>;
  const data = body.data ?? body;
  return { embeds: data.embeds ?? [], components: data.components ?? [] };
}

/**
 * Registers hooks that start a replica, the fake Discord, the real chart renderer (its worker pool) and the bot with every
 * command before the file's tests, and stop them after; read `env.r`, `env.discord`, `env.charts` and `env.bot` inside tests.
 */
export function useChartBot(): { r: Replica; discord: FakeDiscord; charts: ChartRenderer; bot: Awaited<ReturnType<typeof bootBot>> } {
  const env = {} as ReturnType<typeof useChartBot>;
  beforeAll(async () => {
    env.r = await replica();
    env.discord = await startFakeDiscord();
    env.charts = createChartRenderer();
    env.bot = await bootBot(env.discord, env.r, commands, env.charts);
  });
  afterAll(async () => {
    await env.bot?.close();
    await env.charts?.close();
    await env.discord?.close();
    await env.r?.close();
  });
  return env;
}
