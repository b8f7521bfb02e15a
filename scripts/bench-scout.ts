/**
 * `npm run bench:scout` (tsx scripts/bench-scout.ts [--runs 3] [--latency 800] [--rpm 60]): `/scout` of a match whose 12
 * players are not cached, through the router and the acknowledgement policy (src/discord/respond.ts) as the runtime
 * answers, against the replica with every profile read taking `--latency` ms, behind the rate limiter at `--rpm`
 * (RIVALS_API_RPM). The match and the hero list are cached: the member scouts a match they just saw.
 *
 * Each run prints, min / median / max:
 * - the time to the first answer (reply, or the edit after a deferral), ms from the interaction. Goal: under 1 s;
 * - the time to the complete answer (the edit with every profile read);
 * - the floor: the same 12 profile reads alone, at once, through a fresh limiter at the same rate; side by side in each run.
 */
import { parseArgs } from 'node:util';
import Keyv from 'keyv';
import { pino } from 'pino';
import { RivalsApi } from '../src/api/client.js';
import { UpstreamRateLimiter } from '../src/api/rate-limiter.js';
import { createCommandContext } from '../src/app/services.js';
import { ResponseCache } from '../src/cache/response-cache.js';
import { LruStore } from '../src/cache/store.js';
import { commands } from '../commands/index.js';
import { interactionBudget } from '../src/core/deadline.js';
import { answerCommand, type CommandResponder } from '../src/discord/respond.js';
import { Router } from '../src/discord/router.js';
import type { MessagePayload } from '../src/render/view.js';
import { startReplica } from '../src/replica/server.js';
import { memoryState } from '../test/helpers/state.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    latency: { type: 'string', default: '800' },
    rpm: { type: 'string', default: '60' },
  },
});
const runs = Number(values.runs);
const latency = Number(values.latency);
const rpm = Number(values.rpm);

const MATCH = '6713355_1740604074_322_11001_10';
const logger = pino({ level: 'silent' });
const replica = await startReplica({ logger });
const raw = (await (await fetch(`${replica.url}/api/v1/match/${MATCH}`, { headers: { 'x-api-key': replica.apiKey } })).json()) as {
  match_details?: { match_players?: { player_uid: number | string; nick_name?: string }[] };
};
const uids = (raw.match_details?.match_players ?? []).map((p) => String(p.player_uid));
// Every player of the match with a public profile (a real one, renamed), so each read is a full profile.
const template = replica.dataset.players.get('1403392756')!;
for (const [i, uid] of uids.entries()) replica.dataset.players.set(uid, { ...structuredClone(template), uid: Number(uid), name: `Player${i}` });

function apiAt(): RivalsApi {
  return new RivalsApi({
    baseUrl: replica.url,
    apiKey: replica.apiKey,
    imageBaseUrl: 'https://img.test/rivals',
    timeoutMs: 30_000,
    cache: new ResponseCache({ store: new Keyv({ store: new LruStore(10_000) }) }),
    limiter: new UpstreamRateLimiter({ requestsPerMinute: rpm }),
    logger,
  });
}

async function scoutRun(): Promise<{ first: number; complete: number; edits: number }> {
  replica.setFaults({});
  const api = apiAt();
  await api.match(MATCH);
  await api.heroes();
  replica.setFaults({ latencyMs: latency, pathPrefix: '/api/v1/player/' });
  const state = memoryState();
  const ctx = { ...createCommandContext(api, state, new Keyv({ store: new LruStore(1000) })), logger };
  const router = new Router(commands);
  const start = performance.now();
  const budget = interactionBudget('', Date.now());
  let first = 0;
  let complete = 0;
  let edits = 0;
  const seen = (payload: MessagePayload) => {
    const at = performance.now() - start;
    if (first === 0) first = at;
    else edits++;
    if (!payload.embeds[0]?.footer?.text.includes('more on the way')) complete = at;
  };
  const responder: CommandResponder = {
    reply: async (p) => seen(p),
    edit: async (p) => seen(p),
    defer: async () => undefined,
    deleteReply: async () => undefined,
    followUp: async (p) => seen(p),
  };
  const user = { userId: '100000000000000001', locale: 'en-US' };
  await answerCommand(() => router.command('scout', { options: { match: MATCH }, user }, { ...ctx, budget }), responder, {
    prefersPrivate: async () => false,
    budget,
  });
  await api.close();
  await state.close();
  return { first, complete, edits };
}

async function floorRun(): Promise<number> {
  replica.setFaults({ latencyMs: latency, pathPrefix: '/api/v1/player/' });
  const api = apiAt();
  const start = performance.now();
  await Promise.all(uids.slice(0, 12).map((uid) => api.player(uid, {}, { priority: 'background' })));
  const ms = performance.now() - start;
  await api.close();
  return ms;
}

const rows: { first: number; complete: number; edits: number; floor: number }[] = [];
for (let i = 0; i < runs; i++) {
  const floor = await floorRun();
  rows.push({ ...(await scoutRun()), floor });
}
await replica.close();

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const row = (label: string, xs: number[], unit: string, digits = 0) => {
  const s = sorted(xs);
  const f = (x: number) => x.toFixed(digits).padStart(9);
  process.stdout.write(`  ${label.padEnd(50)} ${f(s[0]!)} ${f(s[Math.floor(s.length / 2)]!)} ${f(s.at(-1)!)}  ${unit}\n`);
};
process.stdout.write(
  `/scout of ${Math.min(12, uids.length)} uncached players, ${runs} runs, profile reads answering after ${latency} ms, RIVALS_API_RPM=${rpm}\n`,
);
process.stdout.write(`${''.padEnd(52)}       min    median       max\n`);
row(
  'time to the first answer',
  rows.map((r) => r.first),
  'ms',
);
row(
  'time to the complete answer',
  rows.map((r) => r.complete),
  'ms',
);
row(
  'floor: the 12 reads alone',
  rows.map((r) => r.floor),
  'ms',
);
row(
  'complete answer / floor',
  rows.map((r) => r.complete / r.floor),
  '×',
  2,
);
row(
  'edits after the first answer',
  rows.map((r) => r.edits),
  '',
);
