/**
 * `npm run bench:status` (tsx scripts/bench-status.ts [--runs 5]): `/status` through the router and the acknowledgement
 * policy (src/discord/respond.ts) as the runtime answers, with the game API answering (the baseline, side by side in each
 * run), hanging, answering 503, and gone (its port closed). Nothing recent says whether the API answers, so each
 * `/status` probes it (src/catalog/bot-status.ts).
 *
 * Prints, min / median / max over the runs: the time to the answer, ms from the interaction, and how it went (a reply,
 * or a deferral then an edit). Goal: under 1 s with the API down.
 */
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import Keyv from 'keyv';
import { pino } from 'pino';
import { RivalsApi } from '../src/api/client.js';
import { createCommandContext } from '../src/app/services.js';
import { ResponseCache } from '../src/cache/response-cache.js';
import { LruStore } from '../src/cache/store.js';
import { commands } from '../commands/index.js';
import { interactionBudget } from '../src/core/deadline.js';
import { answerCommand, type CommandResponder } from '../src/discord/respond.js';
import { Router } from '../src/discord/router.js';
import { startReplica } from '../src/replica/server.js';
import type { Faults } from '../src/replica/faults.js';
import { memoryState } from '../test/helpers/state.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);

const logger = pino({ level: 'silent' });
const replica = await startReplica({ logger });
/** A port nothing listens on: the API gone. */
const closedPort = await new Promise<number>((resolve) => {
  const server = createServer();
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});

type Case = { label: string; faults: Faults; baseUrl?: string };
const CASES: Case[] = [
  { label: 'API answering (baseline)', faults: {} },
  { label: 'API hanging', faults: { hang: true } },
  { label: 'API answering 503', faults: { forceStatus: 503 } },
  { label: 'API gone (connection refused)', faults: {}, baseUrl: `http://127.0.0.1:${closedPort}` },
];

/** One /status on a fresh client (nothing it met says whether the API answers): ms to the answer, and whether it was deferred. */
async function statusRun(c: Case): Promise<{ ms: number; deferred: boolean; said: string }> {
  replica.setFaults(c.faults);
  const api = new RivalsApi({
    baseUrl: c.baseUrl ?? replica.url,
    apiKey: replica.apiKey,
    imageBaseUrl: 'https://img.test/rivals',
    timeoutMs: 10_000,
    cache: new ResponseCache({ store: new Keyv({ store: new LruStore(100) }) }),
    logger,
  });
  const state = memoryState();
  const ctx = { ...createCommandContext(api, state, new Keyv({ store: new LruStore(100) })), logger };
  const router = new Router(commands);
  const start = performance.now();
  const budget = interactionBudget('', Date.now());
  let ms = 0;
  let deferred = false;
  let said = '';
  const seen = (payload: { embeds: { fields?: { value: string }[] }[] }) => {
    ms ||= performance.now() - start;
    said = payload.embeds[0]?.fields?.[1]?.value.split('\n')[0] ?? '';
  };
  const responder: CommandResponder = {
    reply: async (p) => seen(p),
    edit: async (p) => seen(p),
    defer: async () => void (deferred = true),
    deleteReply: async () => undefined,
    followUp: async (p) => seen(p),
  };
  const user = { userId: '100000000000000001', locale: 'en-US' };
  await answerCommand(() => router.command('status', { options: {}, user }, { ...ctx, budget }), responder, { prefersPrivate: async () => true, budget });
  await api.close();
  await state.close();
  return { ms, deferred, said };
}

const results = new Map<string, { ms: number; deferred: boolean; said: string }[]>(CASES.map((c) => [c.label, []]));
for (let i = 0; i < runs; i++) for (const c of CASES) results.get(c.label)!.push(await statusRun(c));
await replica.close();

const f = (x: number) => x.toFixed(0).padStart(7);
process.stdout.write(`/status, ${runs} runs, each on a fresh client (a probe of the API each time)\n`);
process.stdout.write(`${''.padEnd(36)}     min  median     max  deferred  says\n`);
for (const [label, rs] of results) {
  const ms = rs.map((r) => r.ms).sort((a, b) => a - b);
  const deferred = rs.filter((r) => r.deferred).length;
  process.stdout.write(
    `  ${label.padEnd(34)} ${f(ms[0]!)} ${f(ms[Math.floor(ms.length / 2)]!)} ${f(ms.at(-1)!)}  ${`${deferred}/${rs.length}`.padStart(8)}  ${rs[0]!.said}\n`,
  );
}
