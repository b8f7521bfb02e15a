/** Test helpers for handlers: a router over every command and a context on a cached client to the replica. */
import { currentLocale } from '../../src/i18n/index.js';
import Keyv from 'keyv';
import { afterAll, beforeAll } from 'vitest';
import { commands } from '../../commands/index.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { LruStore } from '../../src/cache/store.js';
import type { CommandContext, CommandInput } from '../../src/discord/command.js';
import { Router } from '../../src/discord/router.js';

import { createCommandContext } from '../../src/app/services.js';
import { MainsRefresher } from '../../src/feeds/alerts.js';
import { memoryState } from './state.js';
import type { Replica } from '../../src/replica/server.js';
import type { SqliteConnection } from '../../src/store/sqlite-driver.js';
import type { State } from '../../src/store/state.js';
import { lastVersion, toMessagePayload, type MessagePayload, type View } from '../../src/render/view.js';
import { withoutCards } from '../../src/render/view-charts.js';
import { capturingLogger, clientFor, replica } from './replica.js';

export const MEMBER = { userId: '200000000000000001', guildId: '300000000000000001', locale: 'en-US' };
export const OTHER_MEMBER = { userId: '200000000000000002', guildId: '300000000000000001', locale: 'en-US' };
/** A member with Manage Server (0x20) in the same guild. */
export const ADMIN = { userId: '200000000000000009', guildId: '300000000000000001', locale: 'en-US', permissions: String(0x20 | 0x400 | 0x800) };

/** A router and a context against `r`, with a fake clock the test may move. */
/** Channels a test may set: `missing` lists what the bot lacks in each (absent: every permission). */
export const testChannels = { missing: new Map<string, string[]>(), announcement: new Set<string>(), gone: new Set<string>() };
const channels = {
  check: async (_guildId: string, channelId: string) => ({
    exists: !testChannels.gone.has(channelId),
    announcement: testChannels.announcement.has(channelId),
    missing: testChannels.missing.get(channelId) ?? [],
  }),
};

/**
 * @param options.apiTimeoutMs the client's request timeout (default clientFor's 2 s); tests that
 *   compare two answers raise it, so that a loaded machine cannot degrade one of them.
 * @param options.connect stands between the store and its in-memory SQLite connection (see memoryState).
 * @param options.state the store instead of an in-memory one (a file, to read its bytes); closed with the bot.
 */
export function bot(r: Replica, options: { apiTimeoutMs?: number; connect?: (sqlite: SqliteConnection) => SqliteConnection; state?: State } = {}) {
  const clock = { now: Date.now() };
  const { logger, lines } = capturingLogger();
  // Kept to look into: the cache store of recent lookups.
  const lookups = new Keyv({ store: new LruStore(1000) });
  const api = clientFor(r, {
    cache: new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }), now: () => clock.now }),
    now: () => clock.now,
    ...(options.apiTimeoutMs ? { timeoutMs: options.apiTimeoutMs } : {}),
  });
  // State in an in-memory SQLite database: the engines have their own tests (test/store).
  const state = options.state ?? memoryState({ now: () => clock.now }, options.connect);
  const ctx: CommandContext = {
    ...createCommandContext(api, state, lookups, channels, () => clock.now),
    alerts: { members: state.alerts, mains: new MainsRefresher({ api, links: state.links, alerts: state.alerts, logger, now: () => clock.now }) },
    tracking: state.tracking,
    memberData: state.memberData,
    verifications: state.verifications,
    ladder: state.ladder,
    serverMatches: state.serverMatches,
    audit: state.audit,
    // The server's roles are the test's to set (`ctx.rankRoles.discord`); absent, as in the playground, they are not checked.
    rankRoles: { store: state.rankRoles },
    logger,
  };
  const router = new Router(commands);
  // The payload as text: no chart pool draws here, so an image card's text stands in its place, as when one is not drawn.
  const asText = (view: View) => toMessagePayload(withoutCards(view));
  // The member's Discord client speaks the test's language: English, or the one of runInLocale around the call.
  const speaking = (user: CommandInput['user']) => ({ ...user, locale: currentLocale() });
  const run = async (
    name: string,
    options: CommandInput['options'],
    subcommand?: string,
    user: CommandInput['user'] = MEMBER,
  ): Promise<{ view: View; payload: MessagePayload; first: View }> => {
    // The answer as complete as it gets (a scout with every profile read), as the runtime's last edit leaves it.
    const first = await router.command(name, { options, subcommand, user: speaking(user) }, ctx);
    const view = await lastVersion(first);
    return { view, payload: asText(view), first };
  };
  /** `invokerId`: who ran the command the pressed message answers (MEMBER unless said). */
  const press = async (customId: string, values: string[] = [], user = MEMBER, invokerId = MEMBER.userId) => {
    const result = await router.component(customId, values, speaking(user), invokerId, ctx);
    // As complete as it gets, as for run.
    const view = await lastVersion(result.view);
    return { ...result, view, payload: asText(view), first: result.view };
  };
  return {
    router,
    ctx,
    state,
    clock,
    lookups,
    logLines: lines,
    run,
    press,
    close: async () => {
      await api.close();
      await state.close();
    },
  };
}

/** Every custom ID in a payload. */
export function customIds(payload: MessagePayload): string[] {
  return payload.components.flatMap((row) => row.components.map((c) => ('custom_id' in c ? c.custom_id : ''))).filter(Boolean);
}

/**
 * Registers hooks that start a replica and a bot before the file's tests and stop them after;
 * read `env.r` and `env.b` inside tests.
 */
export function useReplicaBot(options: Parameters<typeof bot>[1] = {}): { r: Replica; b: ReturnType<typeof bot> } {
  const env = {} as { r: Replica; b: ReturnType<typeof bot> };
  beforeAll(async () => {
    env.r = await replica();
    env.b = bot(env.r, options);
  });
  afterAll(async () => {
    await env.b.close();
    await env.r.close();
  });
  return env;
}
