/**
 * `npm run bench:api`: a realistic lookup workload through the cached client, through the same cache
 * with its memory level off (the former design: every hit read through keyv and its JSON), and
 * through a plain uncached client, against the replica with 50-300 ms of added latency, printed side
 * by side; then the cost of one cache hit on representative keys, in both cache designs.
 *
 * Workload: BENCH_REQUESTS (default 10 000) lookups drawn from a Zipf distribution (s = 1.1) over the
 * hero endpoints (detail, stats, costumes, leaderboard on each platform), the sample players (profile,
 * v1 and v2 history), the sample matches, and mistyped player names (not found), issued by
 * BENCH_CONCURRENCY (default 64) members at once. Bot traffic is simulated over time: the cache's clock
 * advances by an exponential gap (mean BENCH_GAP_MS, default 500 ms) per request, so TTLs expire as they
 * would over ~80 minutes of a busy bot. No rate limiter on either side: the figures compare caching only.
 * The hit cost is BENCH_HIT_ROUNDS (default 2 000) sequential hits of one key after 200 for warm-up.
 */
import Keyv from 'keyv';
import { RivalsApi } from '../src/api/client.js';
import { ResponseCache } from '../src/cache/response-cache.js';
import { LruStore } from '../src/cache/store.js';
import { startReplica } from '../src/replica/server.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 500);

/** Deterministic PRNG so both clients see the same workload. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Call = (api: RivalsApi) => Promise<unknown>;

const replica = await startReplica({ apiKey: 'bench-key', faults: { latencyMs: [50, 300] } });
const heroes = replica.dataset.heroes.map((h) => String(h.name));
const players = [...replica.dataset.players.values()].map((p) => String(p.name));
const matches = [...replica.dataset.matches.keys()];

const calls: [string, Call][] = [];
for (const h of heroes) {
  calls.push([`hero ${h}`, (a) => a.hero(h)]);
  calls.push([`stats ${h}`, (a) => a.heroStats(h)]);
  calls.push([`costumes ${h}`, (a) => a.heroCostumes(h)]);
  for (const platform of ['pc', 'ps', 'xbox'] as const) calls.push([`leaderboard ${h} ${platform}`, (a) => a.heroLeaderboard(h, { platform })]);
}
for (const p of players) {
  calls.push([`player ${p}`, (a) => a.player(p)]);
  calls.push([`history v2 ${p}`, (a) => a.matchHistoryV2(p)]);
  calls.push([`history v1 ${p}`, (a) => a.matchHistoryV1(p)]);
}
for (const m of matches) calls.push([`match ${m}`, (a) => a.match(m)]);
const typos: [string, Call][] = Array.from({ length: 60 }, (_, i) => [`typo ${i}`, (a) => a.player(`no-such-player-${i}`)]);

// Zipf weights over a shuffled order, so the popular keys are a mix of every kind; each mistyped
// name is typed rarely, so the typos form the tail.
const order = rng(7);
const shuffled = [
  ...calls
    .map((c) => [order(), c] as const)
    .sort((x, y) => x[0] - y[0])
    .map(([, c]) => c),
  ...typos,
];
const weights = shuffled.map((_, k) => 1 / (k + 1) ** 1.1);
const total = weights.reduce((a, b) => a + b, 0);
const cumulative: number[] = [];
weights.reduce((acc, w, i) => (cumulative[i] = acc + w / total), 0);

function workload(): { call: Call; gap: number }[] {
  const r = rng(42);
  return Array.from({ length: REQUESTS }, () => {
    const u = r();
    const index = cumulative.findIndex((c) => c >= u);
    return { call: shuffled[index === -1 ? shuffled.length - 1 : index]![1], gap: -Math.log(1 - r()) * GAP_MS };
  });
}

interface Result {
  upstream: number;
  hitRatio: number;
  p50: number;
  p99: number;
  /** Latency of the lookups answered from the cache (`source: 'cache'`), ms. */
  hitP50: number;
  hitP99: number;
  errors: number;
  seconds: number;
  /** Process CPU (user + system) over the run, ms; the in-process replica's share included. */
  cpuMs: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/** The cache under test: objects in memory, no JSON on a hit (the bot's configuration without Redis). */
const memoryCache = (now?: () => number) => new ResponseCache({ store: new Keyv({ store: new LruStore(10_000) }), now });
/** The baseline: the same policy with the memory level off, so every hit goes through keyv's JSON, as before the memory level. */
const keyvJsonCache = (now?: () => number) => new ResponseCache({ store: new Keyv({ store: new LruStore(10_000) }), memory: { maxBytes: 0 }, now });

async function run(makeCache?: (now: () => number) => ResponseCache): Promise<Result> {
  const clock = { now: Date.now() };
  const cache = makeCache?.(() => clock.now);
  const api = new RivalsApi({ baseUrl: replica.url, apiKey: 'bench-key', cache, now: () => clock.now });
  const jobs = workload();
  const latencies: number[] = [];
  const hitLatencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      clock.now += job.gap;
      const t0 = performance.now();
      let source: string | undefined;
      try {
        source = ((await job.call(api)) as { source?: string }).source;
      } catch {
        errors++; // not-found typos are expected errors; they still count as served
      }
      const ms = performance.now() - t0;
      latencies.push(ms);
      if (source === 'cache') hitLatencies.push(ms);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const cpuMs = cpuMsSince(cpu);
  await api.close();
  latencies.sort((a, b) => a - b);
  hitLatencies.sort((a, b) => a - b);
  const upstream = api.stats.upstreamRequests;
  return {
    upstream,
    hitRatio: 1 - upstream / jobs.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    hitP50: percentile(hitLatencies, 50),
    hitP99: percentile(hitLatencies, 99),
    errors,
    seconds: (performance.now() - started) / 1000,
    cpuMs,
  };
}

