/** Boots the real bot stack (replica -> cached client -> router -> discord.js runtime) against the fake Discord. */
import Keyv from 'keyv';
import type { Client } from 'discord.js';
import { commands } from '../../src/commands/index.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { LruStore } from '../../src/cache/store.js';
import { Router } from '../../src/discord/router.js';
import type { CommandModule } from '../../src/discord/command.js';
import type { ChartRenderer } from '../../src/charts/renderer.js';
import { discordChannelAccess } from '../../src/discord/channel-access.js';
import { createDiscordClient } from '../../src/discord/client.js';
import { DiscordRuntime } from '../../src/discord/runtime.js';

import { createCommandContext } from '../../src/app/services.js';
import { discordFeedTransport } from '../../src/feeds/discord-transport.js';
import { createFeedTester } from '../../src/feeds/test-post.js';
import { memoryState } from '../helpers/state.js';
import type { Replica } from '../../src/replica/server.js';
import { capturingLogger, clientFor } from '../helpers/replica.js';
import type { FakeDiscord } from './fake-discord.js';

/** Boots the bot with `modules` (default: every command of the bot). */
export async function bootBot(discord: FakeDiscord, r: Replica, modules: CommandModule[] = commands, charts?: ChartRenderer) {
  const { logger, lines } = capturingLogger(['fake-bot-token-xyz']);
  const api = clientFor(r, { cache: new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }) }), timeoutMs: 8_000 });
  const router = new Router(modules);
  const client: Client = createDiscordClient({ apiUrl: discord.apiUrl });
  const state = memoryState();
  const tester = createFeedTester(api, state.settings, discordFeedTransport(client.rest));
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
