/**
 * The fault matrix: every command against an API that fails in each way real APIs fail,
 * injected into the replica at run time. For every case:
 * - the acknowledgement (reply or deferral) goes out within 3 s of the interaction's creation (its
 *   snowflake), and the final answer within the interaction's budget;
 * - with nothing cached, the final answer is a specific message for the fault, never "something went
 *   wrong" and never a wait for the fault to pass;
 * - after one success, the final answer is that earlier answer, marked stale with its true age.
 *
 * The path is the production one: the router over every command, the acknowledgement policy
 * (src/discord/respond.ts) with a budget read from a snowflake, a cached client with the rate limiter,
 * over real HTTP to the replica.
 */
import Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { RivalsApi } from '../../src/api/client.js';
import { UpstreamRateLimiter } from '../../src/api/rate-limiter.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { LruStore } from '../../src/cache/store.js';
import type { Resource } from '../../src/cache/ttl.js';
import { DEFAULT_TTLS } from '../../src/cache/ttl.js';
import { DISCORD_EPOCH_MS, interactionBudget, type InteractionBudget } from '../../src/core/deadline.js';
import type { CommandContext, CommandInput } from '../../src/discord/command.js';
import { answerCommand, type CommandResponder } from '../../src/discord/respond.js';
import { Router } from '../../src/discord/router.js';
import type { Faults } from '../../src/replica/faults.js';
import type { Replica } from '../../src/replica/server.js';
import { staleFooter } from '../../src/render/common.js';
import type { MessagePayload } from '../../src/render/view.js';
import { createCommandContext } from '../../src/app/services.js';
import type { State } from '../../src/store/state.js';
import { t } from '../../src/render/strings.js';
import { freePort } from '../helpers/free-port.js';
import { capturingLogger, replica, TEST_KEY } from '../helpers/replica.js';
import { memoryState } from '../helpers/state.js';

/** The budget of every interaction here: short, so that the matrix runs in about a minute. */
const BUDGET_MS = 4_000;

const MEMBER = { userId: '200000000000000001', guildId: '300000000000000001', locale: 'en-US' };
const LINKED = '200000000000000002';

/** One interaction per command (and per kind of post), with inputs the replica knows. */
const CASES: { label: string; name: string; input: Omit<CommandInput, 'user'> }[] = [
  { label: '/player', name: 'player', input: { options: { query: '1403392756' } } },
  { label: '/hero', name: 'hero', input: { options: { name: 'hulk' } } },
  { label: '/match', name: 'match', input: { options: { match: '6713355_1740604074_322_11001_10' } } },
  { label: '/leaderboard', name: 'leaderboard', input: { options: { hero: 'hulk' } } },
  { label: '/patch-notes', name: 'patch-notes', input: { options: {} } },
  { label: '/patch-notes type:balances', name: 'patch-notes', input: { options: { type: 'balances' } } },
  { label: '/patch-notes type:dev-diaries', name: 'patch-notes', input: { options: { type: 'dev-diaries' } } },
  { label: '/patch-notes type:game-versions', name: 'patch-notes', input: { options: { type: 'game-versions' } } },
  { label: '/items', name: 'items', input: { options: {} } },
  { label: '/maps', name: 'maps', input: { options: {} } },
  { label: '/achievements', name: 'achievements', input: { options: {} } },
  { label: '/battlepass', name: 'battlepass', input: { options: {} } },
  { label: 'Apps › Rivals profile', name: 'Rivals profile', input: { options: {}, targetUserId: LINKED, targetName: 'Linked' } },
];

/** The faults, as the replica's admin route takes them; `refused` points the client at a closed port instead. */
const FAULTS: { label: string; faults?: Faults; refused?: true; says: string }[] = [
  { label: '429 with Retry-After', faults: { forceStatus: 429, retryAfterSeconds: 30 }, says: t.rateLimited(30) },
  { label: '429 without Retry-After', faults: { forceStatus: 429 }, says: t.rateLimited(60) },
  { label: '500', faults: { forceStatus: 500 }, says: t.apiDown() },
  { label: '503', faults: { forceStatus: 503, retryAfterSeconds: 120 }, says: t.apiDown() },
  { label: 'a slow API (timeout)', faults: { latencyMs: 30_000 }, says: t.apiTimeout() },
  { label: 'hung headers', faults: { hang: true }, says: t.apiTimeout() },
  { label: 'hung body', faults: { hangBody: true }, says: t.apiTimeout() },
  { label: 'malformed JSON', faults: { malformed: true }, says: t.apiDown() },
  { label: 'connection refused', refused: true, says: t.apiDown() },
];

/** Every resource expires at once: each interaction after the warm-up asks the API again. */
const EXPIRED_TTL_MS = 1;
const EXPIRED = Object.fromEntries(Object.keys(DEFAULT_TTLS).map((r) => [r, EXPIRED_TTL_MS])) as Partial<Record<Resource, number>>;

/** A snowflake minted now, as Discord mints an interaction's id. */
const snowflakeNow = () => String((BigInt(Date.now() - DISCORD_EPOCH_MS) << 22n) | 1n);

interface Answered {
  /** The final answer's payload. */
  final: MessagePayload;
  calls: string[];
}