/**
 * The cost of one cache hit, isolated: `HIT_ROUNDS` sequential hits of one key on a warm cache (no
 * upstream request, no concurrency), in microseconds of wall time and of process CPU per hit.
 */
const HIT_ROUNDS = Number(process.env.BENCH_HIT_ROUNDS ?? 2_000);
async function hitCost(makeCache: () => ResponseCache, call: Call): Promise<{ wallUs: number; cpuUs: number }> {
  const api = new RivalsApi({ baseUrl: replica.url, apiKey: 'bench-key', cache: makeCache() });
  await call(api);
  for (let i = 0; i < 200; i++) await call(api); // warm the JIT
  const upstream = api.stats.upstreamRequests;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < HIT_ROUNDS; i++) await call(api);
  const wallUs = ((performance.now() - t0) * 1000) / HIT_ROUNDS;
  const cpuUs = (cpuMsSince(cpu) * 1000) / HIT_ROUNDS;
  if (api.stats.upstreamRequests !== upstream) throw new Error('hit-cost rounds reached upstream: not a warm cache');
  await api.close();
  return { wallUs, cpuUs };
}

process.stdout.write(
  `bench:api: ${REQUESTS} Zipf lookups over ${shuffled.length} keys, ${CONCURRENCY} concurrent, replica latency 50-300 ms, simulated span ${((REQUESTS * GAP_MS) / 60_000).toFixed(0)} min\n`,
);
const uncached = await run();
const former = await run(keyvJsonCache);
const before = new Map(replica.requests.byPath);
const cached = await run(memoryCache);
const after = new Map(replica.requests.byPath);

// Per-hit cost on representative keys: the largest sample profile, the full hero list, a match, a leaderboard.
const sizeOf = async (call: Call) => {
  const api = new RivalsApi({ baseUrl: replica.url, apiKey: 'bench-key' });
  const size = JSON.stringify(((await call(api)) as { data: unknown }).data).length;
  await api.close();
  return size;
};
const profileSizes = await Promise.all(players.map((p) => sizeOf((a) => a.player(p))));
const largest = players[profileSizes.indexOf(Math.max(...profileSizes))]!;
const hitCalls: [string, Call][] = [
  ['player profile', (a) => a.player(largest)],
  ['hero list', (a) => a.heroes()],
  ['match', (a) => a.match(matches[0]!)],
  ['leaderboard', (a) => a.heroLeaderboard(heroes[0]!, { platform: 'pc' })],
];
type Cost = { wallUs: number; cpuUs: number };
const hitRows: { name: string; kb: number; former: Cost; memory: Cost }[] = [];
for (const [name, call] of hitCalls) {
  hitRows.push({ name, kb: (await sizeOf(call)) / 1024, former: await hitCost(() => keyvJsonCache(), call), memory: await hitCost(() => memoryCache(), call) });
}
await replica.close();

/** The cached run's upstream requests by endpoint kind (path with its ids replaced). */
const byKind = new Map<string, number>();
for (const [path, n] of after) {
  const kind = path.replace(/^\/api\/(v\d)\/heroes\/hero\/[^/]+/, '/api/$1/heroes/hero/:q').replace(/\/(leaderboard|player|match)\/[^/]+/, '/$1/:q');
  byKind.set(kind, (byKind.get(kind) ?? 0) + n - (before.get(path) ?? 0));
}

const rows: [string, (r: Result) => string][] = [
  ['upstream requests', (r) => String(r.upstream)],
  ['hit ratio', (r) => `${(r.hitRatio * 100).toFixed(1)} %`],
  ['p50 latency', (r) => `${r.p50.toFixed(1)} ms`],
  ['p99 latency', (r) => `${r.p99.toFixed(1)} ms`],
  ['hit p50 latency', (r) => (Number.isNaN(r.hitP50) ? '-' : `${r.hitP50.toFixed(2)} ms`)],
  ['hit p99 latency', (r) => (Number.isNaN(r.hitP99) ? '-' : `${r.hitP99.toFixed(2)} ms`)],
  ['not-found answers', (r) => String(r.errors)],
  ['wall time', (r) => `${r.seconds.toFixed(1)} s`],
  ['CPU time', (r) => `${(r.cpuMs / 1000).toFixed(2)} s`],
];
const pad = (s: string, n: number) => s.padEnd(n);
process.stdout.write(`\n${pad('', 20)}${pad('uncached', 14)}${pad('keyv + JSON', 14)}memory objects\n`);
for (const [name, f] of rows) process.stdout.write(`${pad(name, 20)}${pad(f(uncached), 14)}${pad(f(former), 14)}${f(cached)}\n`);
const ratio = cached.upstream / uncached.upstream;
process.stdout.write('\nmemory-objects run, upstream requests by endpoint:\n');
for (const [kind, n] of [...byKind].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${String(n).padStart(5)}  ${kind}\n`);
process.stdout.write(`\ncached upstream requests are ${(ratio * 100).toFixed(1)} % of uncached (goal: at most 10 %)\n`);
process.stdout.write(`\none cache hit, ${HIT_ROUNDS} sequential hits of one key on a warm cache, per hit (wall / CPU):\n`);
process.stdout.write(`  ${pad('', 16)}${pad('JSON size', 12)}${pad('keyv + JSON', 24)}memory objects\n`);
const us = (c: Cost) => `${c.wallUs.toFixed(1)} / ${c.cpuUs.toFixed(1)} µs`;
for (const { name, kb, former: f, memory: m } of hitRows)
  process.stdout.write(`  ${pad(name, 16)}${pad(`${kb.toFixed(0)} KB`, 12)}${pad(us(f), 24)}${us(m)}\n`);