/** Runs one interaction through the acknowledgement policy, as the discord.js runtime does. */
async function interact(
  router: Router,
  context: Omit<CommandContext, 'logger' | 'budget'>,
  c: (typeof CASES)[number],
  logger: CommandContext['logger'],
): Promise<Answered> {
  const budget: InteractionBudget = interactionBudget(snowflakeNow(), Date.now(), BUDGET_MS);
  const ctx: CommandContext = { ...context, logger, budget };
  const input: CommandInput = { ...c.input, user: MEMBER };
  const calls: string[] = [];
  let acked = false;
  let final: MessagePayload | undefined;
  const ack = () => void (acked = true);
  const done = (payload: MessagePayload) => void (final = payload);
  const responder: CommandResponder = {
    reply: async (p) => (calls.push('reply'), ack(), done(p)),
    defer: async () => void (calls.push('defer'), ack()),
    edit: async (p) => (calls.push('edit'), done(p)),
    deleteReply: async () => void calls.push('deleteReply'),
    followUp: async (p) => (calls.push('followUp'), done(p)),
  };
  await answerCommand(router.command(c.name, input, ctx), responder, { prefersPrivate: () => router.prefersPrivate(input.user, ctx), budget });
  if (!acked || !final) throw new Error(`${c.label}: no ${!acked ? 'acknowledgement' : 'final answer'} (${calls.join(', ')})`);
  return { final, calls };
}

/** Every text of a payload's embeds and content, for assertions. */
const textsOf = (p: MessagePayload) =>
  [
    p.content ?? '',
    ...(p.embeds ?? []).flatMap((e) => [e.title ?? '', e.description ?? '', e.footer?.text ?? '', ...(e.fields ?? []).flatMap((f) => [f.name, f.value])]),
  ].join('\n');

describe('the fault matrix: every command × every API fault', { timeout: 120_000 }, () => {
  let r: Replica;
  let closedUrl: string;
  let state: State;
  const router = new Router(commands);
  const { logger, lines } = capturingLogger([TEST_KEY]);
  /** The client of one side of one fault window: its own cache and limiter, so that no window leaks into the next. */
  const services = (cache: ResponseCache, baseUrl = r.url) => {
    const api = new RivalsApi({
      baseUrl,
      apiKey: TEST_KEY,
      imageBaseUrl: 'https://img.test/rivals',
      timeoutMs: 10_000,
      cache,
      limiter: new UpstreamRateLimiter({ requestsPerMinute: 600 }),
    });
    // Without the match store, a durable cache that would leak a match read in one window into the next: a stored match
    // answers under every fault (test/commands/match-store.test.ts), and here /match meets the fault.
    const { settings, links, feedPosts } = state;
    return createCommandContext(api, { settings, links, feedPosts }, new Keyv({ store: new LruStore(1000) }), {
      check: async () => ({ exists: true, announcement: false, missing: [] }),
    });
  };
  const results = new Map<string, { cold: Answered; warm: Answered }>();

  beforeAll(async () => {
    r = await replica();
    closedUrl = `http://127.0.0.1:${await freePort()}`;
    state = memoryState();
    await state.links.link(LINKED, { uid: '1403392756', name: 'card1gan' }, true);
    for (const fault of FAULTS) {
      r.setFaults({});
      // Warm side: one success per command first (its cache then holds an expired answer). Its clock moves
      // on by the TTL once the warm-up is done, so that every answer it cached has expired by then.
      let expiredBy = 0;
      const warmCache = new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }), ttls: EXPIRED, now: () => Date.now() + expiredBy });
      const primer = services(warmCache);
      for (const c of CASES) {
        const ok = await interact(router, primer, c, logger);
        if (ok.final.flags === 64) throw new Error(`${c.label}: the warm-up failed: ${textsOf(ok.final)}`);
      }
      expiredBy = EXPIRED_TTL_MS;
      if (fault.faults) r.setFaults(fault.faults);
      const base = fault.refused ? closedUrl : r.url;
      const warm = services(warmCache, base);
      const cold = services(new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }) }), base);
      const answered = await Promise.all(
        CASES.map(async (c) => ({ c, cold: await interact(router, cold, c, logger), warm: await interact(router, warm, c, logger) })),
      );
      for (const a of answered) results.set(`${fault.label} | ${a.c.label}`, { cold: a.cold, warm: a.warm });
    }
    r.setFaults({});
  }, 300_000);

  afterAll(async () => {
    await r.close();
    await state.close();
  });

  describe.each(FAULTS)('$label', (fault) => {
    // When the acknowledgement and the final answer go (by 3 s, within the budget) is the policy's, on a
    // fake clock in test/discord/respond.test.ts; here, on real time under load, what each fault makes of it.
    it.each(CASES)('$label: acknowledged first, answered once, with the fault named', (c) => {
      const { cold } = results.get(`${fault.label} | ${c.label}`)!;
      expect(cold.calls[0]).toMatch(/^(reply|defer)$/);
      expect(cold.calls.filter((call) => call === 'reply' || call === 'defer')).toHaveLength(1);
      expect(cold.final.flags, textsOf(cold.final)).toBe(64);
      expect(textsOf(cold.final)).toContain(fault.says);
    });

    it.each(CASES)('$label: after one success, the stale answer with its age', (c) => {
      const { warm } = results.get(`${fault.label} | ${c.label}`)!;
      expect(warm.calls[0]).toMatch(/^(reply|defer)$/);
      expect(warm.calls.filter((call) => call === 'reply' || call === 'defer')).toHaveLength(1);
      expect(warm.final.flags ?? 0).toBe(0);
      // The answer is seconds old: the note says so, not "1 minute".
      expect(textsOf(warm.final)).toContain(staleFooter({ stale: true, ageMs: 2_000 })!.text);
    });
  });

  it('never logged the API key, and never hit an unexpected error', () => {
    const all = lines.join('');
    expect(all).not.toContain(TEST_KEY);
    expect(all).not.toContain('unexpected error in a handler');
  });
});
